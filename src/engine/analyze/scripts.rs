//! The project scripts a build tool runs: `npm run X`, `npm test`, `yarn X`, `pnpm X` run
//! `package.json`'s `scripts.X` (with `preX` and `postX`), `make T` the recipes of `T` and
//! of the targets it needs (read in `makefile`), `git commit` (and `push`, `merge`, `checkout`, `switch`,
//! `rebase`) the hooks of the repository. Their commands are analysed apart, into
//! [`super::Facts::within`]: only what is forbidden there counts, so a script of ordinary build
//! steps leaves the tool's own verdict as it was. A script file that exists but cannot be
//! read, or that the same command changes first, is opaque.

use std::path::{Path, PathBuf};

use super::{Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::args::{flag_value, positionals};
use crate::engine::lang::{argv, MAX_CODE_BYTES};
use crate::engine::policy::{AccessKind, Effects, Policy};
use crate::engine::shell::Word;

/// Commands of yarn and pnpm that are their own, not scripts of the project.
const BUILTINS: &[&str] = &[
    "add",
    "install",
    "i",
    "remove",
    "rm",
    "upgrade",
    "update",
    "up",
    "init",
    "info",
    "list",
    "ls",
    "why",
    "config",
    "cache",
    "global",
    "workspace",
    "workspaces",
    "dlx",
    "exec",
    "node",
    "set",
    "version",
    "bin",
    "audit",
    "outdated",
    "pack",
    "publish",
    "login",
    "logout",
    "link",
    "unlink",
    "create",
    "import",
    "licenses",
    "owner",
    "policies",
    "tag",
    "team",
    "help",
    "plugin",
    "constraints",
    "explain",
    "npm",
    "patch",
    "rebuild",
    "search",
    "stage",
    "unplug",
    "dedupe",
    "prune",
    "fetch",
    "store",
    "env",
    "setup",
    "root",
    "doctor",
    "server",
    "deploy",
    "run",
    "test",
    "t",
    "start",
    "stop",
    "restart",
    "run-script",
    "rb",
    "ci",
    "pkg",
];

/// The hooks of a repository that a git command runs, as read.
struct HooksRead {
    /// Shell scripts (label, text).
    scripts: Vec<(String, String)>,
    /// Hooks in another language that is read (interpreter, path).
    other: Vec<(String, PathBuf)>,
}

impl Analyzer<'_> {
    /// `npm`, `yarn`, `pnpm`, `make`: the project scripts they run, then the tool itself.
    pub(super) fn build_tool(&mut self, inv: Invocation, ctx: &CmdCtx) {
        match inv.name.as_str() {
            "make" | "gmake" => self.make(&inv, ctx),
            _ => self.package_scripts(&inv, ctx),
        }
        self.push_with_effects(inv);
    }

    /// Analyses `scripts` (label, text) apart, in `cwd`, into `Facts::within`.
    pub(super) fn within(
        &mut self,
        scripts: Vec<(String, String)>,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
    ) {
        if scripts.is_empty() {
            return;
        }
        let outer = std::mem::take(&mut self.facts);
        for (label, text) in scripts {
            let at = self.facts.invocations.len();
            self.script(&text, cwd.clone(), ctx.depth + 1);
            self.mark_origin(at, &label);
        }
        let inner = std::mem::replace(&mut self.facts, outer);
        self.facts.within.push(inner);
    }

    /// Whether an earlier part of the command writes `path`.
    pub(super) fn written_before(&self, path: &str) -> bool {
        self.facts
            .accesses
            .iter()
            .any(|a| a.kind == AccessKind::Write && a.path.lexical.as_deref() == Some(path))
    }

    /// A project file a build tool reads: its text, `None` when it does not exist; an
    /// opaque signal when it exists but cannot be read or the command changes it first.
    pub(super) fn project_file(&mut self, path: &Path, what: &str) -> Option<String> {
        let shown = path.display();
        // Written earlier in the same command, whether or not it exists yet
        // (`printf … > Makefile && make`).
        if self.written_before(&path.to_string_lossy()) {
            self.facts.signal(
                SignalName::CodeOpaque,
                format!("runs {what} from {shown}, which the same command changes"),
            );
            return None;
        }
        self.env.fs.canonicalize(path)?;
        let text = self.env.fs.read_small(path, MAX_CODE_BYTES);
        if text.is_none() {
            self.facts.signal(
                SignalName::CodeOpaque,
                format!("runs {what} from {shown}, which could not be read"),
            );
        }
        text
    }

    /// `npm run X`, `npm test`, `yarn X`, `pnpm X`: the scripts of `package.json` they run.
    fn package_scripts(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let value_flags = self
            .policy()
            .effects(&inv.name)
            .map(|e| e.value_flags.clone())
            .unwrap_or_default();
        let pos = positionals(&inv.args, &value_flags);
        // The options are read with the tool's built-in table, whatever a layer says.
        let none = Effects::default();
        let eff = Policy::builtin_effects(&inv.name).unwrap_or(&none);
        let keys = match script_name(&inv.name, &pos) {
            Some(name) => vec![
                format!("pre{name}"),
                name.to_string(),
                format!("post{name}"),
            ],
            None if installs_into_project(&inv.name, &pos, &inv.args, eff) => {
                LIFECYCLE.iter().map(|k| k.to_string()).collect()
            }
            None => return,
        };
        // Workspaces run the scripts of other folders' manifests: not followed here.
        if runs_in_workspaces(&inv.args, eff) {
            return;
        }
        let dir = self.package_dir(inv, eff);
        let first = pos.first().map(|w| w.text.as_str());
        if !pos.get(1).is_none_or(|w| w.literal) && first == Some("run")
            || !pos.first().is_none_or(|w| w.literal)
        {
            self.facts.signal(
                SignalName::CodeOpaque,
                "runs a project script named at run time",
            );
            return;
        }
        let Some(dir) = dir else { return };
        if self.scripts_changed() {
            self.facts.signal(
                SignalName::CodeOpaque,
                "runs a project script that the same command changes",
            );
            return;
        }
        let run = self.manifest_scripts(&dir.join("package.json"), &inv.name, &keys);
        self.within(run, Some(dir), ctx);
    }

    /// The folder of `package.json`: the value of the last option of the tool's
    /// `folder_flags` (npm's `--prefix`, pnpm's `--dir`/`-C`, yarn's `--cwd`; `--opt=DIR`
    /// too), else here.
    fn package_dir(&self, inv: &Invocation, eff: &Effects) -> Option<PathBuf> {
        let mut dir = inv.cwd.clone();
        for i in 0..inv.args.len() {
            let value = eff
                .folder_flags
                .iter()
                .find_map(|f| flag_value(&inv.args, i, f));
            if let Some(d) = value {
                dir = self
                    .resolve(&d, inv.cwd.as_deref())
                    .lexical
                    .map(PathBuf::from);
            }
        }
        dir
    }

    /// Whether an earlier command changes the scripts (`npm pkg set scripts.x=…`).
    fn scripts_changed(&self) -> bool {
        self.facts.invocations.iter().any(|i| {
            matches!(i.name.as_str(), "npm" | "pnpm" | "yarn")
                && i.args
                    .iter()
                    .any(|a| a.text == "pkg" || a.text == "set-script")
        })
    }

    /// The scripts `keys` of `manifest` (label, text) that `tool` runs, those that exist;
    /// none when the file is missing, unreadable or not JSON.
    fn manifest_scripts(
        &mut self,
        manifest: &Path,
        tool: &str,
        keys: &[String],
    ) -> Vec<(String, String)> {
        let Some(text) = self.project_file(manifest, "a script") else {
            return Vec::new();
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            self.facts.signal(
                SignalName::CodeOpaque,
                format!("{} is not valid JSON", manifest.display()),
            );
            return Vec::new();
        };
        let scripts = json.get("scripts");
        let mut run = Vec::new();
        for key in keys {
            match scripts.and_then(|s| s.get(key)) {
                Some(serde_json::Value::String(s)) => {
                    run.push((format!("{tool} script {key}"), s.clone()))
                }
                Some(_) => self.facts.signal(
                    SignalName::CodeOpaque,
                    format!("the script {key} of package.json is not text"),
                ),
                None => {}
            }
        }
        run
    }

    /// `git commit`, `git push` …: the hooks of the repository that the command runs.
    pub(super) fn git_hooks(&mut self, ctx: &CmdCtx) {
        let Some(inv) = self
            .facts
            .invocations
            .last()
            .filter(|i| i.name == "git")
            .cloned()
        else {
            return;
        };
        let hooks = hooks_run_by(&inv.args);
        if hooks.is_empty() {
            return;
        }
        let Some(hooks_dir) = self.hooks_dir(inv.cwd.as_deref()) else {
            return;
        };
        let read = self.read_hooks(&hooks_dir, hooks);
        let root = hooks_dir.parent().map(Path::to_path_buf);
        self.within(read.scripts, inv.cwd.clone(), ctx);
        for (interp, p) in read.other {
            self.hook_in_other_language(interp, &p, inv.cwd.clone().or(root.clone()), ctx);
        }
    }

    /// The hooks named `hooks` in `dir` that exist, by how they are read; a signal for one
    /// in a language that is not read.
    fn read_hooks(&mut self, dir: &Path, hooks: &[&str]) -> HooksRead {
        let mut scripts = Vec::new();
        let mut other = Vec::new();
        for h in hooks {
            let p = dir.join(h);
            let Some(text) = self.project_file(&p, "a git hook") else {
                continue;
            };
            let interp = hook_interpreter(&text);
            if self.policy().is_shell(&interp) {
                scripts.push((format!("git hook {h}"), text));
            } else if argv::language(&interp).is_some() {
                other.push((interp, p));
            } else {
                self.facts.signal(
                    SignalName::CodeOpaque,
                    format!("git runs the hook {h}, written for `{interp}`, which is not read"),
                );
            }
        }
        HooksRead { scripts, other }
    }

    /// A hook in another language (run by `interp`, at `p`): judged like a script it runs,
    /// apart.
    fn hook_in_other_language(
        &mut self,
        interp: String,
        p: &Path,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
    ) {
        let outer = std::mem::take(&mut self.facts);
        let mut runner = Invocation {
            name: interp,
            args: vec![Word::lit(&p.to_string_lossy())],
            trusted_path: true,
            extra_args_unknown: false,
            extra_args_paths: false,
            cwd,
            display: format!("git hook {}", p.display()),
            code: None,
            named: Vec::new(),
            maybe_named: Vec::new(),
        };
        self.other_language(&mut runner, ctx);
        self.push(runner);
        let inner = std::mem::replace(&mut self.facts, outer);
        self.facts.within.push(inner);
    }

    /// The folder of the hooks of the repository holding `cwd`.
    fn hooks_dir(&mut self, cwd: Option<&Path>) -> Option<PathBuf> {
        let mut at = cwd?.to_path_buf();
        let mut steps = 0;
        let (root, git) = loop {
            let g = at.join(".git");
            if self.env.fs.canonicalize(&g).is_some() {
                break (at.clone(), g);
            }
            steps += 1;
            if steps > 32 || !at.pop() {
                return None;
            }
        };
        // A worktree's `.git` is a file naming its folder; hooks live in the common one.
        let gitdir = match self.env.fs.read_small(&git, 4096) {
            Some(t) => {
                let d = t.trim().strip_prefix("gitdir:")?.trim().to_string();
                let d = if Path::new(&d).is_absolute() {
                    PathBuf::from(d)
                } else {
                    root.join(d)
                };
                match d.to_string_lossy().split_once("/worktrees/") {
                    Some((common, _)) => PathBuf::from(common),
                    None => d,
                }
            }
            None => git,
        };
        // `core.hooksPath` in the repository's config (or the user's).
        let configs = [
            gitdir.join("config"),
            self.env.places.home.join(".gitconfig"),
        ];
        for c in configs {
            if let Some(text) = self.env.fs.read_small(&c, 64 * 1024) {
                if let Some(v) = hooks_path(&text) {
                    let v = v.strip_prefix("~/").map(|r| self.env.places.home.join(r));
                    return Some(match v {
                        Some(p) => p,
                        None => {
                            let raw = hooks_path(&text).unwrap_or_default();
                            if Path::new(&raw).is_absolute() {
                                PathBuf::from(raw)
                            } else {
                                root.join(raw)
                            }
                        }
                    });
                }
            }
        }
        Some(gitdir.join("hooks"))
    }
}

