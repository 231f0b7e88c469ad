//! The command line: argument parsing, and the output of each subcommand.
//!
//! `hook` is what Claude Code runs. Everything else is for people: dry runs of the policy,
//! checking policy files, and reading the audit log.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use serde_json::json;

use crate::engine::classify::{self, Decision};
use crate::engine::examples;
use crate::engine::paths::RealFs;
use crate::engine::policy::{self, Layer, Policy, Tier};
use crate::hook::{self, audit};
use crate::setup::{doctor, install};
use crate::workflow::{self, Autonomy, Workflow};
use crate::workflow::{projects, state};

#[derive(Parser)]
#[command(
    name = "programmer-hook",
    version,
    about = "A fail-closed policy hook for Claude Code: every tool call is checked against autonomy tiers (Safe → allow, Confirm → ask, Forbidden → deny).",
    after_help = "Claude Code runs `programmer-hook hook` before each tool call (see README.md for the settings.json entry).\nTry a command without running it:  programmer-hook policy check -- 'rm -rf ~'"
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
    /// Show where workflows stand: phase, project, autonomy, review round, plan, verdict.
    Status(StatusArgs),
    /// Approve the plan of a session's workflow (as typing `approve` in the chat does).
    Approve(SessionArg),
    /// Resume a halted workflow (as `/programmer continue`).
    Continue(SessionArg),
    /// End a session's workflow (as `/programmer abort`).
    Abort(SessionArg),
    /// Set a session's autonomy: `auto` lets Confirm actions run without asking.
    Autonomy(AutonomyArgs),
    /// Register a project (or update it): path, description, stack, conventions, test command.
    AddProject(AddProjectArgs),
    /// Add programmer-hook's hook entries to Claude Code's settings.json (keeps everything else).
    InstallHooks(install::InstallHooksArgs),
    /// Remove programmer-hook's hook entries from Claude Code's settings.json.
    UninstallHooks(install::UninstallHooksArgs),
    /// Check the installation and print how to fix each problem found.
    Doctor(doctor::DoctorArgs),
}

#[derive(Subcommand)]
pub enum PolicyCmd {
    /// Show what the hook would decide for a command or a tool call, without running it.
    ///
    /// Exit status: 0 allow (Safe), 3 ask (Confirm), 4 deny (Forbidden), 1 error.
    Check(CheckArgs),
    /// Check the inline `match`/`not_match` examples of every rule (default: the built-in policy).
    Test {
        /// A policy file to test on top of the defaults.
        file: Option<PathBuf>,
    },
    /// Check that a policy file is valid; errors give line and column.
    Validate {
        /// The policy file.
        file: PathBuf,
        /// Check it as a project file, which may only make the policy stricter.
        #[arg(long)]
        project: bool,
    },
    /// Print the rules in force (defaults plus the user and project files) as JSON.
    Show {
        /// The working folder whose project policy applies.
        #[arg(long)]
        cwd: Option<PathBuf>,
    },
}

#[derive(Args)]
pub struct CheckArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The working folder to resolve paths against (default: the current folder).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// Check a call of this tool instead of a Bash command (e.g. Write, Read, Edit).
    #[arg(long)]
    tool: Option<String>,
    /// The file path for --tool.
    #[arg(long, requires = "tool")]
    path: Option<String>,
    /// The Bash command, after `--`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

