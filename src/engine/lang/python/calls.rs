//! What Python calls do: builtins, module functions (`os`, `shutil`, `subprocess` …),
//! `open` and its modes, and methods of paths and other objects.

use super::{is_network, is_pure, plain_members, Walker, BUILTINS, DYNAMIC};
use crate::engine::lang::calls::Args;
use crate::engine::lang::path_calls::{
    delete, delete_tree, write, PathCall, COPY, HARDLINK, MOVE, SYMLINK,
};
use crate::engine::lang::walker::Reader;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{Effect, Text, Value};
use tree_sitter::Node;

/// Module functions that act on the paths they are given.
const PATH_CALLS: &[PathCall<&str>] = &[
    PathCall {
        names: &["os.remove", "os.unlink", "os.rmdir", "os.removedirs"],
        paths: &[delete(0, "path")],
    },
    PathCall {
        names: &["shutil.rmtree"],
        paths: &[delete_tree(0, "path")],
    },
    PathCall {
        names: &["os.rename", "os.replace", "os.renames", "shutil.move"],
        paths: MOVE,
    },
    PathCall {
        names: &[
            "os.mkdir",
            "os.makedirs",
            "os.mkfifo",
            "os.mknod",
            "os.chmod",
            "os.lchmod",
            "os.chown",
            "os.lchown",
            "os.chflags",
            "os.truncate",
            "os.utime",
            "os.setxattr",
            "os.removexattr",
            "os.open",
            "shutil.chown",
        ],
        paths: &[write(0, "path")],
    },
    PathCall {
        names: &["os.symlink"],
        paths: SYMLINK,
    },
    PathCall {
        names: &["os.link"],
        paths: HARDLINK,
    },
    PathCall {
        names: &[
            "shutil.copy",
            "shutil.copy2",
            "shutil.copyfile",
            "shutil.copytree",
            "shutil.copymode",
            "shutil.copystat",
        ],
        paths: COPY,
    },
    PathCall {
        names: &["shutil.make_archive"],
        paths: &[write(0, "base_name")],
    },
];

/// Module functions that neither touch files nor start programs.
const NO_EFFECT: &[&str] = &[
    "os.listdir",
    "os.scandir",
    "os.walk",
    "os.stat",
    "os.lstat",
    "os.access",
    "os.getcwd",
    "os.getcwdb",
    "os.getpid",
    "os.getppid",
    "os.getuid",
    "os.geteuid",
    "os.getgid",
    "os.getegid",
    "os.getlogin",
    "os.uname",
    "os.cpu_count",
    "os.urandom",
    "os.get_terminal_size",
    "os.fspath",
    "os.fsencode",
    "os.fsdecode",
    "os.strerror",
    "os.isatty",
    "os.getloadavg",
    "os.times",
    "os.readlink",
    "os.fstat",
    "os.get_exec_path",
    "os.environ.keys",
    "os.environ.__contains__",
    "os.getenvb",
    "shutil.which",
    "shutil.disk_usage",
    "shutil.get_terminal_size",
    "glob.glob",
    "glob.iglob",
    "glob.escape",
    "tempfile.gettempdir",
    "sys.exit",
    "sys.getsizeof",
    "sys.getrecursionlimit",
    "sys.setrecursionlimit",
    "sys.getdefaultencoding",
    "sys.getfilesystemencoding",
    "sys.stdout.write",
    "sys.stderr.write",
    "sys.stdout.flush",
    "sys.stderr.flush",
    "sys.stdin.read",
    "sys.stdin.readline",
    "sys.stdin.readlines",
    "sys.stdout.buffer.write",
    "sys.stdin.buffer.read",
    "sys.intern",
    "io.StringIO",
    "io.BytesIO",
    "io.TextIOWrapper",
    "asyncio.run",
    "asyncio.sleep",
    "asyncio.gather",
    "asyncio.wait_for",
    "asyncio.get_event_loop",
    "asyncio.new_event_loop",
    "asyncio.Queue",
    "asyncio.Event",
    "asyncio.Lock",
    "asyncio.Semaphore",
    "asyncio.create_task",
    "asyncio.wait",
    "asyncio.TimeoutError",
    "subprocess.CalledProcessError",
    "sqlite3.Row",
    "pathlib.Path",
    "pathlib.PurePath",
    "pathlib.PosixPath",
    "pathlib.PurePosixPath",
    "pathlib.Path.home",
    "pathlib.Path.cwd",
    "os.path.join",
];

