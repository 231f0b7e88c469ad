//! The two passes over a JavaScript snippet (see `walker`): the names bound to modules
//! and values collected, then every node judged, `require` and `import` checked, modules
//! and globals used as values (not called) made opaque or listed.

use super::{in_list, module_name, JsValue, Walker, DYNAMIC, GLOBALS, NETWORK, PURE};
use crate::engine::lang::walker::Reader;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{Effect, Text};
use tree_sitter::Node;

impl<'t> Reader<'t> for Walker<'t> {
    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "variable_declarator" => self.collect_declarator(n),
            "assignment_expression" | "augmented_assignment_expression" => {
                if let Some(l) = self.field(n, "left") {
                    self.collect_assigned(l);
                }
            }
            "update_expression" => {
                if let Some(l) = self.field(n, "argument") {
                    self.collect_assigned(l);
                }
            }
            "import_statement" => self.collect_import(n),
            "function_declaration"
            | "class_declaration"
            | "function_expression"
            | "generator_function_declaration" => {
                if let Some(name) = self.field(n, "name") {
                    self.local.insert(self.t(name).to_string());
                }
                if let Some(p) = self.field(n, "parameters") {
                    self.bind_pattern(p, None);
                }
            }
            "arrow_function" | "method_definition" => {
                if let Some(p) = self
                    .field(n, "parameters")
                    .or_else(|| self.field(n, "parameter"))
                {
                    self.bind_pattern(p, None);
                }
            }
            "catch_clause" => {
                if let Some(p) = self.field(n, "parameter") {
                    self.bind_pattern(p, None);
                }
            }
            "for_in_statement" => {
                if let Some(l) = self.field(n, "left") {
                    self.bind_pattern(l, None);
                }
            }
            _ => {}
        }
    }

    fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "comment" | "hash_bang_line" => {}
            "import_statement" => {
                let source = self
                    .field(n, "source")
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
            "subscript_expression" => self.walk_subscript(n),
            "identifier" => self.identifier_value(n),
            "variable_declarator" => {
                if let Some(v) = self.field(n, "value") {
                    if self.required(v).is_some() {
                        self.require_chain(v);
                    } else {
                        self.walk(v);
                    }
                }
            }
            "assignment_expression" | "augmented_assignment_expression" => self.walk_assignment(n),
            "function_declaration"
            | "class_declaration"
            | "function_expression"
            | "arrow_function"
            | "method_definition"
            | "generator_function_declaration" => self.walk_function(n),
            "pair" => {
                if let Some(v) = self.field(n, "value") {
                    self.walk(v);
                }
                if let Some(k) = self.field(n, "key") {
                    if k.kind() == "computed_property_name" {
                        self.walk(k);
                    }
                }
            }
            "for_in_statement" => {
                for f in ["right", "body"] {
                    if let Some(c) = self.field(n, f) {
                        self.walk(c);
                    }
                }
            }
            "with_statement" => self.walk_with(n),
            "catch_clause" => {
                if let Some(b) = self.field(n, "body") {
                    self.walk(b);
                }
            }
            "shorthand_property_identifier" => {
                let name = self.t(n);
                if self.lang.bound.contains_key(name) {
                    self.out.opaque(format!("passes `{name}` on as a value"));
                }
            }
            _ => self.children(n),
        }
    }
}

impl<'t> Walker<'t> {
    /// `a[k]`: `process.env[k]` read or changed, anything else walked.
    fn walk_subscript(&mut self, n: Node<'t>) {
        if let Some(o) = self.field(n, "object") {
            let q = self.qualify(o);
            match q.as_deref() {
                Some("global.process.env" | "global.Bun.env") => {
                    self.eval(n);
                    if let Some(i) = self.field(n, "index") {
                        self.walk(i);
                    }
                    self.env_assigned(n);
                    return;
                }
                Some(q) if q.starts_with("global.") || self.lang.bound.values().any(|b| b == q) => {
                    self.out
                        .opaque(format!("reaches a member of `{q}` chosen at run time"));
                }
                _ => {}
            }
        }
        self.children(n);
    }

    /// `with (o) { … }`: names in the body may be members of `o`, so none is known.
    fn walk_with(&mut self, n: Node<'t>) {
        self.out
            .opaque("reads names through `with`, from an object's members");
        self.children(n);
    }

    /// A function or class: its body (its name and parameters only bind names).
    fn walk_function(&mut self, n: Node<'t>) {
        if let Some(b) = self.field(n, "body") {
            self.walk(b);
        }
    }

    pub(super) fn import(&mut self, m: &str) {
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
    pub(super) fn require_chain(&mut self, n: Node<'t>) {
        match n.kind() {
            "call_expression" => self.call(n),
            "member_expression" => {
                if let Some(o) = self.field(n, "object") {
                    self.require_chain(o);
                }
            }
            _ => self.walk(n),
        }
    }

    pub(super) fn identifier_value(&mut self, n: Node<'t>) {
        let name = self.t(n);
        if self.binds(name) || self.reaches_code(name, DYNAMIC) {
            return;
        }
        if name == "require" {
            self.out
                .opaque("passes `require` on, to load modules not named here");
            return;
        }
        if let Some(b) = self.lang.bound.get(name).cloned() {
            self.value_of(&b);
        }
    }

    /// A module member (or module) used as a value, not called.
    pub(super) fn value_of(&mut self, q: &str) {
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
                    // `process.versions.node` is as plain as `process.versions`.
                    q.trim_start_matches("global.process.")
                        .split('.')
                        .next()
                        .unwrap_or(""),
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

    pub(super) fn member_value(&mut self, n: Node<'t>) {
        if let Some(q) = self.qualify(n) {
            if q.starts_with("global.process.env.") || q.starts_with("global.Bun.env.") {
                self.eval(n);
                self.env_assigned(n);
                return;
            }
            self.value_of(&q);
            return;
        }
        if let Some(p) = self.field(n, "property") {
            let prop = self.t(p);
            if matches!(prop, "constructor" | "__proto__" | "prototype") {
                self.out
                    .opaque(format!("reaches the engine's internals (`{prop}`)"));
            }
        }
        if let Some(o) = self.field(n, "object") {
            self.walk(o);
        }
    }

    /// `process.env.X = …`: the environment of the programs it starts changes.
    pub(super) fn env_assigned(&mut self, n: Node<'t>) {
        if self.parent(n).is_some_and(|p| {
            matches!(
                p.kind(),
                "assignment_expression" | "augmented_assignment_expression"
            ) && self.field(p, "left").is_some_and(|l| l.id() == n.id())
        }) {
            self.out
                .opaque("changes the environment of the programs it starts");
        }
    }

    pub(super) fn new_expr(&mut self, n: Node<'t>) {
        let args = self.args(n);
        self.walk_args(&args);
        let Some(c) = self.field(n, "constructor") else {
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
                let prog = self.arg_text(&args, 0);
                let opts = args
                    .get(1)
                    .map(|a| self.eval(*a))
                    .unwrap_or(JsValue::Obj(Vec::new()));
                let mut argv = vec![prog];
                match opts.field("args") {
                    Some(JsValue::List(items)) => argv.extend(items.iter().map(JsValue::text)),
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
                    if c.kind() == "identifier" && !self.assigned.contains(name) {
                        self.out
                            .opaque(format!("creates `{name}`, which is not known"));
                    }
                }
            }
        }
    }
}
