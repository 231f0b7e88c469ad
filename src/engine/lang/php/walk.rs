//! The two passes over a PHP snippet (see `walker`): the variables assigned and the
//! functions defined collected, then every node judged, static calls, `new` and the
//! constructs that run code the text does not show (`eval`, `include`) made opaque.

use super::Walker;
use crate::engine::lang::walker::Reader;
use crate::engine::lang::{Effect, SyntaxWalk};
use tree_sitter::Node;

impl<'t> Reader<'t> for Walker<'t> {
    const NAME: &'static str = "variable_name";

    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "assignment_expression"
            | "augmented_assignment_expression"
            | "reference_assignment_expression" => {
                if let Some(l) = self.field(n, "left") {
                    if l.kind() == "variable_name" {
                        let name = self.t(l).to_string();
                        let v = (n.kind() == "assignment_expression")
                            .then(|| self.field(n, "right"))
                            .flatten();
                        match v {
                            Some(_) => self.assigned.give(name, v),
                            None => self.assigned.unknown(name),
                        }
                    }
                }
                // `$x[0] = …` changes what `$x` holds.
                if let Some(base) = self
                    .field(n, "left")
                    .filter(|l| l.kind() == "subscript_expression")
                    .and_then(|l| self.kids(l).into_iter().next())
                    .filter(|b| b.kind() == "variable_name" && !self.t(*b).starts_with("$_"))
                {
                    self.unknown_names(base);
                }
                // `$y = &$x`: a change through `$y` changes `$x`.
                if n.kind() == "reference_assignment_expression" {
                    if let Some(r) = self.field(n, "right") {
                        self.unknown_names(r);
                    }
                }
            }
            // `&$x` in a `use` clause, a call or a `foreach`: `$x` may change there.
            "by_ref" => self.unknown_names(n),
            "reference_modifier" => self
                .out
                .opaque("defines a function that changes its caller's variables (`&$v`)"),
            "function_definition" => {
                if let Some(name) = self.field(n, "name") {
                    self.local.insert(self.t(name).to_ascii_lowercase());
                }
            }
            "foreach_statement" | "simple_parameter" | "list_literal" | "catch_clause"
            | "variadic_parameter" => {
                for c in self.kids(n) {
                    if c.kind() == "variable_name" {
                        self.assigned.unknown(self.t(c));
                    }
                }
            }
            _ => {}
        }
    }

    fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "comment" => {}
            "shell_command_expression" => self.command_literal(n, Self::string),
            "function_call_expression" => self.call(n),
            "include_expression"
            | "include_once_expression"
            | "require_expression"
            | "require_once_expression" => self.out.opaque("loads another file of code"),
            "member_call_expression" | "nullsafe_member_call_expression" => {
                // Methods of objects made here: only what made them has effects.
                self.children(n);
            }
            "scoped_call_expression" => self.walk_static_call(n),
            "object_creation_expression" => self.walk_new(n),
            "subscript_expression" => {
                let kids = self.kids(n);
                if kids
                    .first()
                    .is_some_and(|b| self.t(*b) == "$_ENV" || self.t(*b) == "$_SERVER")
                {
                    self.eval(n);
                    for k in kids.into_iter().skip(1) {
                        self.walk(k);
                    }
                    return;
                }
                self.children(n);
            }
            "dynamic_variable_name" => self.out.opaque("names a variable at run time (`$$name`)"),
            "variable_name" => {
                let name = self.t(n);
                if matches!(name, "$_ENV" | "$_SERVER" | "$GLOBALS") {
                    self.out.push(Effect::EnvDump(format!(
                        "uses the whole environment (`{name}`)"
                    )));
                }
            }
            "function_definition" | "anonymous_function" | "arrow_function" => {
                if let Some(b) = self.field(n, "body") {
                    self.walk(b);
                }
            }
            _ => self.children(n),
        }
    }
}

impl<'t> Walker<'t> {
    /// `Class::method()`: only the classes that compute are known.
    pub(super) fn walk_static_call(&mut self, n: Node<'t>) {
        self.children(n);
        let scope = self.field(n, "scope").map(|s| self.t(s)).unwrap_or("");
        if !matches!(
            scope,
            "DateTime" | "DateTimeImmutable" | "Closure" | "self" | "static" | "parent"
        ) {
            self.out
                .opaque(format!("calls a method of `{scope}`, which is not known"));
        }
    }

    /// `new Class`: only the classes that compute are known.
    pub(super) fn walk_new(&mut self, n: Node<'t>) {
        self.children(n);
        let class = self.kids(n).first().map(|c| self.t(*c)).unwrap_or("");
        if !matches!(
            class,
            "DateTime"
                | "DateTimeImmutable"
                | "ArrayObject"
                | "stdClass"
                | "Exception"
                | "ArrayIterator"
        ) {
            self.out
                .opaque(format!("creates `{class}`, which is not known"));
        }
    }
}
