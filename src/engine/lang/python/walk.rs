//! The two passes over a Python snippet (see `walker`): the imports, definitions and
//! assignments collected, then every node judged, imports checked, modules and names used
//! as values (not called) made opaque or listed.

use super::{is_network, is_pure, module_known, Walker, DYNAMIC, VALUES};
use crate::engine::lang::walker::Reader;
use crate::engine::lang::Effect;
use crate::engine::lang::SyntaxWalk;
use tree_sitter::Node;

impl<'t> Reader<'t> for Walker<'t> {
    /// First pass: imports, definitions and assignments.
    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "import_statement" => self.collect_import(n),
            "import_from_statement" => self.collect_import_from(n),
            "function_definition" | "class_definition" => {
                if let Some(name) = self.field(n, "name") {
                    self.local.insert(self.t(name).to_string());
                }
                if let Some(p) = self.field(n, "parameters") {
                    self.bind_params(p);
                }
            }
            "lambda" => {
                if let Some(p) = self.field(n, "parameters") {
                    self.bind_params(p);
                }
            }
            "assignment" => {
                if let Some(left) = self.field(n, "left") {
                    if left.kind() == "identifier" {
                        let name = self.t(left).to_string();
                        self.assign(&name, self.field(n, "right"));
                    } else {
                        self.bind_unknown(left);
                    }
                }
            }
            "augmented_assignment" | "named_expression" => {
                if let Some(left) = self.field(n, "left").or_else(|| self.field(n, "name")) {
                    self.bind_unknown(left);
                }
            }
            "for_statement" | "for_in_clause" => self.collect_loop(n),
            "as_pattern" => {
                if let Some(a) = self.field(n, "alias") {
                    // `with tempfile.TemporaryDirectory() as d:` binds the folder's path,
                    // which the call's value is (see `module_function_value`); any other
                    // name bound by `with … as` or `except … as` is not known.
                    let value = self.kids(n).into_iter().find(|c| c.id() != a.id());
                    let temp_dir = value.filter(|v| {
                        v.kind() == "call"
                            && n.parent().is_some_and(|p| p.kind() == "with_item")
                            && self
                                .field(*v, "function")
                                .is_some_and(|f| self.t(f).ends_with("TemporaryDirectory"))
                    });
                    let target = self
                        .kids(a)
                        .into_iter()
                        .next()
                        .filter(|_| a.kind() != "identifier");
                    let name = match (a.kind(), target) {
                        ("identifier", _) => Some(a),
                        (_, Some(t)) if t.kind() == "identifier" => Some(t),
                        _ => None,
                    };
                    match (temp_dir, name) {
                        (Some(v), Some(id)) => {
                            let name = self.t(id).to_string();
                            self.assign(&name, Some(v));
                        }
                        _ => self.bind_unknown(a),
                    }
                }
            }
            // `case x:` binds `x` to what is matched, and so may any name in a pattern.
            "case_pattern" => self.unknown_names(n),
            "global_statement" | "nonlocal_statement" => {
                for c in self.kids(n) {
                    self.bind_unknown(c);
                }
            }
            _ => {}
        }
    }

    fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "import_statement" => self.walk_import(n),
            "import_from_statement" => self.walk_import_from(n),
            "future_import_statement" | "comment" | "pass_statement" => {}
            "exec_statement" => self.out.opaque("runs code given as a string (`exec`)"),
            "call" => self.call(n),
            "attribute" => self.attribute_value(n),
            "identifier" => self.identifier_value(n),
            "subscript" => self.walk_subscript(n),
            "keyword_argument" => {
                if let Some(v) = self.field(n, "value") {
                    self.walk(v);
                }
            }
            "function_definition" | "class_definition" => {
                for c in self.kids(n) {
                    if Some(c.id()) != self.field(n, "name").map(|x| x.id()) {
                        self.walk(c);
                    }
                }
            }
            "parameters" | "lambda_parameters" => {
                // Default values only.
                for p in self.kids(n) {
                    if let Some(v) = self.field(p, "value") {
                        self.walk(v);
                    }
                }
            }
            "assignment" | "augmented_assignment" => self.walk_assignment(n),
            "for_statement" | "for_in_clause" => self.walk_loop(n),
            "as_pattern" => {
                for c in self.kids(n) {
                    if Some(c.id()) != self.field(n, "alias").map(|x| x.id()) {
                        self.walk(c);
                    }
                }
            }
            "global_statement" | "nonlocal_statement" => {}
            "dotted_name" => {}
            _ => self.children(n),
        }
    }
}

