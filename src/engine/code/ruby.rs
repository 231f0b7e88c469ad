//! Ruby: the effects of a snippet, read with tree-sitter-ruby.
//!
//! Calls are looked up by receiver: `Kernel` (no receiver: `system`, `exec`, `spawn`,
//! `open`, backticks and `%x()`), `File`, `IO`, `FileUtils`, `Dir`, `Pathname`, `ENV`,
//! `Open3`, the network classes, and the plain ones (`JSON`, `Math`, `Time` …). `eval`,
//! `send`, `instance_eval`, `require` of a library not listed or of project code, and any
//! call not known are opaque. Method calls on other values compute only, except those that
//! change files whatever object has them (`rmtree`, `unlink` …).

use super::V;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{env_value, named_children, text, Effect, Judged, Lang, Text};

/// Kernel methods that compute or print.
const KERNEL: &[&str] = &[
    "puts",
    "print",
    "p",
    "pp",
    "printf",
    "format",
    "sprintf",
    "exit",
    "exit!",
    "abort",
    "sleep",
    "rand",
    "srand",
    "loop",
    "lambda",
    "proc",
    "raise",
    "fail",
    "catch",
    "throw",
    "gets",
    "Integer",
    "Float",
    "String",
    "Array",
    "Hash",
    "Rational",
    "Complex",
    "at_exit",
    "warn",
    "block_given?",
    "freeze",
    "frozen?",
    "caller",
    "putc",
    "readline",
    "readlines",
    "chomp",
    "attr_accessor",
    "attr_reader",
    "attr_writer",
    "include",
    "extend",
    "private",
    "public",
    "protected",
    "module_function",
    "require",
    "__dir__",
    "__method__",
    "URI",
    "binding?",
];

/// Constants whose methods only compute.
const PURE: &[&str] = &[
    "JSON",
    "Math",
    "Time",
    "Date",
    "DateTime",
    "Set",
    "Struct",
    "Comparable",
    "Enumerable",
    "Integer",
    "Float",
    "String",
    "Array",
    "Hash",
    "Symbol",
    "Regexp",
    "Range",
    "Rational",
    "Complex",
    "Digest",
    "SecureRandom",
    "Base64",
    "Shellwords",
    "OpenStruct",
    "StringIO",
    "CSV",
    "YAML",
    "Psych",
    "ERB",
    "Benchmark",
    "BigDecimal",
    "RUBY_VERSION",
    "RUBY_PLATFORM",
    "ARGV",
    "STDOUT",
    "STDERR",
    "STDIN",
    "ARGF",
    "Etc",
    "StringScanner",
    "Logger",
    "PP",
    "NilClass",
    "TrueClass",
    "FalseClass",
    "Object",
    "Kernel",
    "Process",
    "RUBY_ENGINE",
    "RUBY_PATCHLEVEL",
    "RUBY_RELEASE_DATE",
    "Errno",
    "StandardError",
    "RuntimeError",
    "ArgumentError",
    "Encoding",
];

/// Names that run strings or reach code by name.
const DYNAMIC: &[&str] = &[
    "eval",
    "instance_eval",
    "instance_exec",
    "class_eval",
    "module_eval",
    "class_exec",
    "send",
    "public_send",
    "__send__",
    "define_method",
    "method",
    "const_get",
    "binding",
    "load",
    "require_relative",
    "autoload",
    "instance_variable_get",
    "instance_variable_set",
    "remove_const",
    "const_set",
    "method_missing",
    "trap",
    "syscall",
    "fork",
];

const NETWORK: &[&str] = &[
    "Net",
    "TCPSocket",
    "UDPSocket",
    "Socket",
    "URI",
    "OpenURI",
    "Resolv",
];

/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    let mut out = Judged::default();
    let tree = match super::parse(tree_sitter_ruby::LANGUAGE.into(), src, Lang::Ruby) {
        Ok(t) => t,
        Err(e) => {
            out.opaque(e);
            return out;
        }
    };
    let mut w = Walker {
        src,
        out,
        assigned: HashMap::new(),
        local: HashSet::new(),
        depth: 0,
    };
    let root = tree.root_node();
    w.collect(root);
    w.walk(root);
    w.out
}

struct Walker<'t> {
    src: &'t str,
    out: Judged,
    assigned: HashMap<String, Vec<Option<Node<'t>>>>,
    /// Methods and classes the snippet defines.
    local: HashSet<String>,
    depth: usize,
}

