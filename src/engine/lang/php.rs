//! PHP (`php -r`): the effects of a snippet, read with tree-sitter-php (the grammar for
//! code without `<?php` tags).
//!
//! Function calls are looked up by name: the ones that run commands (`system`, `exec`,
//! `shell_exec`, `passthru`, `popen`, `proc_open`, backticks), read, write or delete files,
//! talk to the network, and the many that only compute. `eval`, `include`, `require`,
//! calls of a name held in a variable, methods and static calls of classes not known, and
//! any function not listed are opaque.

use std::collections::HashMap;

use tree_sitter::Node;

use super::path_calls::{self, delete, read, write, Arg, PathCall};
use super::{
    env_value, env_value_named_at_run_time, text, Effect, Judged, Lang, Syntax, SyntaxWalk, Text,
};

/// Functions that act on the paths they are given.
const PATH_CALLS: &[PathCall<&str>] = &[
    PathCall {
        names: &[
            "file_put_contents",
            "mkdir",
            "touch",
            "chmod",
            "chown",
            "chgrp",
            "tempnam",
            "lchown",
            "lchgrp",
        ],
        paths: &[write(0, "")],
    },
    PathCall {
        names: &["unlink", "rmdir"],
        paths: &[delete(0, "")],
    },
    PathCall {
        names: &["rename"],
        paths: &[write(0, ""), write(1, "")],
    },
    PathCall {
        names: &["copy"],
        paths: &[read(0, ""), write(1, "")],
    },
    PathCall {
        names: &["symlink", "link"],
        paths: &[write(1, "")],
    },
];

/// Functions that compute or print.
const PURE: &[&str] = &[
    "echo",
    "print",
    "printf",
    "sprintf",
    "vsprintf",
    "print_r",
    "var_dump",
    "var_export",
    "json_encode",
    "json_decode",
    "strlen",
    "strtolower",
    "strtoupper",
    "str_replace",
    "str_repeat",
    "substr",
    "strpos",
    "explode",
    "implode",
    "join",
    "trim",
    "rtrim",
    "ltrim",
    "count",
    "array_map",
    "array_filter",
    "array_keys",
    "array_values",
    "array_merge",
    "in_array",
    "array_sum",
    "sort",
    "ksort",
    "usort",
    "range",
    "max",
    "min",
    "abs",
    "round",
    "floor",
    "ceil",
    "intval",
    "floatval",
    "strval",
    "is_array",
    "is_string",
    "isset",
    "empty",
    "date",
    "time",
    "microtime",
    "phpversion",
    "php_uname",
    "php_sapi_name",
    "md5",
    "sha1",
    "hash",
    "base64_encode",
    "base64_decode",
    "bin2hex",
    "hex2bin",
    "ucfirst",
    "lcfirst",
    "ucwords",
    "number_format",
    "str_pad",
    "str_split",
    "preg_match",
    "preg_match_all",
    "preg_replace",
    "preg_split",
    "preg_quote",
    "sprintf",
    "array_slice",
    "array_reverse",
    "array_unique",
    "array_search",
    "array_key_exists",
    "array_flip",
    "array_combine",
    "array_fill",
    "array_push",
    "array_pop",
    "array_shift",
    "array_unshift",
    "uniqid",
    "rand",
    "mt_rand",
    "random_int",
    "str_contains",
    "str_starts_with",
    "str_ends_with",
    "sleep",
    "usleep",
    "exit",
    "die",
    "memory_get_usage",
    "gettype",
    "get_debug_type",
    "is_int",
    "is_numeric",
    "is_null",
    "is_bool",
    "array_key_first",
    "array_key_last",
    "iterator_to_array",
    "compact",
    "list",
    "unset",
    "defined",
    "version_compare",
    "extension_loaded",
    "function_exists",
    "class_exists",
    "ini_get",
    "getcwd",
    "pathinfo",
    "basename",
    "dirname",
    "realpath",
    "file_exists",
    "is_file",
    "is_dir",
    "is_readable",
    "is_writable",
    "filesize",
    "filemtime",
    "stat",
    "fnmatch",
    "nl2br",
    "htmlspecialchars",
    "strip_tags",
    "wordwrap",
    "chr",
    "ord",
    "serialize",
    "array_column",
    "array_walk",
    "mb_strlen",
    "mb_substr",
    "mb_strtolower",
    "mb_strtoupper",
    "PHP_EOL",
    "fclose",
    "fgets",
    "fread",
    "feof",
    "fwrite",
    "fputs",
    "fflush",
    "array_diff",
    "array_intersect",
    "str_word_count",
    "similar_text",
    "levenshtein",
    "crc32",
    "sha256",
    "password_hash",
    "password_verify",
    "strcmp",
    "strcasecmp",
    "sprintf",
    "array_chunk",
    "array_pad",
    "call_user_func_array_is_not_here",
];