impl<'t> Walker<'t> {
    pub(super) fn call(&mut self, n: Node<'t>) {
        let Some(f) = self.field(n, "function") else {
            return;
        };
        let args = self.args(n);
        self.walk_args(&args);
        if let Some(q) = self.qualify(f) {
            self.module_call(&q, &args);
            return;
        }
        match f.kind() {
            "identifier" => {
                let name = self.t(f);
                if self.binds(name) {
                    return;
                }
                self.builtin_call(name, &args);
            }
            "attribute" => {
                let (Some(obj), Some(attr)) = (self.field(f, "object"), self.field(f, "attribute"))
                else {
                    return;
                };
                let method = self.t(attr);
                if method.starts_with("__") && method != "__init__" {
                    self.out
                        .opaque(format!("calls the interpreter's internals (`{method}`)"));
                }
                self.walk(obj);
                let recv = self.eval(obj);
                self.method_call(recv, method, &args);
            }
            _ => {
                self.walk(f);
                self.out.opaque("calls a function chosen at run time");
            }
        }
    }

    pub(super) fn builtin_call(&mut self, name: &str, args: &Args<'t>) {
        if BUILTINS.contains(&name) {
            return;
        }
        if name == "open" {
            self.open(args, 0);
            return;
        }
        if DYNAMIC.contains(&name) {
            self.out
                .opaque(format!("runs or reaches code by name (`{name}`)"));
            return;
        }
        if name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning") {
            return;
        }
        self.out
            .opaque(format!("calls `{name}`, which is not known"));
    }

    /// `open(path, mode)` and its relatives; `at` is the index of the path argument.
    pub(super) fn open(&mut self, args: &Args<'t>, at: usize) {
        let path = self.text_of(args.arg(at, "file"));
        let mode = args.arg(at + 1, "mode");
        self.open_mode(path, mode);
    }

    pub(super) fn open_mode(&mut self, path: Text, mode: Option<Node<'t>>) {
        let mode = match mode {
            None => Some("r".to_string()),
            Some(m) => self.eval(m).text().known(),
        };
        match mode {
            Some(m) if !m.contains(['w', 'a', 'x', '+']) => self.out.push(Effect::Read(path)),
            Some(m) if m.contains('r') => {
                self.out.push(Effect::Read(path.clone()));
                self.out.push(Effect::Write(path));
            }
            _ => self.out.push(Effect::Write(path)),
        }
    }

    pub(super) fn module_call(&mut self, q: &str, a: &Args<'t>) {
        if matches!(q, "os.chmod" | "os.lchmod") {
            self.chmod(a.arg(1, "mode"), a.arg(0, "path"));
        }
        if self.path_call(&[PATH_CALLS], |n| *n == q, a) {
            return;
        }
        if NO_EFFECT.contains(&q) {
            return;
        }
        let top = q.split('.').next().unwrap_or(q);
        match q {
            "os.system"
            | "os.popen"
            | "subprocess.getoutput"
            | "subprocess.getstatusoutput"
            | "asyncio.create_subprocess_shell" => {
                let cmd = self.text_of(a.arg(0, "cmd"));
                self.out.push(Effect::Shell(cmd));
            }
            "subprocess.run"
            | "subprocess.call"
            | "subprocess.check_call"
            | "subprocess.check_output"
            | "subprocess.Popen" => self.subprocess(a),
            "asyncio.create_subprocess_exec"
            | "os.execlp"
            | "os.execl"
            | "os.execle"
            | "os.execlpe" => self.exec_arguments(q, a),
            "os.execv" | "os.execve" | "os.execvp" | "os.execvpe" | "os.posix_spawn"
            | "os.posix_spawnp" => self.exec_vector(q, a),
            "shutil.copyfileobj" => {
                // Copies between open files: the paths were judged where they were opened.
                self.text_of(a.arg(0, "src"));
                self.text_of(a.arg(1, "dst"));
            }
            "shutil.unpack_archive" => self.unpack_archive(a),
            "os.kill" | "os.killpg" => {
                let pid = self.text_of(a.arg(0, "pid"));
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            "os.getenv" | "os.environ.get" => {
                if let Some(k) = a.first() {
                    self.env_var(Some(*k));
                }
            }
            "os.environ.items" | "os.environ.values" | "os.environ.copy" => {
                self.out.push(Effect::EnvDump(format!(
                    "uses the whole environment (`{q}`)"
                )));
            }
            _ if q
                .strip_prefix("os.path.")
                .is_some_and(|rest| !rest.contains('.') && plain_members(rest)) => {}
            "io.open" | "codecs.open" | "gzip.open" | "bz2.open" | "lzma.open" => self.open(a, 0),
            "tarfile.open" | "zipfile.ZipFile" | "tarfile.TarFile" => {
                let p = self.text_of(a.arg(0, "name"));
                let mode = a.arg(1, "mode");
                self.open_mode(p, mode);
            }
            "sqlite3.connect" => {
                let p = self.text_of(a.arg(0, "path"));
                if p.known().as_deref() != Some(":memory:") {
                    self.out.push(Effect::Write(p));
                }
            }
            _ if top == "tempfile" => {
                self.out.push(Effect::Write(Text::lit("/tmp/tmp-python")));
            }
            _ if is_network(q) => self.out.push(Effect::Network(q.to_string())),
            "asyncio.open_connection" | "asyncio.start_server" => {
                self.out.push(Effect::Network(q.to_string()))
            }
            _ if is_pure(q) => {}
            _ => self.out.opaque(format!("calls `{q}`, which is not known")),
        }
    }

    /// `os.execl(path, arg0, …)` and `asyncio.create_subprocess_exec(program, …)`: the
    /// program and its arguments, one by one (`os.execl*` name the program twice).
    fn exec_arguments(&mut self, q: &str, a: &Args<'t>) {
        let skip = usize::from(q.starts_with("os."));
        let mut argv: Vec<Text> = Vec::new();
        for (i, n) in a.pos.iter().enumerate() {
            if i >= skip || i == 0 {
                if i == 0 && skip == 1 {
                    continue;
                }
                argv.push(self.eval(*n).text());
            }
        }
        if a.splat {
            argv.push(Text::unknown());
        }
        if argv.is_empty() {
            self.out.opaque(format!("`{q}` with arguments not known"));
        } else {
            self.out.push(Effect::Exec(argv));
        }
    }

    /// `os.execv(path, argv)` and its relatives: the program, and its arguments as a list.
    fn exec_vector(&mut self, q: &str, a: &Args<'t>) {
        match a.pos.get(1).map(|n| self.eval(*n)) {
            Some(Value::List(items)) if !items.is_empty() => {
                let mut argv: Vec<Text> = items.iter().map(Value::text).collect();
                // The program is the first argument; the list's first item is its name.
                argv[0] = self.text_of(a.arg(0, "path"));
                self.out.push(Effect::Exec(argv));
            }
            _ => self.out.opaque(format!("`{q}` with arguments not known")),
        }
    }

    /// `shutil.unpack_archive(file, folder)`: reads the archive, writes the folder (the
    /// working one when not given).
    fn unpack_archive(&mut self, a: &Args<'t>) {
        let f = self.text_of(a.arg(0, "filename"));
        self.out.push(Effect::Read(f));
        let d = match a.arg(1, "extract_dir") {
            Some(n) => self.eval(n).text(),
            None => Text::lit("."),
        };
        self.out.push(Effect::Write(d));
    }

    pub(super) fn subprocess(&mut self, a: &Args<'t>) {
        for k in ["env", "executable", "preexec_fn", "input", "stdin"] {
            if a.kw_value(k).is_some() {
                self.out.opaque(format!(
                    "starts a program with `{k}=`, which changes what it runs"
                ));
            }
        }
        if a.splat {
            self.out.opaque("starts a program with arguments not known");
        }
        let shell = a.kw_value("shell").is_some_and(|v| self.t(v) != "False");
        let prefix = match a.kw_value("cwd") {
            Some(c) => {
                let dir = self.eval(c).text();
                Some(dir)
            }
            None => None,
        };
        let Some(first) = a.arg(0, "args") else {
            self.out.opaque("starts a program not named here");
            return;
        };
        let v = self.eval(first);
        let in_dir = |cmd: Text| -> Text {
            match &prefix {
                Some(dir) => Text::lit("cd ")
                    .concat(Text::lit(dir.shell_word()))
                    .concat(Text::lit(" && "))
                    .concat(cmd),
                None => cmd,
            }
        };
        match v {
            Value::List(items) if !items.is_empty() => {
                if shell {
                    let cmd = items[0].text();
                    self.out.push(Effect::Shell(in_dir(cmd)));
                } else if let Some(dir) = &prefix {
                    let line = items
                        .iter()
                        .map(|i| i.text().shell_word())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let cmd = Text::lit(format!("cd {} && {line}", dir.shell_word()));
                    self.out.push(Effect::Shell(cmd));
                } else {
                    self.out
                        .push(Effect::Exec(items.iter().map(Value::text).collect()));
                }
            }
            Value::Str(s) | Value::Path(s) => self.out.push(Effect::Shell(in_dir(s))),
            _ => self
                .out
                .opaque("starts a program whose command is not known"),
        }
        // `cwd=` given as an unknown folder: the command runs somewhere not known.
        if prefix.as_ref().is_some_and(|d| !d.is_known()) {
            self.out.opaque("starts a program in a folder not known");
        }
    }

    pub(super) fn method_call(&mut self, recv: Value, method: &str, a: &Args<'t>) {
        let path = match &recv {
            Value::Path(p) => Some(p.clone()),
            _ => None,
        };
        let on = |p: &Option<Text>| p.clone().unwrap_or_else(Text::unknown);
        match method {
            "unlink" | "rmdir" => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: false,
            }),
            "write_text" | "write_bytes" | "touch" | "mkdir" | "chmod" | "lchmod" => {
                self.out.push(Effect::Write(on(&path)))
            }
            // Links, judged as `ln` is: `Path(link).symlink_to(target)`,
            // `.hardlink_to(target)`, and `Path(target).link_to(link)`.
            "symlink_to" | "hardlink_to" | "link_to" => {
                let other = self.text_of(a.arg(0, "target"));
                let (target, link) = match method {
                    "link_to" => (on(&path), other),
                    _ => (other, on(&path)),
                };
                let mut argv = vec![Text::lit("ln")];
                if method == "symlink_to" {
                    argv.push(Text::lit("-s"));
                }
                argv.extend([Text::lit("--"), target, link]);
                self.out.push(Effect::Exec(argv));
            }
            "rename" | "replace" if path.is_some() || a.pos.len() == 1 => {
                self.out.push(Effect::Write(on(&path)));
                let d = self.text_of(a.arg(0, "target"));
                self.out.push(Effect::Write(d));
            }
            "copy" | "copy_into" | "move" | "move_into" if path.is_some() => {
                self.out.push(Effect::Write(on(&path)));
                let d = self.text_of(a.arg(0, "target"));
                self.out.push(Effect::Write(d));
            }
            "read_text" | "read_bytes" => self.out.push(Effect::Read(on(&path))),
            "open" if path.is_some() => {
                let mode = a.arg(0, "mode");
                self.open_mode(on(&path), mode);
            }
            "open" => {
                if let Some(m) = a.arg(1, "mode") {
                    if self
                        .eval(m)
                        .text()
                        .known()
                        .is_none_or(|m| m.contains(['w', 'a', 'x', '+']))
                    {
                        self.out.push(Effect::Write(Text::unknown()));
                    }
                }
            }
            "extractall" | "extract" => {
                let d = match a.arg(usize::from(method == "extract"), "path") {
                    Some(n) => self.eval(n).text(),
                    None => Text::lit("."),
                };
                self.out.push(Effect::Write(d));
            }
            "system" | "popen" | "spawn" | "execv" | "execvp" => {
                self.out
                    .opaque(format!("calls `.{method}` on an object not known"));
            }
            _ => {}
        }
    }
}