/// The script `tool` runs, from its positional words: `run X`, `test`, `start` …, and for
/// yarn and pnpm any word that is not one of their own commands.
fn script_name<'w>(tool: &str, pos: &[&'w Word]) -> Option<&'w str> {
    let first = pos.first().map(|w| w.text.as_str());
    match (tool, first) {
        (_, Some("run" | "run-script" | "rum" | "urn")) => pos.get(1).map(|w| w.text.as_str()),
        (_, Some("test" | "t" | "tst")) => Some("test"),
        (_, Some(s @ ("start" | "stop" | "restart"))) => Some(s),
        ("yarn" | "pnpm", Some(s)) if !BUILTINS.contains(&s) => Some(s),
        _ => None,
    }
}

/// The project's own scripts an install of the project runs, in the order npm runs them
/// (yarn and pnpm run the same ones).
const LIFECYCLE: &[&str] = &[
    "preinstall",
    "install",
    "postinstall",
    "prepublish",
    "preprepare",
    "prepare",
    "postprepare",
];

/// Whether the command installs into the project (`npm install`, `npm ci`, `yarn`, `yarn
/// add`, `pnpm i` …), which runs its [`LIFECYCLE`] scripts unless `--ignore-scripts` says
/// not to. An install of named packages is counted too: whether the tool then runs the
/// project's own scripts differs between tools and versions, and judging them is stricter.
fn installs_into_project(tool: &str, pos: &[&Word], args: &[Word], eff: &Effects) -> bool {
    if args.iter().any(|a| eff.no_scripts_flags.contains(&a.text)) {
        return false;
    }
    let first = pos.first().map(|w| w.text.as_str());
    match tool {
        "npm" => matches!(
            first,
            Some(
                "install"
                    | "i"
                    | "in"
                    | "ins"
                    | "inst"
                    | "insta"
                    | "instal"
                    | "isnt"
                    | "isntall"
                    | "ci"
                    | "clean-install"
                    | "install-clean"
            )
        ),
        "yarn" => matches!(first, None | Some("install" | "add")),
        "pnpm" => matches!(first, Some("install" | "i" | "add")),
        _ => false,
    }
}

