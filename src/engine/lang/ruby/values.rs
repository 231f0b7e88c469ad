//! Ruby values: what an expression computes as far as the text tells it (strings with
//! their interpolations, `File.join`, `Dir.home`, `ENV`, arrays).

use super::Walker;
use crate::engine::lang::walker::Evaluator;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{Text, Value};
use tree_sitter::Node;

impl<'t> Evaluator<'t> for Walker<'t> {
    type Value = Value;

    fn eval_inner(&mut self, n: Node<'t>) -> Value {
        match n.kind() {
            "string" => Value::Str(self.string(n)),
            "parenthesized_statements" => match self.kids(n).as_slice() {
                [one] => self.eval(*one),
                _ => Value::Other,
            },
            "identifier" if self.t(n) == "__dir__" => Value::Str(Text::lit(".")),
            "identifier" => self.assigned_value(self.t(n)),
            "array" => Value::List(self.kids(n).into_iter().map(|c| self.eval(c)).collect()),
            "binary" => self.sum(n),
            "element_reference" => self.env_reference(n),
            "call" => self.eval_call(n),
            _ => Value::Other,
        }
    }
}

impl<'t> Walker<'t> {
    pub(super) fn string(&mut self, n: Node<'t>) -> Text {
        let raw = self.t(n);
        let single = raw.starts_with('\'') || raw.starts_with("%q");
        self.literal(n, &["string_content"], single, |w, part| {
            match (part.kind(), w.kids(part).as_slice()) {
                ("interpolation", [one]) => w.eval(*one).text(),
                _ => Text::unknown(),
            }
        })
    }

    /// `a + b` of strings, `a / b` and `a + b` of paths; any other operator is not followed.
    fn sum(&mut self, n: Node<'t>) -> Value {
        let Some((l, op, r)) = self.operands(n) else {
            return Value::Other;
        };
        match (op, self.eval(l)) {
            ("+", Value::Str(a)) => Value::Str(a.concat(self.eval(r).text())),
            ("/" | "+", Value::Path(a)) => Value::Path(a.join(self.eval(r).text())),
            _ => Value::Other,
        }
    }

    /// `ENV["X"]`: the variable's value; any other index is not followed.
    fn env_reference(&mut self, n: Node<'t>) -> Value {
        let obj = self.field(n, "object");
        if obj.and_then(|o| self.constant(o)).as_deref() == Some("ENV") {
            let key = self.kids(n).into_iter().nth(1);
            return Value::Str(self.env_var(key));
        }
        Value::Other
    }

    /// What a call returns: `File.join`, `File.expand_path`, `Dir.home`, `Pathname` and the like.
    fn eval_call(&mut self, n: Node<'t>) -> Value {
        let recv = self.field(n, "receiver");
        let method = self.field(n, "method").map(|m| self.t(m)).unwrap_or("");
        let args = self.args(n);
        let c = recv.and_then(|r| self.constant(r));
        match (c.as_deref(), method) {
            (Some("Dir"), "home") => Value::Str(Text::home()),
            (Some("Dir"), "pwd" | "getwd") => Value::Str(Text::lit(".")),
            (Some("Dir"), "tmpdir") => Value::Str(Text::lit("/tmp")),
            // A new folder in the folder given second, else the temporary folder; its
            // name stands for the one made (the `X`s). `calls.rs` writes the same path.
            (Some("Dir"), "mktmpdir") => {
                let folder = match args.get(1) {
                    Some(_) => self.arg_text(&args, 1),
                    None => Text::lit("/tmp"),
                };
                Value::Str(folder.join(Text::lit("dXXXXXXXX")))
            }
            (Some("File"), "join") => {
                let mut t = Text::default();
                for i in 0..args.len() {
                    let a = self.arg_text(&args, i);
                    t = t.join(a);
                }
                Value::Str(t)
            }
            (Some("File"), "expand_path" | "absolute_path" | "realpath") => {
                let a = self.arg_text(&args, 0);
                if args.len() > 1 {
                    let base = self.arg_text(&args, 1);
                    Value::Str(base.join(a))
                } else {
                    Value::Str(a)
                }
            }
            (Some("File"), "dirname") => Value::Str(self.arg_text(&args, 0).parent()),
            (Some("Pathname"), "new") => Value::Path(self.arg_text(&args, 0)),
            (Some("Pathname"), "pwd" | "getwd") => Value::Path(Text::lit(".")),
            (Some("ENV"), "fetch") => Value::Str(self.env_var(args.first().copied())),
            (None, "to_s" | "to_str" | "expand_path" | "realpath" | "to_path") => {
                match recv.map(|r| self.eval(r)) {
                    Some(Value::Path(p)) => {
                        if method == "to_s" || method == "to_path" {
                            Value::Str(p)
                        } else {
                            Value::Path(p)
                        }
                    }
                    Some(Value::Str(s)) => Value::Str(s),
                    _ => Value::Other,
                }
            }
            (None, "join") => match recv.map(|r| self.eval(r)) {
                Some(Value::Path(p)) => {
                    let mut p = p;
                    for i in 0..args.len() {
                        let a = self.arg_text(&args, i);
                        p = p.join(a);
                    }
                    Value::Path(p)
                }
                _ => Value::Other,
            },
            (None, "parent" | "dirname") => match recv.map(|r| self.eval(r)) {
                Some(Value::Path(p)) => Value::Path(p.parent()),
                _ => Value::Other,
            },
            _ => Value::Other,
        }
    }
}
