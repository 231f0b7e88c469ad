//! JavaScript values: what an expression computes as far as the text tells it (strings,
//! template literals, `path` and `os` results, arrays and objects of options).

use super::{JsValue, Walker};
use crate::engine::lang::walker::Evaluator;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{env_value, Text};
use tree_sitter::Node;

impl<'t> Evaluator<'t> for Walker<'t> {
    type Value = JsValue;

    fn eval_inner(&mut self, n: Node<'t>) -> JsValue {
        match n.kind() {
            "string" => match self.string_value(n) {
                Some(s) => JsValue::Str(Text::lit(s)),
                None => JsValue::Str(Text::unknown()),
            },
            "template_string" => self.template(n),
            "true" => JsValue::Bool(true),
            "false" => JsValue::Bool(false),
            "parenthesized_expression" => self.eval_first(n),
            "identifier" if self.t(n) == "__dirname" => JsValue::Str(Text::lit(".")),
            "identifier" => self.assigned_value(self.t(n)),
            "array" => JsValue::List(self.kids(n).into_iter().map(|c| self.eval(c)).collect()),
            "object" => self.object(n),
            "binary_expression" => self.sum(n),
            "member_expression" | "subscript_expression" => self.member(n),
            "call_expression" => self.eval_call(n),
            _ => JsValue::Other,
        }
    }
}

impl<'t> Walker<'t> {
    /// A template literal: its text, with the substitutions filled in where known.
    fn template(&mut self, n: Node<'t>) -> JsValue {
        JsValue::Str(self.literal(
            n,
            &["string_fragment"],
            false,
            |w, part| match part.kind() {
                "template_substitution" => w.text_of(w.kids(part).first().copied()),
                _ => Text::default(),
            },
        ))
    }

    /// An object literal: its fields (a spread is the field `...`).
    fn object(&mut self, n: Node<'t>) -> JsValue {
        let mut fields = Vec::new();
        for p in self.kids(n) {
            if p.kind() == "pair" {
                if let (Some(k), Some(v)) = (self.field(p, "key"), self.field(p, "value")) {
                    let key = match k.kind() {
                        "string" => self.string_value(k).unwrap_or_default(),
                        _ => self.t(k).to_string(),
                    };
                    let v = self.eval(v);
                    fields.push((key, v));
                }
            } else if p.kind() == "shorthand_property_identifier" {
                fields.push((self.t(p).to_string(), JsValue::Other));
            } else {
                fields.push(("...".into(), JsValue::Other));
            }
        }
        JsValue::Obj(fields)
    }

    /// `a + b` of strings; any other operator is not followed.
    fn sum(&mut self, n: Node<'t>) -> JsValue {
        let Some((l, op, r)) = self.operands(n) else {
            return JsValue::Other;
        };
        if op != "+" {
            return JsValue::Other;
        }
        match (self.eval(l), self.eval(r)) {
            (JsValue::Str(a), b) => JsValue::Str(a.concat(b.text())),
            (_, JsValue::Str(b)) => JsValue::Str(Text::unknown().concat(b)),
            _ => JsValue::Other,
        }
    }

    /// `process.env.X` and `process.env[x]`: the variable's value.
    fn member(&mut self, n: Node<'t>) -> JsValue {
        let obj = self.field(n, "object");
        let key = match n.kind() {
            "member_expression" => self.field(n, "property").map(|p| Text::lit(self.t(p))),
            _ => self.field(n, "index").map(|i| self.eval(i).text()),
        };
        if let (Some(o), Some(k)) = (obj, key) {
            let q = self.qualify(o);
            if matches!(q.as_deref(), Some("global.process.env" | "global.Bun.env")) {
                return JsValue::Str(match k.known() {
                    Some(name) => env_value(&name, &mut self.out),
                    None => Text::unknown(),
                });
            }
        }
        JsValue::Other
    }

    /// What a call returns: the home and temporary folders, `path` joins, `String(x)`.
    fn eval_call(&mut self, n: Node<'t>) -> JsValue {
        let Some(f) = self.field(n, "function") else {
            return JsValue::Other;
        };
        let q = self.qualify(f);
        let args = self.args(n);
        let texts =
            |w: &mut Walker<'t>| -> Vec<Text> { args.iter().map(|a| w.eval(*a).text()).collect() };
        match q.as_deref() {
            Some("os.homedir") => JsValue::Str(Text::home()),
            Some("os.tmpdir") => JsValue::Str(Text::lit("/tmp")),
            // The folder made: the prefix and six characters (the `X`s stand for them).
            Some("fs.mkdtempSync") => match texts(self).into_iter().next() {
                Some(prefix) => JsValue::Str(prefix.concat(Text::lit("XXXXXX"))),
                None => JsValue::Other,
            },
            Some("global.process.cwd" | "global.Deno.cwd") => JsValue::Str(Text::lit(".")),
            Some("path.join" | "path.resolve" | "path.posix.join") => {
                let mut t = Text::default();
                for a in texts(self) {
                    t = t.join(a);
                }
                JsValue::Str(t)
            }
            Some("path.normalize") => {
                JsValue::Str(texts(self).into_iter().next().unwrap_or_else(Text::unknown))
            }
            Some("path.dirname") => JsValue::Str(
                texts(self)
                    .into_iter()
                    .next()
                    .map(|t| t.parent())
                    .unwrap_or_else(Text::unknown),
            ),
            Some("global.String") => {
                JsValue::Str(texts(self).into_iter().next().unwrap_or_else(Text::unknown))
            }
            Some("global.Deno.env.get") => {
                JsValue::Str(match texts(self).first().and_then(Text::known) {
                    Some(name) => env_value(&name, &mut self.out),
                    None => Text::unknown(),
                })
            }
            _ => JsValue::Other,
        }
    }
}
