//! JavaScript (Node, Deno, Bun): the effects of a snippet, read with tree-sitter-javascript.
//!
//! Modules are followed from `require("x")` and `import`, whatever name they are bound to
//! (destructuring included); every call is looked up among the functions of the core
//! modules (`fs`, `child_process`, `os`, `path`, the network ones), the `process`, `Deno`
//! and `Bun` objects and the plain globals (`console`, `JSON`, `Math` …). Method calls on
//! other values compute only. `eval`, `Function`, `vm`, dynamic `import()`, a `require` of
//! project code or of a name computed at run time, a module used as a value, and calls of
//! anything not known are opaque.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{env_value, named_children, text, Effect, Judged, Lang, Text};

/// Core modules whose functions only compute.
const PURE: &[&str] = &[
    "path",
    "util",
    "url",
    "querystring",
    "crypto",
    "assert",
    "events",
    "buffer",
    "string_decoder",
    "zlib",
    "stream",
    "readline",
    "timers",
    "perf_hooks",
    "os",
    "timers/promises",
    "stream/promises",
    "node:test",
    "punycode",
];

/// Core modules that talk to the network.
const NETWORK: &[&str] = &["http", "https", "http2", "net", "tls", "dgram", "dns"];

/// Globals whose members only compute or print.
const GLOBALS: &[&str] = &[
    "console",
    "JSON",
    "Math",
    "Object",
    "Array",
    "Number",
    "String",
    "Boolean",
    "Date",
    "RegExp",
    "Promise",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "Symbol",
    "BigInt",
    "Intl",
    "Buffer",
    "Error",
    "TypeError",
    "RangeError",
    "SyntaxError",
    "URL",
    "URLSearchParams",
    "TextEncoder",
    "TextDecoder",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "encodeURIComponent",
    "decodeURIComponent",
    "encodeURI",
    "decodeURI",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "clearInterval",
    "setImmediate",
    "queueMicrotask",
    "structuredClone",
    "atob",
    "btoa",
    "Uint8Array",
    "Int32Array",
    "Float64Array",
    "ArrayBuffer",
    "DataView",
    "AbortController",
    "performance",
    "Infinity",
    "NaN",
    "undefined",
    "__dirname",
    "__filename",
    "require",
    "module",
    "exports",
    "arguments",
];

/// Names that reach code by name or run strings: opaque wherever they appear.
const DYNAMIC: &[&str] = &[
    "eval",
    "Function",
    "globalThis",
    "global",
    "Reflect",
    "Proxy",
    "WebAssembly",
];

#[derive(Debug, Clone)]
enum V {
    Str(Text),
    List(Vec<V>),
    /// An object literal: the values of its plain keys.
    Obj(Vec<(String, V)>),
    Bool(bool),
    Other,
}

