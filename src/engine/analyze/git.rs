//! `git`: global options peeled, settings whose value is a command judged as one, aliases
//! expanded, abbreviated long options written out, the commands some subcommands run
//! (`rebase --exec`, `bisect run`, `submodule foreach`, `filter-branch`, `difftool -x`,
//! `ext::` remotes) judged, files read from history.

use std::path::{Path, PathBuf};

use super::git_args::{self, env_settings, ext_command, shell_quote, split_cmdline};
use super::git_tables::GIT_COMMANDS;
use super::{program_name, Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::args::{attached_value, flag_value, option_use_at};
use crate::engine::paths;
use crate::engine::policy::{AccessKind, Effects, List};
use crate::engine::shell::Word;

/// How many aliases may expand one into another.
const MAX_ALIAS_DEPTH: usize = 8;

/// Settings of one git command (`-c`, `--config-env`, `GIT_CONFIG_*`): key lowercased, value.
type Settings = Vec<(String, Word)>;

impl Analyzer<'_> {
    /// `git [GLOBAL OPTIONS] COMMAND …`: the rules see the command; `-C DIR` moves it.
    pub(super) fn git(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        // Aliases set in this command's own environment (`GIT_CONFIG_KEY_0=alias.x …
        // git x`); their other settings were judged with the assignments.
        let direct = ctx
            .cmd
            .words
            .first()
            .is_some_and(|w| program_name(&w.text).0 == "git");
        let mut settings: Settings = match env_settings(&ctx.cmd.assignments) {
            Some(Ok(s)) if direct => s.into_iter().filter(|(k, _)| is_alias(k)).collect(),
            _ => Vec::new(),
        };
        self.git_run(inv, cwd, ctx, &mut settings, 0);
    }

    fn git_run(
        &mut self,
        mut inv: Invocation,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        settings: &mut Settings,
        depth: usize,
    ) {
        let args = std::mem::take(&mut inv.args);
        let given = settings.len();
        let (i, cwd) = self.git_global_options(&args, cwd, settings);
        let mut rest = args[i.min(args.len())..].to_vec(); // `git -C` may lack its value
        inv.cwd = cwd;
        let used = alias_used(&rest, settings);
        for (key, value) in &settings[given..] {
            if used.as_deref() != Some(key.as_str()) {
                self.git_setting(key, value, inv.cwd.clone(), ctx);
            }
        }
        if let Some(key) = used {
            self.git_alias(inv, rest, &key, ctx, settings, depth);
            return;
        }
        // A commit or push in a repository named elsewhere (`--git-dir`, `--work-tree`)
        // runs that repository's hooks, which are not found here, so not read.
        if !super::scripts::hooks_run_by(&rest).is_empty() {
            let (_, uses) = git_global_uses(self.policy(), &args[..i.min(args.len())]);
            if let Some((_, option, _)) = uses.iter().find(|(r, _, _)| matches!(r, Role::Read)) {
                self.facts.signal(
                    SignalName::CodeOpaque,
                    format!(
                        "`git {option}` runs the hooks of a repository whose hooks are not read"
                    ),
                );
            }
        }
        self.foreign_repository(&args[..i.min(args.len())], &rest, inv.cwd.as_deref());
        git_args::normalize_options(&mut rest);
        inv.args = rest;
        self.git_subcommand(&inv, ctx);
        self.history_reads(&inv);
        let eff = self.git_table(&inv);
        self.push_with_table(inv, eff);
    }

    /// Git run in a repository outside the folder the call started in (`git -C DIR`,
    /// `--git-dir DIR`, `cd DIR && git …`, or one not known): that repository's settings,
    /// which anyone may have written there, run commands the hook does not read
    /// (`core.fsmonitor` on `git status`, pagers, diff drivers, hooks), so the call is
    /// judged as code it cannot follow. Making a repository (`clone`, `init`) and git's own
    /// help read none.
    fn foreign_repository(&mut self, globals: &[Word], rest: &[Word], cwd: Option<&Path>) {
        let sub = rest.iter().find(|w| !w.text.starts_with('-'));
        if sub.is_none_or(|w| matches!(w.text.as_str(), "clone" | "init" | "help" | "version")) {
            return;
        }
        let Some(start) = self.env.cwd else {
            return;
        };
        let (_, uses) = git_global_uses(self.policy(), globals);
        let mut places: Vec<Option<PathBuf>> = vec![cwd.map(Path::to_path_buf)];
        for (role, _, value) in uses {
            if let (Role::Read, Some(d)) = (role, value) {
                places.push(self.resolve(&d, cwd).lexical.map(PathBuf::from));
            }
        }
        let outside = |top: &Path| {
            places
                .iter()
                .any(|p| p.as_deref().is_none_or(|p| !p.starts_with(top)))
        };
        // The project is the repository the call started in: its top folder, where a `.git`
        // is found going up, else the starting folder itself.
        let top = start
            .ancestors()
            .find(|d| self.env.fs.canonicalize(&d.join(".git")).is_some());
        let elsewhere = outside(start) && top.is_none_or(outside);
        // A folder inside the project whose `.git` is a file naming a repository outside it
        // (`gitdir: /tmp/x/.git`) makes git run in that repository.
        let root = top.unwrap_or(start);
        let linked = !elsewhere
            && places
                .iter()
                .flatten()
                .any(|p| self.links_elsewhere(p, root));
        if elsewhere || linked {
            self.facts.signal(
                SignalName::CodeOpaque,
                "git runs in a repository outside the project, whose settings (`core.fsmonitor`, pagers, diff drivers, hooks) may run commands the hook does not read",
            );
        }
    }

    /// Whether git run in `folder` (inside the project `root`) finds, going up, a `.git`
    /// file below `root` that names a repository outside it. Git stops at the first `.git`
    /// it finds, file or folder; the project's own `.git` may name one anywhere (a linked
    /// worktree's does).
    fn links_elsewhere(&self, folder: &Path, root: &Path) -> bool {
        for d in folder.ancestors() {
            if d == root || !d.starts_with(root) {
                return false;
            }
            let dot_git = d.join(".git");
            let fs = self.env.fs;
            let Some(real) = fs.canonicalize(&dot_git) else {
                continue;
            };
            // Where the project's folder really is, links followed (`/tmp` may be one).
            let real_root = fs.canonicalize(root).unwrap_or_else(|| root.to_path_buf());
            let Some(text) = fs.read_small(&dot_git, 4096) else {
                // A folder, or a link to one: a repository inside the project, or not.
                return !real.starts_with(&real_root);
            };
            let Some(target) = text.lines().next().and_then(|l| l.strip_prefix("gitdir:")) else {
                return true; // a `.git` file git cannot read as a link: not known
            };
            let target = self.resolve(&Word::lit(target.trim()), Some(d));
            return target.lexical.is_none_or(|t| {
                let t = Path::new(&t);
                !t.starts_with(root)
                    || fs
                        .canonicalize(t)
                        .is_some_and(|r| !r.starts_with(&real_root))
            });
        }
        false
    }

    /// Git's table, with the options of its subcommand's (`"git format-patch"`, whose `-o
    /// DIR` is written) when the policy has one: a one-letter option means something else
    /// in each subcommand (`git ls-files -o` lists the others), so only the subcommand's
    /// table names it.
    fn git_table(&self, inv: &Invocation) -> Effects {
        let policy = self.policy();
        let git = policy.effects(&inv.name).cloned().unwrap_or_default();
        let sub = inv
            .args
            .first()
            .filter(|w| w.literal)
            .and_then(|w| policy.effects(&format!("{} {}", inv.name, w.text)));
        match sub {
            Some(sub) => git.with_subcommand(sub),
            None => git,
        }
    }

    /// Reads git's global options, as git's tables say (`global_flags`,
    /// `global_value_flags` and the roles of those: `folder_flags`, `setting_flags`,
    /// `setting_env_flags`, `load_flags`, `global_read_flags`): the settings they give are
    /// collected, the folders they name read; gives where the command starts and the folder
    /// it runs in.
    fn git_global_options(
        &mut self,
        args: &[Word],
        mut cwd: Option<PathBuf>,
        settings: &mut Settings,
    ) -> (usize, Option<PathBuf>) {
        let (i, uses) = git_global_uses(self.policy(), args);
        for (role, option, value) in uses {
            match (role, value) {
                (Role::Runs, value) => self.facts.signal(
                    SignalName::GitConfig,
                    match value {
                        Some(v) => format!("git {option}={} changes what git runs", v.text),
                        None => format!("git {option} changes what git runs"),
                    },
                ),
                (_, None) | (Role::Data, _) => {}
                (Role::Folder, Some(d)) => {
                    cwd = self.resolve(&d, cwd.as_deref()).lexical.map(PathBuf::from);
                }
                (Role::Setting, Some(kv)) => self.git_option_setting(&option, &kv, false, settings),
                (Role::SettingEnv, Some(kv)) => {
                    self.git_option_setting(&option, &kv, true, settings)
                }
                (Role::Read, Some(d)) => self.access(
                    AccessKind::Read,
                    &d,
                    cwd.as_deref(),
                    &format!("git {option}"),
                ),
            }
        }
        (i, cwd)
    }

    /// `-c KEY=VALUE`, or with `from_env` `--config-env KEY=ENVVAR` (whose value is known
    /// only at run time).
    fn git_option_setting(
        &mut self,
        option: &str,
        kv: &Word,
        from_env: bool,
        settings: &mut Settings,
    ) {
        let Some((key, mut value)) = git_args::setting(kv) else {
            self.facts.signal(
                SignalName::GitConfig,
                format!(
                    "git {option} {} sets a setting known only at run time",
                    kv.text
                ),
            );
            return;
        };
        if from_env {
            value = Word {
                text: format!("${}", value.text),
                literal: false,
            };
        }
        settings.push((key, value));
    }

    /// Judges one git setting: a harmless one is nothing; one whose value is a command is
    /// that command (an alias starting with `!` too); any other may make git run something
    /// the analysis cannot see.
    pub(super) fn git_setting(
        &mut self,
        key: &str,
        value: &Word,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
    ) {
        match self.git_setting_kind(key) {
            SettingKind::Unknown => self.facts.signal(
                SignalName::GitConfig,
                format!("the git setting {key} may make git run other programs"),
            ),
            kind => {
                if let Some(code) = setting_code(&kind, key, value) {
                    self.code_string(&code, cwd, ctx);
                }
            }
        }
    }

    /// The same as [`Analyzer::git_setting`] for a setting given in the environment of a
    /// command (`GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=… make`), outside any git
    /// command.
    pub(super) fn git_env_setting(
        &mut self,
        key: &str,
        value: &Word,
        cwd: Option<PathBuf>,
        depth: usize,
    ) {
        let kind = self.git_setting_kind(key);
        if let SettingKind::Unknown = kind {
            self.facts.signal(
                SignalName::GitConfig,
                format!("the git setting {key} may make git run other programs"),
            );
            return;
        }
        let Some(code) = setting_code(&kind, key, value) else {
            return;
        };
        if !code.literal {
            self.facts.signal(
                SignalName::DynamicScript,
                format!("the git setting {key} is a command known only at run time"),
            );
        }
        self.script(&code.text, cwd, depth + 1);
    }

    /// A command's variable assignments: git's numbered settings (`GIT_CONFIG_COUNT` …)
    /// are read together and judged as settings; every other one on its own.
    pub(super) fn env_assignments(
        &mut self,
        list: &[(String, Word)],
        cwd: Option<PathBuf>,
        depth: usize,
    ) {
        match env_settings(list) {
            None => {}
            Some(Ok(settings)) => {
                for (k, v) in settings {
                    self.git_env_setting(&k, &v, cwd.clone(), depth);
                }
            }
            Some(Err(why)) => self.facts.signal(
                SignalName::ExecEnv,
                format!("sets git settings in the environment: {why}"),
            ),
        }
        for (name, value) in list.iter().filter(|(n, _)| !git_args::is_config_env(n)) {
            self.env_assignment(name, value, cwd.clone(), depth);
        }
    }

    fn git_setting_kind(&self, key: &str) -> SettingKind {
        let kinds = &self.policy().kinds;
        let is = |list: &crate::engine::policy::List| {
            list.iter()
                .any(|p| paths::component_match(&p.to_ascii_lowercase(), key))
        };
        if is(&kinds.git_safe_config) {
            SettingKind::Harmless
        } else if is_alias(key) {
            SettingKind::Alias
        } else if is(&kinds.git_command_config) {
            SettingKind::Command
        } else {
            SettingKind::Unknown
        }
    }

    /// Runs the alias `key` (set on this command) that `rest` starts with: `!TEXT` is a
    /// shell command given the other words; else the words replace the alias's name.
    fn git_alias(
        &mut self,
        inv: Invocation,
        rest: Vec<Word>,
        key: &str,
        ctx: &CmdCtx,
        settings: &mut Settings,
        depth: usize,
    ) {
        let Some(value) = settings
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
        else {
            return;
        };
        let args = &rest[1..];
        if depth >= MAX_ALIAS_DEPTH {
            self.facts.signal(
                SignalName::TooDeep,
                format!("git aliases nest too deeply at {key}"),
            );
            return;
        }
        if let Some(code) = value.text.strip_prefix('!') {
            // git runs `sh -c 'TEXT "$@"' TEXT ARGS…`.
            let text = format!("{code} {}", shell_quote(args));
            let code = Word {
                text,
                literal: value.literal,
            };
            self.code_string(&code, inv.cwd.clone(), ctx);
            return;
        }
        let words = match split_cmdline(&value.text) {
            Some(w) if value.literal && !w.is_empty() => w,
            _ => {
                self.facts.signal(
                    SignalName::DynamicScript,
                    format!("the git alias {key} is not known before it runs"),
                );
                return;
            }
        };
        let mut next = inv.clone();
        next.args = words.iter().map(|w| Word::lit(w)).collect();
        next.args.extend(args.iter().cloned());
        let cwd = inv.cwd.clone();
        self.git_run(next, cwd, ctx, settings, depth + 1);
    }

    /// What a subcommand runs besides git: the commands given to it, and `ext::` remotes.
    fn git_subcommand(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let Some(sub) = inv.args.first().filter(|w| w.literal) else {
            return;
        };
        let cwd = inv.cwd.clone();
        let rest = &inv.args[1..];
        // The options whose value is shell code, from the subcommand's tables (`"git
        // rebase"`: `-x CMD`); those of `attached_flags` take it only in their own word
        // (`git grep -O[PAGER]`).
        let (code_flags, attached, setting_flags) = {
            let mut code = List::default();
            let mut attached = List::default();
            let mut setting = List::default();
            for eff in self
                .policy()
                .effects_readings(&format!("{} {}", inv.name, sub.text))
            {
                code.extend(&eff.code_flags);
                attached.extend(&eff.attached_flags);
                setting.extend(&eff.setting_flags);
            }
            (code, attached, setting)
        };
        // `git clone -c KEY=VALUE`: the settings of its table's `setting_flags`.
        for kv in option_values(rest, &setting_flags, &List::default()) {
            match git_args::setting(&kv) {
                Some((k, v)) => self.git_setting(&k, &v, cwd.clone(), ctx),
                None => self.facts.signal(
                    SignalName::GitConfig,
                    format!("git {} sets a setting known only at run time", sub.text),
                ),
            }
        }
        let code_of = || option_values(rest, &code_flags, &attached);
        let code = match sub.text.as_str() {
            // Run with the two files to compare after it.
            "difftool" => code_of()
                .into_iter()
                .map(|c| Word {
                    text: format!("{} \"$@\"", c.text),
                    literal: c.literal,
                })
                .collect(),
            "bisect" if rest.first().is_some_and(|w| w.text == "run") => {
                self.shell_argv(&rest[1..], cwd.clone(), ctx);
                Vec::new()
            }
            "submodule" => {
                let own = self
                    .policy()
                    .effects_readings(&format!("{} submodule foreach", inv.name))
                    .into_iter()
                    .fold(List::default(), |mut l, e| {
                        l.extend(&e.flags);
                        l
                    });
                if let Some(cmd) = submodule_foreach(rest, &own) {
                    self.shell_argv(cmd, cwd.clone(), ctx);
                }
                Vec::new()
            }
            "config" => {
                self.git_config_write(inv, ctx);
                Vec::new()
            }
            _ => code_of(),
        };
        for c in code {
            self.code_string(&c, cwd.clone(), ctx);
        }
        for a in rest {
            if let Some(words) = ext_command(a) {
                self.words(&words, cwd.clone(), ctx, false);
            }
        }
    }

    /// A command given as words to a program that runs it through a shell, as git does
    /// (`git bisect run CMD ARGS…`): one word is a script; more are the script's first
    /// word and its arguments.
    fn shell_argv(&mut self, words: &[Word], cwd: Option<PathBuf>, ctx: &CmdCtx) {
        match words {
            [] => {}
            [one] => self.code_string(one, cwd, ctx),
            [first, args @ ..] => {
                let code = Word {
                    text: format!("{} {}", first.text, shell_quote(args)),
                    literal: first.literal,
                };
                self.code_string(&code, cwd, ctx);
            }
        }
    }

    /// `git config [SCOPE] KEY VALUE` (and `set`, `--add`, `--replace-all`): the value is
    /// judged as the setting is; the file written is the one its table's `file_flags` name
    /// (`--file F`, `--global` for `~/.gitconfig`). With one of its `read_only_flags`
    /// (`--get`, `--list`) it only reads that file; with one of its `edit_flags` (`--unset`,
    /// `--edit`) it writes the file but gives no setting to judge.
    fn git_config_write(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let args = &inv.args[1..];
        // Every table of it counts, the built-in one too: a layer adds options, never
        // hides one.
        let mut table = Effects::default();
        for eff in self
            .policy()
            .effects_readings(&format!("{} config", inv.name))
        {
            for (to, from) in [
                (&mut table.value_flags, &eff.value_flags),
                (&mut table.file_flags, &eff.file_flags),
                (&mut table.read_only_flags, &eff.read_only_flags),
                (&mut table.edit_flags, &eff.edit_flags),
            ] {
                to.extend(from);
            }
        }
        let file_values: List = table
            .file_flags
            .iter()
            .filter(|f| !f.contains('='))
            .collect();
        let mut writes_only = false;
        let mut reads_only = false;
        let mut file: Option<Word> = None;
        let mut positional: Vec<&Word> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let t = args[i].text.as_str();
            let fixed = table
                .file_flags
                .iter()
                .find_map(|f| f.split_once('=').filter(|(o, _)| *o == t));
            if let Some((_, path)) = fixed {
                file = Some(Word::lit(path));
            } else if let Some((u, n)) = option_use_at(args, i, &table, &file_values) {
                file = u.value;
                i += n;
                continue;
            } else if table.read_only_flags.contains(t) {
                reads_only = true;
            } else if table.edit_flags.contains(t) {
                writes_only = true;
            } else if table.takes_value(t) {
                i += 1;
            } else if !t.starts_with('-') {
                positional.push(&args[i]);
            }
            i += 1;
        }
        if reads_only {
            return self.config_file(AccessKind::Read, file, inv);
        }
        if writes_only {
            return self.config_file(AccessKind::Write, file, inv);
        }
        let (key, value) = match positional.as_slice() {
            [s, k, v, ..] if s.text == "set" => (*k, *v),
            [s, ..]
                if matches!(
                    s.text.as_str(),
                    "get" | "list" | "unset" | "rename-section" | "remove-section" | "edit"
                ) =>
            {
                let kind = if s.text == "get" || s.text == "list" {
                    AccessKind::Read
                } else {
                    AccessKind::Write
                };
                self.config_file(kind, file, inv);
                return;
            }
            [k, v, ..] => (*k, *v),
            _ => return,
        };
        self.config_file(AccessKind::Write, file, inv);
        match git_args::setting(&Word {
            text: format!("{}={}", key.text, value.text),
            literal: key.literal && value.literal,
        }) {
            Some((k, v)) => self.git_setting(&k, &v, inv.cwd.clone(), ctx),
            None => self.facts.signal(
                SignalName::GitConfig,
                "git config writes a setting known only at run time",
            ),
        }
    }

    /// The file of settings `git config` reads or writes, when an option names it (`-` is
    /// its input).
    fn config_file(&mut self, kind: AccessKind, file: Option<Word>, inv: &Invocation) {
        if let Some(f) = file.filter(|f| f.text != "-") {
            self.access(kind, &f, inv.cwd.as_deref(), "git config");
        }
    }

    /// `git show REV:PATH`, `git cat-file -p REV:PATH` print a file from history.
    fn history_reads(&mut self, inv: &Invocation) {
        if !matches!(
            inv.args.first().map(|w| w.text.as_str()),
            Some("show" | "cat-file" | "grep" | "log" | "diff")
        ) {
            return;
        }
        for a in inv.args.iter().skip(1) {
            if let Some((_, path)) = a.text.split_once(':') {
                if !path.is_empty() && !a.text.starts_with('-') {
                    let w = Word {
                        text: path.to_string(),
                        literal: a.literal,
                    };
                    self.access(AccessKind::Read, &w, inv.cwd.as_deref(), "git");
                }
            }
        }
    }
}

