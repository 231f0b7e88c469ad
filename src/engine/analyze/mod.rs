//! Command semantics: what a parsed shell script would actually run and touch.
//!
//! `shell` gives the simple commands as written. This module gives their meaning:
//! wrappers are peeled (`sudo`, `env`, `timeout`, `nice`, `xargs`, `find -exec` …) and the
//! command they run is analysed too; scripts hidden in strings are parsed again (`bash -c`,
//! `eval`, `watch`, `su -c`, text piped or fed by heredoc into a shell); `git` global options
//! are removed; `cd` moves the working directory for later commands; redirections and the
//! declared effects of commands (`cp`, `tee`, `sed -i` …) become file accesses. Things that
//! cannot be judged from the text alone become signals (remote code fed to a shell, a
//! command name known only at run time), which rules in the policy turn into verdicts.
//!
//! Everything here is pure: paths are resolved through [`paths::Fs`].
//!
//! The parts: `walk` goes over a parsed script and hands each argv to the part that knows
//! its program; `wrappers` peels wrappers (`listed`: the words xargs' input gives its
//! command); `find`, `git` and `editors` (sed) read those
//! programs; `shells` follows code handed to shells and interpreters, `langs` code in other
//! languages, both reading what feeds them through `flow` (pipeline stages, substitutions,
//! known output); `effects` turns the policy's declared effects of a program into file
//! accesses. This file holds the types, the entry point and the recording of file accesses
//! that all parts share.

use crate::engine::args::Recursion;
use std::path::{Path, PathBuf};

use crate::engine::paths::{self, Resolved};
use crate::engine::policy::{AccessKind, Policy};
use crate::engine::shell::{self, Script, SimpleCommand, Word};
use crate::engine::Context;

pub use crate::engine::policy::schema::SignalName;
pub use hidden::Hidden;

mod editors;
mod effects;
mod fd;
mod find;
mod flow;
mod git;
mod git_args;
mod git_tables;
mod hidden;
mod langs;
mod listed;
mod makefile;
mod named;
mod runners;
mod scripts;
mod shells;
mod walk;
mod wrappers;

/// How deep scripts inside strings may nest (`bash -c "bash -c '…'"`).
const MAX_NESTING: usize = 8;
/// How many invocations one command may expand to before we stop looking.
const MAX_INVOCATIONS: usize = 2048;
/// How much parsing one analysis may do in all, nested scripts and scripts judged again
/// after a `cd` included, in pieces as estimated by [`shell::cost`] (about a microsecond
/// each), and how many scripts.
const MAX_PARSE_COST: usize = shell::MAX_PARSE_COST;
const MAX_SCRIPTS: usize = 4096;
/// How much parsing may go into judging, statement by statement, what is not analysed as
/// a whole (over the budget, or not valid Bash), in the same pieces; and how many facts
/// (programs and file accesses, each judged against the rules after) it may find. Judging
/// a fact costs more than parsing a piece: together they keep such input to a few ms.
const SALVAGE_COST: usize = shell::MAX_PARSE_COST / 2;
const MAX_SALVAGE_FACTS: usize = 96;
/// How many calls of a script's functions are judged with their arguments (each distinct
/// function and arguments once).
const MAX_CALLS: usize = 16;
/// How many folders a script's commands are judged in (see `parsed`).
const MAX_CWDS: usize = 8;

/// One program the command line would run, after wrappers are peeled.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// The program name as matched by rules (basename of an absolute path).
    pub name: String,
    /// The words after the name.
    pub args: Vec<Word>,
    /// False when the name was a path outside the standard program folders.
    pub trusted_path: bool,
    /// More arguments are added at run time (`xargs`, `find -exec … {}`).
    pub extra_args_unknown: bool,
    /// The arguments added at run time are paths found under folders the command names
    /// (`find DIR -exec CMD {} +`, `fd -x CMD`), each starting with such a folder: never
    /// taken for an option of the command.
    pub extra_args_paths: bool,
    /// The working directory it runs in, when known.
    pub cwd: Option<PathBuf>,
    /// The command as a reader would see it (for messages).
    pub display: String,
    /// What became of the code it runs in another language (`python3 -c CODE`, `node -e
    /// CODE`, a script), when it runs some (see `engine::lang`).
    pub code: Option<CodeRead>,
    /// Words that may name files in positions the policy does not know (see `named`):
    /// what the program does with them is not known, so they may be read and written.
    pub named: Vec<Word>,
    /// Words the declared effects read or write, which may instead be the value of an
    /// option before them that the policy does not know: judged for secrets and protected
    /// paths only.
    pub maybe_named: Vec<Word>,
}

/// The code an interpreter runs, as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRead {
    /// Read in full: what it does is judged in facts of its own.
    Judged,
    /// Not followed in full (computed code, unknown modules, no grammar).
    Opaque,
}

impl Invocation {
    /// The command line as rules see it: name and arguments joined by single spaces.
    pub fn line(&self) -> String {
        let mut s = self.name.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(&a.text);
        }
        s
    }
}

