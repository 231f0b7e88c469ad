//! The schema of policy files, written once: the keys each table may hold, the closed
//! values, the defaults, the word separator of lists, and the index of command rules.
//!
//! `build.rs` compiles the default policy with it (it includes this file by path), and the
//! loader reads user and project files with it, so the two can never disagree about what a
//! file may say. This file uses nothing but `std`, for that reason. Tests in the loader
//! check that the serde types accept exactly these keys and values.

use std::collections::BTreeMap;

/// Separates the words of a list in its stored form (each word is preceded by it): a
/// character no policy word contains.
pub const SEP: char = '\u{1f}';

/// Whether a path pattern names a file by its name alone, whatever its folder (`.env`,
/// `*.pem`, `credentials*`): the only patterns of the `sensitive` and `protected` lists a
/// word without a folder in it can match.
pub fn names_only(pattern: &str) -> bool {
    !pattern.contains('/') && !pattern.starts_with('{')
}

/// The tables of a policy file.
pub const FILE_KEYS: &[&str] = &["paths", "kinds", "commands", "workflow", "rule"];

/// Writes a table's keys once: the first constant is every key of the table, those it
/// names and then those of each constant after it, which are groups of its keys (the keys
/// that hold lists, say). A key added to a group is so a key of the table too.
macro_rules! keys {
    (
        $(#[$doc:meta])* $all:ident = [$($key:literal),* $(,)?];
        $($(#[$group_doc:meta])* $group:ident = [$($group_key:literal),* $(,)?];)*
    ) => {
        $(#[$doc])*
        pub const $all: &[&str] = &[$($key,)* $($($group_key,)*)*];
        $(
            $(#[$group_doc])*
            pub const $group: &[&str] = &[$($group_key),*];
        )*
    };
}

keys! {
    /// Every key a rule may have.
    RULE_KEYS = [
        "id",
        "tier",
        "reason",
        "max_positional",
        "path_class",
        "mount_source",
        "access",
        "match",
        "not_match",
    ];
    /// The keys of a rule that hold lists of words.
    RULE_LISTS = [
        "tool",
        "command",
        "subcommand",
        "flags_any",
        "flags_none",
        "args_any",
        "args_none",
        "args_is",
        "args_only",
    ];
    /// The keys of a rule that hold one text.
    RULE_TEXTS = ["instead", "line_regex", "line_not_regex", "signal", "effect"];
    /// The keys of a rule that hold true or false (all false unless given).
    RULE_FLAGS = ["fallback", "disabled", "relaxable", "contained"];
}

keys! {
    /// Every key a command's effects may have.
    EFFECT_KEYS = [
        "reads",
        "writes",
        "names",
        "into_folder",
        "complete",
        "recursive",
        "skips_hidden",
        "remote_name",
        "runs_input",
        "command_input",
        "command_args",
        "operands",
        "first_is",
    ];
    /// The keys of a command's effects that hold lists of words.
    EFFECT_LISTS = [
        "flags",
        "read_keys",
        "write_keys",
        "value_flags",
        "read_flags",
        "list_flags",
        "write_flags",
        "pattern_flags",
        "in_place_flags",
        "read_only_flags",
        "recursive_flags",
        "hidden_flags",
        "remote_name_flags",
        "names_flags",
        "git_actions",
        "git_actions_unless",
        "send_flags",
        "run_flags",
        "folder_flags",
        "unknown_value_flags",
        "command_flags",
        "program_flags",
        "replace_flags",
        "null_flags",
        "line_flags",
        "leading_flags",
        "exec_flags",
        "exec_dir_flags",
        "root_flags",
        "found_name_flags",
        "extension_flags",
        "glob_flags",
        "bare_flags",
        "lister_flags",
        "listing_flags",
        "not_listing_flags",
        "offline_flags",
        "string_flags",
        "stdin_flags",
        "workspace_flags",
        "no_scripts_flags",
        "skip_hooks_flags",
        "volume_flags",
        "mount_flags",
        "shell_escapes",
        "shell_flags",
        "code_flags",
        "script_flags",
        "module_flags",
        "library_flags",
        "inert_libraries",
        "load_flags",
        "loop_flags",
        "no_code_flags",
        "version_flags",
        "inert_flags",
        "attached_flags",
        "number_flags",
        "global_flags",
        "global_value_flags",
        "global_read_flags",
        "setting_flags",
        "setting_env_flags",
        "edit_flags",
        "file_flags",
        "symbolic_flags",
        "reference_flags",
        "long_options",
        "long_value_options",
        "short_value_options",
    ];
}

/// The path lists (`[paths]`).
pub const PATH_LISTS: &[&str] = &[
    "protected",
    "sensitive",
    "not_sensitive",
    "system",
    "engine_sockets",
    "runs_later",
];

/// The program kinds (`[kinds]`).
pub const KIND_LISTS: &[&str] = &[
    "shells",
    "interpreters",
    "downloaders",
    "network",
    "remote_copy",
    "exec_env",
    "command_env",
    "git_safe_config",
    "git_command_config",
    "git_history",
    "git_commits",
    "runners",
    "remote_runners",
    "languages",
    "vim_editors",
    "project_runners",
    "plain_readers",
    "confine_scratch",
    "confine_caches",
    "confine_credentials",
    "mcp_path_keys",
    "mcp_command_keys",
    "mcp_write_tools",
];

/// The languages the analysis reads code in, as the `languages` kind names them.
pub const LANGUAGES: &[&str] = &["python", "javascript", "ruby", "php", "perl", "awk"];

/// The keys of `[workflow]`.
pub const WORKFLOW_KEYS: &[&str] = &["max_review_rounds", "log_retention_days"];

/// The tiers, least restrictive first.
pub const TIERS: &[&str] = &["safe", "confirm", "forbidden"];
/// The tier of a rule that names none.
pub const DEFAULT_TIER: &str = "confirm";
/// The kinds of file access an access rule names.
pub const ACCESS_KINDS: &[&str] = &["read", "write"];
/// The path classes a rule may name.
pub const PATH_CLASSES: &[&str] = &[
    "protected",
    "sensitive",
    "system",
    "broad",
    "unknown",
    "outside",
    "runs-later",
    "git-history",
];
/// The classes of a container's host path a rule may name (`mount_source`).
pub const MOUNT_CLASSES: &[&str] = &[
    "root",
    "home",
    "system",
    "secrets",
    "engine-socket",
    "protected",
];
/// Declares the signals: the type the analysis raises them with, and the names rules use.
macro_rules! signals {
    ($($variant:ident = $name:literal,)*) => {
        /// A signal the analysis raises: something the rules must judge that is not a plain
        /// program or file. The analysis can raise no other, and a rule naming any other name
        /// than these (or `*`) is refused when its file is loaded.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum SignalName {
            $($variant,)*
        }

        impl SignalName {
            /// Every signal, in the order of [`SIGNALS`].
            pub const ALL: &[SignalName] = &[$(SignalName::$variant,)*];

            /// The name rules use for it (`signal = "remote-code"`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(SignalName::$variant => $name,)*
                }
            }

            /// The signal a rule's name stands for, if any (`*` stands for every one).
            pub fn from_name(name: &str) -> Option<SignalName> {
                match name {
                    $($name => Some(SignalName::$variant),)*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for SignalName {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        /// The names signal rules may give: each signal's, and `*` for any.
        pub const SIGNALS: &[&str] = &[$($name,)* "*"];
    };
}

signals! {
    RemoteCode = "remote-code",
    StdinCode = "stdin-code",
    DynamicCommand = "dynamic-command",
    DynamicScript = "dynamic-script",
    ExecEnv = "exec-env",
    GitConfig = "git-config",
    ForkBomb = "fork-bomb",
    Unparsed = "unparsed",
    TooDeep = "too-deep",
    TooLarge = "too-large",
    HiddenForbidden = "hidden-forbidden",
    OptionRuns = "option-runs",
    CodeJudged = "code-judged",
    CodeOpaque = "code-opaque",
    CodeEnv = "code-env",
    CodeSecretEnv = "code-secret-env",
    CodeNetwork = "code-network",
    SecretNamed = "secret-named",
    ProtectedNamed = "protected-named",
    SecretSent = "secret-sent",
}

/// What a Confirm rule's call does, as its `effect` names it: the effects that are local
/// and can be undone, which autonomy `auto` may relax (the rule sets `relaxable`) …
pub const RELAXABLE_EFFECTS: &[&str] = &[
    "project-write",
    "git-recoverable",
    "install-registry",
    "build-run",
    "list-run",
    "file-change",
    "process-control",
];
/// The effect of a listing that runs project code only to find what it lists (`pytest
/// --collect-only`): contained, and run without asking in every session when the call runs
/// in Claude Code's sandbox.
pub const LIST_RUN: &str = "list-run";
/// … and those that are never relaxed: a rule naming one may not set `relaxable`.
pub const NEVER_RELAXED_EFFECTS: &[&str] = &[
    "discard-work",
    "delete-refs",
    "remote-rewrite",
    "install-unvetted",
    "runs-later",
    "read-secret",
    "system-change",
    "outside-project",
    "leaves-machine",
    "unseen",
];
/// The never-relaxed effects that Claude Code's sandbox does not undo either: a
/// `contained` rule (relaxed inside the sandbox) may not name one.
pub const IRREVERSIBLE_EFFECTS: &[&str] = &[
    "discard-work",
    "delete-refs",
    "remote-rewrite",
    "install-unvetted",
    "runs-later",
    "read-secret",
    "system-change",
];

/// What is wrong with a rule's `effect`, given whether the rule is Confirm, relaxable, and
/// contained (relaxed inside Claude Code's sandbox).
pub fn effect_problem(
    effect: &str,
    confirm: bool,
    relaxable: bool,
    contained: bool,
) -> Option<String> {
    let never = NEVER_RELAXED_EFFECTS.contains(&effect);
    if !never && !RELAXABLE_EFFECTS.contains(&effect) {
        let all: Vec<&str> = RELAXABLE_EFFECTS
            .iter()
            .chain(NEVER_RELAXED_EFFECTS)
            .copied()
            .collect();
        return Some(format!(
            "unknown effect {effect:?} (one of: {})",
            all.join(", ")
        ));
    }
    if !confirm {
        return Some("only Confirm rules may name an `effect`".to_string());
    }
    if effect == LIST_RUN && !contained {
        return Some(format!("the effect {LIST_RUN:?} (a listing that runs project code, run unasked only inside Claude Code's sandbox) needs `contained = true`"));
    }
    if never && relaxable {
        return Some(format!("the effect {effect:?} is never relaxed; remove `relaxable = true` or name another effect"));
    }
    (contained && IRREVERSIBLE_EFFECTS.contains(&effect)).then(|| {
        format!("the effect {effect:?} cannot be undone, not even in the sandbox; remove `contained = true` or name another effect")
    })
}

/// What a command's first positional argument is when it is not a file (`first_is`).
pub const FIRST_VALUES: &[&str] = &["mode", "owner"];
/// Which positional arguments a command's effects read or write.
pub const SELECTIONS: &[&str] = &[
    "all",
    "after-first",
    "after-first-or-only",
    "all-but-last",
    "last",
    "first",
];

/// Rounds of requested changes before a workflow halts, unless a policy says otherwise.
pub const DEFAULT_REVIEW_ROUNDS: u32 = 3;

/// Days the daily audit log files are kept, unless a policy says otherwise (0: forever).
pub const DEFAULT_LOG_RETENTION_DAYS: u32 = 30;

/// The Rust name of a closed value: `after-first` is `AfterFirst`.
pub fn variant_name(value: &str) -> String {
    value
        .split('-')
        .map(|part| {
            let mut c = part.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The index of command rules by program name: for each name, the positions (in policy
/// order) of its own rules merged with the `*` rules; and the positions of the `*` rules,
/// for names no rule names. `rules` gives each rule's `command` names, in policy order.
pub fn command_index<'a, R, N>(rules: R) -> (BTreeMap<String, Vec<u32>>, Vec<u32>)
where
    R: IntoIterator<Item = N>,
    N: IntoIterator<Item = &'a str>,
{
    let mut own: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut any: Vec<u32> = Vec::new();
    for (position, names) in rules.into_iter().enumerate() {
        let position = position as u32;
        for name in names {
            let list = if name == "*" {
                &mut any
            } else {
                own.entry(name.to_string()).or_default()
            };
            if list.last() != Some(&position) {
                list.push(position);
            }
        }
    }
    for list in own.values_mut() {
        list.extend_from_slice(&any);
        list.sort_unstable();
        list.dedup();
    }
    (own, any)
}
