//! The command line: argument parsing, and one file per group of subcommands.
//!
//! `hook` is what Claude Code runs; it skips building the CLI. Everything else is for
//! people: dry runs and checks of the policy (`policy`), the audit log (`log`, `report`,
//! and `suggest`, which proposes rules from what the user keeps approving), the
//! workflow controls of a session (`session`: status, approve, continue, abort, autonomy),
//! project registration (`project`); installing and checking an installation live in
//! `setup`, which owns their arguments. The CLI may use every layer; nothing uses it.

mod confine;
mod html;
mod log;
mod policy;
mod project;
mod report;
mod session;
mod session_id;
mod since;
mod suggest;

use std::io::Write;

use clap::{Parser, Subcommand};

use crate::hook;
use crate::setup::{doctor, install, installation, plugin, product, shell};
use crate::workflow::pack;

use log::{run_log, LogArgs};
pub use policy::decision_json;
use policy::{run_policy, PolicyCmd};
use project::{run_add_project, AddProjectArgs};
use report::{run_report, ReportArgs};
use session::{
    run_autonomy, run_control, run_status, AutonomyArgs, Control, SessionArg, StatusArgs,
};
use suggest::{run_suggest, SuggestArgs};

#[derive(Parser)]
#[command(
    name = "programmer-hook",
    version,
    about = "A fail-closed policy hook for Claude Code: every tool call is checked against autonomy tiers (Safe → allow, Confirm → ask, Forbidden → deny).",
    after_help = "Claude Code runs `programmer-hook hook` before each tool call (see docs/install.md for the settings.json entry).\nTry a command without running it:  programmer-hook policy check -- 'rm -rf ~'"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Answer one Claude Code hook event read from stdin (what settings.json runs).
    Hook,
    /// Check commands against the policy, and check policy files.
    #[command(subcommand)]
    Policy(PolicyCmd),
    /// Show decisions from the audit log, newest last.
    Log(LogArgs),
    /// Sum up the audit log: decisions per day, the rules that asked most and how often each was approved, denials, agents, phases, the hook's latency.
    Report(ReportArgs),
    /// Suggest rules for your policy from the commands you keep approving (`--apply` writes them).
    Suggest(SuggestArgs),
    /// Show where workflows stand: phase, project, autonomy, review round, plan, verdict.
    Status(StatusArgs),
    /// Approve the plan of a session's workflow (as typing `approve` in the chat does).
    Approve(SessionArg),
    /// Resume a halted workflow (as `/programmer continue`).
    Continue(SessionArg),
    /// End a session's workflow (as `/programmer abort`).
    Abort(SessionArg),
    /// Set a session's autonomy: `auto` lets relaxable Confirm actions (whose effect the hook understood) run without asking.
    Autonomy(AutonomyArgs),
    /// Register a project (or update it): path, description, stack, conventions, test command.
    AddProject(AddProjectArgs),
    /// Install programmer-hook with this binary (no compiler, no checkout): the agents, command and skill, the state dir, the hook entries, then doctor.
    Install(product::InstallArgs),
    /// Undo `install`: the hook entries, the pack and the marked blocks (the state dir and the binary stay).
    Uninstall(product::UninstallArgs),
    /// Add programmer-hook's hook entries to Claude Code's settings.json (keeps everything else).
    InstallHooks(install::InstallHooksArgs),
    /// Remove programmer-hook's hook entries from Claude Code's settings.json.
    UninstallHooks(install::UninstallHooksArgs),
    /// Check the installation and print how to fix each problem found.
    Doctor(doctor::DoctorArgs),
    /// Run a command confined, as the hook runs the calls it allows on a prediction: `read` (no file written, secrets unreadable) or `project` (writes only in the project and the temporary folders).
    Confine(confine::ConfineArgs),
    /// Bring back the files that a session's confined `project` runs changed, deleted or created.
    Undo(confine::UndoArgs),
}

/// A mistake in how a command was called (exit status 2, like clap's own usage errors),
/// as opposed to a failure while doing what was asked (exit status 1).
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A usage error with its message.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(message.into()))
}