/// A file the command line reads or writes.
#[derive(Debug, Clone)]
pub struct Access {
    pub kind: AccessKind,
    pub path: Resolved,
    /// A read of the whole tree of the path, when it is a folder (`grep -r PAT DIR`): a
    /// folder that holds a secret is read as the secret.
    pub recursive: Recursion,
    /// What causes it (`> file`, `cp`, `Write` …).
    pub origin: String,
}

/// Something the rules must judge that is not a plain program or file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    pub name: SignalName,
    pub detail: String,
}

/// A git action a program performs on git's behalf (`npm version patch` commits and tags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitAction {
    /// The git subcommand it amounts to: `commit`, `tag`, `merge`, `push`.
    pub action: String,
    /// The command that performs it.
    pub by: String,
}

/// All that an analysis found.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    pub invocations: Vec<Invocation>,
    pub accesses: Vec<Access>,
    pub signals: Vec<Signal>,
    /// The facts of project scripts a build tool runs (`npm run X`, `make T`, git hooks),
    /// analysed apart: only what is forbidden in them counts.
    pub within: Vec<Facts>,
    /// Git actions performed by programs other than git (see `git_actions` in the effects).
    pub git_actions: Vec<GitAction>,
    /// Readings of a program's arguments as a command it may run (see `hidden`), analysed
    /// apart: only what is forbidden in them counts.
    pub hidden: Vec<Hidden>,
    /// Words naming files whose content a network program may send off the machine.
    pub sent: Vec<Sent>,
}

/// A word naming a file a network program may send off the machine (see `named`).
#[derive(Debug, Clone)]
pub struct Sent {
    pub word: Word,
    /// The whole tree under it is sent, when it is a folder (`tar -c DIR | curl -T - …`,
    /// `rsync -a DIR host:`): a folder that holds a secret sends the secret.
    pub recursive: Recursion,
    /// The folder it is resolved in.
    pub cwd: Option<PathBuf>,
    /// The network program.
    pub by: String,
}

impl Facts {
    fn signal(&mut self, name: SignalName, detail: impl Into<String>) {
        let detail = detail.into();
        if !self
            .signals
            .iter()
            .any(|s| s.name == name && s.detail == detail)
        {
            self.signals.push(Signal { name, detail });
        }
    }
}

/// Analyses a Bash command run in the context's folder.
pub fn analyze_command(command: &str, ctx: &Context) -> Facts {
    let mut a = Analyzer {
        env: ctx,
        facts: Facts::default(),
        parse_cost: 0,
        scripts: 0,
        salvage_left: SALVAGE_COST,
        calls: Vec::new(),
        call_site: None,
        downloaded: Vec::new(),
        links: Vec::new(),
        in_hidden: false,
        found_paths: false,
        inherited: Vec::new(),
        found_trees: Recursion::No,
    };
    a.script(command, ctx.cwd.map(Path::to_path_buf), 0);
    a.accesses_through_later_links();
    a.facts
}

struct Analyzer<'a> {
    env: &'a Context<'a>,
    facts: Facts,
    /// Bytes of script text parsed so far, nested scripts included, and their number.
    parse_cost: usize,
    scripts: usize,
    /// What is left of [`SALVAGE_COST`].
    salvage_left: usize,
    /// The function calls judged with their arguments: the name, the arguments, the
    /// folder and how many of the script's variables were known there.
    calls: Vec<(String, Vec<String>, Option<PathBuf>, usize)>,
    /// While a function's body is judged for a call: the index of the call.
    call_site: Option<usize>,
    /// Files a downloader writes (`curl -o x.sh`, `wget -O x.sh`, `curl … > x.sh`): running
    /// one later in the same command is running remote code.
    downloaded: Vec<String>,
    /// Links made earlier in the command (`ln -s TARGET LINK`), as (link, target) absolute
    /// paths: a file read or written through one is its target.
    links: Vec<(String, String)>,
    /// While arguments are read as a hidden command: no reading inside one again (every
    /// tail of the outer program is read already).
    in_hidden: bool,
    /// While the command of `find -exec` or `fd -x` is analysed: the arguments added at run
    /// time are found paths (see [`Invocation::extra_args_paths`]).
    found_paths: bool,
    /// For the next script parsed only: the constants of the script it runs in, whose shell
    /// runs it (`trap 'rm -rf "$d"' EXIT` sees the `d` of its script).
    inherited: Vec<shell::vars::Constant>,
    /// The paths found stand for the trees of folders (`find DIR -exec CMD {} +` without a
    /// name): what the command reads there, it reads of the whole tree.
    found_trees: Recursion,
}

impl<'a> Analyzer<'a> {
    fn policy(&self) -> &Policy {
        self.env.policy
    }

    fn resolve(&self, w: &Word, cwd: Option<&Path>) -> Resolved {
        paths::resolve(&w.text, w.literal, cwd, self.env.places, self.env.fs)
    }

    /// Records that `w` is read or written, unless it is a device or a pipe.
    fn access(&mut self, kind: AccessKind, w: &Word, cwd: Option<&Path>, origin: &str) {
        self.access_tree(kind, w, cwd, origin, Recursion::No);
    }

