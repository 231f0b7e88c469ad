//! PHP values: what an expression computes as far as the text tells it (strings with
//! their interpolations, constants, `getenv`, lists), within the evaluation depth.

use super::Walker;
use crate::engine::lang::walker::Evaluator;
use crate::engine::lang::{SyntaxWalk, Text, Value};
use tree_sitter::Node;

impl<'t> Evaluator<'t> for Walker<'t> {
    type Value = Value;

    fn eval_inner(&mut self, n: Node<'t>) -> Value {
        match n.kind() {
            "string" | "encapsed_string" => Value::Str(self.string(n)),
            "parenthesized_expression" => self.eval_first(n),
            "variable_name" => self.assigned_value(self.t(n)),
            "binary_expression" => {
                let Some((l, op, r)) = self.operands(n) else {
                    return Value::Other;
                };
                if op != "." {
                    return Value::Other;
                }
                let a = self.eval(l).text();
                let b = self.eval(r).text();
                Value::Str(a.concat(b))
            }
            "array_creation_expression" => Value::List(
                self.kids(n)
                    .into_iter()
                    .map(|e| match self.kids(e).as_slice() {
                        [one] => self.eval(*one),
                        _ => Value::Other,
                    })
                    .collect(),
            ),
            "subscript_expression" => self.env_item(n),
            "function_call_expression" => self.eval_call(n),
            "name" if self.t(n) == "__DIR__" => Value::Str(Text::lit(".")),
            _ => Value::Other,
        }
    }
}

impl<'t> Walker<'t> {
    pub(super) fn string(&mut self, n: Node<'t>) -> Text {
        let raw = self.t(n);
        let single = raw.starts_with('\'');
        self.literal(n, &["string_content", "string_value"], single, |w, part| {
            w.eval(part).text()
        })
    }

    /// `$_ENV["X"]` and `$_SERVER["X"]`: the variable's value; any other index is not followed.
    pub(super) fn env_item(&mut self, n: Node<'t>) -> Value {
        let kids = self.kids(n);
        let base = kids.first().map(|b| self.t(*b)).unwrap_or("");
        if matches!(base, "$_SERVER" | "$_ENV") {
            return Value::Str(self.env_var(kids.get(1).copied()));
        }
        Value::Other
    }

    /// What a function returns: `getenv`, `getcwd`, `dirname` and the like.
    pub(super) fn eval_call(&mut self, n: Node<'t>) -> Value {
        let name = self
            .field(n, "function")
            .map(|f| self.t(f).trim_start_matches('\\').to_ascii_lowercase())
            .unwrap_or_default();
        let args = self.args(n);
        match name.as_str() {
            "getenv" => Value::Str(self.env_var(args.first().copied())),
            "getcwd" => Value::Str(Text::lit(".")),
            "sys_get_temp_dir" => Value::Str(Text::lit("/tmp")),
            "realpath" | "strval" => args
                .first()
                .map(|a| Value::Str(self.eval(*a).text()))
                .unwrap_or(Value::Other),
            "dirname" => args
                .first()
                .map(|a| Value::Str(self.eval(*a).text().parent()))
                .unwrap_or(Value::Other),
            _ => Value::Other,
        }
    }
}