impl V {
    fn text(&self) -> Text {
        match self {
            V::Str(t) => t.clone(),
            _ => Text::unknown(),
        }
    }
    fn field(&self, k: &str) -> Option<&V> {
        match self {
            V::Obj(fields) => fields.iter().find(|(n, _)| n == k).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    let mut out = Judged::default();
    let tree = match super::parse(
        tree_sitter_javascript::LANGUAGE.into(),
        src,
        Lang::JavaScript,
    ) {
        Ok(t) => t,
        Err(e) => {
            out.opaque(e);
            return out;
        }
    };
    let mut w = Walker {
        src,
        out,
        bound: HashMap::new(),
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
    /// Local name → the module or member it is bound to (`cp` → "child_process",
    /// `execSync` → "child_process.execSync").
    bound: HashMap<String, String>,
    /// Name → the values given to it (one value known: its value).
    assigned: HashMap<String, Vec<Option<Node<'t>>>>,
    /// Functions, classes and parameters of the snippet.
    local: HashSet<String>,
    depth: usize,
}

/// The module a `require`/`import` source names (`node:fs` is `fs`).
fn module_name(s: &str) -> &str {
    s.strip_prefix("node:").unwrap_or(s)
}

fn in_list(q: &str, list: &[&str]) -> bool {
    list.iter()
        .any(|m| q == *m || q.starts_with(&format!("{m}.")))
}

impl<'t> Walker<'t> {
    fn t(&self, n: Node) -> &'t str {
        text(self.src, n)
    }

    fn assign(&mut self, name: &str, v: Option<Node<'t>>) {
        self.assigned.entry(name.to_string()).or_default().push(v);
    }

    /// The module a `require("x")` call (or `require("x").y`) names.
    fn required(&mut self, n: Node<'t>) -> Option<String> {
        match n.kind() {
            "call_expression" => {
                let f = n.child_by_field_name("function")?;
                if self.t(f) != "require" {
                    return None;
                }
                let args = self.args(n);
                let m = self.eval(*args.first()?).text().known()?;
                Some(module_name(&m).to_string())
            }
            "member_expression" => {
                let base = self.required(n.child_by_field_name("object")?)?;
                let p = n.child_by_field_name("property")?;
                Some(format!("{base}.{}", self.t(p)))
            }
            "await_expression" | "parenthesized_expression" => {
                self.required(*named_children(n).first()?)
            }
            _ => None,
        }
    }

    fn bind_pattern(&mut self, pattern: Node<'t>, module: Option<&str>) {
        match pattern.kind() {
            "identifier" => {
                let name = self.t(pattern).to_string();
                match module {
                    Some(m) => {
                        self.bound.insert(name, m.to_string());
                    }
                    None => {
                        self.assign(&name, None);
                        self.assign(&name, None);
                    }
                }
            }
            "object_pattern" => {
                for c in named_children(pattern) {
                    match c.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let name = self.t(c).to_string();
                            match module {
                                Some(m) => {
                                    self.bound.insert(name.clone(), format!("{m}.{name}"));
                                }
                                None => {
                                    self.assign(&name, None);
                                    self.assign(&name, None);
                                }
                            }
                        }
                        "pair_pattern" => {
                            let key = c.child_by_field_name("key").map(|k| self.t(k).to_string());
                            if let Some(v) = c.child_by_field_name("value") {
                                let m = match (module, key) {
                                    (Some(m), Some(k)) => Some(format!("{m}.{k}")),
                                    _ => None,
                                };
                                self.bind_pattern(v, m.as_deref());
                            }
                        }
                        _ => self.bind_pattern(c, None),
                    }
                }
            }
            _ => {
                for c in named_children(pattern) {
                    self.bind_pattern(c, None);
                }
            }
        }
    }

    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "variable_declarator" => {
                if let Some(name) = n.child_by_field_name("name") {
                    let value = n.child_by_field_name("value");
                    let module = value.and_then(|v| self.required(v));
                    if let Some(m) = module {
                        self.bind_pattern(name, Some(&m));
                    } else if name.kind() == "identifier" {
                        let nm = self.t(name).to_string();
                        if value.is_some_and(|v| {
                            matches!(
                                v.kind(),
                                "arrow_function" | "function_expression" | "function"
                            )
                        }) {
                            self.local.insert(nm.clone());
                        }
                        self.assign(&nm, value);
                    } else {
                        self.bind_pattern(name, None);
                    }
                }
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if l.kind() == "identifier" {
                        let nm = self.t(l).to_string();
                        self.assign(&nm, None);
                        self.assign(&nm, None);
                    }
                }
            }
            "import_statement" => {
                let source = n
                    .child_by_field_name("source")
                    .map(|s| self.eval(s).text().known().unwrap_or_default())
                    .unwrap_or_default();
                let m = module_name(&source).to_string();
                for clause in named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() == "import_clause")
                {
                    for c in named_children(clause) {
                        match c.kind() {
                            "identifier" => {
                                self.bound.insert(self.t(c).to_string(), m.clone());
                            }
                            "namespace_import" => {
                                if let Some(id) = named_children(c).first() {
                                    self.bound.insert(self.t(*id).to_string(), m.clone());
                                }
                            }
                            "named_imports" => {
                                for s in named_children(c) {
                                    let name = s.child_by_field_name("name").map(|x| self.t(x));
                                    let alias = s.child_by_field_name("alias").map(|x| self.t(x));
                                    if let Some(name) = name {
                                        let local = alias.unwrap_or(name);
                                        self.bound.insert(local.to_string(), format!("{m}.{name}"));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            "function_declaration"
            | "class_declaration"
            | "function_expression"
            | "generator_function_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.local.insert(self.t(name).to_string());
                }
                if let Some(p) = n.child_by_field_name("parameters") {
                    self.bind_pattern(p, None);
                }
            }
            "arrow_function" | "method_definition" => {
                if let Some(p) = n
                    .child_by_field_name("parameters")
                    .or_else(|| n.child_by_field_name("parameter"))
                {
                    self.bind_pattern(p, None);
                }
            }
            "catch_clause" => {
                if let Some(p) = n.child_by_field_name("parameter") {
                    self.bind_pattern(p, None);
                }
            }
            "for_in_statement" => {
                if let Some(l) = n.child_by_field_name("left") {
                    self.bind_pattern(l, None);
                }
            }
            _ => {}
        }
        for c in named_children(n) {
            self.collect(c);
        }
    }

    /// The full name an expression stands for: a module, a member of one, or a global.
    fn qualify(&self, n: Node) -> Option<String> {
        match n.kind() {
            "identifier" => {
                let name = self.t(n);
                if self.local.contains(name) || self.assigned.contains_key(name) {
                    return None;
                }
                if let Some(b) = self.bound.get(name) {
                    return Some(b.clone());
                }
                if matches!(
                    name,
                    "process" | "Deno" | "Bun" | "fetch" | "WebSocket" | "XMLHttpRequest"
                ) || GLOBALS.contains(&name)
                    || DYNAMIC.contains(&name)
                {
                    return Some(format!("global.{name}"));
                }
                None
            }
            "member_expression" => {
                let obj = n.child_by_field_name("object")?;
                let p = n.child_by_field_name("property")?;
                let base = self.qualify(obj)?;
                Some(format!("{base}.{}", self.t(p)))
            }
            "parenthesized_expression" => self.qualify(*named_children(n).first()?),
            "call_expression" => {
                // `require("fs").readFileSync`
                let f = n.child_by_field_name("function")?;
                if self.t(f) == "require" && !self.bound.contains_key("require") {
                    let args = n.child_by_field_name("arguments")?;
                    let first = named_children(args).into_iter().next()?;
                    if first.kind() == "string" {
                        let s = self.string_value(first)?;
                        if s.starts_with('.') || s.starts_with('/') {
                            return None;
                        }
                        return Some(module_name(&s).to_string());
                    }
                }
                None
            }
            _ => None,
        }
    }

    fn string_value(&self, n: Node) -> Option<String> {
        let raw = self.t(n);
        let inner = raw.get(1..raw.len().saturating_sub(1))?;
        super::unescape(inner)
    }

    fn args(&self, call: Node<'t>) -> Vec<Node<'t>> {
        match call.child_by_field_name("arguments") {
            Some(a) if a.kind() == "arguments" => named_children(a)
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .collect(),
            // A tagged template: the template is the argument.
            Some(a) => vec![a],
            None => Vec::new(),
        }
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

    fn eval_inner(&mut self, n: Node<'t>) -> V {
        match n.kind() {
            "string" => match self.string_value(n) {
                Some(s) => V::Str(Text::lit(s)),
                None => V::Str(Text::unknown()),
            },
            "template_string" => {
                let mut t = Text::default();
                let mut c = n.walk();
                let kids: Vec<Node> = n.children(&mut c).collect();
                for k in kids {
                    match k.kind() {
                        "string_fragment" => t = t.concat(Text::lit(self.t(k))),
                        "escape_sequence" => {
                            t = t.concat(match super::unescape(self.t(k)) {
                                Some(s) => Text::lit(s),
                                None => Text::unknown(),
                            })
                        }
                        "template_substitution" => {
                            let v = named_children(k)
                                .first()
                                .map(|e| self.eval(*e).text())
                                .unwrap_or_else(Text::unknown);
                            t = t.concat(v);
                        }
                        _ => {}
                    }
                }
                if t.0.is_empty() {
                    t = Text::lit("");
                }
                V::Str(t)
            }
            "true" => V::Bool(true),
            "false" => V::Bool(false),
            "parenthesized_expression" => named_children(n)
                .first()
                .map(|c| self.eval(*c))
                .unwrap_or(V::Other),
            "identifier" => {
                let name = self.t(n).to_string();
                if name == "__dirname" {
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
            "object" => {
                let mut fields = Vec::new();
                for p in named_children(n) {
                    if p.kind() == "pair" {
                        if let (Some(k), Some(v)) =
                            (p.child_by_field_name("key"), p.child_by_field_name("value"))
                        {
                            let key = match k.kind() {
                                "string" => self.string_value(k).unwrap_or_default(),
                                _ => self.t(k).to_string(),
                            };
                            let v = self.eval(v);
                            fields.push((key, v));
                        }
                    } else if p.kind() == "shorthand_property_identifier" {
                        fields.push((self.t(p).to_string(), V::Other));
                    } else {
                        fields.push(("...".into(), V::Other));
                    }
                }
                V::Obj(fields)
            }
            "binary_expression" => {
                let (Some(l), Some(r), Some(op)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                    n.child_by_field_name("operator"),
                ) else {
                    return V::Other;
                };
                if self.t(op) != "+" {
                    return V::Other;
                }
                match (self.eval(l), self.eval(r)) {
                    (V::Str(a), b) => V::Str(a.concat(b.text())),
                    (_, V::Str(b)) => V::Str(Text::unknown().concat(b)),
                    _ => V::Other,
                }
            }
            "member_expression" | "subscript_expression" => {
                let obj = n.child_by_field_name("object");
                let key = match n.kind() {
                    "member_expression" => n
                        .child_by_field_name("property")
                        .map(|p| Text::lit(self.t(p))),
                    _ => n.child_by_field_name("index").map(|i| self.eval(i).text()),
                };
                if let (Some(o), Some(k)) = (obj, key) {
                    let q = self.qualify(o);
                    if matches!(q.as_deref(), Some("global.process.env" | "global.Bun.env")) {
                        return V::Str(match k.known() {
                            Some(name) => env_value(&name, &mut self.out),
                            None => Text::unknown(),
                        });
                    }
                }
                V::Other
            }
            "call_expression" => {
                let Some(f) = n.child_by_field_name("function") else {
                    return V::Other;
                };
                let q = self.qualify(f);
                let args = self.args(n);
                let texts = |w: &mut Walker<'t>| -> Vec<Text> {
                    args.iter().map(|a| w.eval(*a).text()).collect()
                };
                match q.as_deref() {
                    Some("os.homedir") => V::Str(Text::home()),
                    Some("os.tmpdir") => V::Str(Text::lit("/tmp")),
                    Some("global.process.cwd" | "global.Deno.cwd") => V::Str(Text::lit(".")),
                    Some("path.join" | "path.resolve" | "path.posix.join") => {
                        let mut t = Text::default();
                        for a in texts(self) {
                            t = t.join(a);
                        }
                        V::Str(t)
                    }
                    Some("path.normalize") => {
                        V::Str(texts(self).into_iter().next().unwrap_or_else(Text::unknown))
                    }
                    Some("path.dirname") => V::Str(
                        texts(self)
                            .into_iter()
                            .next()
                            .map(|t| t.parent())
                            .unwrap_or_else(Text::unknown),
                    ),
                    Some("global.String") => {
                        V::Str(texts(self).into_iter().next().unwrap_or_else(Text::unknown))
                    }
                    Some("global.Deno.env.get") => {
                        V::Str(match texts(self).first().and_then(Text::known) {
                            Some(name) => env_value(&name, &mut self.out),
                            None => Text::unknown(),
                        })
                    }
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
            "comment" | "hash_bang_line" => {}
            "import_statement" => {
                let source = n
                    .child_by_field_name("source")
                    .and_then(|s| self.string_value(s))
                    .unwrap_or_default();
                self.import(module_name(&source));
            }
            "call_expression" => self.call(n),
            "new_expression" => self.new_expr(n),
            "import" => self
                .out
                .opaque("imports a module chosen at run time (`import()`)"),
            "member_expression" => self.member_value(n),
            "subscript_expression" => {
                if let Some(o) = n.child_by_field_name("object") {
                    let q = self.qualify(o);
                    match q.as_deref() {
                        Some("global.process.env" | "global.Bun.env") => {
                            self.eval(n);
                            if let Some(i) = n.child_by_field_name("index") {
                                self.walk(i);
                            }
                            self.env_assigned(n);
                            return;
                        }
                        Some(q)
                            if q.starts_with("global.") || self.bound.values().any(|b| b == q) =>
                        {
                            self.out
                                .opaque(format!("reaches a member of `{q}` chosen at run time"));
                        }
                        _ => {}
                    }
                }
                self.children(n);
            }
            "identifier" => self.identifier_value(n),
            "variable_declarator" => {
                if let Some(v) = n.child_by_field_name("value") {
                    if self.required(v).is_some() {
                        self.require_chain(v);
                    } else {
                        self.walk(v);
                    }
                }
            }
            "assignment_expression" | "augmented_assignment_expression" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if l.kind() != "identifier" {
                        self.walk(l);
                    }
                }
                if let Some(r) = n.child_by_field_name("right") {
                    self.walk(r);
                }
            }
            "function_declaration"
            | "class_declaration"
            | "function_expression"
            | "arrow_function"
            | "method_definition"
            | "generator_function_declaration" => {
                if let Some(b) = n.child_by_field_name("body") {
                    self.walk(b);
                }
            }
            "pair" => {
                if let Some(v) = n.child_by_field_name("value") {
                    self.walk(v);
                }
                if let Some(k) = n.child_by_field_name("key") {
                    if k.kind() == "computed_property_name" {
                        self.walk(k);
                    }
                }
            }
            "for_in_statement" => {
                for f in ["right", "body"] {
                    if let Some(c) = n.child_by_field_name(f) {
                        self.walk(c);
                    }
                }
            }
            "catch_clause" => {
                if let Some(b) = n.child_by_field_name("body") {
                    self.walk(b);
                }
            }
            "shorthand_property_identifier" => {
                let name = self.t(n);
                if self.bound.contains_key(name) {
                    self.out.opaque(format!("passes `{name}` on as a value"));
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

    fn import(&mut self, m: &str) {
        let known = in_list(m, PURE)
            || in_list(m, NETWORK)
            || matches!(m, "fs" | "fs/promises" | "child_process" | "process");
        if m.ends_with(".json") && m.starts_with('.') {
            self.out.push(Effect::Read(Text::lit(m)));
        } else if !known {
            self.out.opaque(format!(
                "loads `{m}`, whose code is not known to have no effects"
            ));
        }
    }

    /// `require("x")`, `require("x").y`: a module loaded.
    fn require_chain(&mut self, n: Node<'t>) {
        match n.kind() {
            "call_expression" => self.call(n),
            "member_expression" => {
                if let Some(o) = n.child_by_field_name("object") {
                    self.require_chain(o);
                }
            }
            _ => self.walk(n),
        }
    }

    fn identifier_value(&mut self, n: Node<'t>) {
        let name = self.t(n);
        if self.local.contains(name) || self.assigned.contains_key(name) {
            return;
        }
        if DYNAMIC.contains(&name) {
            self.out
                .opaque(format!("uses `{name}`, which reaches code by name"));
            return;
        }
        if name == "require" {
            self.out
                .opaque("passes `require` on, to load modules not named here");
            return;
        }
        if let Some(b) = self.bound.get(name).cloned() {
            self.value_of(&b);
        }
    }

    /// A module member (or module) used as a value, not called.
    fn value_of(&mut self, q: &str) {
        if in_list(q, PURE) && !q.starts_with("global.") {
            return;
        }
        match q {
            "global.process.env" | "global.Bun.env" => {
                self.out.push(Effect::EnvDump(
                    "uses the whole environment (`process.env`)".into(),
                ));
            }
            _ if q.starts_with("global.process.")
                && matches!(
                    q.trim_start_matches("global.process."),
                    "argv"
                        | "version"
                        | "versions"
                        | "platform"
                        | "arch"
                        | "pid"
                        | "exitCode"
                        | "stdout"
                        | "stderr"
                        | "stdin"
                        | "execPath"
                        | "release"
                        | "title"
                ) => {}
            _ if q.starts_with("global.")
                && GLOBALS.contains(
                    &q.trim_start_matches("global.")
                        .split('.')
                        .next()
                        .unwrap_or(""),
                ) => {}
            "fs.constants" => {}
            _ if q.starts_with("fs.constants.") => {}
            _ if in_list(q, NETWORK) => self.out.push(Effect::Network(q.to_string())),
            _ => self.out.opaque(format!(
                "passes `{}` on as a value, to be used elsewhere",
                q.trim_start_matches("global.")
            )),
        }
    }

    fn member_value(&mut self, n: Node<'t>) {
        if let Some(q) = self.qualify(n) {
            if q.starts_with("global.process.env.") || q.starts_with("global.Bun.env.") {
                self.eval(n);
                self.env_assigned(n);
                return;
            }
            self.value_of(&q);
            return;
        }
        if let Some(p) = n.child_by_field_name("property") {
            let prop = self.t(p);
            if matches!(prop, "constructor" | "__proto__" | "prototype") {
                self.out
                    .opaque(format!("reaches the engine's internals (`{prop}`)"));
            }
        }
        if let Some(o) = n.child_by_field_name("object") {
            self.walk(o);
        }
    }

    /// `process.env.X = …`: the environment of the programs it starts changes.
    fn env_assigned(&mut self, n: Node<'t>) {
        if n.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "assignment_expression" | "augmented_assignment_expression"
            ) && p
                .child_by_field_name("left")
                .is_some_and(|l| l.id() == n.id())
        }) {
            self.out
                .opaque("changes the environment of the programs it starts");
        }
    }

    fn new_expr(&mut self, n: Node<'t>) {
        let args = self.args(n);
        for a in &args {
            self.walk(*a);
        }
        let Some(c) = n.child_by_field_name("constructor") else {
            return;
        };
        match self.qualify(c).as_deref() {
            Some("global.Function") => self
                .out
                .opaque("builds code from a string (`new Function`)"),
            Some("global.WebSocket" | "global.XMLHttpRequest") => self
                .out
                .push(Effect::Network("a web socket or request".into())),
            Some("global.Deno.Command") => {
                let prog = args
                    .first()
                    .map(|a| self.eval(*a).text())
                    .unwrap_or_else(Text::unknown);
                let opts = args
                    .get(1)
                    .map(|a| self.eval(*a))
                    .unwrap_or(V::Obj(Vec::new()));
                let mut argv = vec![prog];
                match opts.field("args") {
                    Some(V::List(items)) => argv.extend(items.iter().map(V::text)),
                    None => {}
                    Some(_) => argv.push(Text::unknown()),
                }
                self.out.push(Effect::Exec(argv));
            }
            Some(q)
                if q.starts_with("global.")
                    && GLOBALS.contains(&q.trim_start_matches("global.")) => {}
            Some(q) if in_list(q, PURE) => {}
            Some(q) if in_list(q, NETWORK) => self.out.push(Effect::Network(q.to_string())),
            Some(q) => self.out.opaque(format!(
                "creates `{}`, which is not known",
                q.trim_start_matches("global.")
            )),
            None => {
                let name = self.t(c);
                if !(c.kind() == "identifier" && self.local.contains(name)) {
                    self.walk(c);
                    if c.kind() == "identifier" && !self.assigned.contains_key(name) {
                        self.out
                            .opaque(format!("creates `{name}`, which is not known"));
                    }
                }
            }
        }
    }

    fn call(&mut self, n: Node<'t>) {
        let Some(f) = n.child_by_field_name("function") else {
            return;
        };
        let args = self.args(n);
        for a in &args {
            self.walk(*a);
        }
        if f.kind() == "import" {
            self.out
                .opaque("imports a module chosen at run time (`import()`)");
            return;
        }
        if f.kind() == "identifier" && self.t(f) == "require" && !self.bound.contains_key("require")
        {
            match args.first().map(|a| self.eval(*a).text().known()) {
                Some(Some(m)) => self.import(module_name(&m)),
                _ => self.out.opaque("loads a module named at run time"),
            }
            return;
        }
        if let Some(q) = self.qualify(f) {
            self.module_call(&q, &args);
            return;
        }
        match f.kind() {
            "identifier" => {
                let name = self.t(f);
                if !(self.local.contains(name) || self.assigned.contains_key(name)) {
                    self.out
                        .opaque(format!("calls `{name}`, which is not known"));
                }
            }
            "member_expression" => {
                if let Some(o) = f.child_by_field_name("object") {
                    self.walk(o);
                }
                if let Some(p) = f.child_by_field_name("property") {
                    let prop = self.t(p);
                    if matches!(prop, "constructor" | "__proto__" | "__defineGetter__") {
                        self.out
                            .opaque(format!("reaches the engine's internals (`{prop}`)"));
                    }
                }
            }
            "subscript_expression" => {
                self.walk(f);
                self.out.opaque("calls a method chosen at run time");
            }
            _ => {
                self.walk(f);
                if !matches!(
                    f.kind(),
                    "arrow_function" | "function_expression" | "parenthesized_expression"
                ) {
                    self.out.opaque("calls a function chosen at run time");
                }
            }
        }
    }

    fn module_call(&mut self, q: &str, args: &[Node<'t>]) {
        let a = |w: &mut Walker<'t>, i: usize| -> Text {
            args.get(i)
                .map(|n| w.eval(*n).text())
                .unwrap_or_else(Text::unknown)
        };
        let opts = |w: &mut Walker<'t>, i: usize| -> V {
            args.get(i)
                .map(|n| w.eval(*n))
                .unwrap_or(V::Obj(Vec::new()))
        };
        // `fs.promises.x`, `fs/promises.x` and the callback forms are the same calls.
        let fsq = q
            .strip_prefix("fs.promises.")
            .or_else(|| q.strip_prefix("fs/promises."))
            .or_else(|| q.strip_prefix("fs."))
            .or_else(|| q.strip_prefix("global.Deno."));
        if let Some(op) = fsq {
            let op = op.trim_end_matches("Sync");
            let deno = q.starts_with("global.Deno.");
            match op {
                "readFile" | "createReadStream" | "readdir" | "opendir" | "readTextFile"
                | "readDir" | "readlink" | "open"
                    if !(op == "open" && !deno && args.len() > 1) =>
                {
                    let p = a(self, 0);
                    if deno && op == "open" {
                        let o = opts(self, 1);
                        if o.field("write").is_some()
                            || o.field("append").is_some()
                            || o.field("create").is_some()
                        {
                            self.out.push(Effect::Write(p));
                            return;
                        }
                    }
                    self.out.push(Effect::Read(p));
                    return;
                }
                "open" => {
                    let p = a(self, 0);
                    match a(self, 1).known() {
                        Some(fl) if !fl.contains(['w', 'a', '+']) => self.out.push(Effect::Read(p)),
                        _ => self.out.push(Effect::Write(p)),
                    }
                    return;
                }
                "stat" | "lstat" | "exists" | "access" | "realpath" | "watch" | "watchFile"
                | "unwatchFile" | "fstat" | "close" | "read" | "constants" | "readSync" | "cwd"
                | "exit" | "args" | "build" | "pid" | "inspect" | "version" | "env.get"
                | "env.has" | "lstatSync" | "statSync" => return,
                "writeFile" | "appendFile" | "createWriteStream" | "mkdir" | "mkdtemp"
                | "truncate" | "chmod" | "chown" | "lchown" | "utimes" | "lutimes"
                | "writeTextFile" | "create" | "makeTempDir" | "makeTempFile" | "write"
                | "writev" | "ftruncate" | "fchmod" | "fchown" => {
                    let p = a(self, 0);
                    self.out.push(Effect::Write(p));
                    return;
                }
                "symlink" | "link" => {
                    let d = a(self, 1);
                    self.out.push(Effect::Write(d));
                    return;
                }
                "copyFile" | "cp" | "copy" => {
                    let (s, d) = (a(self, 0), a(self, 1));
                    self.out.push(Effect::Read(s));
                    self.out.push(Effect::Write(d));
                    return;
                }
                "rename" => {
                    let (s, d) = (a(self, 0), a(self, 1));
                    self.out.push(Effect::Write(s));
                    self.out.push(Effect::Write(d));
                    return;
                }
                "rm" | "rmdir" | "unlink" | "remove" => {
                    let p = a(self, 0);
                    let o = opts(self, 1);
                    // Options not known, or spread from elsewhere, may say recursive.
                    let recursive = match (&o, o.field("recursive")) {
                        (_, Some(V::Bool(b))) => *b,
                        (V::Obj(f), None) => f.iter().any(|(k, _)| k == "..."),
                        _ => true,
                    };
                    self.out.push(Effect::Delete { path: p, recursive });
                    return;
                }
                "env.toObject" => {
                    self.out.push(Effect::EnvDump(
                        "uses the whole environment (`Deno.env.toObject`)".into(),
                    ));
                    return;
                }
                _ if deno => {
                    self.out
                        .opaque(format!("calls `Deno.{op}`, which is not known"));
                    return;
                }
                _ => {
                    self.out.opaque(format!("calls `{q}`, which is not known"));
                    return;
                }
            }
        }
        match q {
            "child_process.exec" | "child_process.execSync" => {
                let cmd = a(self, 0);
                let o = opts(self, 1);
                self.spawn_options(&o);
                self.out.push(Effect::Shell(in_dir(&o, cmd)));
            }
            "child_process.execFile"
            | "child_process.execFileSync"
            | "child_process.spawn"
            | "child_process.spawnSync" => {
                let prog = a(self, 0);
                let (list, o) = match args.get(1).map(|n| self.eval(*n)) {
                    Some(V::List(items)) => (Some(items), opts(self, 2)),
                    Some(o @ V::Obj(_)) => (Some(Vec::new()), o),
                    None => (Some(Vec::new()), V::Obj(Vec::new())),
                    Some(_) => (None, opts(self, 2)),
                };
                self.spawn_options(&o);
                let Some(items) = list else {
                    self.out.opaque("starts a program with arguments not known");
                    return;
                };
                let mut argv = vec![prog];
                argv.extend(items.iter().map(V::text));
                let shell = matches!(o.field("shell"), Some(V::Bool(true)) | Some(V::Str(_)));
                if shell || o.field("cwd").is_some() {
                    let line = argv
                        .iter()
                        .map(|t| {
                            if shell {
                                t.clone()
                            } else {
                                Text::lit(t.shell_word())
                            }
                        })
                        .fold(Text::default(), |acc, t| {
                            if acc.0.is_empty() {
                                t
                            } else {
                                acc.concat(Text::lit(" ")).concat(t)
                            }
                        });
                    self.out.push(Effect::Shell(in_dir(&o, line)));
                } else {
                    self.out.push(Effect::Exec(argv));
                }
            }
            "child_process.fork" => self
                .out
                .opaque("starts another script of the project (`fork`)"),
            "global.Bun.spawn" | "global.Bun.spawnSync" => {
                match args.first().map(|n| self.eval(*n)) {
                    Some(V::List(items)) if !items.is_empty() => self
                        .out
                        .push(Effect::Exec(items.iter().map(V::text).collect())),
                    _ => self.out.opaque("starts a program with arguments not known"),
                }
            }
            "global.Bun.write" => {
                let p = a(self, 0);
                self.out.push(Effect::Write(p));
            }
            "global.Bun.file" => {
                let p = a(self, 0);
                self.out.push(Effect::Read(p));
            }
            "global.fetch" => self.out.push(Effect::Network("fetch".into())),
            "global.process.exit"
            | "global.process.cwd"
            | "global.process.stdout.write"
            | "global.process.stderr.write"
            | "global.process.stdin.on"
            | "global.process.stdin.setEncoding"
            | "global.process.on"
            | "global.process.nextTick"
            | "global.process.hrtime"
            | "global.process.hrtime.bigint"
            | "global.process.uptime"
            | "global.process.memoryUsage"
            | "global.process.cpuUsage"
            | "global.process.emitWarning"
            | "global.process.stdin.read"
            | "global.process.stdin.resume" => {}
            "global.process.kill" => {
                let pid = a(self, 0);
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            "global.require.resolve" => {}
            "os.homedir" | "os.tmpdir" => {}
            _ if q.starts_with("global.")
                && GLOBALS.contains(
                    &q.trim_start_matches("global.")
                        .split('.')
                        .next()
                        .unwrap_or(""),
                )
                && ![
                    "global.require",
                    "global.module",
                    "global.exports",
                    "global.arguments",
                ]
                .iter()
                .any(|g| q == *g || q.starts_with(&format!("{g}."))) => {}
            _ if in_list(q, NETWORK) => self.out.push(Effect::Network(q.to_string())),
            _ if in_list(q, PURE) => {}
            _ => self.out.opaque(format!(
                "calls `{}`, which is not known",
                q.trim_start_matches("global.")
            )),
        }
    }

    /// Options of `child_process` calls that change what runs.
    fn spawn_options(&mut self, o: &V) {
        if !matches!(o, V::Obj(_)) {
            self.out.opaque("starts a program with options not known");
        }
        for k in ["env", "argv0", "input", "stdio", "uid", "gid"] {
            if o.field(k).is_some() && k != "stdio" {
                self.out.opaque(format!(
                    "starts a program with `{k}`, which changes what it runs"
                ));
            }
        }
        if o.field("...").is_some() {
            self.out.opaque("starts a program with options not known");
        }
        if let Some(c) = o.field("cwd") {
            if !c.text().is_known() {
                self.out.opaque("starts a program in a folder not known");
            }
        }
    }
}

/// A command run in the folder `cwd` of its options, if they give one.
fn in_dir(o: &V, cmd: Text) -> Text {
    match o.field("cwd") {
        Some(dir) => Text::lit(format!("cd {} && ", dir.text().shell_word())).concat(cmd),
        None => cmd,
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
    fn reads_are_known() {
        assert_eq!(
            effects("require('./package.json').version"),
            vec![Effect::Read(lit("./package.json"))]
        );
        let e = effects("const fs = require('fs'); console.log(JSON.parse(fs.readFileSync('package.json', 'utf8')).name)");
        assert_eq!(e, vec![Effect::Read(lit("package.json"))]);
        assert_eq!(effects("console.log([1,2].map(x => x * 2))"), vec![]);
    }

    #[test]
    fn deletes_resolve_home() {
        let e = effects("function o() { return {recursive: true} }; require('fs').rmSync(require('os').homedir(), o())");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~"),
                recursive: true
            }),
            "{e:?}"
        );
        let e = effects("require('fs').rmSync(require('os').homedir(), {recursive: true})");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~"),
                recursive: true
            }),
            "{e:?}"
        );
        let e = effects("import { rmSync } from 'node:fs'; import os from 'os'; rmSync(`${os.homedir()}/.ssh`, {recursive: true, force: true})");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~/.ssh"),
                recursive: true
            }),
            "{e:?}"
        );
        let e = effects("const p = require('path'); require('fs').unlinkSync(p.join(process.env.HOME, '.bashrc'))");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~/.bashrc"),
                recursive: false
            }),
            "{e:?}"
        );
    }

    #[test]
    fn processes_are_commands() {
        let e = effects("require('child_process').execSync('rm -rf ~')");
        assert!(e.contains(&Effect::Shell(lit("rm -rf ~"))), "{e:?}");
        let e = effects(
            "const { spawnSync } = require('child_process'); spawnSync('git', ['push', '--force'])",
        );
        assert!(
            e.contains(&Effect::Exec(vec![lit("git"), lit("push"), lit("--force")])),
            "{e:?}"
        );
    }

    #[test]
    fn dynamic_code_is_opaque() {
        for src in [
            "eval('1')",
            "new Function('return 1')()",
            "require(process.argv[2])",
            "require('./lib')",
            "import('fs')",
            "const cp = require('child_process'); const f = cp.execSync; f('ls')",
            "require('vm').runInNewContext('1')",
            "globalThis['ev' + 'al']('1')",
            "foo()",
            "x = (",
            "require('child_process')['exec' + 'Sync']('ls')",
            "module.require('child_process').execSync('rm -rf /')",
            "require.main.require('child_process').execSync('ls')",
            "process.mainModule.require('child_process').execSync('ls')",
        ] {
            assert!(analyze(src).is_opaque(), "{src}");
        }
    }

    #[test]
    fn environment_and_network() {
        assert!(effects("console.log(process.env)")
            .iter()
            .any(|x| matches!(x, Effect::EnvDump(_))));
        assert!(!analyze("console.log(process.env.PATH)").is_opaque());
        assert!(effects("console.log(process.env.GITHUB_TOKEN)")
            .iter()
            .any(|x| matches!(x, Effect::SecretEnv(_))));
        assert!(effects("fetch('https://x', {method: 'POST'})")
            .iter()
            .any(|x| matches!(x, Effect::Network(_))));
        assert!(effects("require('https').get('https://x')")
            .iter()
            .any(|x| matches!(x, Effect::Network(_))));
    }
}