/// Functions that run code given as a string or by name.
const DYNAMIC: &[&str] = &[
    "eval",
    "assert",
    "create_function",
    "call_user_func",
    "call_user_func_array",
    "forward_static_call",
    "forward_static_call_array",
    "array_walk_recursive",
    "register_shutdown_function",
    "set_error_handler",
    "set_exception_handler",
    "unserialize",
    "extract",
    "parse_str",
    "dl",
    "putenv",
    "ini_set",
    "chdir",
    "preg_replace_callback",
    "func_get_args",
    "constant",
    "ob_start",
    "spl_autoload_register",
    "mail",
    "header",
];

#[derive(Debug, Clone)]
enum V {
    Str(Text),
    List(Vec<V>),
    Other,
}

impl V {
    fn text(&self) -> Text {
        match self {
            V::Str(t) => t.clone(),
            _ => Text::unknown(),
        }
    }
}

/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    super::read(
        tree_sitter_php::LANGUAGE_PHP_ONLY.into(),
        src,
        Lang::Php,
        |syntax| {
            let mut w = Walker {
                src,
                out: Judged::default(),
                assigned: HashMap::new(),
                local: Vec::new(),
                depth: 0,
                syntax,
            };
            let root = syntax.root();
            w.collect(root);
            w.walk(root);
            w.out
        },
    )
}

struct Walker<'t> {
    /// The tree's nodes, children and parents.
    syntax: &'t Syntax<'t>,
    src: &'t str,
    out: Judged,
    assigned: HashMap<String, Vec<Option<Node<'t>>>>,
    /// Functions the snippet defines.
    local: Vec<String>,
    depth: usize,
}

impl<'t> SyntaxWalk<'t> for Walker<'t> {
    fn syntax(&self) -> &'t Syntax<'t> {
        self.syntax
    }
}