/// Whether the options run the scripts of a workspace's other manifests: an option of the
/// tool's `workspace_flags`, a long one with its value after `=` too (`--filter=app`).
fn runs_in_workspaces(args: &[Word], eff: &Effects) -> bool {
    args.iter().any(|a| {
        eff.workspace_flags.iter().any(|f| {
            a.text == f
                || (f.starts_with("--")
                    && a.text.strip_prefix(f).is_some_and(|r| r.starts_with('=')))
        })
    })
}

/// The hooks merge and pull run (`--no-verify` skips none of them).
const MERGE_HOOKS: &[&str] = &["pre-merge-commit", "post-merge", "commit-msg"];

/// The hooks each git command runs: the command, its hooks, and those it runs with
/// `--no-verify` (`-n` for commit).
const HOOKS_RUN: &[(&str, &[&str], &[&str])] = &[
    (
        "commit",
        &[
            "pre-commit",
            "prepare-commit-msg",
            "commit-msg",
            "post-commit",
        ],
        &["prepare-commit-msg", "post-commit"],
    ),
    ("push", &["pre-push"], &[]),
    ("merge", MERGE_HOOKS, MERGE_HOOKS),
    ("pull", MERGE_HOOKS, MERGE_HOOKS),
    ("checkout", &["post-checkout"], &["post-checkout"]),
    ("switch", &["post-checkout"], &["post-checkout"]),
    (
        "rebase",
        &["pre-rebase", "post-rewrite"],
        &["pre-rebase", "post-rewrite"],
    ),
    (
        "am",
        &["applypatch-msg", "pre-applypatch", "post-applypatch"],
        &["applypatch-msg", "pre-applypatch", "post-applypatch"],
    ),
];