    /// [`Self::access`], of the whole tree under the path when `recursive` (see
    /// [`Access::recursive`]).
    fn access_tree(
        &mut self,
        kind: AccessKind,
        w: &Word,
        cwd: Option<&Path>,
        origin: &str,
        recursive: Recursion,
    ) {
        let recursive = match (kind, recursive, self.found_trees) {
            (AccessKind::Read, Recursion::No, trees) => trees,
            (_, r, _) => r,
        };
        if kind == AccessKind::Write && is_harmless_device(&w.text) {
            return;
        }
        if kind == AccessKind::Read && w.text.starts_with("/dev/") {
            return;
        }
        // `diff <(sort a) <(sort b)`: a pipe to or from a command judged on its own.
        if !w.literal && matches!(w.text.as_str(), "<(…)" | ">(…)") {
            return;
        }
        let path = self.resolve(w, cwd);
        if kind == AccessKind::Write && self.policy().is_downloader(origin) {
            self.downloaded.extend(path.lexical.clone());
        }
        let through = self.through_links(&path);
        self.facts.accesses.push(Access {
            kind,
            path,
            recursive,
            origin: origin.to_string(),
        });
        for (link, target) in through {
            self.facts.accesses.push(Access {
                kind,
                path: target,
                recursive,
                origin: format!("{origin}{THROUGH}{link}"),
            });
        }
    }

    /// Files read or written through a link made later in the command text than the access
    /// was seen (`{ ln -s ~/.bashrc rc && …; } >> rc` opens `rc` for the whole group): the
    /// target counts too. The links' own making is not an access through them.
    fn accesses_through_later_links(&mut self) {
        if self.links.is_empty() {
            return;
        }
        let mut extra: Vec<Access> = Vec::new();
        for a in &self.facts.accesses {
            if matches!(a.origin.as_str(), "ln" | "link") || a.origin.contains(THROUGH) {
                continue;
            }
            for (link, target) in self.through_links(&a.path) {
                let seen = |x: &Access| x.kind == a.kind && x.path == target;
                if !self.facts.accesses.iter().any(seen) && !extra.iter().any(seen) {
                    extra.push(Access {
                        kind: a.kind,
                        path: target,
                        recursive: a.recursive,
                        origin: format!("{}{THROUGH}{link}", a.origin),
                    });
                }
            }
        }
        self.facts.accesses.extend(extra);
    }

    /// Where a path leads through the links made earlier in the command: the link and the
    /// target path, for each link on the way (a link to a link is followed too).
    fn through_links(&self, path: &Resolved) -> Vec<(String, Resolved)> {
        let mut out: Vec<(String, Resolved)> = Vec::new();
        if self.links.is_empty() {
            return out;
        }
        let mut todo: Vec<String> = path.forms().map(str::to_string).collect();
        while let Some(p) = todo.pop() {
            for (link, target) in &self.links {
                let rest = match p.strip_prefix(link.as_str()) {
                    Some("") => "",
                    Some(r) if r.starts_with('/') => r,
                    _ => continue,
                };
                let to = format!("{target}{rest}");
                if out.len() >= MAX_LINK_HOPS || out.iter().any(|(_, r)| r.raw == to) {
                    continue;
                }
                let r = paths::resolve(&to, true, None, self.env.places, self.env.fs);
                todo.extend(r.forms().map(str::to_string));
                out.push((link.clone(), r));
            }
        }
        out
    }
}

/// How an access through a link names its origin.
const THROUGH: &str = ", through the link ";

/// How many links one path is followed through.
const MAX_LINK_HOPS: usize = 16;

/// The command an argv comes from: its script, its index there, how deep it is nested.
struct CmdCtx<'s> {
    script: &'s Script,
    index: usize,
    cmd: &'s SimpleCommand,
    depth: usize,
}

/// Folders whose programs are the standard ones.
const STANDARD_BIN_DIRS: &[&str] = &[
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
    "/opt/homebrew/bin",
    "/usr/libexec",
];

/// The name rules match: the basename, and whether the path is a standard program folder.
fn program_name(text: &str) -> (String, bool) {
    match text.rsplit_once('/') {
        None => (text.to_string(), true),
        Some((dir, base)) => {
            let trusted = STANDARD_BIN_DIRS.contains(&dir);
            (base.to_string(), trusted)
        }
    }
}

fn cmd_invocation(words: &[Word], cwd: Option<PathBuf>) -> Invocation {
    Invocation {
        name: words.first().map(|w| w.text.clone()).unwrap_or_default(),
        args: words.iter().skip(1).cloned().collect(),
        trusted_path: true,
        extra_args_unknown: false,
        extra_args_paths: false,
        cwd,
        display: join_words(words),
        code: None,
        named: Vec::new(),
        maybe_named: Vec::new(),
    }
}

fn join_words(words: &[Word]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_harmless_device(t: &str) -> bool {
    matches!(
        t,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-"
    ) || t.starts_with("/dev/fd/")
}
