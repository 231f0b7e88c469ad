//! Python values: what an expression computes as far as the text tells it (strings,
//! f-strings, paths, lists, `os.path` and `pathlib` results), and a call's arguments.

use super::Walker;
use crate::engine::lang::calls::Args;
use crate::engine::lang::walker::Evaluator;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{Text, Value};
use tree_sitter::Node;

impl<'t> Evaluator<'t> for Walker<'t> {
    type Value = Value;

    fn eval_inner(&mut self, n: Node<'t>) -> Value {
        match n.kind() {
            "string" => Value::Str(self.string(n)),
            "concatenated_string" => {
                let mut t = Text::default();
                for c in self.kids(n) {
                    t = t.concat(self.string(c));
                }
                Value::Str(t)
            }
            "parenthesized_expression" => self.eval_first(n),
            "identifier" => self.identifier(n),
            "list" | "tuple" => {
                Value::List(self.kids(n).into_iter().map(|c| self.eval(c)).collect())
            }
            "binary_operator" => self.binary(n),
            "attribute" => self.attribute(n),
            "subscript" => self.environ_item(n),
            "call" => self.eval_call(n),
            _ => Value::Other,
        }
    }
}

impl<'t> Walker<'t> {
    /// A name: a loop over a glob, or the value of a name assigned once.
    fn identifier(&mut self, n: Node<'t>) -> Value {
        let name = self.t(n);
        // A name an import, a `def` or a `class` binds too has no one value here.
        if self.lang.modules.contains_key(name)
            || self.lang.names.contains_key(name)
            || self.local.contains(name)
        {
            return Value::Other;
        }
        if let Some(r) = self.lang.loops.get(name).copied() {
            if self.assigned.only_unknown(name) {
                return self.loop_value(r);
            }
        }
        self.assigned_value(name)
    }

    /// `a + b` of strings and `a / b` of paths; any other operator is not followed.
    fn binary(&mut self, n: Node<'t>) -> Value {
        let Some((l, op, r)) = self.operands(n) else {
            return Value::Other;
        };
        let (lv, rv) = (self.eval(l), self.eval(r));
        match (op, lv) {
            ("+", Value::Str(a)) => Value::Str(a.concat(rv.text())),
            ("/", Value::Path(a)) => Value::Path(a.join(rv.text())),
            _ => Value::Other,
        }
    }

    /// `os.sep` and its kin, and the `parent` of a path.
    fn attribute(&mut self, n: Node<'t>) -> Value {
        if let Some(q) = self.qualify(n) {
            return match q.as_str() {
                "os.sep" => Value::Str(Text::lit("/")),
                "os.curdir" => Value::Str(Text::lit(".")),
                "os.pardir" => Value::Str(Text::lit("..")),
                _ => Value::Other,
            };
        }
        let (Some(obj), Some(attr)) = (self.field(n, "object"), self.field(n, "attribute")) else {
            return Value::Other;
        };
        match (self.eval(obj), self.t(attr)) {
            (Value::Path(p), "parent") => Value::Path(p.parent()),
            _ => Value::Other,
        }
    }

    /// `os.environ["X"]`: the variable's value.
    fn environ_item(&mut self, n: Node<'t>) -> Value {
        let value = self.field(n, "value");
        let key = self.field(n, "subscript");
        if let (Some(v), Some(k)) = (value, key) {
            if self.qualify(v).as_deref() == Some("os.environ") {
                return Value::Str(self.env_var(Some(k)));
            }
        }
        Value::Other
    }

