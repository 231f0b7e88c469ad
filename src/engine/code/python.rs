//! Python: the effects of a snippet, read with tree-sitter-python.
//!
//! Every call is looked up: builtins, functions of the modules imported (by their full
//! name, whatever alias or `from … import` brought them in), methods of `pathlib` paths,
//! and methods that change files whatever object has them (`unlink`, `write_text` …). A
//! call that is none of these, an import of a module not listed, or a use of a module or
//! of `eval`/`exec`/`getattr` as a value is opaque.

use super::V;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{env_value, named_children, text, Effect, Judged, Lang, Text};

/// Modules whose functions have no effect outside the process (or only print).
const PURE: &[&str] = &[
    "json",
    "re",
    "math",
    "cmath",
    "statistics",
    "decimal",
    "fractions",
    "random",
    "string",
    "textwrap",
    "collections",
    "itertools",
    "functools",
    "operator",
    "datetime",
    "time",
    "calendar",
    "copy",
    "pprint",
    "heapq",
    "bisect",
    "array",
    "enum",
    "dataclasses",
    "typing",
    "abc",
    "numbers",
    "hashlib",
    "hmac",
    "base64",
    "binascii",
    "zlib",
    "struct",
    "uuid",
    "secrets",
    "unicodedata",
    "difflib",
    "fnmatch",
    "shlex",
    "csv",
    "tomllib",
    "configparser",
    "argparse",
    "platform",
    "locale",
    "keyword",
    "html",
    "urllib.parse",
    "ipaddress",
    "contextlib",
    "warnings",
    "traceback",
    "colorsys",
    "getpass",
    "textwrap",
    "types",
    "__future__",
    "string",
    "codecs",
    "gettext",
    "typing_extensions",
    "graphlib",
    "zoneinfo",
    "reprlib",
    "weakref",
    "queue",
    "threading",
    "signal",
    "errno",
    "stat",
    "sysconfig",
    "inspect",
    "dis",
    "ast",
    "tokenize",
    "token",
    "xml.etree.ElementTree",
    "xml.dom.minidom",
    "email",
    "mimetypes",
    "quopri",
    "filecmp",
    "linecache",
    "timeit",
    "optparse",
    "pydoc_data",
];

/// Modules some of whose functions have effects, listed one by one below.
const EFFECTFUL: &[&str] = &[
    "os",
    "os.path",
    "sys",
    "shutil",
    "subprocess",
    "pathlib",
    "glob",
    "io",
    "tempfile",
    "sqlite3",
    "tarfile",
    "zipfile",
    "gzip",
    "bz2",
    "lzma",
    "asyncio",
];

/// Modules that talk to the network.
const NETWORK: &[&str] = &[
    "socket",
    "ssl",
    "urllib",
    "urllib.request",
    "urllib.error",
    "http",
    "http.client",
    "http.server",
    "socketserver",
    "requests",
    "httpx",
    "urllib3",
    "aiohttp",
    "ftplib",
    "smtplib",
    "poplib",
    "imaplib",
    "telnetlib",
    "xmlrpc",
    "xmlrpc.client",
    "websocket",
    "websockets",
];

/// Builtins that only compute or print.
const BUILTINS: &[&str] = &[
    "print",
    "len",
    "range",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "set",
    "tuple",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "map",
    "filter",
    "sum",
    "min",
    "max",
    "abs",
    "round",
    "any",
    "all",
    "isinstance",
    "issubclass",
    "type",
    "repr",
    "format",
    "hex",
    "oct",
    "bin",
    "ord",
    "chr",
    "divmod",
    "pow",
    "hash",
    "id",
    "iter",
    "next",
    "slice",
    "frozenset",
    "bytes",
    "bytearray",
    "input",
    "super",
    "object",
    "property",
    "staticmethod",
    "classmethod",
    "callable",
    "hasattr",
    "ascii",
    "complex",
    "exit",
    "quit",
    "aiter",
    "anext",
    "NotImplemented",
    "Ellipsis",
];

/// Builtins that run or reach code by name: opaque wherever they appear.
const DYNAMIC: &[&str] = &[
    "eval",
    "exec",
    "compile",
    "__import__",
    "getattr",
    "setattr",
    "delattr",
    "globals",
    "locals",
    "vars",
    "breakpoint",
    "__builtins__",
    "help",
    "memoryview",
];

/// Module attributes that are plain values.
const VALUES: &[&str] = &[
    "os.sep",
    "os.linesep",
    "os.name",
    "os.curdir",
    "os.pardir",
    "os.pathsep",
    "os.extsep",
    "os.devnull",
    "os.altsep",
    "sys.argv",
    "sys.version",
    "sys.version_info",
    "sys.platform",
    "sys.executable",
    "sys.maxsize",
    "sys.byteorder",
    "sys.stdin",
    "sys.stdout",
    "sys.stderr",
    "sys.implementation",
    "sys.hexversion",
    "sys.prefix",
    "sys.base_prefix",
    "sys.flags",
    "sys.float_info",
    "sys.int_info",
    "sys.path",
    "subprocess.PIPE",
    "subprocess.DEVNULL",
    "subprocess.STDOUT",
    "subprocess.CalledProcessError",
    "subprocess.TimeoutExpired",
    "subprocess.CompletedProcess",
    "pathlib.Path",
    "pathlib.PurePath",
    "pathlib.PosixPath",
    "pathlib.PurePosixPath",
    "io.StringIO",
    "io.BytesIO",
    "os.environ",
];

/// A value as far as the text tells it.
/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    let mut out = Judged::default();
    let tree = match super::parse(tree_sitter_python::LANGUAGE.into(), src, Lang::Python) {
        Ok(t) => t,
        Err(e) => {
            out.opaque(e);
            return out;
        }
    };
    let root = tree.root_node();
    let mut w = Walker {
        src,
        out,
        modules: HashMap::new(),
        names: HashMap::new(),
        assigned: HashMap::new(),
        loops: HashMap::new(),
        local: HashSet::new(),
        eval_depth: 0,
    };
    w.collect(root);
    w.walk(root);
    w.out
}