/// Git's global options at the start of `args`, as git's tables say (`global_flags`,
/// `global_value_flags`), each with what it gives: where the subcommand starts, and each
/// option that takes a value with its role and value.
pub(super) fn git_global_uses(
    policy: &crate::engine::policy::Policy,
    args: &[Word],
) -> (usize, Vec<(Role, String, Option<Word>)>) {
    let tables = policy.effects_readings("git");
    let is = |t: &str, list: fn(&Effects) -> &List| tables.iter().any(|e| list(e).contains(t));
    let mut uses: Vec<(Role, String, Option<Word>)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if is(t, |e| &e.global_flags) {
            i += 1;
            continue;
        }
        // `--git-dir DIR`, `--git-dir=DIR`; `-C DIR`.
        let (option, value, words) = if is(t, |e| &e.global_value_flags) {
            (t, args.get(i + 1).cloned(), 2)
        } else {
            match t.split_once('=') {
                Some((o, v)) if o.starts_with("--") && is(o, |e| &e.global_value_flags) => {
                    let v = Word {
                        text: v.to_string(),
                        literal: args[i].literal,
                    };
                    (o, Some(v), 1)
                }
                _ => break,
            }
        };
        let role = if is(option, |e| &e.setting_env_flags) {
            Role::SettingEnv
        } else if is(option, |e| &e.setting_flags) {
            Role::Setting
        } else if is(option, |e| &e.folder_flags) {
            Role::Folder
        } else if is(option, |e| &e.load_flags) {
            Role::Runs
        } else if is(option, |e| &e.global_read_flags) {
            Role::Read
        } else {
            Role::Data
        };
        uses.push((role, option.to_string(), value));
        i += words;
    }
    (i, uses)
}