#[derive(Args)]
pub struct StatusArgs {
    /// The Claude Code session id (default: the most recent sessions).
    #[arg(long)]
    session: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct SessionArg {
    /// The Claude Code session id (see `programmer-hook status`); default: the most recent
    /// session with an active workflow.
    #[arg(long)]
    session: Option<String>,
}

#[derive(Args)]
pub struct AutonomyArgs {
    /// `auto` or `confirm`.
    #[arg(value_parser = ["auto", "confirm"])]
    mode: String,
    #[command(flatten)]
    session: SessionArg,
}

#[derive(Args)]
pub struct AddProjectArgs {
    /// The project's name (default: the folder's name).
    #[arg(long)]
    name: Option<String>,
    /// The project's folder (default: the current folder).
    #[arg(long)]
    path: Option<PathBuf>,
    /// What the project is.
    #[arg(long)]
    description: Option<String>,
    /// Languages and frameworks, comma-separated (default: detected from the files).
    #[arg(long, value_delimiter = ',')]
    stack: Option<Vec<String>>,
    /// Where the conventions are written, or a summary (default: CONTRIBUTING.md if present).
    #[arg(long)]
    conventions: Option<String>,
    /// The test command the review gate waits for (default: detected; "" for none).
    #[arg(long)]
    test: Option<String>,
    /// Replace a project of the same name registered for another folder.
    #[arg(long)]
    force: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct LogArgs {
    /// Only this decision: allow, ask or deny.
    #[arg(long, value_parser = ["allow", "ask", "deny"])]
    decision: Option<String>,
    /// Only this Claude Code session id.
    #[arg(long)]
    session: Option<String>,
    /// Only this tool (e.g. Bash, Write).
    #[arg(long)]
    tool: Option<String>,
    /// Only rules whose id starts with this.
    #[arg(long)]
    rule: Option<String>,
    /// Only this agent (`main` for the main thread, or an agent name).
    #[arg(long)]
    agent: Option<String>,
    /// Only entries whose command or path contains this text.
    #[arg(long)]
    grep: Option<String>,
    /// Only this day (YYYY-MM-DD); default: all days.
    #[arg(long)]
    date: Option<String>,
    /// How many entries at most (the newest).
    #[arg(long, short = 'n', default_value_t = 50)]
    limit: usize,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    json: bool,
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
        Command::Status(a) => run_status(a),
        Command::Approve(a) => run_control(a, Control::Approve),
        Command::Continue(a) => run_control(a, Control::Continue),
        Command::Abort(a) => run_control(a, Control::Abort),
        Command::Autonomy(a) => run_autonomy(a),
        Command::AddProject(a) => run_add_project(a),
        Command::InstallHooks(a) => install::install_hooks(a),
        Command::UninstallHooks(a) => install::uninstall_hooks(a),
        Command::Doctor(a) => doctor::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

fn run_hook() -> i32 {
    let answer = match hook::read_input(std::io::stdin().lock()) {
        Ok(bytes) => hook::run(&bytes),
        Err(e) => hook::Answer::block(&format!("{e:#}")),
    };
    emit(&answer)
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

fn run_policy(cmd: PolicyCmd) -> Result<i32> {
    match cmd {
        PolicyCmd::Check(a) => policy_check(a),
        PolicyCmd::Test { file } => policy_test(file.as_deref()),
        PolicyCmd::Validate { file, project } => policy_validate(&file, project),
        PolicyCmd::Show { cwd } => {
            let places = state::places()?;
            let cwd = match cwd {
                Some(c) => c,
                None => std::env::current_dir().context("cannot read the current folder")?,
            };
            let p = hook::load_policy(&places, Some(&cwd))?;
            let file = policy::PolicyFile {
                paths: p.paths.clone(),
                kinds: p.kinds.clone(),
                commands: p.all_effects(),
                workflow: Some(p.workflow.clone()),
                rules: p.rules().iter().map(|r| r.clone().into_owned()).collect(),
            };
            println!("{}", serde_json::to_string_pretty(&file)?);
            Ok(0)
        }
    }
}

fn exit_for(t: Tier) -> i32 {
    match t {
        Tier::Safe => 0,
        Tier::Confirm => 3,
        Tier::Forbidden => 4,
    }
}

fn policy_check(a: CheckArgs) -> Result<i32> {
    let places = state::places()?;
    let cwd = match &a.cwd {
        Some(c) => std::path::absolute(c).with_context(|| format!("bad --cwd {}", c.display()))?,
        None => std::env::current_dir().context("cannot read the current folder")?,
    };
    let policy = hook::load_policy(&places, Some(&cwd))?;
    let ctx = classify::Context {
        policy: &policy,
        places: &places,
        fs: &RealFs,
        cwd: Some(&cwd),
    };
    let (what, decision) = match &a.tool {
        Some(tool) => {
            if !a.command.is_empty() {
                bail!("give either --tool (with --path) or a command after `--`, not both");
            }
            let input = match &a.path {
                Some(p) => {
                    let abs = std::path::absolute(cwd.join(p))?;
                    json!({"file_path": abs, "notebook_path": abs, "path": abs, "content": "", "old_string": "", "new_string": "", "pattern": "*"})
                }
                None => json!({}),
            };
            let label = format!("{tool} {}", a.path.as_deref().unwrap_or(""))
                .trim()
                .to_string();
            (label, classify::classify(tool, &input, &ctx)?)
        }
        None => {
            if a.command.is_empty() {
                bail!("nothing to check: give a command after `--`, e.g. programmer-hook policy check -- 'git status'");
            }
            let cmd = a.command.join(" ");
            let d = classify::classify_command(&cmd, &ctx);
            (cmd, d)
        }
    };
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&decision_json(&what, &decision))?
        );
    } else {
        print_decision(&what, &decision);
    }
    Ok(exit_for(decision.verdict.tier))
}

/// The JSON form of a decision (the `--json` output of `policy check`).
pub fn decision_json(what: &str, d: &Decision) -> serde_json::Value {
    let parts: Vec<_> = d
        .parts
        .iter()
        .map(|p| {
            json!({
                "subject": p.subject,
                "decision": hook::decision_word(p.tier),
                "tier": p.tier,
                "rule": p.rule,
                "reason": p.reason,
            })
        })
        .collect();
    json!({
        "input": what,
        "decision": hook::decision_word(d.verdict.tier),
        "tier": d.verdict.tier,
        "rule": d.verdict.rule,
        "reason": d.verdict.reason,
        "instead": d.verdict.instead,
        "message": hook::reason_text(d, None),
        "commands": parts,
    })
}

fn print_decision(what: &str, d: &Decision) {
    let v = &d.verdict;
    println!(
        "{}  ({}, rule {})",
        hook::decision_word(v.tier).to_uppercase(),
        v.tier,
        v.rule
    );
    println!("  input:  {}", clip(what, 300));
    println!("  reason: {}", v.reason);
    if let Some(i) = &v.instead {
        println!("  instead: {i}");
    }
    if !d.parts.is_empty() {
        println!("  parts:");
        for p in d.parts.iter().take(MAX_PARTS_SHOWN) {
            println!(
                "    {:<5} {:<30} {}",
                hook::decision_word(p.tier),
                p.rule,
                clip(&p.subject, 120)
            );
        }
        if d.parts.len() > MAX_PARTS_SHOWN {
            println!(
                "    … and {} more (--json lists them all)",
                d.parts.len() - MAX_PARTS_SHOWN
            );
        }
    }
}

/// How many parts the text output of `policy check` lists.
const MAX_PARTS_SHOWN: usize = 40;

/// At most `max` characters of `s` on one line, saying how much was left out.
fn clip(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    match one_line.char_indices().nth(max) {
        None => one_line,
        Some((cut, _)) => format!("{}… ({} bytes in all)", &one_line[..cut], s.len()),
    }
}

fn policy_test(file: Option<&Path>) -> Result<i32> {
    let mut total = 0;
    let mut failures = Vec::new();
    match file {
        None => {
            let policy = Policy::builtin()?;
            for b in policy::DEFAULT_FILES {
                let f = policy::parse_file(b.source, Path::new(b.name))?;
                let (n, fails) = examples::check(&policy, &f.rules);
                total += n;
                failures.extend(fails.into_iter().map(|x| (b.name.to_string(), x)));
            }
        }
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let f = policy::parse_file(&text, path)?;
            let mut policy = Policy::builtin()?;
            policy.merge(f.clone(), Layer::User, &path.display().to_string())?;
            let (n, fails) = examples::check(&policy, &f.rules);
            total += n;
            failures.extend(fails.into_iter().map(|x| (path.display().to_string(), x)));
        }
    }
    for (file, f) in &failures {
        println!(
            "FAIL {file}: rule {}: `{}` {}",
            f.rule, f.example, f.problem
        );
    }
    println!(
        "{} passed, {} failed",
        total - failures.len(),
        failures.len()
    );
    Ok(if failures.is_empty() { 0 } else { 1 })
}

