//! JavaScript (Node, Deno, Bun): the effects of a snippet, read with tree-sitter-javascript.
//!
//! Modules are followed from `require("x")` and `import`, whatever name they are bound to
//! (destructuring included); every call is looked up among the functions of the core
//! modules (`fs`, `child_process`, `os`, `path`, the network ones), the `process`, `Deno`
//! and `Bun` objects and the plain globals (`console`, `JSON`, `Math` …). Method calls on
//! other values compute only. `eval`, `Function`, `vm`, dynamic `import()`, a `require` of
//! project code or of a name computed at run time, a module used as a value, and calls of
//! anything not known are opaque.

use std::collections::HashMap;

use super::calls::Args;
use super::walker::{self, judge};
use super::{in_list, Judged, Lang, SyntaxWalk, Text};
use tree_sitter::Node;

mod calls;
mod values;
mod walk;

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
enum JsValue {
    Str(Text),
    List(Vec<JsValue>),
    /// An object literal: the values of its plain keys.
    Obj(Vec<(String, JsValue)>),
    Bool(bool),
    Other,
}

impl JsValue {
    fn text(&self) -> Text {
        match self {
            JsValue::Str(t) => t.clone(),
            _ => Text::unknown(),
        }
    }
    fn field(&self, k: &str) -> Option<&JsValue> {
        match self {
            JsValue::Obj(fields) => fields.iter().find(|(n, _)| n == k).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl walker::Computed for JsValue {
    const UNKNOWN: JsValue = JsValue::Other;
    fn text(&self) -> Text {
        JsValue::text(self)
    }
    fn items(&self) -> Option<&[JsValue]> {
        match self {
            JsValue::List(items) => Some(items),
            _ => None,
        }
    }
}

/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    let grammar = tree_sitter_javascript::LANGUAGE.into();
    super::read(grammar, src, Lang::JavaScript, |syntax| {
        judge(syntax, JavaScript::default())
    })
}

/// What the JavaScript reader keeps of its own: the names bound to modules.
#[derive(Default)]
struct JavaScript {
    /// Local name → the module or member it is bound to (`cp` → "child_process",
    /// `execSync` → "child_process.execSync").
    bound: HashMap<String, String>,
}

type Walker<'t> = walker::Walker<'t, JavaScript>;

/// The module a `require`/`import` source names (`node:fs` is `fs`).
fn module_name(s: &str) -> &str {
    s.strip_prefix("node:").unwrap_or(s)
}

impl<'t> Walker<'t> {
    fn assign(&mut self, name: &str, v: Option<Node<'t>>) {
        self.assigned.give(name, v);
    }

    /// The module a `require("x")` call (or `require("x").y`) names.
    fn required(&mut self, n: Node<'t>) -> Option<String> {
        match n.kind() {
            "call_expression" => {
                let f = self.field(n, "function")?;
                if self.t(f) != "require" {
                    return None;
                }
                let args = self.args(n);
                let m = self.eval(*args.first()?).text().known()?;
                Some(module_name(&m).to_string())
            }
            "member_expression" => {
                let base = self.required(self.field(n, "object")?)?;
                let p = self.field(n, "property")?;
                Some(format!("{base}.{}", self.t(p)))
            }
            "await_expression" | "parenthesized_expression" => {
                self.required(*self.kids(n).first()?)
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
                        self.lang.bound.insert(name, m.to_string());
                    }
                    None => self.assigned.unknown(name),
                }
            }
            "object_pattern" => {
                for c in self.kids(pattern) {
                    match c.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let name = self.t(c).to_string();
                            match module {
                                Some(m) => {
                                    self.lang.bound.insert(name.clone(), format!("{m}.{name}"));
                                }
                                None => self.assigned.unknown(name),
                            }
                        }
                        "pair_pattern" => {
                            let key = self.field(c, "key").map(|k| self.t(k).to_string());
                            if let Some(v) = self.field(c, "value") {
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
                for c in self.kids(pattern) {
                    self.bind_pattern(c, None);
                }
            }
        }
    }

    /// The left side of an assignment: a name, a pattern (`[x] = …`, `({x} = …)`), or a
    /// global's member (`this.x = …`, `globalThis.x = …`: a `var x` of the snippet is that
    /// member), each bound to a value not known.
    fn collect_assigned(&mut self, l: Node<'t>) {
        match l.kind() {
            "identifier" => {
                let nm = self.t(l).to_string();
                self.assign(&nm, None);
                self.assign(&nm, None);
            }
            "array_pattern" | "object_pattern" => self.bind_pattern(l, None),
            "member_expression" => {
                let global = self.field(l, "object").is_some_and(|o| {
                    matches!(
                        self.t(o),
                        "this" | "globalThis" | "global" | "window" | "self"
                    )
                });
                if let (true, Some(p)) = (global, self.field(l, "property")) {
                    let nm = self.t(p).to_string();
                    self.assign(&nm, None);
                    self.assign(&nm, None);
                }
            }
            "parenthesized_expression" => {
                if let Some(c) = self.kids(l).first() {
                    self.collect_assigned(*c);
                }
            }
            _ => {}
        }
    }

    /// `const x = …` (or a pattern): the names it binds, and the module a `require` gives.
    fn collect_declarator(&mut self, n: Node<'t>) {
        if let Some(name) = self.field(n, "name") {
            let value = self.field(n, "value");
            let module = value.and_then(|v| self.required(v)).or_else(|| {
                // `const {env} = process`: the members of a global, by their full names.
                value
                    .filter(|_| name.kind() == "object_pattern")
                    .and_then(|v| self.qualify(v))
                    .filter(|q| q.starts_with("global."))
            });
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

    /// `import … from "m"`: the names bound to the module or its members.
    fn collect_import(&mut self, n: Node<'t>) {
        let source = self
            .field(n, "source")
            .map(|s| self.eval(s).text().known().unwrap_or_default())
            .unwrap_or_default();
        let m = module_name(&source).to_string();
        for clause in self
            .kids(n)
            .into_iter()
            .filter(|c| c.kind() == "import_clause")
        {
            for c in self.kids(clause) {
                match c.kind() {
                    "identifier" => {
                        self.lang.bound.insert(self.t(c).to_string(), m.clone());
                    }
                    "namespace_import" => {
                        if let Some(id) = self.kids(c).first() {
                            self.lang.bound.insert(self.t(*id).to_string(), m.clone());
                        }
                    }
                    "named_imports" => {
                        for s in self.kids(c) {
                            let name = self.field(s, "name").map(|x| self.t(x));
                            let alias = self.field(s, "alias").map(|x| self.t(x));
                            if let Some(name) = name {
                                let local = alias.unwrap_or(name);
                                self.lang
                                    .bound
                                    .insert(local.to_string(), format!("{m}.{name}"));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// The full name an expression stands for: a module, a member of one, or a global.
    fn qualify(&mut self, n: Node<'t>) -> Option<String> {
        match n.kind() {
            "identifier" => {
                let name = self.t(n);
                if self.binds(name) {
                    return None;
                }
                if let Some(b) = self.lang.bound.get(name) {
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
                let obj = self.field(n, "object")?;
                let p = self.field(n, "property")?;
                let base = self.qualify(obj)?;
                Some(format!("{base}.{}", self.t(p)))
            }
            "parenthesized_expression" => self.qualify(*self.kids(n).first()?),
            "call_expression" => {
                // `require("fs").readFileSync`
                let f = self.field(n, "function")?;
                if self.t(f) == "require" && !self.lang.bound.contains_key("require") {
                    let args = self.field(n, "arguments")?;
                    let first = self.kids(args).into_iter().next()?;
                    // The name as `required` reads it: `require(m)` with `m` known counts.
                    let s = self.eval(first).text().known()?;
                    if s.starts_with('.') || s.starts_with('/') {
                        return None;
                    }
                    return Some(module_name(&s).to_string());
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

    /// A call's arguments, all by position (a spread `...xs` is one whose value is not
    /// known).
    fn args(&self, call: Node<'t>) -> Args<'t> {
        let pos = match self.field(call, "arguments") {
            Some(a) if a.kind() == "arguments" => self
                .kids(a)
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .collect(),
            // A tagged template: the template is the argument.
            Some(a) => vec![a],
            None => Vec::new(),
        };
        Args {
            pos,
            ..Args::default()
        }
    }
}

#[cfg(test)]
mod tests;