struct Walker<'t> {
    src: &'t str,
    out: Judged,
    /// Local name → module (`import os.path as p` binds `p` to `os.path`).
    modules: HashMap<String, String>,
    /// Local name → full name (`from shutil import rmtree as r`: `r` → `shutil.rmtree`).
    names: HashMap<String, String>,
    /// Name → the expressions assigned to it (a name assigned once has a known value).
    assigned: HashMap<String, Vec<Option<Node<'t>>>>,
    /// Loop variable → what it loops over.
    loops: HashMap<String, Node<'t>>,
    /// Functions and classes the snippet defines.
    local: HashSet<String>,
    eval_depth: usize,
}

fn module_known(m: &str) -> bool {
    let top = m.split('.').next().unwrap_or(m);
    [PURE, EFFECTFUL, NETWORK]
        .iter()
        .any(|l| l.contains(&m) || l.contains(&top))
}

fn is_network(q: &str) -> bool {
    NETWORK
        .iter()
        .any(|m| q == *m || q.starts_with(&format!("{m}.")))
}

fn is_pure(q: &str) -> bool {
    PURE.iter().any(|m| match q.strip_prefix(m) {
        Some("") => true,
        Some(rest) => rest.starts_with('.') && plain_members(&rest[1..]),
        None => false,
    })
}

/// Whether the members after a module's name reach no other module: many modules import
/// `os` or `sys` and so have them as members (`shlex.os.system`), and names with an
/// underscore are the module's internals.
fn plain_members(rest: &str) -> bool {
    rest.split('.').all(|m| {
        !m.starts_with('_')
            && !matches!(
                m,
                "os" | "sys"
                    | "subprocess"
                    | "shutil"
                    | "builtins"
                    | "importlib"
                    | "ctypes"
                    | "socket"
                    | "pathlib"
                    | "io"
                    | "codecs"
                    | "posix"
                    | "nt"
                    | "pty"
                    | "runpy"
                    | "pickle"
                    | "marshal"
                    | "tempfile"
                    | "glob"
                    | "urllib"
                    | "http"
                    | "multiprocessing"
                    | "genericpath"
                    | "posixpath"
                    | "stat"
                    | "signal"
                    | "threading"
                    | "asyncio"
                    | "inspect"
                    | "types"
                    | "gc"
                    | "code"
            )
    })
}