impl<'t> Walker<'t> {
    fn t(&self, n: Node) -> &'t str {
        text(self.src, n)
    }

    /// Every variable in `n`, as having no one value.
    fn unknown_vars(&mut self, n: Node<'t>) {
        if n.kind() == "variable_name" {
            let e = self.assigned.entry(self.t(n).to_string()).or_default();
            e.push(None);
            e.push(None);
            return;
        }
        for c in self.kids(n) {
            self.unknown_vars(c);
        }
    }

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
                        let e = self.assigned.entry(name).or_default();
                        e.push(v);
                        if v.is_none() {
                            e.push(None);
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
                    self.unknown_vars(base);
                }
                // `$y = &$x`: a change through `$y` changes `$x`.
                if n.kind() == "reference_assignment_expression" {
                    if let Some(r) = self.field(n, "right") {
                        self.unknown_vars(r);
                    }
                }
            }
            // `&$x` in a `use` clause, a call or a `foreach`: `$x` may change there.
            "by_ref" => self.unknown_vars(n),
            "reference_modifier" => self
                .out
                .opaque("defines a function that changes its caller's variables (`&$v`)"),
            "function_definition" => {
                if let Some(name) = self.field(n, "name") {
                    self.local.push(self.t(name).to_ascii_lowercase());
                }
            }
            "foreach_statement" | "simple_parameter" | "list_literal" | "catch_clause"
            | "variadic_parameter" => {
                for c in self.kids(n) {
                    if c.kind() == "variable_name" {
                        let e = self.assigned.entry(self.t(c).to_string()).or_default();
                        e.push(None);
                        e.push(None);
                    }
                }
            }
            _ => {}
        }
        for c in self.kids(n) {
            self.collect(c);
        }
    }

    fn args(&self, call: Node<'t>) -> (Vec<Node<'t>>, bool) {
        let mut pos = Vec::new();
        let mut splat = false;
        if let Some(a) = self.field(call, "arguments") {
            for arg in self.kids(a) {
                if arg.kind() != "argument" {
                    continue;
                }
                let kids = self.kids(arg);
                if kids.iter().any(|k| k.kind() == "variadic_unpacking") {
                    splat = true;
                }
                if let Some(e) = kids.into_iter().rfind(|k| k.kind() != "name") {
                    pos.push(e);
                }
            }
        }
        (pos, splat)
    }

    fn eval(&mut self, n: Node<'t>) -> V {
        if self.depth > 24 || !self.out.step() {
            return V::Other;
        }
        self.depth += 1;
        let v = self.eval_inner(n);
        self.depth -= 1;
        v
    }

    fn string(&mut self, n: Node<'t>) -> Text {
        let raw = self.t(n);
        let single = raw.starts_with('\'');
        let mut t = Text::default();
        for c in self.kids(n) {
            match c.kind() {
                "string_content" | "string_value" => {
                    let s = self.t(c);
                    t = t.concat(Text::lit(if single {
                        s.replace("\\'", "'").replace("\\\\", "\\")
                    } else {
                        s.to_string()
                    }));
                }
                "escape_sequence" => {
                    t = t.concat(match super::unescape(self.t(c)) {
                        Some(s) => Text::lit(s),
                        None => Text::unknown(),
                    })
                }
                _ => {
                    let v = self.eval(c).text();
                    t = t.concat(v);
                }
            }
        }
        if t.0.is_empty() {
            t = Text::lit("");
        }
        t
    }

    fn eval_inner(&mut self, n: Node<'t>) -> V {
        match n.kind() {
            "string" | "encapsed_string" => V::Str(self.string(n)),
            "parenthesized_expression" => self
                .kids(n)
                .first()
                .map(|c| self.eval(*c))
                .unwrap_or(V::Other),
            "variable_name" => {
                let name = self.t(n).to_string();
                match crate::engine::lang::assigned_once(&self.assigned, &name) {
                    Some(v) => self.eval(v),
                    None => V::Other,
                }
            }
            "binary_expression" => {
                let (Some(l), Some(r), Some(op)) = (
                    self.field(n, "left"),
                    self.field(n, "right"),
                    self.field(n, "operator"),
                ) else {
                    return V::Other;
                };
                if self.t(op) != "." {
                    return V::Other;
                }
                let a = self.eval(l).text();
                let b = self.eval(r).text();
                V::Str(a.concat(b))
            }
            "array_creation_expression" => V::List(
                self.kids(n)
                    .into_iter()
                    .map(|e| match self.kids(e).as_slice() {
                        [one] => self.eval(*one),
                        _ => V::Other,
                    })
                    .collect(),
            ),
            "subscript_expression" => self.env_item(n),
            "function_call_expression" => self.eval_call(n),
            "name" if self.t(n) == "__DIR__" => V::Str(Text::lit(".")),
            _ => V::Other,
        }
    }

    /// `$_ENV["X"]` and `$_SERVER["X"]`: the variable's value; any other index is not followed.
    fn env_item(&mut self, n: Node<'t>) -> V {
        let kids = self.kids(n);
        let base = kids.first().map(|b| self.t(*b)).unwrap_or("");
        if matches!(base, "$_SERVER" | "$_ENV") {
            let key = kids.get(1).map(|k| self.eval(*k).text().known());
            return V::Str(match key {
                Some(Some(k)) => env_value(&k, &mut self.out),
                _ => env_value_named_at_run_time(&mut self.out),
            });
        }
        V::Other
    }

    /// What a function returns: `getenv`, `getcwd`, `dirname` and the like.
    fn eval_call(&mut self, n: Node<'t>) -> V {
        let name = self
            .field(n, "function")
            .map(|f| self.t(f).trim_start_matches('\\').to_ascii_lowercase())
            .unwrap_or_default();
        let (pos, _) = self.args(n);
        match name.as_str() {
            "getenv" => V::Str(match pos.first().map(|a| self.eval(*a).text().known()) {
                Some(Some(k)) => env_value(&k, &mut self.out),
                _ => env_value_named_at_run_time(&mut self.out),
            }),
            "getcwd" => V::Str(Text::lit(".")),
            "sys_get_temp_dir" => V::Str(Text::lit("/tmp")),
            "realpath" | "strval" => pos
                .first()
                .map(|a| V::Str(self.eval(*a).text()))
                .unwrap_or(V::Other),
            "dirname" => pos
                .first()
                .map(|a| V::Str(self.eval(*a).text().parent()))
                .unwrap_or(V::Other),
            _ => V::Other,
        }
    }

    fn walk(&mut self, n: Node<'t>) {
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
    fn walk_static_call(&mut self, n: Node<'t>) {
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
    fn walk_new(&mut self, n: Node<'t>) {
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

    fn children(&mut self, n: Node<'t>) {
        for c in self.kids(n) {
            self.walk(c);
        }
    }

    fn call(&mut self, n: Node<'t>) {
        let (pos, splat) = self.args(n);
        for a in &pos {
            self.walk(*a);
        }
        let Some(f) = self.field(n, "function") else {
            return;
        };
        if !matches!(f.kind(), "name" | "qualified_name") {
            self.walk(f);
            self.out.opaque("calls a function named at run time");
            return;
        }
        let name = self.t(f).trim_start_matches('\\').to_ascii_lowercase();
        self.check_callback(&name, &pos);
        self.function_call(&name, n, &pos);
        let _ = splat;
    }

    /// Functions that call a function given as an argument: by a closure written here,
    /// or by the name of a function that only computes; any other is opaque.
    fn check_callback(&mut self, name: &str, pos: &[Node<'t>]) {
        let callback = match name {
            "array_map" => Some(0),
            "array_filter" | "usort" | "uasort" | "uksort" | "array_walk" | "array_reduce"
            | "iterator_apply" => Some(1),
            _ => None,
        };
        if let Some(cb) = callback.and_then(|i| pos.get(i).copied()) {
            let ok = match cb.kind() {
                "anonymous_function" | "arrow_function" => true,
                "string" | "encapsed_string" => self
                    .eval(cb)
                    .text()
                    .known()
                    .is_some_and(|f| PURE.contains(&f.to_ascii_lowercase().as_str())),
                _ => false,
            };
            if !ok {
                self.out
                    .opaque(format!("`{name}` calls a function given by name or value"));
            }
        }
    }

    /// The text of argument `i` (not known when not given).
    fn arg_text(&mut self, pos: &[Node<'t>], i: usize) -> Text {
        pos.get(i)
            .map(|a| self.eval(*a).text())
            .unwrap_or_else(Text::unknown)
    }

    /// `pcntl_exec(path, args)`: the program at `path` runs with the list `args`, no shell
    /// between them.
    fn replace_process(&mut self, pos: &[Node<'t>]) {
        let program = self.arg_text(pos, 0);
        let args = match pos.get(1).map(|a| self.eval(*a)) {
            None => Some(Vec::new()),
            Some(V::List(items)) => Some(items.iter().map(V::text).collect()),
            Some(_) => None,
        };
        match args {
            Some(args) => self
                .out
                .push(Effect::Exec(std::iter::once(program).chain(args).collect())),
            None => self
                .out
                .opaque("starts a program with arguments not named here"),
        }
    }

    /// What the function `name` (lower case) does, called as `n` with arguments `pos`.
    fn function_call(&mut self, name: &str, n: Node<'t>, pos: &[Node<'t>]) {
        if let Some(row) = path_calls::find(PATH_CALLS, |f: &&str| *f == name) {
            let effects = path_calls::effects(row, |arg| match arg {
                Arg::At(i, _) => vec![self.arg_text(pos, i)],
                Arg::From(from) => (from..pos.len().max(from + 1))
                    .map(|i| self.arg_text(pos, i))
                    .collect(),
            });
            for e in effects {
                self.out.push(e);
            }
            return;
        }
        match name {
            "system" | "exec" | "shell_exec" | "passthru" | "popen" => {
                let c = self.arg_text(pos, 0);
                self.out.push(Effect::Shell(c));
            }
            "pcntl_exec" => self.replace_process(pos),
            "proc_open" => match pos.first().map(|a| self.eval(*a)) {
                Some(V::Str(s)) => self.out.push(Effect::Shell(s)),
                Some(V::List(items)) if !items.is_empty() => self
                    .out
                    .push(Effect::Exec(items.iter().map(V::text).collect())),
                _ => self.out.opaque("starts a program not named here"),
            },
            "file_get_contents" | "file" | "readfile" | "fopen" | "parse_ini_file"
            | "file_exists_read" | "scandir" | "glob" | "opendir" | "md5_file" | "sha1_file"
            | "hash_file" => self.read_call(name, pos),
            "getenv" => {
                if pos.is_empty() {
                    self.out.push(Effect::EnvDump(
                        "uses the whole environment (`getenv()`)".into(),
                    ));
                } else {
                    self.eval(n);
                }
            }
            "curl_init"
            | "curl_exec"
            | "fsockopen"
            | "stream_socket_client"
            | "socket_create"
            | "socket_connect"
            | "gethostbyname"
            | "dns_get_record" => self.out.push(Effect::Network(name.to_string())),
            "posix_kill" => {
                let pid = self.arg_text(pos, 0);
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            _ if DYNAMIC.contains(&name) => self
                .out
                .opaque(format!("runs or reaches code by name (`{name}`)")),
            _ if self.local.iter().any(|l| l == name) => {}
            _ if PURE.contains(&name) => {}
            _ if name.starts_with("array_")
                || name.starts_with("str")
                || name.starts_with("mb_")
                || name.starts_with("is_")
                || name.starts_with("json_")
                || name.starts_with("ctype_") => {}
            _ => self
                .out
                .opaque(format!("calls `{name}`, which is not known")),
        }
    }

    /// `file_get_contents(path)` and the other readers: a URL is the network, `fopen`
    /// with a mode that writes (or one not known) writes.
    fn read_call(&mut self, name: &str, pos: &[Node<'t>]) {
        let p = self.arg_text(pos, 0);
        if let Some(s) = p.known().filter(|s| s.contains("://")) {
            if !s.starts_with("file://") && !s.starts_with("php://") {
                self.out.push(Effect::Network(s));
                return;
            }
        }
        if name == "fopen" {
            let mode = self.arg_text(pos, 1).known();
            if mode.is_none_or(|m| m.contains(['w', 'a', 'x', 'c', '+'])) {
                self.out.push(Effect::Write(p));
                return;
            }
        }
        self.out.push(Effect::Read(p));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(src: &str) -> Vec<Effect> {
        analyze(src).effects
    }

    fn lit(s: &str) -> Text {
        Text::lit(s)
    }

    #[test]
    fn php_effects() {
        assert_eq!(effects("echo PHP_VERSION;"), vec![]);
        assert_eq!(
            effects("echo json_decode(file_get_contents('composer.json'))->name;"),
            vec![Effect::Read(lit("composer.json"))]
        );
        assert!(effects("system('rm -rf ~');").contains(&Effect::Shell(lit("rm -rf ~"))));
        assert!(effects("echo `rm -rf /`;").contains(&Effect::Shell(lit("rm -rf /"))));
        let e = effects(
            "file_put_contents(getenv('HOME') . '/.ssh/authorized_keys', 'k', FILE_APPEND);",
        );
        assert!(
            e.contains(&Effect::Write(lit("~/.ssh/authorized_keys"))),
            "{e:?}"
        );
        let e = effects("unlink($_SERVER['HOME'] . '/.bashrc');");
        assert!(
            e.contains(&Effect::Delete {
                path: lit("~/.bashrc"),
                recursive: false
            }),
            "{e:?}"
        );
        for src in [
            "eval($argv[1]);",
            "$f = 'system'; $f('ls');",
            "include 'x.php';",
            "foo();",
            "echo (",
        ] {
            assert!(analyze(src).is_opaque(), "{src}");
        }
    }
}