fn policy_validate(file: &Path, project: bool) -> Result<i32> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let f = policy::parse_file(&text, file)?;
    let n = f.rules.len();
    let mut p = Policy::builtin()?;
    let layer = if project { Layer::Project } else { Layer::User };
    p.merge(f, layer, &file.display().to_string())?;
    println!("{}: valid ({n} rules)", file.display());
    Ok(0)
}

fn run_log(a: LogArgs) -> Result<()> {
    let places = state::places()?;
    let mut files = audit::files(&places.state_dir);
    if let Some(d) = &a.date {
        files.retain(|f| f.file_name().and_then(|n| n.to_str()) == Some(&format!("{d}.jsonl")));
    }
    if files.is_empty() {
        eprintln!(
            "no audit log yet in {} (decisions are logged there as the hook runs)",
            audit::audit_dir(&places.state_dir).display()
        );
        return Ok(());
    }
    let filter = audit::Filter {
        decision: a.decision,
        session: a.session,
        tool: a.tool,
        rule: a.rule,
        agent: a.agent,
        contains: a.grep,
    };
    let (entries, bad) = audit::read(&files, &filter, a.limit)?;
    let mut out = std::io::stdout().lock();
    for e in &entries {
        if a.json {
            writeln!(out, "{}", serde_json::to_string(e)?)?;
        } else {
            writeln!(
                out,
                "{}  {:<5} {:<28} {:<10} {:<18} {:<9} {}",
                e.time.get(..19).unwrap_or(&e.time),
                e.decision,
                e.rule,
                e.tool,
                e.agent,
                e.phase.as_deref().unwrap_or("-"),
                e.subject
            )?;
        }
    }
    if bad > 0 {
        eprintln!("note: {bad} log lines could not be read and were skipped");
    }
    Ok(())
}

