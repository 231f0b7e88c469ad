//! What PHP function calls do: the ones that run commands, read, write or delete files,
//! talk to the network, and the many that only compute; callbacks given by name.

use super::{Walker, DYNAMIC, PATH_CALLS, POSIX_PAIRS, PURE};
use crate::engine::lang::calls::Args;
use crate::engine::lang::walker::Reader;
use crate::engine::lang::{Effect, SyntaxWalk, Text, Value};
use tree_sitter::Node;

impl<'t> Walker<'t> {
    pub(super) fn call(&mut self, n: Node<'t>) {
        let args = self.args(n);
        self.walk_args(&args);
        let Some(f) = self.field(n, "function") else {
            return;
        };
        if !matches!(f.kind(), "name" | "qualified_name") {
            self.walk(f);
            self.out.opaque("calls a function named at run time");
            return;
        }
        let name = self.t(f).trim_start_matches('\\').to_ascii_lowercase();
        self.check_callback(&name, &args);
        self.function_call(&name, n, &args);
    }

    /// Functions that call a function given as an argument: by a closure written here,
    /// or by the name of a function that only computes; any other is opaque.
    pub(super) fn check_callback(&mut self, name: &str, pos: &[Node<'t>]) {
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

    /// `pcntl_exec(path, args)`: the program at `path` runs with the list `args`, no shell
    /// between them.
    pub(super) fn replace_process(&mut self, pos: &[Node<'t>]) {
        let program = self.arg_text(pos, 0);
        let args = match pos.get(1).map(|a| self.eval(*a)) {
            None => Some(Vec::new()),
            Some(Value::List(items)) => Some(items.iter().map(Value::text).collect()),
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

    /// What the function `name` (lower case) does, called as `n` with arguments `args`.
    pub(super) fn function_call(&mut self, name: &str, n: Node<'t>, args: &Args<'t>) {
        if name == "chmod" {
            self.chmod(args.get(1).copied(), args.first().copied());
        }
        if self.path_call(&[PATH_CALLS, POSIX_PAIRS], |f| *f == name, args) {
            return;
        }
        match name {
            "system" | "exec" | "shell_exec" | "passthru" | "popen" => {
                let c = self.arg_text(args, 0);
                self.out.push(Effect::Shell(c));
            }
            "pcntl_exec" => self.replace_process(args),
            "proc_open" => match args.first().map(|a| self.eval(*a)) {
                Some(Value::Str(s)) => self.out.push(Effect::Shell(s)),
                Some(Value::List(items)) if !items.is_empty() => self
                    .out
                    .push(Effect::Exec(items.iter().map(Value::text).collect())),
                _ => self.out.opaque("starts a program not named here"),
            },
            "file_get_contents" | "file" | "readfile" | "fopen" | "parse_ini_file"
            | "file_exists_read" | "scandir" | "glob" | "opendir" | "md5_file" | "sha1_file"
            | "hash_file" => self.read_call(name, args),
            "getenv" => {
                if args.is_empty() {
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
                let pid = self.arg_text(args, 0);
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            _ if DYNAMIC.contains(&name) => self
                .out
                .opaque(format!("runs or reaches code by name (`{name}`)")),
            _ if self.local.contains(name) => {}
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
    pub(super) fn read_call(&mut self, name: &str, pos: &[Node<'t>]) {
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
