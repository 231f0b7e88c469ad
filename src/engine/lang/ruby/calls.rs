//! What Ruby calls do: `Kernel` (`system`, `exec`, `spawn`, `open`, backticks), and the
//! methods of `File`, `IO`, `FileUtils`, `Dir`, `Pathname`, `ENV`, `Open3` and the rest.

use super::{Walker, DYNAMIC, KERNEL, NETWORK, PURE};
use crate::engine::lang::calls::Args;
use crate::engine::lang::path_calls::{
    each_from, hardlink_target, read, symlink_target, write, Does, PathCall,
};
use crate::engine::lang::walker::Reader;
use crate::engine::lang::SyntaxWalk;
use crate::engine::lang::{Effect, Text, Value};
use tree_sitter::Node;

/// Class methods that act on the paths they are given.
const PATH_CALLS: &[PathCall<(&str, &str)>] = &[
    PathCall {
        names: &[
            ("File", "write"),
            ("File", "binwrite"),
            ("IO", "write"),
            ("IO", "binwrite"),
        ],
        paths: &[write(0, "")],
    },
    PathCall {
        names: &[
            ("File", "delete"),
            ("File", "unlink"),
            ("FileUtils", "rm"),
            ("FileUtils", "rm_f"),
            ("FileUtils", "remove"),
            ("FileUtils", "safe_unlink"),
            ("Dir", "rmdir"),
            ("Dir", "delete"),
            ("Dir", "unlink"),
            ("FileUtils", "rmdir"),
        ],
        paths: &[each_from(0, Does::Delete)],
    },
    PathCall {
        names: &[
            ("FileUtils", "rm_rf"),
            ("FileUtils", "rm_r"),
            ("FileUtils", "rmtree"),
            ("FileUtils", "remove_dir"),
            ("FileUtils", "remove_entry"),
            ("FileUtils", "remove_entry_secure"),
            ("FileUtils", "remove_dir_secure"),
        ],
        paths: &[each_from(0, Does::DeleteTree)],
    },
    PathCall {
        names: &[
            ("File", "rename"),
            ("FileUtils", "mv"),
            ("FileUtils", "move"),
        ],
        paths: &[write(0, ""), write(1, "")],
    },
    PathCall {
        names: &[
            ("FileUtils", "cp"),
            ("FileUtils", "copy"),
            ("FileUtils", "cp_r"),
            ("FileUtils", "install"),
            ("FileUtils", "copy_file"),
            ("FileUtils", "copy_entry"),
            ("FileUtils", "cp_lr"),
        ],
        paths: &[read(0, ""), write(1, "")],
    },
    PathCall {
        names: &[
            ("File", "symlink"),
            ("FileUtils", "ln_s"),
            ("FileUtils", "ln_sf"),
            ("FileUtils", "symlink"),
        ],
        paths: &[symlink_target(0, ""), write(1, "")],
    },
    PathCall {
        names: &[("File", "link"), ("FileUtils", "ln"), ("FileUtils", "link")],
        paths: &[hardlink_target(0, ""), write(1, "")],
    },
    PathCall {
        names: &[
            ("File", "chmod"),
            ("File", "chown"),
            ("File", "lchmod"),
            ("File", "lchown"),
            ("File", "utime"),
            ("FileUtils", "chmod"),
            ("FileUtils", "chmod_R"),
        ],
        paths: &[each_from(1, Does::Write)],
    },
    PathCall {
        names: &[("FileUtils", "chown"), ("FileUtils", "chown_R")],
        paths: &[each_from(2, Does::Write)],
    },
    PathCall {
        names: &[
            ("File", "truncate"),
            ("Dir", "mkdir"),
            ("FileUtils", "mkdir"),
            ("FileUtils", "mkdir_p"),
            ("FileUtils", "makedirs"),
            ("FileUtils", "mkpath"),
            ("FileUtils", "touch"),
        ],
        paths: &[each_from(0, Does::Write)],
    },
];

/// Methods of `File`, `Dir`, `FileUtils` and `Pathname` that only look at files or names.
const FILE_QUERIES: &[&str] = &[
    "exist?",
    "exists?",
    "file?",
    "directory?",
    "size",
    "size?",
    "basename",
    "dirname",
    "extname",
    "join",
    "expand_path",
    "absolute_path",
    "realpath",
    "mtime",
    "atime",
    "ctime",
    "stat",
    "lstat",
    "readable?",
    "writable?",
    "executable?",
    "zero?",
    "empty?",
    "symlink?",
    "split",
    "fnmatch",
    "fnmatch?",
    "home",
    "pwd",
    "getwd",
    "glob",
    "[]",
    "entries",
    "children",
    "each_child",
    "tmpdir",
    "new",
    "ftype",
    "identical?",
    "absolute_path?",
    "path",
    "compare_file",
    "uptodate?",
];

