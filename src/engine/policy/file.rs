//! One policy file as written: its path lists, kinds, commands, workflow settings and rules,
//! and the reading of it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::{schema, Effects, List, PolicyText, Rule};

/// The path lists.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PathLists {
    #[serde(default)]
    pub protected: List,
    #[serde(default)]
    pub sensitive: List,
    #[serde(default)]
    pub not_sensitive: List,
    #[serde(default)]
    pub system: List,
    /// Container engines' sockets (a name alone matches at any depth).
    #[serde(default)]
    pub engine_sockets: List,
    /// Files another program runs later or the agent reads as instructions.
    #[serde(default)]
    pub runs_later: List,
}

impl PathLists {
    pub(super) fn extend(&mut self, o: &PathLists) {
        self.protected.extend(&o.protected);
        self.sensitive.extend(&o.sensitive);
        self.not_sensitive.extend(&o.not_sensitive);
        self.system.extend(&o.system);
        self.engine_sockets.extend(&o.engine_sockets);
        self.runs_later.extend(&o.runs_later);
    }
}

/// Lists of programs with a special meaning to the analysis.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Kinds {
    /// Shells: `-c STRING` is a script, standard input is a script.
    #[serde(default)]
    pub shells: List,
    /// Interpreters: standard input is code.
    #[serde(default)]
    pub interpreters: List,
    /// Programs that fetch remote content.
    #[serde(default)]
    pub downloaders: List,
    /// Programs that send data off the machine: a file they name that is not a known
    /// local read (`ssh -i KEY`) is sent.
    #[serde(default)]
    pub network: List,
    /// Of those, copiers that send only when an operand names another host
    /// (`scp f host:`, not `scp a b`).
    #[serde(default)]
    pub remote_copy: List,
    /// Environment variables (globs) that change what a program loads or runs.
    #[serde(default)]
    pub exec_env: List,
    /// Environment variables whose value is itself a command (`GIT_PAGER=cat`): analysed.
    #[serde(default)]
    pub command_env: List,
    /// `git -c key=value` keys that are harmless (globs).
    #[serde(default)]
    pub git_safe_config: List,
    /// Git setting keys whose value is a command (globs, `core.pager`): the value is judged
    /// as one. Other keys that are not harmless are opaque.
    #[serde(default)]
    pub git_command_config: List,
    /// Git subcommands that change history or the index (`commit`, `add`, `switch`): a
    /// role that may not commit never runs them.
    #[serde(default)]
    pub git_history: List,
    /// Git subcommands that make history (`commit`, `merge`, `tag`, `push`): none in phase
    /// implement.
    #[serde(default)]
    pub git_commits: List,
    /// Programs that run the rest of their arguments as a command, and that the policy
    /// knows for their own verdict (`pkexec CMD`): a forbidden command among their
    /// arguments makes the call forbidden.
    #[serde(default)]
    pub runners: List,
    /// Runners whose command runs on another machine or in a container (`ssh HOST CMD`,
    /// `docker exec C CMD`): there only a rule about the command itself counts, not one
    /// about the local files its words would name.
    #[serde(default)]
    pub remote_runners: List,
    /// The languages whose code the analysis reads, each with the names of the programs
    /// that run it (`"python: python pypy"`; `python3.12` is read as `python`). Read from
    /// the built-in files only.
    #[serde(default)]
    pub languages: List,
    /// Programs that take vim's command line (`-c CMD`, `+CMD`, `-S FILE`): the commands
    /// given there are judged. Read from the built-in files only.
    #[serde(default)]
    pub vim_editors: List,
    /// Project tools whose `run CMD` runs CMD in the project's environment (`uv run`,
    /// `poetry run`): CMD is judged as the command it is. Read from the built-in files only.
    #[serde(default)]
    pub project_runners: List,
    /// Programs that load no file they are not given: a Safe call made only of these runs
    /// unconfined. Read from the built-in files only.
    #[serde(default)]
    pub plain_readers: List,
    /// The folders a confined `read` call of a program may still write (`"cargo: target
    /// ~/.cargo/registry"`; relative to the project). Read from the built-in files only.
    #[serde(default)]
    pub confine_scratch: List,
    /// The tool caches a confined `project` call may write. Read from the built-in files
    /// only.
    #[serde(default)]
    pub confine_caches: List,
    /// The secrets a confined call of a program may still read, because the program uses
    /// them itself (`"git: ~/.ssh"`). Read from the built-in files only.
    #[serde(default)]
    pub confine_credentials: List,
    /// The keys of an MCP tool's input whose value names a file or folder (`path`,
    /// `file_path`, `destination`): judged as the file tools judge their paths.
    #[serde(default)]
    pub mcp_path_keys: List,
    /// The keys of an MCP tool's input whose value is a shell command (`command`, `cmd`,
    /// `script`): judged as a Bash command.
    #[serde(default)]
    pub mcp_command_keys: List,
    /// MCP tools (globs of their names, `mcp__*__write_file`) that write the paths they are
    /// given: a protected path or a secret there is denied.
    #[serde(default)]
    pub mcp_write_tools: List,
}

