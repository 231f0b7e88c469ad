//! Python: the effects of a snippet, read with tree-sitter-python.
//!
//! Every call is looked up: builtins, functions of the modules imported (by their full
//! name, whatever alias or `from … import` brought them in), methods of `pathlib` paths,
//! and methods that change files whatever object has them (`unlink`, `write_text` …). A
//! call that is none of these, an import of a module not listed, or a use of a module or
//! of `eval`/`exec`/`getattr` as a value is opaque.

use std::collections::HashMap;

use super::walker::{self, judge};
use super::{Judged, Lang, SyntaxWalk};
use tree_sitter::Node;

mod calls;
mod values;
mod walk;

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

/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    let grammar = tree_sitter_python::LANGUAGE.into();
    super::read(grammar, src, Lang::Python, |syntax| {
        judge(syntax, Python::default())
    })
}

/// What the Python reader keeps of its own: the names imports bind, and loop variables.
#[derive(Default)]
struct Python<'t> {
    /// Local name → module (`import os.path as p` binds `p` to `os.path`).
    modules: HashMap<String, String>,
    /// Local name → full name (`from shutil import rmtree as r`: `r` → `shutil.rmtree`).
    names: HashMap<String, String>,
    /// Loop variable → what it loops over.
    loops: HashMap<String, Node<'t>>,
}

type Walker<'t> = walker::Walker<'t, Python<'t>>;

fn module_known(m: &str) -> bool {
    let top = m.split('.').next().unwrap_or(m);
    [PURE, EFFECTFUL, NETWORK]
        .iter()
        .any(|l| l.contains(&m) || l.contains(&top))
}

fn is_network(q: &str) -> bool {
    super::in_list(q, NETWORK)
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
    fn assign(&mut self, name: &str, value: Option<Node<'t>>) {
        self.assigned.give(name, value);
    }

    /// Every name a pattern binds, as unknown.
    fn bind_unknown(&mut self, pattern: Node<'t>) {
        if pattern.kind() == "identifier" {
            let name = self.t(pattern).to_string();
            self.assigned.unknown(name);
            return;
        }
        for c in self.kids(pattern) {
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

    /// `import a.b` and `import a as b`: the modules bound to names.
    fn collect_import(&mut self, n: Node<'t>) {
        for c in self.kids(n) {
            match c.kind() {
                "dotted_name" => {
                    let full = self.t(c).to_string();
                    let top = full.split('.').next().unwrap_or("").to_string();
                    self.lang.modules.insert(top.clone(), top);
                    self.lang.modules.insert(full.clone(), full);
                }
                "aliased_import" => {
                    let (Some(name), Some(alias)) = (self.field(c, "name"), self.field(c, "alias"))
                    else {
                        continue;
                    };
                    self.lang
                        .modules
                        .insert(self.t(alias).to_string(), self.t(name).to_string());
                }
                _ => {}
            }
        }
    }

    /// `from a import b as c`: the full names bound to names.
    fn collect_import_from(&mut self, n: Node<'t>) {
        let module = self
            .field(n, "module_name")
            .map(|m| self.t(m).to_string())
            .unwrap_or_default();
        let mut c = n.walk();
        let names: Vec<Node> = n.children_by_field_name("name", &mut c).collect();
        for name in names {
            let (real, alias) = match name.kind() {
                "aliased_import" => (
                    self.field(name, "name").map(|x| self.t(x)),
                    self.field(name, "alias").map(|x| self.t(x)),
                ),
                _ => (Some(self.t(name)), Some(self.t(name))),
            };
            if let (Some(real), Some(alias)) = (real, alias) {
                let full = format!("{module}.{real}");
                if module_known(&full) && !is_pure(&module) {
                    self.lang.modules.insert(alias.to_string(), full.clone());
                }
                self.lang.names.insert(alias.to_string(), full);
            }
        }
    }

    /// A loop variable: what it loops over, when it is bound nowhere else.
    fn collect_loop(&mut self, n: Node<'t>) {
        if let Some(left) = self.field(n, "left") {
            if left.kind() == "identifier" {
                let name = self.t(left).to_string();
                let first = !self.lang.loops.contains_key(&name);
                match self.field(n, "right") {
                    Some(r) if first => {
                        self.lang.loops.insert(name.clone(), r);
                    }
                    _ => {
                        self.assign(&name, None);
                    }
                }
                self.assigned.unknown(name);
            } else {
                self.bind_unknown(left);
            }
        }
    }

    fn bind_params(&mut self, params: Node<'t>) {
        for p in self.kids(params) {
            let name = match p.kind() {
                "identifier" => Some(p),
                _ => self
                    .field(p, "name")
                    .or_else(|| self.kids(p).into_iter().find(|c| c.kind() == "identifier")),
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
                if self.binds(name) {
                    return None;
                }
                self.lang
                    .modules
                    .get(name)
                    .or_else(|| self.lang.names.get(name))
                    .cloned()
            }
            "attribute" => {
                let obj = self.field(n, "object")?;
                let attr = self.field(n, "attribute")?;
                let base = self.qualify(obj)?;
                Some(format!("{base}.{}", self.t(attr)))
            }
            _ => None,
        }
    }

    /// Whether a full name is (in) a module imported by the snippet.
    fn is_module_name(&self, q: &str) -> bool {
        self.lang.modules.values().any(|m| m == q)
    }
}

#[cfg(test)]
mod tests;
