//! What JavaScript calls do: functions of the core modules (`fs`, `child_process`, the
//! network ones), of `process`, `Deno` and `Bun`, and the options of a started program.

use super::{in_list, module_name, JsValue, Walker, GLOBALS, NETWORK, PURE};
use crate::engine::lang::calls::Args;
use crate::engine::lang::path_calls::{read, write, PathCall, COPY, POSIX_PAIRS};
use crate::engine::lang::walker::Reader;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{Effect, Text};
use tree_sitter::Node;

/// Functions of `fs` and `Deno` (without their `Sync`) that act on the paths they are given,
/// besides the [`POSIX_PAIRS`].
const FS_PATH_CALLS: &[PathCall<&str>] = &[
    PathCall {
        names: &[
            "writeFile",
            "appendFile",
            "createWriteStream",
            "mkdir",
            "mkdtemp",
            "truncate",
            "chmod",
            "chown",
            "lchown",
            "utimes",
            "lutimes",
            "writeTextFile",
            "create",
            "makeTempDir",
            "makeTempFile",
            "write",
            "writev",
            "ftruncate",
            "fchmod",
            "fchown",
        ],
        paths: &[write(0, "")],
    },
    PathCall {
        names: &["copyFile", "cp"],
        paths: COPY,
    },
];

/// Functions of `fs` and `Deno` (without their `Sync`) that only look.
const FS_NO_EFFECT: &[&str] = &[
    "stat",
    "lstat",
    "exists",
    "access",
    "realpath",
    "watch",
    "watchFile",
    "unwatchFile",
    "fstat",
    "close",
    "read",
    "constants",
    "cwd",
    "exit",
    "args",
    "build",
    "pid",
    "inspect",
    "version",
    "env.get",
    "env.has",
];

/// Functions of the globals that act on the paths they are given.
const GLOBAL_PATH_CALLS: &[PathCall<&str>] = &[
    PathCall {
        names: &["global.Bun.write"],
        paths: &[write(0, "")],
    },
    PathCall {
        names: &["global.Bun.file"],
        paths: &[read(0, "")],
    },
];

/// Functions of the globals and of `os` that neither touch files nor start programs.
const NO_EFFECT: &[&str] = &[
    "global.process.exit",
    "global.process.cwd",
    "global.process.stdout.write",
    "global.process.stderr.write",
    "global.process.stdin.on",
    "global.process.stdin.setEncoding",
    "global.process.on",
    "global.process.nextTick",
    "global.process.hrtime",
    "global.process.hrtime.bigint",
    "global.process.uptime",
    "global.process.memoryUsage",
    "global.process.cpuUsage",
    "global.process.emitWarning",
    "global.process.stdin.read",
    "global.process.stdin.resume",
    "global.require.resolve",
    "os.homedir",
    "os.tmpdir",
];

/// Whether `q` is a member of a plain global (`console`, `JSON` …), not of `require`,
/// `module`, `exports` or `arguments`.
fn plain_global(q: &str) -> bool {
    q.starts_with("global.")
        && GLOBALS.contains(
            &q.trim_start_matches("global.")
                .split('.')
                .next()
                .unwrap_or(""),
        )
        && !in_list(
            q,
            &[
                "global.require",
                "global.module",
                "global.exports",
                "global.arguments",
            ],
        )
}

impl<'t> Walker<'t> {
    pub(super) fn call(&mut self, n: Node<'t>) {
        let Some(f) = self.field(n, "function") else {
            return;
        };
        let args = self.args(n);
        self.walk_args(&args);
        if f.kind() == "import" {
            self.out
                .opaque("imports a module chosen at run time (`import()`)");
            return;
        }
        if f.kind() == "identifier"
            && self.t(f) == "require"
            && !self.lang.bound.contains_key("require")
        {
            match args.first().map(|a| self.eval(*a).text().known()) {
                Some(Some(m)) => {
                    let m = module_name(&m).to_string();
                    self.import(&m);
                    if self.module_escapes(n) {
                        self.value_of(&m);
                    }
                }
                _ => self.out.opaque("loads a module named at run time"),
            }
            return;
        }
        if let Some(q) = self.qualify(f) {
            self.module_call(&q, &args);
            return;
        }
        match f.kind() {
            "identifier" => {
                let name = self.t(f);
                if !self.binds(name) {
                    self.out
                        .opaque(format!("calls `{name}`, which is not known"));
                }
            }
            "member_expression" => {
                if let Some(o) = self.field(f, "object") {
                    self.walk(o);
                }
                if let Some(p) = self.field(f, "property") {
                    let prop = self.t(p);
                    if matches!(prop, "constructor" | "__proto__" | "__defineGetter__") {
                        self.out
                            .opaque(format!("reaches the engine's internals (`{prop}`)"));
                    }
                }
            }
            "subscript_expression" => {
                self.walk(f);
                self.out.opaque("calls a method chosen at run time");
            }
            _ => {
                self.walk(f);
                if !matches!(
                    f.kind(),
                    "arrow_function" | "function_expression" | "parenthesized_expression"
                ) {
                    self.out.opaque("calls a function chosen at run time");
                }
            }
        }
    }