impl<'t> Walker<'t> {
    fn t(&self, n: Node) -> &'t str {
        text(self.src, n)
    }

    fn unknown_binding(&mut self, n: Node<'t>) {
        if n.kind() == "identifier" {
            let name = self.t(n).to_string();
            let e = self.assigned.entry(name).or_default();
            e.push(None);
            e.push(None);
            return;
        }
        for c in named_children(n) {
            self.unknown_binding(c);
        }
    }

    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "assignment" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if l.kind() == "identifier" {
                        let name = self.t(l).to_string();
                        let r = n.child_by_field_name("right");
                        self.assigned.entry(name).or_default().push(r);
                    } else {
                        self.unknown_binding(l);
                    }
                }
            }
            "operator_assignment" => {
                if let Some(l) = n.child_by_field_name("left") {
                    self.unknown_binding(l);
                }
            }
            "method" | "singleton_method" | "class" | "module" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.local.insert(self.t(name).to_string());
                }
                if let Some(p) = n.child_by_field_name("parameters") {
                    self.unknown_binding(p);
                }
            }
            "block_parameters" | "lambda_parameters" => self.unknown_binding(n),
            "for" => {
                if let Some(p) = n.child_by_field_name("pattern") {
                    self.unknown_binding(p);
                }
            }
            "rescue" => {
                if let Some(v) = n.child_by_field_name("variable") {
                    self.unknown_binding(v);
                }
            }
            _ => {}
        }
        for c in named_children(n) {
            self.collect(c);
        }
    }

    /// The constant path a receiver names (`FileUtils`, `Net::HTTP`).
    fn constant(&self, n: Node) -> Option<String> {
        match n.kind() {
            "constant" => Some(self.t(n).to_string()),
            "scope_resolution" => {
                let name = n.child_by_field_name("name")?;
                match n.child_by_field_name("scope") {
                    Some(s) => Some(format!("{}::{}", self.constant(s)?, self.t(name))),
                    None => Some(self.t(name).to_string()),
                }
            }
            _ => None,
        }
    }

    fn args(&self, call: Node<'t>) -> (Vec<Node<'t>>, Vec<(String, Node<'t>)>, bool) {
        let mut pos = Vec::new();
        let mut kw = Vec::new();
        let mut splat = false;
        if let Some(a) = call.child_by_field_name("arguments") {
            for c in named_children(a) {
                match c.kind() {
                    "pair" => {
                        if let (Some(k), Some(v)) =
                            (c.child_by_field_name("key"), c.child_by_field_name("value"))
                        {
                            let key = self.t(k).trim_end_matches(':').trim_start_matches(':');
                            kw.push((key.to_string(), v));
                        }
                    }
                    "splat_argument" | "hash_splat_argument" | "block_argument" => splat = true,
                    "comment" => {}
                    _ => pos.push(c),
                }
            }
        }
        (pos, kw, splat)
    }

    // -----------------------------------------------------------------------------------
    // Values.

    fn eval(&mut self, n: Node<'t>) -> V {
        if self.depth > 24 || !self.out.step() {
            return V::Other;
        }
        self.depth += 1;
        let v = self.eval_inner(n);
        self.depth -= 1;
        v
    }

    fn string(&mut self, n: Node<'t>) -> Text {
        let raw = self.t(n);
        let single = raw.starts_with('\'') || raw.starts_with("%q");
        let mut t = Text::default();
        for c in named_children(n) {
            match c.kind() {
                "string_content" => {
                    let s = self.t(c);
                    t = t.concat(if single {
                        Text::lit(s.replace("\\'", "'").replace("\\\\", "\\"))
                    } else {
                        Text::lit(s)
                    });
                }
                "escape_sequence" => {
                    t = t.concat(match super::unescape(self.t(c)) {
                        Some(s) => Text::lit(s),
                        None => Text::unknown(),
                    })
                }
                "interpolation" => {
                    let v = match named_children(c).as_slice() {
                        [one] => self.eval(*one).text(),
                        _ => Text::unknown(),
                    };
                    t = t.concat(v);
                }
                _ => t = t.concat(Text::unknown()),
            }
        }
        if t.0.is_empty() {
            t = Text::lit("");
        }
        t
    }

    fn eval_inner(&mut self, n: Node<'t>) -> V {
        match n.kind() {
            "string" => V::Str(self.string(n)),
            "parenthesized_statements" => match named_children(n).as_slice() {
                [one] => self.eval(*one),
                _ => V::Other,
            },
            "identifier" => {
                let name = self.t(n).to_string();
                if name == "__dir__" {
                    return V::Str(Text::lit("."));
                }
                match self.assigned.get(&name).map(|v| v.as_slice()) {
                    Some([Some(v)]) => {
                        let v = *v;
                        self.eval(v)
                    }
                    _ => V::Other,
                }
            }
            "array" => V::List(
                named_children(n)
                    .into_iter()
                    .map(|c| self.eval(c))
                    .collect(),
            ),
            "binary" => {
                let (Some(l), Some(r), Some(op)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                    n.child_by_field_name("operator"),
                ) else {
                    return V::Other;
                };
                match (self.t(op), self.eval(l)) {
                    ("+", V::Str(a)) => V::Str(a.concat(self.eval(r).text())),
                    ("/" | "+", V::Path(a)) => V::Path(a.join(self.eval(r).text())),
                    _ => V::Other,
                }
            }
            "element_reference" => {
                let obj = n.child_by_field_name("object");
                if obj.and_then(|o| self.constant(o)).as_deref() == Some("ENV") {
                    let key = named_children(n).into_iter().nth(1);
                    return V::Str(match key.map(|k| self.eval(k).text().known()) {
                        Some(Some(name)) => env_value(&name, &mut self.out),
                        _ => Text::unknown(),
                    });
                }
                V::Other
            }
            "call" => {
                let recv = n.child_by_field_name("receiver");
                let method = n
                    .child_by_field_name("method")
                    .map(|m| self.t(m))
                    .unwrap_or("");
                let (pos, _, _) = self.args(n);
                let arg = |w: &mut Walker<'t>, i: usize| {
                    pos.get(i)
                        .map(|a| w.eval(*a).text())
                        .unwrap_or_else(Text::unknown)
                };
                let c = recv.and_then(|r| self.constant(r));
                match (c.as_deref(), method) {
                    (Some("Dir"), "home") => V::Str(Text::home()),
                    (Some("Dir"), "pwd" | "getwd") => V::Str(Text::lit(".")),
                    (Some("Dir"), "tmpdir") => V::Str(Text::lit("/tmp")),
                    (Some("File"), "join") => {
                        let mut t = Text::default();
                        for i in 0..pos.len() {
                            let a = arg(self, i);
                            t = t.join(a);
                        }
                        V::Str(t)
                    }
                    (Some("File"), "expand_path" | "absolute_path" | "realpath") => {
                        let a = arg(self, 0);
                        if pos.len() > 1 {
                            let base = arg(self, 1);
                            V::Str(base.join(a))
                        } else {
                            V::Str(a)
                        }
                    }
                    (Some("File"), "dirname") => V::Str(arg(self, 0).parent()),
                    (Some("Pathname"), "new") => V::Path(arg(self, 0)),
                    (Some("Pathname"), "pwd" | "getwd") => V::Path(Text::lit(".")),
                    (Some("ENV"), "fetch") => V::Str(match arg(self, 0).known() {
                        Some(name) => env_value(&name, &mut self.out),
                        None => Text::unknown(),
                    }),
                    (None, "to_s" | "to_str" | "expand_path" | "realpath" | "to_path") => {
                        match recv.map(|r| self.eval(r)) {
                            Some(V::Path(p)) => {
                                if method == "to_s" || method == "to_path" {
                                    V::Str(p)
                                } else {
                                    V::Path(p)
                                }
                            }
                            Some(V::Str(s)) => V::Str(s),
                            _ => V::Other,
                        }
                    }
                    (None, "join") => match recv.map(|r| self.eval(r)) {
                        Some(V::Path(p)) => {
                            let mut p = p;
                            for i in 0..pos.len() {
                                let a = arg(self, i);
                                p = p.join(a);
                            }
                            V::Path(p)
                        }
                        _ => V::Other,
                    },
                    (None, "parent" | "dirname") => match recv.map(|r| self.eval(r)) {
                        Some(V::Path(p)) => V::Path(p.parent()),
                        _ => V::Other,
                    },
                    _ => V::Other,
                }
            }
            _ => V::Other,
        }
    }

    // -----------------------------------------------------------------------------------
    // The walk.

    fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "comment" => {}
            "subshell" => {
                let cmd = self.string(n);
                self.out.push(Effect::Shell(cmd));
                self.children(n);
            }
            "call" => self.call(n),
            "identifier" => self.bare(n),
            "constant" | "scope_resolution" => {
                if let Some(c) = self.constant(n) {
                    self.constant_value(&c, n);
                }
            }
            "element_reference" => {
                let obj = n.child_by_field_name("object");
                if obj.and_then(|o| self.constant(o)).as_deref() == Some("ENV") {
                    self.eval(n);
                    if n.parent().is_some_and(|p| {
                        matches!(p.kind(), "assignment" | "operator_assignment")
                            && p.child_by_field_name("left")
                                .is_some_and(|l| l.id() == n.id())
                    }) {
                        self.out
                            .opaque("changes the environment of the programs it starts");
                    }
                    for c in named_children(n).into_iter().skip(1) {
                        self.walk(c);
                    }
                    return;
                }
                self.children(n);
            }
            "assignment" | "operator_assignment" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if l.kind() != "identifier" {
                        self.walk(l);
                    }
                }
                if let Some(r) = n.child_by_field_name("right") {
                    self.walk(r);
                }
            }
            "method" | "singleton_method" => {
                if let Some(b) = n.child_by_field_name("body") {
                    self.walk(b);
                }
                for c in named_children(n) {
                    if c.kind() == "body_statement" {
                        self.walk(c);
                    }
                }
            }
            "block_parameters" | "method_parameters" | "lambda_parameters" => {}
            "pair" => {
                if let Some(v) = n.child_by_field_name("value") {
                    self.walk(v);
                }
            }
            "heredoc_body" => {
                for c in named_children(n) {
                    if c.kind() == "interpolation" {
                        self.walk(c);
                    }
                }
            }
            _ => self.children(n),
        }
    }

    fn children(&mut self, n: Node<'t>) {
        for c in named_children(n) {
            self.walk(c);
        }
    }

    /// A bare name: a local variable, or a method of `Kernel` or of the snippet.
    fn bare(&mut self, n: Node<'t>) {
        let name = self.t(n);
        if self.assigned.contains_key(name) || self.local.contains(name) {
            return;
        }
        // Parameters of blocks and methods are bound in `collect`.
        if DYNAMIC.contains(&name) {
            self.out
                .opaque(format!("uses `{name}`, which reaches code by name"));
        } else if !KERNEL.contains(&name) {
            self.out
                .opaque(format!("calls `{name}`, which is not known"));
        }
    }

    fn constant_value(&mut self, c: &str, n: Node<'t>) {
        let top = c.split("::").next().unwrap_or(c);
        if c == "ENV" {
            let parent = n.parent();
            let receiver_of = parent.is_some_and(|p| {
                p.kind() == "call"
                    && p.child_by_field_name("receiver")
                        .is_some_and(|r| r.id() == n.id())
            });
            if !receiver_of {
                self.out
                    .push(Effect::EnvDump("uses the whole environment (`ENV`)".into()));
            }
            return;
        }
        let receiver_of = n.parent().is_some_and(|p| {
            (p.kind() == "call"
                && p.child_by_field_name("receiver")
                    .is_some_and(|r| r.id() == n.id()))
                || p.kind() == "scope_resolution"
        });
        if receiver_of || PURE.contains(&top) || self.local.contains(top) {
            return;
        }
        if matches!(
            top,
            "File" | "FileUtils" | "Dir" | "IO" | "Pathname" | "Open3"
        ) {
            self.out.opaque(format!("passes `{c}` on as a value"));
        } else if NETWORK.contains(&top) {
            self.out.push(Effect::Network(c.to_string()));
        } else if top
            .chars()
            .all(|ch| ch.is_ascii_uppercase() || ch == '_' || ch.is_ascii_digit())
        {
            // A constant value (`FOO = 1` is a constant too).
        } else {
            self.out.opaque(format!("uses `{c}`, which is not known"));
        }
    }

    fn call(&mut self, n: Node<'t>) {
        let recv = n.child_by_field_name("receiver");
        let method = n
            .child_by_field_name("method")
            .map(|m| self.t(m))
            .unwrap_or("");
        let (pos, kw, splat) = self.args(n);
        for a in pos.iter().chain(kw.iter().map(|(_, v)| v)) {
            self.walk(*a);
        }
        if let Some(b) = n.child_by_field_name("block") {
            self.walk(b);
        }
        if DYNAMIC.contains(&method) {
            self.out
                .opaque(format!("runs or reaches code by name (`{method}`)"));
            return;
        }
        let Some(r) = recv else {
            self.kernel(method, &pos, splat);
            return;
        };
        if let Some(c) = self.constant(r) {
            self.class_call(&c, method, &pos, splat);
            return;
        }
        self.walk(r);
        let v = self.eval(r);
        let path = match v {
            V::Path(p) => Some(p),
            _ => None,
        };
        let on = |p: &Option<Text>| p.clone().unwrap_or_else(Text::unknown);
        match method {
            "rmtree" => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: true,
            }),
            "unlink" | "rmdir" => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: false,
            }),
            "delete" if path.is_some() => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: false,
            }),
            "mkpath" | "make_symlink" | "make_link" | "chmod" | "chown" | "truncate" => {
                self.out.push(Effect::Write(on(&path)))
            }
            "write" | "binwrite" | "mkdir" | "rename" | "open" if path.is_some() => {
                self.out.push(Effect::Write(on(&path)))
            }
            "read" | "binread" | "readlines" | "each_line" if path.is_some() => {
                self.out.push(Effect::Read(on(&path)))
            }
            _ => {}
        }
    }

    fn argv(&mut self, pos: &[Node<'t>], splat: bool) -> Option<Vec<Text>> {
        let mut argv: Vec<Text> = pos
            .iter()
            .filter(|a| a.kind() != "hash")
            .map(|a| self.eval(*a).text())
            .collect();
        if splat {
            argv.push(Text::unknown());
        }
        (!argv.is_empty()).then_some(argv)
    }

    /// `system "cmd"` runs a shell; `system "prog", "arg"` runs the program directly.
    fn run(&mut self, pos: &[Node<'t>], splat: bool) {
        let args: Vec<Node<'t>> = pos.iter().copied().filter(|a| a.kind() != "hash").collect();
        // A leading hash is the environment.
        if pos.first().is_some_and(|a| a.kind() == "hash") {
            self.out
                .opaque("starts a program with a changed environment");
        }
        match self.argv(&args, splat) {
            Some(argv) if argv.len() == 1 && !splat => {
                let cmd = argv.into_iter().next().unwrap_or_else(Text::unknown);
                self.out.push(Effect::Shell(cmd));
            }
            Some(argv) => self.out.push(Effect::Exec(argv)),
            None => self.out.opaque("starts a program not named here"),
        }
    }

    fn kernel(&mut self, method: &str, pos: &[Node<'t>], splat: bool) {
        if self.local.contains(method) {
            return;
        }
        match method {
            "system" | "exec" | "spawn" => self.run(pos, splat),
            "open" => {
                let p = pos
                    .first()
                    .map(|a| self.eval(*a).text())
                    .unwrap_or_else(Text::unknown);
                match p.0.first() {
                    Some(super::Part::Lit(s)) if s.starts_with('|') => {
                        let cmd = Text(p.0.clone());
                        let cmd = match cmd.known() {
                            Some(c) => Text::lit(c.trim_start_matches('|')),
                            None => Text::unknown(),
                        };
                        self.out.push(Effect::Shell(cmd));
                    }
                    Some(super::Part::Lit(s))
                        if s.starts_with("http://") || s.starts_with("https://") =>
                    {
                        self.out.push(Effect::Network(s.clone()));
                    }
                    Some(super::Part::Lit(_)) => self.open_mode(p, pos.get(1).copied()),
                    _ => self.out.opaque("opens a file or command named at run time"),
                }
            }
            "require" => {
                let lib = pos.first().map(|a| self.eval(*a).text().known());
                match lib {
                    Some(Some(l)) if super::cli::ruby_lib(&l) => {}
                    Some(Some(l)) => self
                        .out
                        .opaque(format!("loads `{l}`, whose code is not known")),
                    _ => self.out.opaque("loads a library named at run time"),
                }
            }
            _ if KERNEL.contains(&method) => {}
            _ => self
                .out
                .opaque(format!("calls `{method}`, which is not known")),
        }
    }

    fn open_mode(&mut self, p: Text, mode: Option<Node<'t>>) {
        let mode = match mode {
            None => Some("r".to_string()),
            Some(m) => self.eval(m).text().known(),
        };
        match mode {
            Some(m) if !m.contains(['w', 'a', '+']) => self.out.push(Effect::Read(p)),
            _ => self.out.push(Effect::Write(p)),
        }
    }

    fn class_call(&mut self, c: &str, method: &str, pos: &[Node<'t>], splat: bool) {
        let arg = |w: &mut Walker<'t>, i: usize| {
            pos.get(i)
                .map(|a| w.eval(*a).text())
                .unwrap_or_else(Text::unknown)
        };
        // The files named by all arguments (or all but the first, for `chmod MODE, *files`).
        let all = |w: &mut Walker<'t>, from: usize| -> Vec<Text> {
            let mut v = Vec::new();
            for a in pos.iter().skip(from) {
                match w.eval(*a) {
                    V::List(items) => v.extend(items.iter().map(V::text)),
                    x => v.push(x.text()),
                }
            }
            if splat || v.is_empty() {
                v.push(Text::unknown());
            }
            v
        };
        let top = c.split("::").next().unwrap_or(c);
        match (c, method) {
            ("File" | "IO", "read" | "readlines" | "foreach" | "binread" | "readlink")
            | ("YAML" | "Psych" | "JSON", "load_file" | "safe_load_file" | "parse_file")
            | ("CSV", "read" | "foreach" | "table" | "parse_file") => {
                let p = arg(self, 0);
                if c == "IO" && p.known().is_some_and(|s| s.starts_with('|')) {
                    self.out.push(Effect::Shell(Text::lit(
                        p.known().unwrap_or_default().trim_start_matches('|'),
                    )));
                } else {
                    self.out.push(Effect::Read(p));
                }
            }
            ("File" | "IO", "write" | "binwrite") => {
                let p = arg(self, 0);
                self.out.push(Effect::Write(p));
            }
            ("File", "open" | "new") => {
                let p = arg(self, 0);
                self.open_mode(p, pos.get(1).copied());
            }
            ("File", "delete" | "unlink")
            | ("FileUtils", "rm" | "rm_f" | "remove" | "safe_unlink")
            | ("Dir", "rmdir" | "delete" | "unlink")
            | ("FileUtils", "rmdir") => {
                for p in all(self, 0) {
                    self.out.push(Effect::Delete {
                        path: p,
                        recursive: false,
                    });
                }
            }
            (
                "FileUtils",
                "rm_rf"
                | "rm_r"
                | "rmtree"
                | "remove_dir"
                | "remove_entry"
                | "remove_entry_secure"
                | "remove_dir_secure",
            ) => {
                for p in all(self, 0) {
                    self.out.push(Effect::Delete {
                        path: p,
                        recursive: true,
                    });
                }
            }
            ("File", "rename") | ("FileUtils", "mv" | "move") => {
                let (s, d) = (arg(self, 0), arg(self, 1));
                self.out.push(Effect::Write(s));
                self.out.push(Effect::Write(d));
            }
            (
                "FileUtils",
                "cp" | "copy" | "cp_r" | "install" | "copy_file" | "copy_entry" | "cp_lr",
            ) => {
                let (s, d) = (arg(self, 0), arg(self, 1));
                self.out.push(Effect::Read(s));
                self.out.push(Effect::Write(d));
            }
            ("File", "symlink" | "link")
            | ("FileUtils", "ln" | "ln_s" | "ln_sf" | "link" | "symlink") => {
                let d = arg(self, 1);
                self.out.push(Effect::Write(d));
            }
            ("File", "chmod" | "chown" | "lchmod" | "lchown" | "utime")
            | ("FileUtils", "chmod" | "chmod_R") => {
                for p in all(self, 1) {
                    self.out.push(Effect::Write(p));
                }
            }
            ("FileUtils", "chown" | "chown_R") => {
                for p in all(self, 2) {
                    self.out.push(Effect::Write(p));
                }
            }
            ("File", "truncate")
            | ("Dir", "mkdir")
            | ("FileUtils", "mkdir" | "mkdir_p" | "makedirs" | "mkpath" | "touch") => {
                for p in all(self, 0) {
                    self.out.push(Effect::Write(p));
                }
            }
            ("Dir", "chdir") | ("FileUtils", "cd" | "chdir") => {
                self.out.opaque("changes the working folder")
            }
            ("File" | "Dir" | "FileUtils" | "Pathname", _)
                if matches!(
                    method,
                    "exist?"
                        | "exists?"
                        | "file?"
                        | "directory?"
                        | "size"
                        | "size?"
                        | "basename"
                        | "dirname"
                        | "extname"
                        | "join"
                        | "expand_path"
                        | "absolute_path"
                        | "realpath"
                        | "mtime"
                        | "atime"
                        | "ctime"
                        | "stat"
                        | "lstat"
                        | "readable?"
                        | "writable?"
                        | "executable?"
                        | "zero?"
                        | "empty?"
                        | "symlink?"
                        | "split"
                        | "fnmatch"
                        | "fnmatch?"
                        | "home"
                        | "pwd"
                        | "getwd"
                        | "glob"
                        | "[]"
                        | "entries"
                        | "children"
                        | "each_child"
                        | "tmpdir"
                        | "new"
                        | "ftype"
                        | "identical?"
                        | "absolute_path?"
                        | "path"
                        | "compare_file"
                        | "uptodate?"
                ) => {}
            (
                "Open3",
                "capture2" | "capture2e" | "capture3" | "popen3" | "popen2" | "popen2e"
                | "pipeline",
            )
            | ("IO", "popen")
            | ("Process", "spawn")
            | ("Kernel", "system" | "exec" | "spawn") => self.run(pos, splat),
            ("ENV", "fetch" | "[]" | "key?" | "has_key?" | "include?") => {
                if let Some(k) = arg(self, 0).known() {
                    env_value(&k, &mut self.out);
                }
            }
            ("ENV", _) => self.out.push(Effect::EnvDump(format!(
                "uses the whole environment (`ENV.{method}`)"
            ))),
            ("Process", "kill") => {
                let pid = arg(self, 1);
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            ("Process", "pid" | "clock_gettime" | "exit" | "ppid" | "uid" | "euid") => {}
            ("Process", _) => self.out.opaque(format!("calls `Process.{method}`")),
            _ if NETWORK.contains(&top) => self.out.push(Effect::Network(format!("{c}.{method}"))),
            ("Kernel", m) => self.kernel(m, pos, splat),
            _ if PURE.contains(&top) || self.local.contains(top) => {}
            _ => self
                .out
                .opaque(format!("calls `{c}.{method}`, which is not known")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(src: &str) -> Vec<Effect> {
        analyze(src).effects
    }

    fn lit(s: &str) -> Text {
        Text::lit(s)
    }

    #[test]
    fn reads_and_prints() {
        assert_eq!(effects("puts RUBY_VERSION"), vec![]);
        assert_eq!(
            effects("require 'json'; puts JSON.parse(File.read('package.json'))['version']"),
            vec![Effect::Read(lit("package.json"))]
        );
        assert_eq!(effects("puts [1,2,3].map { |x| x * 2 }.sum"), vec![]);
    }

    #[test]
    fn commands_and_deletes() {
        assert!(effects("%x(rm -rf ~)").contains(&Effect::Shell(lit("rm -rf ~"))));
        assert!(effects("`rm -rf /`").contains(&Effect::Shell(lit("rm -rf /"))));
        assert!(
            effects("system('rm', '-rf', '/')").contains(&Effect::Exec(vec![
                lit("rm"),
                lit("-rf"),
                lit("/")
            ]))
        );
        let e = effects("require 'fileutils'; FileUtils.rm_rf(Dir.home)");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~"),
                recursive: true
            }),
            "{e:?}"
        );
        let e = effects("File.write(File.join(ENV['HOME'], '.bashrc'), 'x')");
        assert!(e.contains(&Effect::Write(lit("~/.bashrc"))), "{e:?}");
        let e = effects("File.open(\"#{Dir.home}/.ssh/authorized_keys\", 'a') { |f| f.puts 'k' }");
        assert!(
            e.contains(&Effect::Write(lit("~/.ssh/authorized_keys"))),
            "{e:?}"
        );
    }

    #[test]
    fn dynamic_is_opaque() {
        for src in [
            "eval('1')",
            "send(:system, 'ls')",
            "Object.const_get('File')",
            "require 'mylib'",
            "foo",
            "x = (",
        ] {
            assert!(analyze(src).is_opaque(), "{src}");
        }
        assert!(effects("p ENV.to_h")
            .iter()
            .any(|e| matches!(e, Effect::EnvDump(_))));
    }
}