impl<'t> Walker<'t> {
    fn t(&self, n: Node) -> &'t str {
        text(self.src, n)
    }

    fn assign(&mut self, name: &str, value: Option<Node<'t>>) {
        self.assigned
            .entry(name.to_string())
            .or_default()
            .push(value);
    }

    /// Every name a pattern binds, as unknown.
    fn bind_unknown(&mut self, pattern: Node<'t>) {
        if pattern.kind() == "identifier" {
            let name = self.t(pattern).to_string();
            self.assign(&name, None);
            self.assign(&name, None);
            return;
        }
        for c in named_children(pattern) {
            if matches!(
                c.kind(),
                "identifier"
                    | "pattern_list"
                    | "tuple_pattern"
                    | "list_pattern"
                    | "list_splat_pattern"
            ) {
                self.bind_unknown(c);
            }
        }
    }

    /// First pass: imports, definitions and assignments.
    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "import_statement" => {
                for c in named_children(n) {
                    match c.kind() {
                        "dotted_name" => {
                            let full = self.t(c).to_string();
                            let top = full.split('.').next().unwrap_or("").to_string();
                            self.modules.insert(top.clone(), top);
                            self.modules.insert(full.clone(), full);
                        }
                        "aliased_import" => {
                            let (Some(name), Some(alias)) = (
                                c.child_by_field_name("name"),
                                c.child_by_field_name("alias"),
                            ) else {
                                continue;
                            };
                            self.modules
                                .insert(self.t(alias).to_string(), self.t(name).to_string());
                        }
                        _ => {}
                    }
                }
            }
            "import_from_statement" => {
                let module = n
                    .child_by_field_name("module_name")
                    .map(|m| self.t(m).to_string())
                    .unwrap_or_default();
                let mut c = n.walk();
                let names: Vec<Node> = n.children_by_field_name("name", &mut c).collect();
                for name in names {
                    let (real, alias) = match name.kind() {
                        "aliased_import" => (
                            name.child_by_field_name("name").map(|x| self.t(x)),
                            name.child_by_field_name("alias").map(|x| self.t(x)),
                        ),
                        _ => (Some(self.t(name)), Some(self.t(name))),
                    };
                    if let (Some(real), Some(alias)) = (real, alias) {
                        let full = format!("{module}.{real}");
                        if module_known(&full) && !is_pure(&module) {
                            self.modules.insert(alias.to_string(), full.clone());
                        }
                        self.names.insert(alias.to_string(), full);
                    }
                }
            }
            "function_definition" | "class_definition" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.local.insert(self.t(name).to_string());
                }
                if let Some(p) = n.child_by_field_name("parameters") {
                    self.bind_params(p);
                }
            }
            "lambda" => {
                if let Some(p) = n.child_by_field_name("parameters") {
                    self.bind_params(p);
                }
            }
            "assignment" => {
                if let Some(left) = n.child_by_field_name("left") {
                    if left.kind() == "identifier" {
                        let name = self.t(left).to_string();
                        self.assign(&name, n.child_by_field_name("right"));
                    } else {
                        self.bind_unknown(left);
                    }
                }
            }
            "augmented_assignment" | "named_expression" => {
                if let Some(left) = n
                    .child_by_field_name("left")
                    .or_else(|| n.child_by_field_name("name"))
                {
                    self.bind_unknown(left);
                }
            }
            "for_statement" | "for_in_clause" => {
                if let Some(left) = n.child_by_field_name("left") {
                    if left.kind() == "identifier" {
                        let name = self.t(left).to_string();
                        let first = !self.loops.contains_key(&name);
                        match n.child_by_field_name("right") {
                            Some(r) if first => {
                                self.loops.insert(name.clone(), r);
                            }
                            _ => {
                                self.assign(&name, None);
                            }
                        }
                        self.assign(&name, None);
                        self.assign(&name, None);
                    } else {
                        self.bind_unknown(left);
                    }
                }
            }
            "as_pattern" => {
                if let Some(a) = n.child_by_field_name("alias") {
                    self.bind_unknown(a);
                }
            }
            "global_statement" | "nonlocal_statement" => {
                for c in named_children(n) {
                    self.bind_unknown(c);
                }
            }
            _ => {}
        }
        for c in named_children(n) {
            self.collect(c);
        }
    }

    fn bind_params(&mut self, params: Node<'t>) {
        for p in named_children(params) {
            let name = match p.kind() {
                "identifier" => Some(p),
                _ => p.child_by_field_name("name").or_else(|| {
                    named_children(p)
                        .into_iter()
                        .find(|c| c.kind() == "identifier")
                }),
            };
            if let Some(name) = name {
                self.bind_unknown(name);
            }
        }
    }

    /// The module or full name an expression stands for (`os.path` → "os.path",
    /// `rmtree` from `from shutil import rmtree` → "shutil.rmtree").
    fn qualify(&self, n: Node) -> Option<String> {
        match n.kind() {
            "identifier" => {
                let name = self.t(n);
                if self.local.contains(name) || self.assigned.contains_key(name) {
                    return None;
                }
                self.modules
                    .get(name)
                    .or_else(|| self.names.get(name))
                    .cloned()
            }
            "attribute" => {
                let obj = n.child_by_field_name("object")?;
                let attr = n.child_by_field_name("attribute")?;
                let base = self.qualify(obj)?;
                Some(format!("{base}.{}", self.t(attr)))
            }
            _ => None,
        }
    }

    /// Whether a full name is (in) a module imported by the snippet.
    fn is_module_name(&self, q: &str) -> bool {
        self.modules.values().any(|m| m == q)
    }

    // -----------------------------------------------------------------------------------
    // Values.

    fn eval(&mut self, n: Node<'t>) -> V {
        if self.eval_depth > 24 || !self.out.step() {
            return V::Other;
        }
        self.eval_depth += 1;
        let v = self.eval_inner(n);
        self.eval_depth -= 1;
        v
    }

    fn eval_inner(&mut self, n: Node<'t>) -> V {
        match n.kind() {
            "string" => V::Str(self.string(n)),
            "concatenated_string" => {
                let mut t = Text::default();
                for c in named_children(n) {
                    t = t.concat(self.string(c));
                }
                V::Str(t)
            }
            "parenthesized_expression" => named_children(n)
                .first()
                .map(|c| self.eval(*c))
                .unwrap_or(V::Other),
            "identifier" => {
                let name = self.t(n).to_string();
                if let Some(r) = self.loops.get(&name).copied() {
                    if self.assigned.get(&name).is_some_and(|a| a.len() == 2) {
                        return self.loop_value(r);
                    }
                }
                match self.assigned.get(&name).map(|v| v.as_slice()) {
                    Some([Some(value)]) => {
                        let value = *value;
                        self.eval(value)
                    }
                    _ => V::Other,
                }
            }
            "list" | "tuple" => V::List(
                named_children(n)
                    .into_iter()
                    .map(|c| self.eval(c))
                    .collect(),
            ),
            "binary_operator" => {
                let (Some(l), Some(r), Some(op)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                    n.child_by_field_name("operator"),
                ) else {
                    return V::Other;
                };
                let op = self.t(op);
                let (lv, rv) = (self.eval(l), self.eval(r));
                match (op, lv) {
                    ("+", V::Str(a)) => V::Str(a.concat(rv.text())),
                    ("/", V::Path(a)) => V::Path(a.join(rv.text())),
                    _ => V::Other,
                }
            }
            "attribute" => {
                if let Some(q) = self.qualify(n) {
                    return match q.as_str() {
                        "os.sep" => V::Str(Text::lit("/")),
                        "os.curdir" => V::Str(Text::lit(".")),
                        "os.pardir" => V::Str(Text::lit("..")),
                        _ => V::Other,
                    };
                }
                let (Some(obj), Some(attr)) = (
                    n.child_by_field_name("object"),
                    n.child_by_field_name("attribute"),
                ) else {
                    return V::Other;
                };
                match (self.eval(obj), self.t(attr)) {
                    (V::Path(p), "parent") => V::Path(p.parent()),
                    _ => V::Other,
                }
            }
            "subscript" => {
                let value = n.child_by_field_name("value");
                let key = n.child_by_field_name("subscript");
                if let (Some(v), Some(k)) = (value, key) {
                    if self.qualify(v).as_deref() == Some("os.environ") {
                        return V::Str(self.env_key(k));
                    }
                }
                V::Other
            }
            "call" => self.eval_call(n),
            _ => V::Other,
        }
    }

    /// The value of a loop variable: for a loop over a glob, the glob.
    fn loop_value(&mut self, over: Node<'t>) -> V {
        if over.kind() != "call" {
            return V::Other;
        }
        let Some(f) = over.child_by_field_name("function") else {
            return V::Other;
        };
        let args = self.args(over);
        let first = args.pos.first().map(|a| self.eval(*a).text());
        match self.qualify(f).as_deref() {
            Some("glob.glob" | "glob.iglob") => {
                return V::Str(first.unwrap_or_else(Text::unknown));
            }
            Some("os.listdir") => {
                return V::Str(first.unwrap_or_else(|| Text::lit(".")).join(Text::lit("*")));
            }
            _ => {}
        }
        if f.kind() == "attribute" {
            if let (Some(obj), Some(attr)) = (
                f.child_by_field_name("object"),
                f.child_by_field_name("attribute"),
            ) {
                if let V::Path(p) = self.eval(obj) {
                    let pattern = first.unwrap_or_else(|| Text::lit("*"));
                    return match self.t(attr) {
                        "glob" => V::Path(p.join(pattern)),
                        "rglob" => V::Path(p.join(Text::lit("**")).join(pattern)),
                        "iterdir" => V::Path(p.join(Text::lit("*"))),
                        _ => V::Other,
                    };
                }
            }
        }
        V::Other
    }

    fn env_key(&mut self, k: Node<'t>) -> Text {
        match self.eval(k).text().known() {
            Some(name) => env_value(&name, &mut self.out),
            None => Text::unknown(),
        }
    }

    fn eval_call(&mut self, n: Node<'t>) -> V {
        let Some(f) = n.child_by_field_name("function") else {
            return V::Other;
        };
        let args = self.args(n);
        let arg = |w: &mut Walker<'t>, i: usize| -> Text {
            args.pos
                .get(i)
                .map(|a| w.eval(*a).text())
                .unwrap_or_else(Text::unknown)
        };
        if let Some(q) = self.qualify(f) {
            return match q.as_str() {
                "os.path.join" => {
                    let mut t = Text::default();
                    for a in &args.pos {
                        let v = self.eval(*a).text();
                        t = t.join(v);
                    }
                    if args.splat {
                        t = t.join(Text::unknown());
                    }
                    V::Str(t)
                }
                "os.path.expanduser" | "os.path.abspath" | "os.path.normpath"
                | "os.path.realpath" | "os.fspath" => V::Str(arg(self, 0)),
                "os.path.expandvars" => V::Str(arg(self, 0).with_home_var()),
                "os.path.dirname" => V::Str(arg(self, 0).parent()),
                "os.getcwd" => V::Str(Text::lit(".")),
                "os.getenv" | "os.environ.get" => match args.pos.first() {
                    Some(k) => V::Str(self.env_key(*k)),
                    None => V::Other,
                },
                "tempfile.gettempdir" => V::Str(Text::lit("/tmp")),
                "pathlib.Path"
                | "pathlib.PurePath"
                | "pathlib.PosixPath"
                | "pathlib.PurePosixPath" => {
                    let mut t = Text::default();
                    for a in &args.pos {
                        let v = self.eval(*a).text();
                        t = t.join(v);
                    }
                    if args.pos.is_empty() {
                        t = Text::lit(".");
                    }
                    V::Path(t)
                }
                "pathlib.Path.home" => V::Path(Text::home()),
                "pathlib.Path.cwd" => V::Path(Text::lit(".")),
                _ => V::Other,
            };
        }
        match f.kind() {
            "identifier" if self.t(f) == "str" => args
                .pos
                .first()
                .map(|a| V::Str(self.eval(*a).text()))
                .unwrap_or(V::Other),
            "attribute" => {
                let (Some(obj), Some(attr)) = (
                    f.child_by_field_name("object"),
                    f.child_by_field_name("attribute"),
                ) else {
                    return V::Other;
                };
                let recv = self.eval(obj);
                match (recv, self.t(attr)) {
                    (V::Path(p), "expanduser" | "resolve" | "absolute") => V::Path(p),
                    (V::Path(p), "joinpath") => {
                        let mut p = p;
                        for a in &args.pos {
                            let v = self.eval(*a).text();
                            p = p.join(v);
                        }
                        V::Path(p)
                    }
                    (V::Str(sep), "join") => match args.pos.first().map(|a| self.eval(*a)) {
                        Some(V::List(items)) => {
                            let mut t = Text::default();
                            for (i, it) in items.iter().enumerate() {
                                if i > 0 {
                                    t = t.concat(sep.clone());
                                }
                                t = t.concat(it.text());
                            }
                            V::Str(t)
                        }
                        _ => V::Other,
                    },
                    _ => V::Other,
                }
            }
            _ => V::Other,
        }
    }

    /// A string literal's value (f-strings with their parts filled in where known).
    fn string(&mut self, n: Node<'t>) -> Text {
        if n.kind() != "string" {
            return self.eval(n).text();
        }
        let prefix = named_children(n)
            .first()
            .filter(|c| c.kind() == "string_start")
            .map(|c| self.t(*c).to_ascii_lowercase())
            .unwrap_or_default();
        let raw = prefix.contains('r');
        let mut t = Text::default();
        for c in named_children(n) {
            match c.kind() {
                "string_content" => {
                    let s = self.t(c);
                    let v = if raw {
                        Some(s.to_string())
                    } else {
                        super::unescape(s)
                    };
                    match v {
                        Some(v) => {
                            let v = if prefix.contains('f') {
                                v.replace("{{", "{").replace("}}", "}")
                            } else {
                                v
                            };
                            t = t.concat(Text::lit(v));
                        }
                        None => t = t.concat(Text::unknown()),
                    }
                }
                "interpolation" => {
                    let v = c
                        .child_by_field_name("expression")
                        .map(|e| self.eval(e).text())
                        .unwrap_or_else(Text::unknown);
                    let plain = c.child_by_field_name("format_specifier").is_none()
                        && c.child_by_field_name("type_conversion").is_none();
                    t = t.concat(if plain { v } else { Text::unknown() });
                }
                _ => {}
            }
        }
        if t.0.is_empty() {
            t = Text::lit("");
        }
        t
    }

    fn args(&self, call: Node<'t>) -> Args<'t> {
        let mut a = Args::default();
        let Some(list) = call.child_by_field_name("arguments") else {
            return a;
        };
        for c in named_children(list) {
            match c.kind() {
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (
                        c.child_by_field_name("name"),
                        c.child_by_field_name("value"),
                    ) {
                        a.kw.push((self.t(k).to_string(), v));
                    }
                }
                "list_splat" | "dictionary_splat" => a.splat = true,
                "comment" => {}
                _ => a.pos.push(c),
            }
        }
        a
    }

    fn arg_text(&mut self, a: &Args<'t>, i: usize, kw: &str) -> Text {
        let n = a.pos.get(i).copied().or_else(|| a.kw_value(kw));
        match n {
            Some(n) => self.eval(n).text(),
            None => Text::unknown(),
        }
    }

    // -----------------------------------------------------------------------------------
    // The walk: every node judged.

    fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "import_statement" => {
                for c in named_children(n) {
                    let name = match c.kind() {
                        "aliased_import" => c.child_by_field_name("name"),
                        _ => Some(c),
                    };
                    if let Some(name) = name {
                        let m = self.t(name).to_string();
                        self.import(&m);
                    }
                }
            }
            "import_from_statement" => {
                let module = n.child_by_field_name("module_name");
                match module {
                    Some(m) if m.kind() == "dotted_name" => {
                        let m = self.t(m).to_string();
                        self.import(&m);
                    }
                    _ => self.out.opaque("imports from a module of the project"),
                }
                if named_children(n)
                    .iter()
                    .any(|c| c.kind() == "wildcard_import")
                {
                    self.out.opaque("imports every name of a module");
                }
            }
            "future_import_statement" | "comment" | "pass_statement" => {}
            "exec_statement" => self.out.opaque("runs code given as a string (`exec`)"),
            "call" => self.call(n),
            "attribute" => self.attribute_value(n),
            "identifier" => self.identifier_value(n),
            "subscript" => {
                let value = n.child_by_field_name("value");
                if let Some(v) = value {
                    if self.qualify(v).as_deref() == Some("os.environ") {
                        if let Some(k) = n.child_by_field_name("subscript") {
                            self.env_key(k);
                            self.walk(k);
                        }
                        if n.parent().is_some_and(|p| {
                            matches!(
                                p.kind(),
                                "assignment" | "augmented_assignment" | "delete_statement"
                            ) && p
                                .child_by_field_name("left")
                                .is_none_or(|l| l.id() == n.id())
                        }) || n.parent().is_some_and(|p| p.kind() == "delete_statement")
                        {
                            self.out
                                .opaque("changes the environment of the programs it starts");
                        }
                        return;
                    }
                }
                self.children(n);
            }
            "keyword_argument" => {
                if let Some(v) = n.child_by_field_name("value") {
                    self.walk(v);
                }
            }
            "function_definition" | "class_definition" => {
                for c in named_children(n) {
                    if Some(c.id()) != n.child_by_field_name("name").map(|x| x.id()) {
                        self.walk(c);
                    }
                }
            }
            "parameters" | "lambda_parameters" => {
                // Default values only.
                for p in named_children(n) {
                    if let Some(v) = p.child_by_field_name("value") {
                        self.walk(v);
                    }
                }
            }
            "assignment" | "augmented_assignment" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if l.kind() != "identifier" {
                        self.walk(l);
                    }
                }
                if let Some(r) = n.child_by_field_name("right") {
                    self.walk(r);
                }
            }
            "for_statement" | "for_in_clause" => {
                if let Some(l) = n.child_by_field_name("left") {
                    if !matches!(l.kind(), "identifier" | "pattern_list" | "tuple_pattern") {
                        self.walk(l);
                    }
                }
                for f in ["right", "body", "alternative"] {
                    if let Some(c) = n.child_by_field_name(f) {
                        self.walk(c);
                    }
                }
                if n.kind() == "for_in_clause" {
                    // The rest of a clause holds its conditions.
                    for c in named_children(n).into_iter().skip(2) {
                        self.walk(c);
                    }
                }
            }
            "as_pattern" => {
                for c in named_children(n) {
                    if Some(c.id()) != n.child_by_field_name("alias").map(|x| x.id()) {
                        self.walk(c);
                    }
                }
            }
            "global_statement" | "nonlocal_statement" => {}
            "dotted_name" => {}
            _ => self.children(n),
        }
    }

    fn children(&mut self, n: Node<'t>) {
        for c in named_children(n) {
            self.walk(c);
        }
    }

    fn import(&mut self, m: &str) {
        if !module_known(m) {
            self.out.opaque(format!(
                "imports `{m}`, whose code is not known to have no effects"
            ));
            return;
        }
        let top = m.split('.').next().unwrap_or(m);
        self.out.push(Effect::Import(top.to_string()));
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
        if name == "open" {
            self.out
                .opaque("passes `open` on, to open files not named here");
            return;
        }
        if let Some(q) = self
            .modules
            .get(name)
            .or_else(|| self.names.get(name))
            .cloned()
        {
            self.module_value(&q, n);
        }
    }

    /// A module attribute used as a value (not called).
    fn module_value(&mut self, q: &str, n: Node<'t>) {
        if q == "os.environ" {
            let parent = n.parent();
            let tested = parent.is_some_and(|p| p.kind() == "comparison_operator");
            if !tested {
                self.out.push(Effect::EnvDump(
                    "uses the whole environment (`os.environ`)".into(),
                ));
            }
            return;
        }
        if VALUES.contains(&q) || is_pure(q) {
            return;
        }
        if is_network(q) {
            self.out.push(Effect::Network(q.to_string()));
            return;
        }
        if self.is_module_name(q) {
            self.out
                .opaque(format!("passes the module `{q}` on as a value"));
            return;
        }
        if q.starts_with("sys.") {
            self.out.opaque(format!("uses `{q}`"));
            return;
        }
        self.out.opaque(format!(
            "passes `{q}` on as a value, to be called elsewhere"
        ));
    }

    fn attribute_value(&mut self, n: Node<'t>) {
        let attr = n
            .child_by_field_name("attribute")
            .map(|a| self.t(a))
            .unwrap_or("");
        if attr.starts_with("__")
            && !matches!(attr, "__name__" | "__doc__" | "__version__" | "__file__")
        {
            self.out
                .opaque(format!("reaches the interpreter's internals (`{attr}`)"));
        }
        if let Some(q) = self.qualify(n) {
            self.module_value(&q, n);
            return;
        }
        if let Some(obj) = n.child_by_field_name("object") {
            self.walk(obj);
        }
    }

    fn call(&mut self, n: Node<'t>) {
        let Some(f) = n.child_by_field_name("function") else {
            return;
        };
        let args = self.args(n);
        // The arguments are judged as values wherever they go.
        for a in args.pos.iter().chain(args.kw.iter().map(|(_, v)| v)) {
            self.walk(*a);
        }
        if let Some(q) = self.qualify(f) {
            self.module_call(&q, &args);
            return;
        }
        match f.kind() {
            "identifier" => {
                let name = self.t(f);
                if self.local.contains(name) || self.assigned.contains_key(name) {
                    return;
                }
                self.builtin_call(name, &args);
            }
            "attribute" => {
                let (Some(obj), Some(attr)) = (
                    f.child_by_field_name("object"),
                    f.child_by_field_name("attribute"),
                ) else {
                    return;
                };
                let method = self.t(attr);
                if method.starts_with("__") && method != "__init__" {
                    self.out
                        .opaque(format!("calls the interpreter's internals (`{method}`)"));
                }
                self.walk(obj);
                let recv = self.eval(obj);
                self.method_call(recv, method, &args);
            }
            _ => {
                self.walk(f);
                self.out.opaque("calls a function chosen at run time");
            }
        }
    }

    fn builtin_call(&mut self, name: &str, args: &Args<'t>) {
        if BUILTINS.contains(&name) {
            return;
        }
        if name == "open" {
            self.open(args, 0);
            return;
        }
        if DYNAMIC.contains(&name) {
            self.out
                .opaque(format!("runs or reaches code by name (`{name}`)"));
            return;
        }
        if name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning") {
            return;
        }
        self.out
            .opaque(format!("calls `{name}`, which is not known"));
    }

    /// `open(path, mode)` and its relatives; `at` is the index of the path argument.
    fn open(&mut self, args: &Args<'t>, at: usize) {
        let path = self.arg_text(args, at, "file");
        let mode = args
            .pos
            .get(at + 1)
            .copied()
            .or_else(|| args.kw_value("mode"));
        self.open_mode(path, mode);
    }

    fn open_mode(&mut self, path: Text, mode: Option<Node<'t>>) {
        let mode = match mode {
            None => Some("r".to_string()),
            Some(m) => self.eval(m).text().known(),
        };
        match mode {
            Some(m) if !m.contains(['w', 'a', 'x', '+']) => self.out.push(Effect::Read(path)),
            Some(m) if m.contains('r') => {
                self.out.push(Effect::Read(path.clone()));
                self.out.push(Effect::Write(path));
            }
            _ => self.out.push(Effect::Write(path)),
        }
    }

    fn module_call(&mut self, q: &str, a: &Args<'t>) {
        let top = q.split('.').next().unwrap_or(q);
        let p0 = |w: &mut Walker<'t>| w.arg_text(a, 0, "path");
        match q {
            "os.system"
            | "os.popen"
            | "subprocess.getoutput"
            | "subprocess.getstatusoutput"
            | "asyncio.create_subprocess_shell" => {
                let cmd = self.arg_text(a, 0, "cmd");
                self.out.push(Effect::Shell(cmd));
            }
            "subprocess.run"
            | "subprocess.call"
            | "subprocess.check_call"
            | "subprocess.check_output"
            | "subprocess.Popen" => self.subprocess(a),
            "asyncio.create_subprocess_exec"
            | "os.execlp"
            | "os.execl"
            | "os.execle"
            | "os.execlpe" => {
                let skip = usize::from(q.starts_with("os."));
                let mut argv: Vec<Text> = Vec::new();
                for (i, n) in a.pos.iter().enumerate() {
                    if i >= skip || i == 0 {
                        if i == 0 && skip == 1 {
                            continue;
                        }
                        argv.push(self.eval(*n).text());
                    }
                }
                if a.splat {
                    argv.push(Text::unknown());
                }
                if argv.is_empty() {
                    self.out.opaque(format!("`{q}` with arguments not known"));
                } else {
                    self.out.push(Effect::Exec(argv));
                }
            }
            "os.execv" | "os.execve" | "os.execvp" | "os.execvpe" | "os.posix_spawn"
            | "os.posix_spawnp" => match a.pos.get(1).map(|n| self.eval(*n)) {
                Some(V::List(items)) if !items.is_empty() => {
                    let mut argv: Vec<Text> = items.iter().map(V::text).collect();
                    // The program is the first argument; the list's first item is its name.
                    argv[0] = self.arg_text(a, 0, "path");
                    self.out.push(Effect::Exec(argv));
                }
                _ => self.out.opaque(format!("`{q}` with arguments not known")),
            },
            "os.remove" | "os.unlink" | "os.rmdir" | "os.removedirs" => {
                let p = p0(self);
                self.out.push(Effect::Delete {
                    path: p,
                    recursive: false,
                });
            }
            "shutil.rmtree" => {
                let p = p0(self);
                self.out.push(Effect::Delete {
                    path: p,
                    recursive: true,
                });
            }
            "os.rename" | "os.replace" | "os.renames" | "shutil.move" => {
                let (s, d) = (self.arg_text(a, 0, "src"), self.arg_text(a, 1, "dst"));
                self.out.push(Effect::Write(s));
                self.out.push(Effect::Write(d));
            }
            "os.mkdir" | "os.makedirs" | "os.mkfifo" | "os.mknod" | "os.chmod" | "os.lchmod"
            | "os.chown" | "os.lchown" | "os.chflags" | "os.truncate" | "os.utime"
            | "os.setxattr" | "os.removexattr" | "os.open" | "shutil.chown" => {
                let p = p0(self);
                self.out.push(Effect::Write(p));
            }
            "os.symlink" | "os.link" => {
                let d = self.arg_text(a, 1, "dst");
                self.out.push(Effect::Write(d));
            }
            "shutil.copy" | "shutil.copy2" | "shutil.copyfile" | "shutil.copytree"
            | "shutil.copymode" | "shutil.copystat" | "shutil.copyfileobj" => {
                let (s, d) = (self.arg_text(a, 0, "src"), self.arg_text(a, 1, "dst"));
                if q != "shutil.copyfileobj" {
                    self.out.push(Effect::Read(s));
                    self.out.push(Effect::Write(d));
                }
            }
            "shutil.make_archive" => {
                let p = self.arg_text(a, 0, "base_name");
                self.out.push(Effect::Write(p));
            }
            "shutil.unpack_archive" => {
                let f = self.arg_text(a, 0, "filename");
                self.out.push(Effect::Read(f));
                let d = match a.pos.get(1).copied().or_else(|| a.kw_value("extract_dir")) {
                    Some(n) => self.eval(n).text(),
                    None => Text::lit("."),
                };
                self.out.push(Effect::Write(d));
            }
            "os.kill" | "os.killpg" => {
                let pid = self.arg_text(a, 0, "pid");
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            "os.listdir"
            | "os.scandir"
            | "os.walk"
            | "os.stat"
            | "os.lstat"
            | "os.access"
            | "os.getcwd"
            | "os.getcwdb"
            | "os.getpid"
            | "os.getppid"
            | "os.getuid"
            | "os.geteuid"
            | "os.getgid"
            | "os.getegid"
            | "os.getlogin"
            | "os.uname"
            | "os.cpu_count"
            | "os.urandom"
            | "os.get_terminal_size"
            | "os.fspath"
            | "os.fsencode"
            | "os.fsdecode"
            | "os.strerror"
            | "os.isatty"
            | "os.getloadavg"
            | "os.times"
            | "os.readlink"
            | "os.fstat"
            | "os.get_exec_path"
            | "os.environ.keys"
            | "os.environ.__contains__"
            | "os.getenvb" => {}
            "os.getenv" | "os.environ.get" => {
                if let Some(k) = a.pos.first() {
                    self.env_key(*k);
                }
            }
            "os.environ.items" | "os.environ.values" | "os.environ.copy" => {
                self.out.push(Effect::EnvDump(format!(
                    "uses the whole environment (`{q}`)"
                )));
            }
            "shutil.which"
            | "shutil.disk_usage"
            | "shutil.get_terminal_size"
            | "glob.glob"
            | "glob.iglob"
            | "glob.escape"
            | "tempfile.gettempdir"
            | "sys.exit"
            | "sys.getsizeof"
            | "sys.getrecursionlimit"
            | "sys.setrecursionlimit"
            | "sys.getdefaultencoding"
            | "sys.getfilesystemencoding"
            | "sys.stdout.write"
            | "sys.stderr.write"
            | "sys.stdout.flush"
            | "sys.stderr.flush"
            | "sys.stdin.read"
            | "sys.stdin.readline"
            | "sys.stdin.readlines"
            | "sys.stdout.buffer.write"
            | "sys.stdin.buffer.read"
            | "sys.intern"
            | "io.StringIO"
            | "io.BytesIO"
            | "io.TextIOWrapper"
            | "asyncio.run"
            | "asyncio.sleep"
            | "asyncio.gather"
            | "asyncio.wait_for"
            | "asyncio.get_event_loop"
            | "asyncio.new_event_loop"
            | "asyncio.Queue"
            | "asyncio.Event"
            | "asyncio.Lock"
            | "asyncio.Semaphore"
            | "asyncio.create_task"
            | "asyncio.wait"
            | "asyncio.TimeoutError"
            | "subprocess.CalledProcessError"
            | "sqlite3.Row" => {}
            "pathlib.Path"
            | "pathlib.PurePath"
            | "pathlib.PosixPath"
            | "pathlib.PurePosixPath"
            | "pathlib.Path.home"
            | "pathlib.Path.cwd"
            | "os.path.join" => {}
            _ if q
                .strip_prefix("os.path.")
                .is_some_and(|rest| !rest.contains('.') && plain_members(rest)) => {}
            "io.open" | "codecs.open" | "gzip.open" | "bz2.open" | "lzma.open" => self.open(a, 0),
            "tarfile.open" | "zipfile.ZipFile" | "tarfile.TarFile" => {
                let p = self.arg_text(a, 0, "name");
                let mode = a.pos.get(1).copied().or_else(|| a.kw_value("mode"));
                self.open_mode(p, mode);
            }
            "sqlite3.connect" => {
                let p = p0(self);
                if p.known().as_deref() != Some(":memory:") {
                    self.out.push(Effect::Write(p));
                }
            }
            _ if top == "tempfile" => {
                self.out.push(Effect::Write(Text::lit("/tmp/tmp-python")));
            }
            _ if is_network(q) => self.out.push(Effect::Network(q.to_string())),
            "asyncio.open_connection" | "asyncio.start_server" => {
                self.out.push(Effect::Network(q.to_string()))
            }
            _ if is_pure(q) => {}
            _ => self.out.opaque(format!("calls `{q}`, which is not known")),
        }
    }

    fn subprocess(&mut self, a: &Args<'t>) {
        for k in ["env", "executable", "preexec_fn", "input", "stdin"] {
            if a.kw_value(k).is_some() {
                self.out.opaque(format!(
                    "starts a program with `{k}=`, which changes what it runs"
                ));
            }
        }
        if a.splat {
            self.out.opaque("starts a program with arguments not known");
        }
        let shell = a.kw_value("shell").is_some_and(|v| self.t(v) != "False");
        let prefix = match a.kw_value("cwd") {
            Some(c) => {
                let dir = self.eval(c).text();
                Some(dir)
            }
            None => None,
        };
        let Some(first) = a.pos.first().copied().or_else(|| a.kw_value("args")) else {
            self.out.opaque("starts a program not named here");
            return;
        };
        let v = self.eval(first);
        let in_dir = |cmd: Text| -> Text {
            match &prefix {
                Some(dir) => Text::lit("cd ")
                    .concat(Text::lit(dir.shell_word()))
                    .concat(Text::lit(" && "))
                    .concat(cmd),
                None => cmd,
            }
        };
        match v {
            V::List(items) if !items.is_empty() => {
                if shell {
                    let cmd = items[0].text();
                    self.out.push(Effect::Shell(in_dir(cmd)));
                } else if let Some(dir) = &prefix {
                    let line = items
                        .iter()
                        .map(|i| i.text().shell_word())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let cmd = Text::lit(format!("cd {} && {line}", dir.shell_word()));
                    self.out.push(Effect::Shell(cmd));
                } else {
                    self.out
                        .push(Effect::Exec(items.iter().map(V::text).collect()));
                }
            }
            V::Str(s) | V::Path(s) => self.out.push(Effect::Shell(in_dir(s))),
            _ => self
                .out
                .opaque("starts a program whose command is not known"),
        }
        // `cwd=` given as an unknown folder: the command runs somewhere not known.
        if prefix.as_ref().is_some_and(|d| !d.is_known()) {
            self.out.opaque("starts a program in a folder not known");
        }
    }

    fn method_call(&mut self, recv: V, method: &str, a: &Args<'t>) {
        let path = match &recv {
            V::Path(p) => Some(p.clone()),
            _ => None,
        };
        let on = |p: &Option<Text>| p.clone().unwrap_or_else(Text::unknown);
        match method {
            "unlink" | "rmdir" => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: false,
            }),
            "write_text" | "write_bytes" | "touch" | "mkdir" | "chmod" | "lchmod"
            | "symlink_to" | "hardlink_to" | "link_to" => self.out.push(Effect::Write(on(&path))),
            "rename" | "replace" if path.is_some() || a.pos.len() == 1 => {
                self.out.push(Effect::Write(on(&path)));
                let d = self.arg_text(a, 0, "target");
                self.out.push(Effect::Write(d));
            }
            "copy" | "copy_into" | "move" | "move_into" if path.is_some() => {
                self.out.push(Effect::Write(on(&path)));
                let d = self.arg_text(a, 0, "target");
                self.out.push(Effect::Write(d));
            }
            "read_text" | "read_bytes" => self.out.push(Effect::Read(on(&path))),
            "open" if path.is_some() => {
                let mode = a.pos.first().copied().or_else(|| a.kw_value("mode"));
                self.open_mode(on(&path), mode);
            }
            "open" => {
                if let Some(m) = a.pos.get(1).copied().or_else(|| a.kw_value("mode")) {
                    if self
                        .eval(m)
                        .text()
                        .known()
                        .is_none_or(|m| m.contains(['w', 'a', 'x', '+']))
                    {
                        self.out.push(Effect::Write(Text::unknown()));
                    }
                }
            }
            "extractall" | "extract" => {
                let d = match a
                    .pos
                    .get(usize::from(method == "extract"))
                    .copied()
                    .or_else(|| a.kw_value("path"))
                {
                    Some(n) => self.eval(n).text(),
                    None => Text::lit("."),
                };
                self.out.push(Effect::Write(d));
            }
            "system" | "popen" | "spawn" | "execv" | "execvp" => {
                self.out
                    .opaque(format!("calls `.{method}` on an object not known"));
            }
            _ => {}
        }
    }
}