/// What one of git's global options gives, as its tables say.
#[derive(Clone, Copy)]
pub(super) enum Role {
    /// The folder git runs in (`-C DIR`).
    Folder,
    /// A setting, `KEY=VALUE` (`-c`).
    Setting,
    /// A setting whose value is an environment variable's (`--config-env KEY=VAR`).
    SettingEnv,
    /// Changes which programs git runs (`--exec-path=DIR`).
    Runs,
    /// A folder git reads (`--git-dir DIR`).
    Read,
    /// Data (`--namespace NAME`).
    Data,
}

/// What a git setting is to the analysis.
enum SettingKind {
    /// Cannot make git run a program (`color.ui`).
    Harmless,
    /// `alias.NAME`: `!TEXT` is a shell command; other text is git's own words.
    Alias,
    /// Its value is a command (`core.pager`, `diff.external` …).
    Command,
    /// May make git run something not seen here (`core.hooksPath`, `include.path` …).
    Unknown,
}

fn is_alias(key: &str) -> bool {
    key.strip_prefix("alias.").is_some_and(|n| !n.is_empty())
}

/// The alias key an argv after git's global options runs, if one of `settings` is used:
/// git runs its own commands first, whatever aliases say.
fn alias_used(rest: &[Word], settings: &Settings) -> Option<String> {
    let sub = rest.first().filter(|w| w.literal)?;
    if GIT_COMMANDS.binary_search(&sub.text.as_str()).is_ok() {
        return None;
    }
    let key = format!("alias.{}", sub.text.to_ascii_lowercase());
    settings.iter().any(|(k, _)| *k == key).then_some(key)
}