    /// Whether the module a `require(…)` call gives goes anywhere the reader does not follow
    /// it: into an array, an object, an argument, a later assignment (`cp = require(…)`).
    /// Only a declaration (`const cp = …`), a member of it (`require(…).x`) or a statement
    /// of its own keep it in sight.
    fn module_escapes(&self, call: Node<'t>) -> bool {
        let mut n = call;
        while let Some(p) = self.parent(n) {
            match p.kind() {
                "parenthesized_expression" | "await_expression" => n = p,
                "variable_declarator" => return self.field(p, "value") != Some(n),
                "member_expression" => return self.field(p, "object") != Some(n),
                "expression_statement" => return false,
                _ => return true,
            }
        }
        false
    }

    pub(super) fn module_call(&mut self, q: &str, args: &Args<'t>) {
        // `fs.promises.x`, `fs/promises.x` and the callback forms are the same calls.
        let fsq = q
            .strip_prefix("fs.promises.")
            .or_else(|| q.strip_prefix("fs/promises."))
            .or_else(|| q.strip_prefix("fs."))
            .or_else(|| q.strip_prefix("global.Deno."));
        if let Some(op) = fsq {
            let deno = q.starts_with("global.Deno.");
            self.fs_call(q, op.trim_end_matches("Sync"), deno, args);
            return;
        }
        if self.path_call(&[GLOBAL_PATH_CALLS], |n| *n == q, args) {
            return;
        }
        if NO_EFFECT.contains(&q) {
            return;
        }
        match q {
            "child_process.exec" | "child_process.execSync" => {
                let cmd = self.arg_text(args, 0);
                let o = self.options(args, 1);
                self.spawn_options(&o);
                self.out.push(Effect::Shell(in_dir(&o, cmd)));
            }
            "child_process.execFile"
            | "child_process.execFileSync"
            | "child_process.spawn"
            | "child_process.spawnSync" => self.spawn(args),
            "child_process.fork" => self
                .out
                .opaque("starts another script of the project (`fork`)"),
            "global.Bun.spawn" | "global.Bun.spawnSync" => {
                match args.first().map(|n| self.eval(*n)) {
                    Some(JsValue::List(items)) if !items.is_empty() => self
                        .out
                        .push(Effect::Exec(items.iter().map(JsValue::text).collect())),
                    _ => self.out.opaque("starts a program with arguments not known"),
                }
            }
            "global.fetch" => self.out.push(Effect::Network("fetch".into())),
            "global.process.kill" => {
                let pid = self.arg_text(args, 0);
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            _ if plain_global(q) => {}
            _ if in_list(q, NETWORK) => self.out.push(Effect::Network(q.to_string())),
            _ if in_list(q, PURE) => {}
            _ => self.out.opaque(format!(
                "calls `{}`, which is not known",
                q.trim_start_matches("global.")
            )),
        }
    }

    /// The options object at argument `i` (empty when not given).
    fn options(&mut self, args: &[Node<'t>], i: usize) -> JsValue {
        args.get(i)
            .map(|n| self.eval(*n))
            .unwrap_or(JsValue::Obj(Vec::new()))
    }

    /// A function of `fs` (or `fs/promises`, or of `Deno`), named `op` without its `Sync`.
    fn fs_call(&mut self, q: &str, op: &str, deno: bool, args: &Args<'t>) {
        if matches!(op, "chmod" | "lchmod") {
            self.chmod(args.get(1).copied(), args.first().copied());
        }
        if self.path_call(&[FS_PATH_CALLS, POSIX_PAIRS], |n| *n == op, args) {
            return;
        }
        match op {
            "readFile" | "createReadStream" | "readdir" | "opendir" | "readTextFile"
            | "readDir" | "readlink" | "open"
                if !(op == "open" && !deno && args.len() > 1) =>
            {
                let p = self.arg_text(args, 0);
                if deno && op == "open" {
                    let o = self.options(args, 1);
                    if o.field("write").is_some()
                        || o.field("append").is_some()
                        || o.field("create").is_some()
                    {
                        self.out.push(Effect::Write(p));
                        return;
                    }
                }
                self.out.push(Effect::Read(p));
            }
            "open" => {
                let p = self.arg_text(args, 0);
                match self.arg_text(args, 1).known() {
                    Some(fl) if !fl.contains(['w', 'a', '+']) => self.out.push(Effect::Read(p)),
                    _ => self.out.push(Effect::Write(p)),
                }
            }
            _ if FS_NO_EFFECT.contains(&op) => {}
            "rm" | "rmdir" | "unlink" | "remove" => {
                let p = self.arg_text(args, 0);
                let o = self.options(args, 1);
                // Options not known, or spread from elsewhere, may say recursive.
                let recursive = match (&o, o.field("recursive")) {
                    (_, Some(JsValue::Bool(b))) => *b,
                    (JsValue::Obj(f), None) => f.iter().any(|(k, _)| k == "..."),
                    _ => true,
                };
                self.out.push(Effect::Delete { path: p, recursive });
            }
            "env.toObject" => {
                self.out.push(Effect::EnvDump(
                    "uses the whole environment (`Deno.env.toObject`)".into(),
                ));
            }
            _ if deno => self
                .out
                .opaque(format!("calls `Deno.{op}`, which is not known")),
            _ => self.out.opaque(format!("calls `{q}`, which is not known")),
        }
    }

    /// `execFile` and `spawn` of `child_process`: a program, its arguments as a list, and
    /// options (a shell, a folder) that make it a command line.
    fn spawn(&mut self, args: &[Node<'t>]) {
        let prog = self.arg_text(args, 0);
        let (list, o) = match args.get(1).map(|n| self.eval(*n)) {
            Some(JsValue::List(items)) => (Some(items), self.options(args, 2)),
            Some(o @ JsValue::Obj(_)) => (Some(Vec::new()), o),
            None => (Some(Vec::new()), JsValue::Obj(Vec::new())),
            Some(_) => (None, self.options(args, 2)),
        };
        self.spawn_options(&o);
        let Some(items) = list else {
            self.out.opaque("starts a program with arguments not known");
            return;
        };
        let mut argv = vec![prog];
        argv.extend(items.iter().map(JsValue::text));
        let shell = matches!(
            o.field("shell"),
            Some(JsValue::Bool(true)) | Some(JsValue::Str(_))
        );
        if shell || o.field("cwd").is_some() {
            let line = argv
                .iter()
                .map(|t| {
                    if shell {
                        t.clone()
                    } else {
                        Text::lit(t.shell_word())
                    }
                })
                .fold(Text::default(), |acc, t| {
                    if acc.0.is_empty() {
                        t
                    } else {
                        acc.concat(Text::lit(" ")).concat(t)
                    }
                });
            self.out.push(Effect::Shell(in_dir(&o, line)));
        } else {
            self.out.push(Effect::Exec(argv));
        }
    }

    /// Options of `child_process` calls that change what runs.
    pub(super) fn spawn_options(&mut self, o: &JsValue) {
        if !matches!(o, JsValue::Obj(_)) {
            self.out.opaque("starts a program with options not known");
        }
        for k in ["env", "argv0", "input", "stdio", "uid", "gid"] {
            if o.field(k).is_some() && k != "stdio" {
                self.out.opaque(format!(
                    "starts a program with `{k}`, which changes what it runs"
                ));
            }
        }
        if o.field("...").is_some() {
            self.out.opaque("starts a program with options not known");
        }
        if let Some(c) = o.field("cwd") {
            if !c.text().is_known() {
                self.out.opaque("starts a program in a folder not known");
            }
        }
    }
}

/// A command run in the folder `cwd` of its options, if they give one.
pub(super) fn in_dir(o: &JsValue, cmd: Text) -> Text {
    match o.field("cwd") {
        Some(dir) => Text::lit(format!("cd {} && ", dir.text().shell_word())).concat(cmd),
        None => cmd,
    }
}