impl Kinds {
    pub(super) fn extend(&mut self, o: &Kinds) {
        self.shells.extend(&o.shells);
        self.interpreters.extend(&o.interpreters);
        self.downloaders.extend(&o.downloaders);
        self.network.extend(&o.network);
        self.remote_copy.extend(&o.remote_copy);
        self.exec_env.extend(&o.exec_env);
        self.command_env.extend(&o.command_env);
        self.git_safe_config.extend(&o.git_safe_config);
        self.git_command_config.extend(&o.git_command_config);
        self.git_history.extend(&o.git_history);
        self.git_commits.extend(&o.git_commits);
        self.runners.extend(&o.runners);
        self.remote_runners.extend(&o.remote_runners);
        self.languages.extend(&o.languages);
        self.vim_editors.extend(&o.vim_editors);
        self.project_runners.extend(&o.project_runners);
        self.plain_readers.extend(&o.plain_readers);
        self.confine_scratch.extend(&o.confine_scratch);
        self.confine_caches.extend(&o.confine_caches);
        self.confine_credentials.extend(&o.confine_credentials);
        self.mcp_path_keys.extend(&o.mcp_path_keys);
        self.mcp_command_keys.extend(&o.mcp_command_keys);
        self.mcp_write_tools.extend(&o.mcp_write_tools);
    }
}

/// Workflow settings.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowSettings {
    /// Rounds of requested changes before the workflow halts.
    #[serde(default = "default_rounds")]
    pub max_review_rounds: u32,
    /// Days the daily audit log files are kept (0: forever); only the user's file may say.
    #[serde(default = "default_retention")]
    pub log_retention_days: u32,
}

impl WorkflowSettings {
    /// Rounds of requested changes before a workflow halts, unless a policy says otherwise.
    pub const DEFAULT_REVIEW_ROUNDS: u32 = schema::DEFAULT_REVIEW_ROUNDS;
}

fn default_rounds() -> u32 {
    schema::DEFAULT_REVIEW_ROUNDS
}

fn default_retention() -> u32 {
    schema::DEFAULT_LOG_RETENTION_DAYS
}

impl Default for WorkflowSettings {
    fn default() -> Self {
        WorkflowSettings {
            max_review_rounds: default_rounds(),
            log_retention_days: default_retention(),
        }
    }
}

/// One policy file as written.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyFile {
    #[serde(default)]
    pub paths: PathLists,
    #[serde(default)]
    pub kinds: Kinds,
    #[serde(default)]
    pub commands: BTreeMap<PolicyText, Effects>,
    #[serde(default)]
    pub workflow: Option<WorkflowSettings>,
    #[serde(default, rename = "rule")]
    pub rules: Vec<Rule>,
}

/// Parses a policy file, turning TOML errors into messages with line and column.
pub fn parse_file(text: &str, path: &Path) -> Result<PolicyFile> {
    toml::from_str::<PolicyFile>(text).map_err(|e| {
        let (line, col) = e.span().map(|s| line_col(text, s.start)).unwrap_or((0, 0));
        anyhow::anyhow!(
            "{}:{}:{}: {}",
            path.display(),
            line,
            col,
            e.message().trim()
        )
    })
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}