impl<'t> Walker<'t> {
    /// `import a, b.c`: every module imported is known.
    fn walk_import(&mut self, n: Node<'t>) {
        for c in self.kids(n) {
            let name = match c.kind() {
                "aliased_import" => self.field(c, "name"),
                _ => Some(c),
            };
            if let Some(name) = name {
                let m = self.t(name).to_string();
                self.import(&m);
            }
        }
    }

    /// `from a import b`: the module is known, and not project code or every name.
    fn walk_import_from(&mut self, n: Node<'t>) {
        let module = self.field(n, "module_name");
        match module {
            Some(m) if m.kind() == "dotted_name" => {
                let m = self.t(m).to_string();
                self.import(&m);
            }
            _ => self.out.opaque("imports from a module of the project"),
        }
        if self.kids(n).iter().any(|c| c.kind() == "wildcard_import") {
            self.out.opaque("imports every name of a module");
        }
    }

    /// `os.environ[x]`: read, or (assigned or deleted) changed for the programs started.
    fn walk_subscript(&mut self, n: Node<'t>) {
        let value = self.field(n, "value");
        if let Some(v) = value {
            if self.qualify(v).as_deref() == Some("os.environ") {
                if let Some(k) = self.field(n, "subscript") {
                    self.env_var(Some(k));
                    self.walk(k);
                }
                if self.parent(n).is_some_and(|p| {
                    matches!(
                        p.kind(),
                        "assignment" | "augmented_assignment" | "delete_statement"
                    ) && self.field(p, "left").is_none_or(|l| l.id() == n.id())
                }) || self
                    .parent(n)
                    .is_some_and(|p| p.kind() == "delete_statement")
                {
                    self.out
                        .opaque("changes the environment of the programs it starts");
                }
                return;
            }
        }
        self.children(n);
    }

    /// A loop: what it loops over, its body, and a comprehension's conditions.
    fn walk_loop(&mut self, n: Node<'t>) {
        if let Some(l) = self.field(n, "left") {
            if !matches!(l.kind(), "identifier" | "pattern_list" | "tuple_pattern") {
                self.walk(l);
            }
        }
        for f in ["right", "body", "alternative"] {
            if let Some(c) = self.field(n, f) {
                self.walk(c);
            }
        }
        if n.kind() == "for_in_clause" {
            // The rest of a clause holds its conditions.
            for c in self.kids(n).into_iter().skip(2) {
                self.walk(c);
            }
        }
    }

    pub(super) fn import(&mut self, m: &str) {
        if !module_known(m) {
            self.out.opaque(format!(
                "imports `{m}`, whose code is not known to have no effects"
            ));
            return;
        }
        let top = m.split('.').next().unwrap_or(m);
        self.out.push(Effect::Import(top.to_string()));
    }

    pub(super) fn identifier_value(&mut self, n: Node<'t>) {
        let name = self.t(n);
        if self.binds(name) || self.reaches_code(name, DYNAMIC) {
            return;
        }
        if name == "open" {
            self.out
                .opaque("passes `open` on, to open files not named here");
            return;
        }
        if let Some(q) = self
            .lang
            .modules
            .get(name)
            .or_else(|| self.lang.names.get(name))
            .cloned()
        {
            self.module_value(&q, n);
        }
    }

    /// A module attribute used as a value (not called).
    pub(super) fn module_value(&mut self, q: &str, n: Node<'t>) {
        if q == "os.environ" {
            let parent = self.parent(n);
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

    pub(super) fn attribute_value(&mut self, n: Node<'t>) {
        let attr = self.field(n, "attribute").map(|a| self.t(a)).unwrap_or("");
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
        if let Some(obj) = self.field(n, "object") {
            self.walk(obj);
        }
    }
}