/// A boolean value (`pager.log=false`, `core.fsmonitor=true`): no command is named.
fn is_git_bool(v: &str) -> bool {
    matches!(
        v.to_ascii_lowercase().as_str(),
        "" | "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0"
    )
}

/// The shell text of the command a setting makes git run, or none. Git hands most such
/// commands arguments of its own (the file to edit, the files to compare, the action of a
/// credential helper), which stand as `"$@"`, unknown; a pager gets none.
fn setting_code(kind: &SettingKind, key: &str, value: &Word) -> Option<Word> {
    let code = match kind {
        SettingKind::Alias => value.text.strip_prefix('!')?.to_string(),
        SettingKind::Command if !is_git_bool(&value.text) => credential_helper(key, &value.text),
        _ => return None,
    };
    let pager = key == "core.pager" || key.starts_with("pager.");
    Some(Word {
        text: if pager {
            code
        } else {
            format!("{code} \"$@\"")
        },
        literal: value.literal,
    })
}

/// `credential.helper=NAME` runs `git credential-NAME`, `!TEXT` runs TEXT, a path runs
/// that program; any other command setting is its value.
fn credential_helper(key: &str, value: &str) -> String {
    let is_helper =
        key == "credential.helper" || (key.starts_with("credential.") && key.ends_with(".helper"));
    if !is_helper {
        return value.to_string();
    }
    match value.strip_prefix('!') {
        Some(code) => code.to_string(),
        None if value.starts_with('/') || value.starts_with('~') => value.to_string(),
        None => format!("git credential-{value}"),
    }
}

