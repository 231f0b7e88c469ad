//! The two passes over a Ruby snippet (see `walker`): the names assigned and defined
//! collected, then every node judged, bare names and constants used as values made opaque
//! or listed.

use super::{Walker, DYNAMIC, KERNEL, NETWORK, PURE};
use crate::engine::lang::walker::Reader;
use crate::engine::lang::Effect;
use crate::engine::lang::SyntaxWalk;
use tree_sitter::Node;

impl<'t> Reader<'t> for Walker<'t> {
    fn collect(&mut self, n: Node<'t>) {
        match n.kind() {
            "assignment" => {
                if let Some(l) = self.field(n, "left") {
                    if l.kind() == "identifier" {
                        let name = self.t(l).to_string();
                        let r = self.field(n, "right");
                        self.assigned.give(name, r);
                    } else {
                        self.unknown_names(l);
                    }
                }
            }
            "operator_assignment" => {
                if let Some(l) = self.field(n, "left") {
                    self.unknown_names(l);
                }
            }
            "method" | "singleton_method" | "class" | "module" => {
                if let Some(name) = self.field(n, "name") {
                    self.local.insert(self.t(name).to_string());
                }
                if let Some(p) = self.field(n, "parameters") {
                    self.unknown_names(p);
                }
            }
            // `Dir.mktmpdir { |d| … }` gives its block the folder's path, the call's value.
            "block_parameters" => match self.mktmpdir_block(n) {
                Some((name, call)) => self.assigned.give(name, Some(call)),
                None => self.unknown_names(n),
            },
            "lambda_parameters" => self.unknown_names(n),
            "for" => {
                if let Some(p) = self.field(n, "pattern") {
                    self.unknown_names(p);
                }
            }
            "rescue" => {
                if let Some(v) = self.field(n, "variable") {
                    self.unknown_names(v);
                }
            }
            // `case v; in x`, `v => x`, `v in x`: the names a pattern binds.
            "in_clause" | "match_pattern" | "test_pattern" => {
                if let Some(p) = self.field(n, "pattern") {
                    self.unknown_names(p);
                }
            }
            "binary" => self.collect_binary(n),
            "call" => self.collect_mutation(n),
            _ => {}
        }
    }

    fn walk(&mut self, n: Node<'t>) {
        match n.kind() {
            "comment" => {}
            "subshell" => self.command_literal(n, Self::string),
            "call" => self.call(n),
            "identifier" => self.bare(n),
            "constant" | "scope_resolution" => {
                if let Some(c) = self.constant(n) {
                    self.constant_value(&c, n);
                }
            }
            "element_reference" => {
                let obj = self.field(n, "object");
                if obj.and_then(|o| self.constant(o)).as_deref() == Some("ENV") {
                    self.eval(n);
                    if self.parent(n).is_some_and(|p| {
                        matches!(p.kind(), "assignment" | "operator_assignment")
                            && self.field(p, "left").is_some_and(|l| l.id() == n.id())
                    }) {
                        self.out
                            .opaque("changes the environment of the programs it starts");
                    }
                    for c in self.kids(n).into_iter().skip(1) {
                        self.walk(c);
                    }
                    return;
                }
                self.children(n);
            }
            "assignment" | "operator_assignment" => self.walk_assignment(n),
            "method" | "singleton_method" => {
                if let Some(b) = self.field(n, "body") {
                    self.walk(b);
                }
                for c in self.kids(n) {
                    if c.kind() == "body_statement" {
                        self.walk(c);
                    }
                }
            }
            "block_parameters" | "method_parameters" | "lambda_parameters" => {}
            "pair" => {
                if let Some(v) = self.field(n, "value") {
                    self.walk(v);
                }
            }
            "heredoc_body" => {
                for c in self.kids(n) {
                    if c.kind() == "interpolation" {
                        self.walk(c);
                    }
                }
            }
            _ => self.children(n),
        }
    }
}

impl<'t> Walker<'t> {
    /// For the parameters of a block given to `Dir.mktmpdir`, when it takes one name: that
    /// name and the call.
    fn mktmpdir_block(&self, params: Node<'t>) -> Option<(String, Node<'t>)> {
        let call = params.parent()?.parent()?;
        let is_mktmpdir = call.kind() == "call"
            && self
                .field(call, "receiver")
                .and_then(|r| self.constant(r))
                .as_deref()
                == Some("Dir")
            && self.field(call, "method").map(|m| self.t(m)) == Some("mktmpdir");
        let kids = self.kids(params);
        match kids.as_slice() {
            [id] if is_mktmpdir && id.kind() == "identifier" => {
                Some((self.t(*id).to_string(), call))
            }
            _ => None,
        }
    }

    /// A bare name: a local variable, or a method of `Kernel` or of the snippet.
    pub(super) fn bare(&mut self, n: Node<'t>) {
        let name = self.t(n);
        // Parameters of blocks and methods are bound in `collect`.
        if self.binds(name) || self.reaches_code(name, DYNAMIC) {
            return;
        }
        if !KERNEL.contains(&name) {
            self.out
                .opaque(format!("calls `{name}`, which is not known"));
        }
    }

    pub(super) fn constant_value(&mut self, c: &str, n: Node<'t>) {
        let top = c.split("::").next().unwrap_or(c);
        if c == "ENV" {
            let parent = self.parent(n);
            let receiver_of = parent.is_some_and(|p| {
                p.kind() == "call" && self.field(p, "receiver").is_some_and(|r| r.id() == n.id())
            });
            if !receiver_of {
                self.out
                    .push(Effect::EnvDump("uses the whole environment (`ENV`)".into()));
            }
            return;
        }
        let receiver_of = self.parent(n).is_some_and(|p| {
            (p.kind() == "call" && self.field(p, "receiver").is_some_and(|r| r.id() == n.id()))
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
}