fn status_json(s: &state::SessionFile, autonomy: Autonomy) -> serde_json::Value {
    let w = s.workflow.as_ref();
    json!({
        "session": s.session,
        "phase": w.filter(|w| w.active()).map(|w| w.phase.name()).unwrap_or("none"),
        "project": w.and_then(|w| w.project.clone()),
        "request": w.map(|w| w.request.clone()),
        "autonomy": autonomy,
        "round": w.map(|w| w.round).unwrap_or(0),
        "plan": w.and_then(|w| w.plan.as_ref().map(|p| p.path.clone())),
        "last_verdict": w.and_then(|w| w.last_verdict.clone()),
        "updated": w.map(|w| w.updated.clone()),
        "note": w.and_then(|w| w.note.clone()),
    })
}

fn run_status(a: StatusArgs) -> Result<i32> {
    let places = state::places()?;
    let sessions = match &a.session {
        Some(id) => vec![state::load_session(&places.state_dir, id)?],
        None => state::recent_sessions(&places.state_dir, 10),
    };
    if a.json {
        let v: Vec<_> = sessions
            .iter()
            .map(|s| status_json(s, state::autonomy(&places.state_dir, &s.session)))
            .collect();
        let out = match (&a.session, v.len()) {
            (Some(_), _) => v.into_iter().next().unwrap_or(json!({"phase": "none"})),
            _ => json!({ "sessions": v }),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(0);
    }
    if sessions.is_empty() {
        println!("no workflow sessions yet (start one in Claude Code with /programmer <request>)");
        return Ok(0);
    }
    for s in &sessions {
        let v = status_json(s, state::autonomy(&places.state_dir, &s.session));
        println!("session {}", s.session);
        for k in [
            "phase",
            "project",
            "request",
            "autonomy",
            "round",
            "plan",
            "last_verdict",
            "updated",
            "note",
        ] {
            if let Some(x) = v.get(k).filter(|x| !x.is_null()) {
                let text = x
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string());
                println!("  {k:<13} {text}");
            }
        }
    }
    Ok(0)
}

