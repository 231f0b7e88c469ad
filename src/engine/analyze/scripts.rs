//! The project scripts a build tool runs: `npm run X`, `npm test`, `yarn X`, `pnpm X` run
//! `package.json`'s `scripts.X` (with `preX` and `postX`), `make T` the recipes of `T` and
//! of the targets it needs, `git commit` (and `push`, `merge`, `checkout`, `switch`,
//! `rebase`) the hooks of the repository. Their commands are analysed apart, into
//! [`super::Facts::within`]: only what is forbidden there counts, so a script of ordinary build
//! steps leaves the tool's own verdict as it was. A script file that exists but cannot be
//! read, or that the same command changes first, is opaque.

use std::path::{Path, PathBuf};

use super::{Analyzer, CmdCtx, Invocation};
use crate::engine::args::positionals;
use crate::engine::code::{cli, MAX_CODE_BYTES};
use crate::engine::policy::AccessKind;

/// How many targets of a Makefile are followed through their prerequisites.
const MAX_TARGETS: usize = 64;
/// How many lines of recipes are judged.
const MAX_RECIPE_LINES: usize = 512;

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
    "outdated",
    "-v",
    "--version",
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

impl Analyzer<'_> {
    /// `npm`, `yarn`, `pnpm`, `make`: the project scripts they run, then the tool itself.
    pub(super) fn build_tool(&mut self, inv: Invocation, ctx: &CmdCtx) {
        match inv.name.as_str() {
            "make" | "gmake" => self.make(&inv, ctx),
            _ => self.package_scripts(&inv, ctx),
        }
        self.effects(&inv);
        self.push(inv);
    }

    /// Analyses `scripts` (label, text) apart, in `cwd`, into `Facts::within`.
    fn within(&mut self, scripts: Vec<(String, String)>, cwd: Option<PathBuf>, ctx: &CmdCtx) {
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
    fn written_before(&self, path: &str) -> bool {
        self.facts
            .accesses
            .iter()
            .any(|a| a.kind == AccessKind::Write && a.path.lexical.as_deref() == Some(path))
    }

    /// A project file a build tool reads: its text, `None` when it does not exist; an
    /// opaque signal when it exists but cannot be read or the command changes it first.
    fn project_file(&mut self, path: &Path, what: &str) -> Option<String> {
        self.env.fs.canonicalize(path)?;
        let shown = path.display();
        if self.written_before(&path.to_string_lossy()) {
            self.facts.signal(
                "code-opaque",
                format!("runs {what} from {shown}, which the same command changes"),
            );
            return None;
        }
        let text = self.env.fs.read_small(path, MAX_CODE_BYTES);
        if text.is_none() {
            self.facts.signal(
                "code-opaque",
                format!("runs {what} from {shown}, which could not be read"),
            );
        }
        text
    }

    fn package_scripts(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let value_flags = self
            .policy()
            .effects(&inv.name)
            .map(|e| e.value_flags.clone())
            .unwrap_or_default();
        let pos = positionals(&inv.args, &value_flags);
        let first = pos.first().map(|w| w.text.as_str());
        let name = match (inv.name.as_str(), first) {
            (_, Some("run" | "run-script" | "rum" | "urn")) => pos.get(1).map(|w| w.text.as_str()),
            (_, Some("test" | "t" | "tst")) => Some("test"),
            (_, Some(s @ ("start" | "stop" | "restart"))) => Some(s),
            ("yarn" | "pnpm", Some(s)) if !BUILTINS.contains(&s) => Some(s),
            _ => None,
        };
        let Some(name) = name.map(str::to_string) else {
            return;
        };
        // Workspaces run the scripts of other folders' manifests: not followed here.
        if inv.args.iter().any(|a| {
            matches!(
                a.text.as_str(),
                "-w" | "--workspace" | "--workspaces" | "--filter" | "-F" | "-r" | "--recursive"
            ) || a.text.starts_with("--workspace=")
                || a.text.starts_with("--filter=")
        }) {
            return;
        }
        // The folder of `package.json`: `--prefix`, `--dir`/`-C`, `--cwd`, else here.
        let mut dir = inv.cwd.clone();
        for (i, a) in inv.args.iter().enumerate() {
            if matches!(a.text.as_str(), "--prefix" | "--dir" | "-C" | "--cwd") {
                if let Some(d) = inv.args.get(i + 1) {
                    dir = self
                        .resolve(d, inv.cwd.as_deref())
                        .lexical
                        .map(PathBuf::from);
                }
            }
        }
        if !pos.get(1).is_none_or(|w| w.literal) && first == Some("run")
            || !pos.first().is_none_or(|w| w.literal)
        {
            self.facts
                .signal("code-opaque", "runs a project script named at run time");
            return;
        }
        let Some(dir) = dir else { return };
        // `npm pkg set scripts.x=…` earlier in the command changes the scripts.
        let changed = self.facts.invocations.iter().any(|i| {
            matches!(i.name.as_str(), "npm" | "pnpm" | "yarn")
                && i.args
                    .iter()
                    .any(|a| a.text == "pkg" || a.text == "set-script")
        });
        if changed {
            self.facts.signal(
                "code-opaque",
                "runs a project script that the same command changes",
            );
            return;
        }
        let manifest = dir.join("package.json");
        let Some(text) = self.project_file(&manifest, "a script") else {
            return;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            self.facts.signal(
                "code-opaque",
                format!("{} is not valid JSON", manifest.display()),
            );
            return;
        };
        let scripts = json.get("scripts");
        let mut run = Vec::new();
        for key in [format!("pre{name}"), name.clone(), format!("post{name}")] {
            match scripts.and_then(|s| s.get(&key)) {
                Some(serde_json::Value::String(s)) => {
                    run.push((format!("{} script {key}", inv.name), s.clone()))
                }
                Some(_) => self.facts.signal(
                    "code-opaque",
                    format!("the script {key} of package.json is not text"),
                ),
                None => {}
            }
        }
        self.within(run, Some(dir), ctx);
    }

    fn make(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let mut dir = inv.cwd.clone();
        let mut file: Option<String> = None;
        let mut targets: Vec<String> = Vec::new();
        let mut i = 0;
        let args = &inv.args;
        while i < args.len() {
            let t = args[i].text.as_str();
            match t {
                "-n" | "--dry-run" | "--just-print" | "--recon" | "-q" | "--question" | "-p"
                | "--print-data-base" | "-v" | "--version" | "-h" | "--help" => return,
                "-C" | "--directory" => {
                    if let Some(d) = args.get(i + 1) {
                        dir = self.resolve(d, dir.as_deref()).lexical.map(PathBuf::from);
                    }
                    i += 1;
                }
                "-f" | "--file" | "--makefile" => {
                    file = args.get(i + 1).map(|w| w.text.clone());
                    i += 1;
                }
                "-j" | "-l" | "-o" | "-W" | "-I" => i += 1,
                _ if t.starts_with('-') => {}
                _ if t.contains('=') => {}
                _ => {
                    if !args[i].literal {
                        self.facts
                            .signal("code-opaque", "make builds a target named at run time");
                        return;
                    }
                    targets.push(t.to_string());
                }
            }
            i += 1;
        }
        let Some(dir) = dir else { return };
        let path = match file {
            Some(f) => {
                let p = Path::new(&f);
                if p.is_absolute() {
                    p.to_path_buf()
                } else {
                    dir.join(p)
                }
            }
            None => match ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .map(|n| dir.join(n))
                .find(|p| self.env.fs.canonicalize(p).is_some())
            {
                Some(p) => p,
                None => return,
            },
        };
        let Some(text) = self.project_file(&path, "recipes") else {
            return;
        };
        let mk = Makefile::parse(&text);
        if targets.is_empty() {
            match &mk.default {
                Some(t) => targets.push(t.clone()),
                None => return,
            }
        }
        let mut lines = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut todo = targets.clone();
        while let Some(t) = todo.pop() {
            if seen.contains(&t) || seen.len() >= MAX_TARGETS {
                continue;
            }
            seen.push(t.clone());
            let rules: Vec<&Rule> = mk.rules.iter().filter(|r| r.targets.contains(&t)).collect();
            if rules.is_empty() && targets.contains(&t) && mk.includes {
                self.facts.signal(
                    "code-opaque",
                    format!("the recipe of `{t}` may come from a file the Makefile includes"),
                );
            }
            for r in rules {
                todo.extend(r.prerequisites.iter().cloned());
                for l in &r.recipe {
                    if lines.len() < MAX_RECIPE_LINES {
                        lines.push((format!("make {t}"), mk.expand(l, &t)));
                    }
                }
            }
        }
        self.within(lines, Some(dir), ctx);
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
        let sub = inv
            .args
            .iter()
            .find(|a| !a.text.starts_with('-'))
            .map(|a| a.text.as_str());
        let no_verify = inv
            .args
            .iter()
            .any(|a| a.text == "--no-verify" || (a.text == "-n" && sub == Some("commit")));
        let hooks: &[&str] = match sub {
            Some("commit") if no_verify => &["prepare-commit-msg", "post-commit"],
            Some("commit") => &[
                "pre-commit",
                "prepare-commit-msg",
                "commit-msg",
                "post-commit",
            ],
            Some("push") if no_verify => &[],
            Some("push") => &["pre-push"],
            Some("merge") | Some("pull") => &["pre-merge-commit", "post-merge", "commit-msg"],
            Some("checkout") | Some("switch") => &["post-checkout"],
            Some("rebase") => &["pre-rebase", "post-rewrite"],
            Some("am") => &["applypatch-msg", "pre-applypatch", "post-applypatch"],
            _ => &[],
        };
        if hooks.is_empty() {
            return;
        }
        let Some(hooks_dir) = self.hooks_dir(inv.cwd.as_deref()) else {
            return;
        };
        let mut scripts = Vec::new();
        let mut other = Vec::new();
        for h in hooks {
            let p = hooks_dir.join(h);
            let Some(text) = self.project_file(&p, "a git hook") else {
                continue;
            };
            let interp = text
                .lines()
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
                .unwrap_or_else(|| "sh".to_string());
            if self.policy().is_shell(&interp) {
                scripts.push((format!("git hook {h}"), text));
            } else if cli::language(&interp).is_some() {
                other.push((interp, p));
            } else {
                self.facts.signal(
                    "code-opaque",
                    format!("git runs the hook {h}, written for `{interp}`, which is not read"),
                );
            }
        }
        let root = hooks_dir.parent().map(Path::to_path_buf);
        self.within(scripts, inv.cwd.clone(), ctx);
        for (interp, p) in other {
            // A hook in another language: judged like a script it runs, apart.
            let outer = std::mem::take(&mut self.facts);
            let mut runner = Invocation {
                name: interp,
                args: vec![crate::engine::shell::Word::lit(&p.to_string_lossy())],
                trusted_path: true,
                extra_args_unknown: false,
                cwd: inv.cwd.clone().or(root.clone()),
                display: format!("git hook {}", p.display()),
                code: None,
            };
            self.other_language(&mut runner, ctx);
            self.push(runner);
            let inner = std::mem::replace(&mut self.facts, outer);
            self.facts.within.push(inner);
        }
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

/// A rule of a Makefile.
struct Rule {
    targets: Vec<String>,
    prerequisites: Vec<String>,
    recipe: Vec<String>,
}

/// What is read of a Makefile: its rules, plain variables, the default target, and
/// whether it includes other files.
struct Makefile {
    rules: Vec<Rule>,
    vars: Vec<(String, String)>,
    default: Option<String>,
    includes: bool,
}

impl Makefile {
    fn parse(text: &str) -> Makefile {
        let mut mk = Makefile {
            rules: Vec::new(),
            vars: Vec::new(),
            default: None,
            includes: false,
        };
        // Lines with their continuations joined.
        let mut lines: Vec<String> = Vec::new();
        let mut cur = String::new();
        for l in text.lines() {
            if let Some(head) = l.strip_suffix('\\') {
                cur.push_str(head);
                cur.push(' ');
                continue;
            }
            cur.push_str(l);
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            lines.push(cur);
        }
        let mut in_define = false;
        for line in lines {
            if in_define {
                if line.trim_start().starts_with("endef") {
                    in_define = false;
                }
                continue;
            }
            if let Some(r) = line.strip_prefix('\t') {
                if let Some(rule) = mk.rules.last_mut() {
                    rule.recipe.push(r.to_string());
                }
                continue;
            }
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let word = t.split_whitespace().next().unwrap_or("");
            match word {
                "define" => {
                    in_define = true;
                    continue;
                }
                "include" | "-include" | "sinclude" => {
                    mk.includes = true;
                    continue;
                }
                "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif" | "export"
                | "unexport" | "override" | "vpath" => continue,
                _ => {}
            }
            // A variable: `NAME = v`, `NAME := v`, `NAME ?= v`, `NAME += v`.
            if let Some((name, value)) = assignment(t) {
                mk.vars.retain(|(n, _)| *n != name);
                mk.vars.push((name, value));
                continue;
            }
            if let Some((targets, rest)) = t.split_once(':') {
                let rest = rest.strip_prefix(':').unwrap_or(rest);
                let (prereq, inline) = match rest.split_once(';') {
                    Some((p, r)) => (p, Some(r.trim().to_string())),
                    None => (rest, None),
                };
                let targets: Vec<String> = targets.split_whitespace().map(str::to_string).collect();
                if mk.default.is_none() {
                    mk.default = targets
                        .iter()
                        .find(|t| !t.starts_with('.') && !t.contains('%'))
                        .cloned();
                }
                mk.rules.push(Rule {
                    targets,
                    prerequisites: prereq
                        .split('|')
                        .flat_map(str::split_whitespace)
                        .map(str::to_string)
                        .collect(),
                    recipe: inline.into_iter().filter(|r| !r.is_empty()).collect(),
                });
            }
        }
        mk
    }

    /// A recipe line as the shell gets it: make's prefixes removed, plain variables filled
    /// in, the others unknown.
    fn expand(&self, line: &str, target: &str) -> String {
        let line = line
            .trim_start()
            .trim_start_matches(['@', '-', '+'])
            .trim_start();
        self.expand_vars(line, target, 0)
    }

    fn expand_vars(&self, s: &str, target: &str, depth: usize) -> String {
        let unknown = "\"${MAKE_VALUE}\"";
        let mut out = String::new();
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '$' {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            match chars.get(i + 1) {
                Some('$') => {
                    out.push('$');
                    i += 2;
                }
                Some(&open @ ('(' | '{')) => {
                    let close = if open == '(' { ')' } else { '}' };
                    let mut level = 0;
                    let mut j = i + 1;
                    while j < chars.len() {
                        if chars[j] == open {
                            level += 1;
                        } else if chars[j] == close {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        j += 1;
                    }
                    let name: String = chars[i + 2..j.min(chars.len())].iter().collect();
                    let value = match name.as_str() {
                        "MAKE" => Some("make".to_string()),
                        "CURDIR" => Some(".".to_string()),
                        _ => self
                            .vars
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|(_, v)| v.clone())
                            .filter(|_| depth < 8)
                            .map(|v| self.expand_vars(&v, target, depth + 1)),
                    };
                    out.push_str(value.as_deref().unwrap_or(unknown));
                    i = j + 1;
                }
                Some('@') => {
                    out.push_str(target);
                    i += 2;
                }
                Some(_) => {
                    out.push_str(unknown);
                    i += 2;
                }
                None => i += 1,
            }
        }
        out
    }
}

/// `NAME = value` (or `:=`, `::=`, `?=`, `+=`, `!=`): a Makefile variable.
fn assignment(t: &str) -> Option<(String, String)> {
    let end = t.find(|c: char| c.is_whitespace() || matches!(c, ':' | '=' | '?' | '+' | '!'))?;
    let name = &t[..end];
    if name.is_empty() {
        return None;
    }
    let rest = t[end..].trim_start();
    ["::=", ":=", "?=", "+=", "!=", "="]
        .iter()
        .find_map(|op| rest.strip_prefix(op))
        .map(|v| (name.to_string(), v.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makefiles() {
        let mk = Makefile::parse(
            "CC := gcc\nOUT = build\n\nall: app\n\napp: main.o\n\t@$(CC) -o $(OUT)/$@ main.o\n\nclean:\n\trm -rf $(OUT) \\\n\t  tmp\n\nx: ; echo inline\n",
        );
        assert_eq!(mk.default.as_deref(), Some("all"));
        let app = mk.rules.iter().find(|r| r.targets == ["app"]).expect("app");
        assert_eq!(mk.expand(&app.recipe[0], "app"), "gcc -o build/app main.o");
        let clean = mk
            .rules
            .iter()
            .find(|r| r.targets == ["clean"])
            .expect("clean");
        assert_eq!(
            mk.expand(&clean.recipe[0], "clean")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["rm", "-rf", "build", "tmp"]
        );
        let x = mk.rules.iter().find(|r| r.targets == ["x"]).expect("x");
        assert_eq!(x.recipe, ["echo inline"]);
        assert_eq!(
            mk.expand("echo $$HOME $(UNKNOWN)", "t"),
            "echo $HOME \"${MAKE_VALUE}\""
        );
    }

    #[test]
    fn hooks_paths() {
        assert_eq!(
            hooks_path("[core]\n\thooksPath = .githooks\n").as_deref(),
            Some(".githooks")
        );
        assert_eq!(hooks_path("[user]\n\thooksPath = x\n"), None);
    }
}