impl<'t> Walker<'t> {
    pub(super) fn call(&mut self, n: Node<'t>) {
        let recv = self.field(n, "receiver");
        let method = self.field(n, "method").map(|m| self.t(m)).unwrap_or("");
        let args = self.args(n);
        self.walk_args(&args);
        if let Some(b) = self.field(n, "block") {
            self.walk(b);
        }
        if DYNAMIC.contains(&method) {
            self.out
                .opaque(format!("runs or reaches code by name (`{method}`)"));
            return;
        }
        let Some(r) = recv else {
            self.kernel(method, &args, args.splat);
            return;
        };
        if let Some(c) = self.constant(r) {
            self.class_call(&c, method, &args);
            return;
        }
        self.walk(r);
        let v = self.eval(r);
        let path = match v {
            Value::Path(p) => Some(p),
            _ => None,
        };
        let on = |p: &Option<Text>| p.clone().unwrap_or_else(Text::unknown);
        match method {
            "rmtree" => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: true,
            }),
            "unlink" | "rmdir" => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: false,
            }),
            "delete" if path.is_some() => self.out.push(Effect::Delete {
                path: on(&path),
                recursive: false,
            }),
            "mkpath" | "make_symlink" | "make_link" | "chmod" | "chown" | "truncate" => {
                self.out.push(Effect::Write(on(&path)))
            }
            "write" | "binwrite" | "mkdir" | "rename" | "open" if path.is_some() => {
                self.out.push(Effect::Write(on(&path)))
            }
            "read" | "binread" | "readlines" | "each_line" if path.is_some() => {
                self.out.push(Effect::Read(on(&path)))
            }
            _ => {}
        }
    }

    pub(super) fn argv(&mut self, pos: &[Node<'t>], splat: bool) -> Option<Vec<Text>> {
        let mut argv: Vec<Text> = pos
            .iter()
            .filter(|a| a.kind() != "hash")
            .map(|a| self.eval(*a).text())
            .collect();
        if splat {
            argv.push(Text::unknown());
        }
        (!argv.is_empty()).then_some(argv)
    }

    /// `system "cmd"` runs a shell; `system "prog", "arg"` runs the program directly.
    pub(super) fn run(&mut self, pos: &[Node<'t>], splat: bool) {
        let args: Vec<Node<'t>> = pos.iter().copied().filter(|a| a.kind() != "hash").collect();
        // A leading hash is the environment.
        if pos.first().is_some_and(|a| a.kind() == "hash") {
            self.out
                .opaque("starts a program with a changed environment");
        }
        // `IO.popen(["rm", "-rf", dir])`: one list is the program and its arguments.
        if let [only] = args.as_slice() {
            if only.kind() == "array" && !splat {
                if let Value::List(items) = self.eval(*only) {
                    if items.is_empty() {
                        self.out.opaque("starts a program not named here");
                        return;
                    }
                    self.out
                        .push(Effect::Exec(items.iter().map(Value::text).collect()));
                    return;
                }
            }
        }
        match self.argv(&args, splat) {
            Some(argv) if argv.len() == 1 && !splat => {
                let cmd = argv.into_iter().next().unwrap_or_else(Text::unknown);
                self.out.push(Effect::Shell(cmd));
            }
            Some(argv) => self.out.push(Effect::Exec(argv)),
            None => self.out.opaque("starts a program not named here"),
        }
    }

    pub(super) fn kernel(&mut self, method: &str, pos: &[Node<'t>], splat: bool) {
        if self.local.contains(method) {
            return;
        }
        match method {
            "system" | "exec" | "spawn" => self.run(pos, splat),
            "open" => {
                let p = self.arg_text(pos, 0);
                match p.0.first() {
                    Some(crate::engine::lang::Part::Lit(s)) if s.starts_with('|') => {
                        let cmd = Text(p.0.clone());
                        let cmd = match cmd.known() {
                            Some(c) => Text::lit(c.trim_start_matches('|')),
                            None => Text::unknown(),
                        };
                        self.out.push(Effect::Shell(cmd));
                    }
                    Some(crate::engine::lang::Part::Lit(s))
                        if s.starts_with("http://") || s.starts_with("https://") =>
                    {
                        self.out.push(Effect::Network(s.clone()));
                    }
                    Some(crate::engine::lang::Part::Lit(_)) => {
                        self.open_mode(p, pos.get(1).copied())
                    }
                    _ => self.out.opaque("opens a file or command named at run time"),
                }
            }
            "require" => {
                let lib = pos.first().map(|a| self.eval(*a).text().known());
                match lib {
                    Some(Some(l)) if crate::engine::lang::argv::ruby_lib(&l) => {}
                    Some(Some(l)) => self
                        .out
                        .opaque(format!("loads `{l}`, whose code is not known")),
                    _ => self.out.opaque("loads a library named at run time"),
                }
            }
            _ if KERNEL.contains(&method) => {}
            _ => self
                .out
                .opaque(format!("calls `{method}`, which is not known")),
        }
    }

    pub(super) fn open_mode(&mut self, p: Text, mode: Option<Node<'t>>) {
        let mode = match mode {
            None => Some("r".to_string()),
            Some(m) => self.eval(m).text().known(),
        };
        match mode {
            Some(m) if !m.contains(['w', 'a', '+']) => self.out.push(Effect::Read(p)),
            _ => self.out.push(Effect::Write(p)),
        }
    }

    pub(super) fn class_call(&mut self, c: &str, method: &str, args: &Args<'t>) {
        if matches!(
            (c, method),
            ("File", "chmod" | "lchmod") | ("FileUtils", "chmod" | "chmod_R")
        ) {
            for p in args.iter().skip(1) {
                self.chmod(args.first().copied(), Some(*p));
            }
        }
        if self.path_call(&[PATH_CALLS], |&(class, m)| class == c && m == method, args) {
            return;
        }
        let top = c.split("::").next().unwrap_or(c);
        match (c, method) {
            ("File" | "IO", "read" | "readlines" | "foreach" | "binread" | "readlink")
            | ("YAML" | "Psych" | "JSON", "load_file" | "safe_load_file" | "parse_file")
            | ("CSV", "read" | "foreach" | "table" | "parse_file") => self.read_file(c, args),
            ("File", "open" | "new") => {
                let p = self.arg_text(args, 0);
                self.open_mode(p, args.get(1).copied());
            }
            ("Dir", "chdir") | ("FileUtils", "cd" | "chdir") => {
                self.out.opaque("changes the working folder")
            }
            // Makes a new folder: a write of the path the call's value stands for.
            ("Dir", "mktmpdir") => {
                let folder = match args.get(1) {
                    Some(_) => self.arg_text(args, 1),
                    None => Text::lit("/tmp"),
                };
                self.out
                    .push(Effect::Write(folder.join(Text::lit("dXXXXXXXX"))));
            }
            ("File" | "Dir" | "FileUtils" | "Pathname", _) if FILE_QUERIES.contains(&method) => {}
            (
                "Open3",
                "capture2" | "capture2e" | "capture3" | "popen3" | "popen2" | "popen2e"
                | "pipeline",
            )
            | ("IO", "popen")
            | ("Process", "spawn")
            | ("Kernel", "system" | "exec" | "spawn") => self.run(args, args.splat),
            ("ENV", "fetch" | "[]" | "key?" | "has_key?" | "include?") => {
                self.env_var(args.first().copied());
            }
            ("ENV", _) => self.out.push(Effect::EnvDump(format!(
                "uses the whole environment (`ENV.{method}`)"
            ))),
            ("Process", "kill") => {
                let pid = self.arg_text(args, 1);
                self.out.push(Effect::Exec(vec![Text::lit("kill"), pid]));
            }
            ("Process", "pid" | "clock_gettime" | "exit" | "ppid" | "uid" | "euid") => {}
            ("Process", _) => self.out.opaque(format!("calls `Process.{method}`")),
            _ if NETWORK.contains(&top) => self.out.push(Effect::Network(format!("{c}.{method}"))),
            ("Kernel", m) => self.kernel(m, args, args.splat),
            _ if PURE.contains(&top) || self.local.contains(top) => {}
            _ => self
                .out
                .opaque(format!("calls `{c}.{method}`, which is not known")),
        }
    }

    /// `File.read(path)` and the other readers of a whole file; `IO.read("|cmd")` runs a
    /// command instead.
    fn read_file(&mut self, c: &str, pos: &[Node<'t>]) {
        let p = self.arg_text(pos, 0);
        if c == "IO" && p.known().is_some_and(|s| s.starts_with('|')) {
            self.out.push(Effect::Shell(Text::lit(
                p.known().unwrap_or_default().trim_start_matches('|'),
            )));
        } else {
            self.out.push(Effect::Read(p));
        }
    }
}