#[derive(Default)]
struct Args<'t> {
    pos: Vec<Node<'t>>,
    kw: Vec<(String, Node<'t>)>,
    splat: bool,
}

impl<'t> Args<'t> {
    fn kw_value(&self, k: &str) -> Option<Node<'t>> {
        self.kw.iter().find(|(n, _)| n == k).map(|(_, v)| *v)
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
    fn reads_and_prints_are_known() {
        let e = effects("import json; print(json.load(open('package.json'))['version'])");
        assert_eq!(
            e,
            vec![
                Effect::Import("json".into()),
                Effect::Read(lit("package.json"))
            ]
        );
        assert_eq!(effects("print(1+2)"), vec![]);
    }

    #[test]
    fn deletes_resolve_home() {
        let e = effects("import shutil,os; shutil.rmtree(os.path.expanduser('~'))");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~"),
                recursive: true
            }),
            "{e:?}"
        );
        let e = effects("import shutil, pathlib; shutil.rmtree(pathlib.Path.home())");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~"),
                recursive: true
            }),
            "{e:?}"
        );
        let e = effects("from pathlib import Path\n(Path.home() / '.ssh' / 'id_rsa').unlink()");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~/.ssh/id_rsa"),
                recursive: false
            }),
            "{e:?}"
        );
        let e = effects("import os\nd = os.environ['HOME']\nos.remove(os.path.join(d, '.bashrc'))");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~/.bashrc"),
                recursive: false
            }),
            "{e:?}"
        );
    }

    #[test]
    fn writes_by_mode() {
        let e =
            effects("import os; open(os.path.expanduser('~/.ssh/authorized_keys'),'a').write('k')");
        assert!(
            e.contains(&Effect::Write(lit("~/.ssh/authorized_keys"))),
            "{e:?}"
        );
        let e = effects("with open('out.txt', 'w') as f: f.write('x')");
        assert_eq!(e, vec![Effect::Write(lit("out.txt"))]);
    }

    #[test]
    fn processes_are_commands() {
        let e = effects("import os; os.system('rm -rf ~')");
        assert!(e.contains(&Effect::Shell(lit("rm -rf ~"))));
        let e = effects("import subprocess; subprocess.run(['rm', '-rf', '/'])");
        assert!(
            e.contains(&Effect::Exec(vec![lit("rm"), lit("-rf"), lit("/")])),
            "{e:?}"
        );
        let e = effects("from subprocess import check_output as co\nco('ls -l', shell=True)");
        assert!(e.contains(&Effect::Shell(lit("ls -l"))), "{e:?}");
    }

    #[test]
    fn dynamic_code_is_opaque() {
        for src in [
            "import shlex; shlex.os.system('rm -rf /')",
            "from shlex import os; os.system('ls')",
            "import os.path as p; p.os.system('ls')",
            "import json; json.codecs.open('x', 'w')",
            "exec('print(1)')",
            "import base64; exec(base64.b64decode('cHJpbnQoMSk='))",
            "__import__('os').system('ls')",
            "import os; f = os.system; f('ls')",
            "import os; getattr(os, 'system')('ls')",
            "import numpy",
            "from . import x",
            "from os import *",
            "foo()",
            "print(().__class__.__bases__)",
            "import os; os.chdir('/')",
            "x = [1,",
        ] {
            assert!(analyze(src).is_opaque(), "{src}");
        }
    }

    #[test]
    fn environment() {
        let e = effects("import os; print(os.environ)");
        assert!(e.iter().any(|x| matches!(x, Effect::EnvDump(_))), "{e:?}");
        let e = effects("import os; print(os.environ.get('PATH'))");
        assert!(
            !e.iter()
                .any(|x| matches!(x, Effect::EnvDump(_) | Effect::Opaque(_))),
            "{e:?}"
        );
        let e = effects("import os; print(os.environ['GITHUB_TOKEN'])");
        assert!(e.iter().any(|x| matches!(x, Effect::SecretEnv(_))), "{e:?}");
    }

    #[test]
    fn globs_in_loops() {
        let e = effects(
            "import glob, json\nfor f in glob.glob('*.json'):\n    print(json.load(open(f)))",
        );
        assert!(e.contains(&Effect::Read(lit("*.json"))), "{e:?}");
    }

    #[test]
    fn network() {
        let e = effects("import urllib.request; urllib.request.urlopen('https://x', data=b'1')");
        assert!(e.iter().any(|x| matches!(x, Effect::Network(_))), "{e:?}");
    }
}
