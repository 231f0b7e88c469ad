//! The second pass over a PHP snippet: every node judged, static calls, `new` and the
//! constructs that run code the text does not show (`eval`, `include`) made opaque.

use tree_sitter::Node;

use super::Walker;
use crate::engine::lang::{Effect, SyntaxWalk};

impl<'t> Walker<'t> {
    pub(super) fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "comment" => {}
            "shell_command_expression" => {
                let cmd = self.string(n);
                self.out.push(Effect::Shell(cmd));
                self.children(n);
            }
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

    pub(super) fn children(&mut self, n: Node<'t>) {
        for c in self.kids(n) {
            self.walk(c);
        }
    }
}