/// Runs the CLI and returns the exit status.
pub fn run() -> i32 {
    // `programmer-hook hook` runs before every tool call: skip building the whole CLI.
    let mut args = std::env::args_os().skip(1);
    if let (Some(first), None) = (args.next(), args.next()) {
        if first == "hook" {
            return run_hook();
        }
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let result = match cli.command {
        Command::Hook => Ok(run_hook()),
        Command::Policy(p) => run_policy(p),
        Command::Log(a) => run_log(a).map(|_| 0),
        Command::Report(a) => run_report(a),
        Command::Suggest(a) => run_suggest(a),
        Command::Status(a) => run_status(a),
        Command::Approve(a) => run_control(a, Control::Approve),
        Command::Continue(a) => run_control(a, Control::Continue),
        Command::Abort(a) => run_control(a, Control::Abort),
        Command::Autonomy(a) => run_autonomy(a),
        Command::AddProject(a) => run_add_project(a),
        Command::Install(a) => install(a),
        Command::Uninstall(a) => product::run_uninstall(a),
        Command::InstallHooks(a) => install::install_hooks(a),
        Command::UninstallHooks(a) => install::uninstall_hooks(a),
        Command::Doctor(a) => doctor::run(a),
        Command::Confine(a) => confine::run_confine(a),
        Command::Undo(a) => confine::run_undo(a),
    };
    match result {
        Ok(code) => code,
        Err(e) if e.is::<Usage>() => {
            eprintln!("error: {e:#}\n\nFor more information, try '--help'.");
            2
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn run_hook() -> i32 {
    let mut answer = match hook::read_input(std::io::stdin().lock()) {
        Ok(bytes) => hook::run(&bytes),
        Err(e) => hook::Answer::block(&format!("{e:#}")),
    };
    // Messages that name the command name it as the plugin spells it, under the plugin.
    let named = |t: &str| t.contains("`/programmer");
    if (named(&answer.stdout) || named(&answer.stderr)) && plugin::runs_as_plugin() {
        answer.stdout = pack::spelled(&answer.stdout, true).into_owned();
        answer.stderr = pack::spelled(&answer.stderr, true).into_owned();
    }
    if answer.stdout.contains(TURN_ON) {
        answer.stdout = turn_on_for_the_plugin(&answer.stdout);
    }
    emit(&answer)
}

/// The command an answer names to turn Claude Code's sandbox on.
const TURN_ON: &str = "`programmer-hook install-hooks --sandbox`";

/// Under the plugin's hooks, `programmer-hook` is on no terminal's PATH until the user links
/// it: an answer names the plugin's own command instead, with `--sandbox-only` (the
/// plugin brings the hooks). `text` is the answer's JSON.
fn turn_on_for_the_plugin(text: &str) -> String {
    let Some(root) = std::env::var_os("CLAUDE_PLUGIN_ROOT").filter(|r| !r.is_empty()) else {
        return text.to_string();
    };
    let launcher = std::path::Path::new(&root)
        .join("bin")
        .join(installation::BINARY_NAME);
    let command = format!(
        "`{} install-hooks --sandbox-only`",
        shell::quote_path(&launcher)
    );
    // The answer is JSON: the command goes in as the inside of a JSON string.
    let Ok(quoted) = serde_json::to_string(&command) else {
        return text.to_string();
    };
    let inner = &quoted[1..quoted.len() - 1];
    text.replace(TURN_ON, inner)
}

/// Prints an answer; if stdout cannot be written, falls back to a blocking exit.
pub fn emit(answer: &hook::Answer) -> i32 {
    if !answer.stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{}", answer.stdout)
            .and_then(|_| out.flush())
            .is_err()
        {
            eprintln!("programmer-hook: blocked because the answer could not be written");
            return 2;
        }
    }
    if !answer.stderr.is_empty() {
        eprint!("{}", answer.stderr);
    }
    answer.code
}

/// `install`, ended by doctor's report of what it installed.
fn install(args: product::InstallArgs) -> anyhow::Result<i32> {
    match product::run_install(args)? {
        product::Installed::DryRun => Ok(0),
        product::Installed::Done { command } => {
            println!();
            let code = doctor::run(doctor::DoctorArgs {
                json: false,
                settings: None,
            })?;
            println!();
            println!("{}", product::closing(code, &command));
            Ok(0)
        }
    }
}
