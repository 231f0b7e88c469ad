//! Ruby: the effects of a snippet, read with tree-sitter-ruby.
//!
//! Calls are looked up by receiver: `Kernel` (no receiver: `system`, `exec`, `spawn`,
//! `open`, backticks and `%x()`), `File`, `IO`, `FileUtils`, `Dir`, `Pathname`, `ENV`,
//! `Open3`, the network classes, and the plain ones (`JSON`, `Math`, `Time` …). `eval`,
//! `send`, `instance_eval`, `require` of a library not listed or of project code, and any
//! call not known are opaque. Method calls on other values compute only, except those that
//! change files whatever object has them (`rmtree`, `unlink` …).

use super::calls::Args;
use super::walker::{self, judge};
use super::{Judged, Lang, SyntaxWalk};
use tree_sitter::Node;

mod calls;
mod values;
mod walk;

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
    let grammar = tree_sitter_ruby::LANGUAGE.into();
    super::read(grammar, src, Lang::Ruby, |syntax| judge(syntax, Ruby))
}

/// The Ruby reader, which keeps nothing of its own beyond what every reader holds.
struct Ruby;

type Walker<'t> = walker::Walker<'t, Ruby>;

/// Methods that change the string, array or hash they are called on.
const MUTATORS: &[&str] = &[
    "replace",
    "concat",
    "insert",
    "prepend",
    "clear",
    "push",
    "append",
    "unshift",
    "<<",
    "[]=",
    "store",
    "update",
    "delete",
    "delete_at",
    "delete_if",
    "keep_if",
    "fill",
    "force_encoding",
    "setbyte",
    "shift",
    "pop",
];

impl<'t> Walker<'t> {
    /// `x << "…"` changes the string `x` holds; `/(?<x>…)/ =~ s` assigns `x`.
    fn collect_binary(&mut self, n: Node<'t>) {
        let (Some(l), Some(op)) = (self.field(n, "left"), self.field(n, "operator")) else {
            return;
        };
        match (self.t(op), l.kind()) {
            ("<<", "identifier") => self.unknown_names(l),
            ("=~", "regex") => {
                let src = self.t(l);
                for group in src.split("(?<").skip(1) {
                    let name: String = group
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    self.assigned.unknown(name);
                }
            }
            _ => {}
        }
    }

    /// `x.replace("/")`, `x.sub!(…)`: a method that changes the value a name holds, so the
    /// name has no one value.
    fn collect_mutation(&mut self, n: Node<'t>) {
        let (Some(r), Some(m)) = (self.field(n, "receiver"), self.field(n, "method")) else {
            return;
        };
        let method = self.t(m);
        if r.kind() == "identifier" && (method.ends_with('!') || MUTATORS.contains(&method)) {
            self.unknown_names(r);
        }
    }

    /// The constant path a receiver names (`FileUtils`, `Net::HTTP`).
    fn constant(&self, n: Node) -> Option<String> {
        match n.kind() {
            "constant" => Some(self.t(n).to_string()),
            "scope_resolution" => {
                let name = self.field(n, "name")?;
                match self.field(n, "scope") {
                    Some(s) => Some(format!("{}::{}", self.constant(s)?, self.t(name))),
                    None => Some(self.t(name).to_string()),
                }
            }
            _ => None,
        }
    }

    /// A call's arguments (a block given with `&` is one spread: what it does is not seen).
    fn args(&self, call: Node<'t>) -> Args<'t> {
        let mut args = Args::default();
        if let Some(a) = self.field(call, "arguments") {
            for c in self.kids(a) {
                match c.kind() {
                    "pair" => {
                        if let (Some(k), Some(v)) = (self.field(c, "key"), self.field(c, "value")) {
                            let key = self.t(k).trim_end_matches(':').trim_start_matches(':');
                            args.kw.push((key, v));
                        }
                    }
                    "splat_argument" | "hash_splat_argument" | "block_argument" => {
                        args.splat = true
                    }
                    "comment" => {}
                    _ => args.pos.push(c),
                }
            }
        }
        args
    }
}

#[cfg(test)]
mod tests;