#[derive(Clone, Copy)]
enum Control {
    Approve,
    Continue,
    Abort,
}

/// The session a control command acts on: the given one, or the most recent active one.
fn pick_session(places: &crate::engine::paths::Places, arg: &SessionArg) -> Result<String> {
    if let Some(id) = &arg.session {
        return Ok(id.clone());
    }
    state::recent_sessions(&places.state_dir, 50)
        .into_iter()
        .find(|s| s.workflow.as_ref().is_some_and(Workflow::active))
        .map(|s| s.session)
        .context(
            "no session has an active workflow; pass --session ID (see `programmer-hook status`)",
        )
}

fn run_control(a: SessionArg, c: Control) -> Result<i32> {
    let places = state::places()?;
    let id = pick_session(&places, &a)?;
    let cmd = match c {
        Control::Approve => workflow::Command::Approve,
        Control::Continue => workflow::Command::Continue,
        Control::Abort => workflow::Command::Abort,
    };
    let max = hook::load_policy(&places, None)
        .map(|p| p.workflow.max_review_rounds)
        .unwrap_or(3);
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let before = state::load_session(&places.state_dir, &id)?;
    let phase_before = before.workflow.as_ref().map(|w| w.phase);
    let message = state::update_session(&places.state_dir, &id, |s| {
        crate::hook::events::apply_to_session(s, &cmd, max, &now, |r, q| {
            Workflow::new(r, q, None, "", &now)
        })
        .message
    })?;
    println!(
        "session {id}: {}",
        message.trim_start_matches("programmer-hook: ")
    );
    let after = state::load_session(&places.state_dir, &id)?;
    Ok(
        if after.workflow.as_ref().map(|w| w.phase) == phase_before && !matches!(c, Control::Abort)
        {
            1
        } else {
            0
        },
    )
}

fn run_autonomy(a: AutonomyArgs) -> Result<i32> {
    let places = state::places()?;
    let id = match &a.session.session {
        Some(id) => id.clone(),
        None => state::recent_sessions(&places.state_dir, 1)
            .into_iter()
            .next()
            .map(|s| s.session)
            .context("no session yet; pass --session ID (see `programmer-hook status`)")?,
    };
    let mode = if a.mode == "auto" {
        Autonomy::Auto
    } else {
        Autonomy::Confirm
    };
    state::set_autonomy(&places.state_dir, &id, mode)?;
    println!("session {id}: autonomy is now {}", a.mode);
    Ok(0)
}

fn run_add_project(a: AddProjectArgs) -> Result<i32> {
    let places = state::places()?;
    let path = match a.path {
        Some(p) => p,
        None => std::env::current_dir().context("cannot read the current folder")?,
    };
    let reg = projects::Registration {
        name: a.name,
        path,
        description: a.description,
        stack: a.stack.map(|v| {
            v.into_iter()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        }),
        conventions: a.conventions,
        test: a.test,
        force: a.force,
    };
    let (name, p, updated) = projects::register(&places.state_dir, &reg)?;
    let file = projects::project_path(&places.state_dir, &name);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"name": name, "file": file, "updated": updated, "project": p})
            )?
        );
    } else {
        println!(
            "{} project {name} in {}",
            if updated { "updated" } else { "registered" },
            file.display()
        );
        println!("  path         {}", p.path);
        println!("  description  {}", p.description);
        println!("  stack        {}", p.stack.join(", "));
        println!("  conventions  {}", p.conventions);
        println!(
            "  test         {}",
            p.test
                .as_deref()
                .unwrap_or("(none: the review gate does not wait for tests)")
        );
    }
    Ok(0)
}