/// The values of some options among a subcommand's words, up to `--`.
fn option_values(args: &[Word], flags: &List, attached: &List) -> Vec<Word> {
    if flags.is_empty() {
        return Vec::new();
    }
    let end = args
        .iter()
        .position(|a| a.text == "--")
        .unwrap_or(args.len());
    let args = &args[..end];
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let value = flags.iter().find_map(|f| {
            if attached.contains(f) {
                // Only in the same word: `-OPAGER`, `--open-files-in-pager=PAGER`.
                attached_value(a, f)
            } else {
                flag_value(args, i, f)
            }
        });
        out.extend(value);
    }
    out
}

/// The command of `git submodule [--quiet] [--cached] foreach [--recursive] CMD…`: after
/// `foreach` and its own options, `flags` (its table's).
fn submodule_foreach<'w>(args: &'w [Word], flags: &List) -> Option<&'w [Word]> {
    let at = args.iter().position(|a| !a.text.starts_with('-'))?;
    if args[at].text != "foreach" {
        return None;
    }
    let rest = &args[at + 1..];
    let cmd = rest
        .iter()
        .position(|a| !flags.contains(&a.text))
        .unwrap_or(rest.len());
    let cmd = &rest[cmd..];
    Some(cmd.strip_prefix(&[Word::lit("--")][..]).unwrap_or(cmd))
}