    /// The value of a loop variable: for a loop over a glob, the glob.
    pub(super) fn loop_value(&mut self, over: Node<'t>) -> Value {
        if over.kind() != "call" {
            return Value::Other;
        }
        let Some(f) = self.field(over, "function") else {
            return Value::Other;
        };
        let args = self.args(over);
        let first = args.pos.first().map(|a| self.eval(*a).text());
        match self.qualify(f).as_deref() {
            Some("glob.glob" | "glob.iglob") => {
                return Value::Str(first.unwrap_or_else(Text::unknown));
            }
            Some("os.listdir") => {
                return Value::Str(first.unwrap_or_else(|| Text::lit(".")).join(Text::lit("*")));
            }
            _ => {}
        }
        if f.kind() == "attribute" {
            if let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute")) {
                if let Value::Path(p) = self.eval(obj) {
                    let pattern = first.unwrap_or_else(|| Text::lit("*"));
                    return match self.t(attr) {
                        "glob" => Value::Path(p.join(pattern)),
                        "rglob" => Value::Path(p.join(Text::lit("**")).join(pattern)),
                        "iterdir" => Value::Path(p.join(Text::lit("*"))),
                        _ => Value::Other,
                    };
                }
            }
        }
        Value::Other
    }

    pub(super) fn eval_call(&mut self, n: Node<'t>) -> Value {
        let Some(f) = self.field(n, "function") else {
            return Value::Other;
        };
        let args = self.args(n);
        if let Some(q) = self.qualify(f) {
            return self.module_function_value(&q, &args);
        }
        match f.kind() {
            "identifier" if self.t(f) == "str" => args
                .pos
                .first()
                .map(|a| Value::Str(self.eval(*a).text()))
                .unwrap_or(Value::Other),
            "attribute" => self.method_value(f, &args),
            _ => Value::Other,
        }
    }

    /// What a module function returns: `os.path` and `pathlib` paths, the environment.
    fn module_function_value(&mut self, q: &str, args: &Args<'t>) -> Value {
        match q {
            "os.path.join" => {
                let mut t = Text::default();
                for a in &args.pos {
                    let v = self.eval(*a).text();
                    t = t.join(v);
                }
                if args.splat {
                    t = t.join(Text::unknown());
                }
                Value::Str(t)
            }
            "os.path.expanduser" | "os.path.abspath" | "os.path.normpath" | "os.path.realpath"
            | "os.fspath" => Value::Str(self.arg_text(args, 0)),
            "os.path.expandvars" => Value::Str(self.arg_text(args, 0).with_home_var()),
            "os.path.dirname" => Value::Str(self.arg_text(args, 0).parent()),
            "os.getcwd" => Value::Str(Text::lit(".")),
            "os.getenv" | "os.environ.get" => match args.first() {
                Some(k) => Value::Str(self.env_var(Some(*k))),
                None => Value::Other,
            },
            "tempfile.gettempdir" => Value::Str(Text::lit("/tmp")),
            // A new folder's path: in `dir` when given, else the temporary folder. Its
            // name stands for the one made (the `X`s), so it names nothing that exists.
            "tempfile.mkdtemp" | "tempfile.TemporaryDirectory" => {
                let dir = args.kw_value("dir").or_else(|| args.pos.get(2).copied());
                let folder = match dir {
                    Some(d) => self.eval(d).text(),
                    None => Text::lit("/tmp"),
                };
                Value::Str(folder.join(Text::lit("tmpXXXXXXXX")))
            }
            "pathlib.Path" | "pathlib.PurePath" | "pathlib.PosixPath" | "pathlib.PurePosixPath" => {
                let mut t = Text::default();
                for a in &args.pos {
                    let v = self.eval(*a).text();
                    t = t.join(v);
                }
                if args.pos.is_empty() {
                    t = Text::lit(".");
                }
                Value::Path(t)
            }
            "pathlib.Path.home" => Value::Path(Text::home()),
            "pathlib.Path.cwd" => Value::Path(Text::lit(".")),
            _ => Value::Other,
        }
    }

    /// What a method returns: joins of paths and of strings.
    fn method_value(&mut self, f: Node<'t>, args: &Args<'t>) -> Value {
        let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute")) else {
            return Value::Other;
        };
        let recv = self.eval(obj);
        match (recv, self.t(attr)) {
            (Value::Path(p), "expanduser" | "resolve" | "absolute") => Value::Path(p),
            (Value::Path(p), "joinpath") => {
                let mut p = p;
                for a in &args.pos {
                    let v = self.eval(*a).text();
                    p = p.join(v);
                }
                Value::Path(p)
            }
            (Value::Str(sep), "join") => match args.pos.first().map(|a| self.eval(*a)) {
                Some(Value::List(items)) => {
                    let mut t = Text::default();
                    for (i, it) in items.iter().enumerate() {
                        if i > 0 {
                            t = t.concat(sep.clone());
                        }
                        t = t.concat(it.text());
                    }
                    Value::Str(t)
                }
                _ => Value::Other,
            },
            _ => Value::Other,
        }
    }

    /// A string literal's value (f-strings with their parts filled in where known).
    pub(super) fn string(&mut self, n: Node<'t>) -> Text {
        if n.kind() != "string" {
            return self.eval(n).text();
        }
        let prefix = self
            .kids(n)
            .first()
            .filter(|c| c.kind() == "string_start")
            .map(|c| self.t(*c).to_ascii_lowercase())
            .unwrap_or_default();
        let raw = prefix.contains('r');
        let mut t = Text::default();
        for c in self.kids(n) {
            match c.kind() {
                "string_content" => {
                    let s = self.t(c);
                    let v = if raw {
                        Some(s.to_string())
                    } else {
                        crate::engine::lang::unescape(s)
                    };
                    match v {
                        Some(v) => {
                            let v = if prefix.contains('f') {
                                v.replace("{{", "{").replace("}}", "}")
                            } else {
                                v
                            };
                            t = t.concat(Text::lit(v));
                        }
                        None => t = t.concat(Text::unknown()),
                    }
                }
                "interpolation" => {
                    let v = self.text_of(self.field(c, "expression"));
                    let plain = self.field(c, "format_specifier").is_none()
                        && self.field(c, "type_conversion").is_none();
                    t = t.concat(if plain { v } else { Text::unknown() });
                }
                _ => {}
            }
        }
        t.or_empty()
    }

    pub(super) fn args(&self, call: Node<'t>) -> Args<'t> {
        let mut a = Args::default();
        let Some(list) = self.field(call, "arguments") else {
            return a;
        };
        for c in self.kids(list) {
            match c.kind() {
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (self.field(c, "name"), self.field(c, "value")) {
                        a.kw.push((self.t(k), v));
                    }
                }
                "list_splat" | "dictionary_splat" => a.splat = true,
                "comment" => {}
                _ => a.pos.push(c),
            }
        }
        a
    }
}