/// The hooks a git command with arguments `args` runs (see [`HOOKS_RUN`]): with an option
/// of the `skip_hooks_flags` of the subcommand's built-in table (`[commands."git commit"]`:
/// `--no-verify`, `-n`), only those it runs then.
pub(super) fn hooks_run_by(args: &[Word]) -> &'static [&'static str] {
    let sub = args
        .iter()
        .find(|a| !a.text.starts_with('-'))
        .map(|a| a.text.as_str());
    let Some(&(command, all, unverified)) = HOOKS_RUN.iter().find(|(c, _, _)| Some(*c) == sub)
    else {
        return &[];
    };
    // Looked up only for a command that runs hooks: most git calls run none.
    let skip = Policy::builtin_effects(&format!("git {command}")).map(|e| &e.skip_hooks_flags);
    if skip.is_some_and(|flags| args.iter().any(|a| flags.contains(&a.text))) {
        unverified
    } else {
        all
    }
}

/// The program a hook's first line (`#!…`) runs it with (the one after `env`), `sh` when
/// it has none.
fn hook_interpreter(text: &str) -> String {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("#!"))
        .map(|l| {
            let mut w = l.split_whitespace();
            let mut prog = w
                .next()
                .unwrap_or("")
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string();
            if prog == "env" {
                prog = w.find(|x| !x.starts_with('-')).unwrap_or("").to_string();
            }
            prog
        })
        .unwrap_or_else(|| "sh".to_string())
}

/// `core.hooksPath` in a git config file.
fn hooks_path(config: &str) -> Option<String> {
    let mut in_core = false;
    for line in config.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_core = l.to_ascii_lowercase().starts_with("[core");
            continue;
        }
        if in_core {
            if let Some((k, v)) = l.split_once('=') {
                if k.trim().eq_ignore_ascii_case("hookspath") {
                    return Some(v.trim().trim_matches('"').to_string());
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_paths() {
        assert_eq!(
            hooks_path("[core]\n\thooksPath = .githooks\n").as_deref(),
            Some(".githooks")
        );
        assert_eq!(hooks_path("[user]\n\thooksPath = x\n"), None);
    }
}
