//! `policy check`, `policy test`, `policy validate` and `policy show`: the policy tried and
//! checked without running anything.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde_json::json;

use super::usage;

mod show;
use crate::engine::classify::{self, Decision};
use crate::engine::examples;
use crate::engine::policy::{self, Layer, Policy, Tier};
use crate::engine::tools::Tool;
use crate::hook;
use crate::workflow::state;

/// The tools whose call names a file: `policy check --tool` needs `--path` for them.
const TOOLS_WITH_PATH: &[&str] = &[
    Tool::Read.as_str(),
    Tool::Write.as_str(),
    Tool::Edit.as_str(),
    Tool::MultiEdit.as_str(),
    Tool::NotebookEdit.as_str(),
];

/// How many parts the text output of `policy check` lists.
const MAX_PARTS_SHOWN: usize = 40;

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
    /// Check a policy file: every problem the hook would refuse it for, each with line and
    /// column. A file at `.claude/programmer-policy.toml` is checked as a project file (it
    /// may only make the policy stricter), the managed policy's file (`programmer-hook.toml`
    /// beside Claude Code's managed settings) as the managed layer, any other as the user's,
    /// unless --layer says. A user or project file is checked over the managed policy.
    Validate {
        /// The policy file.
        file: PathBuf,
        /// The layer the file is checked as: `managed`, `user` or `project` (default: from
        /// where it is).
        #[arg(long, value_parser = ["managed", "user", "project"])]
        layer: Option<String>,
        /// The same as `--layer project`.
        #[arg(long, conflicts_with = "layer")]
        project: bool,
    },
    /// List the rules in force (the defaults, then the managed policy, the user's and the
    /// project's file), each
    /// with the layer and file it came from, and the rules a later layer replaced or
    /// disabled.
    ///
    /// Exit status: 0, or 1 when --id matches no rule.
    Show(ShowArgs),
}

#[derive(Args)]
pub struct ShowArgs {
    /// Print the whole merged policy as one JSON object (paths, kinds, effects, workflow
    /// settings and rules, each rule with its `layer` and `file`; `overridden`: the rules a
    /// later layer replaced or disabled).
    #[arg(long)]
    json: bool,
    /// The working folder whose project policy applies (default: the current folder).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// Only the rules of this layer, and the rules it replaced or disabled or that a later
    /// layer replaced or disabled of it.
    #[arg(long, value_parser = ["default", "managed", "user", "project"])]
    layer: Option<String>,
    /// Only the rules whose id starts with this (an exact id, or `git.` for a group).
    #[arg(long, value_name = "PREFIX")]
    id: Option<String>,
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

pub fn run_policy(cmd: PolicyCmd) -> Result<i32> {
    match cmd {
        PolicyCmd::Check(a) => policy_check(a),
        PolicyCmd::Test { file } => policy_test(file.as_deref()),
        PolicyCmd::Validate {
            file,
            layer,
            project,
        } => {
            let layer = match (layer.as_deref(), project) {
                (Some("project"), _) | (None, true) => Layer::Project,
                (Some("managed"), _) => Layer::Managed,
                (Some(_), _) => Layer::User,
                (None, false) => layer_of(&file),
            };
            policy_validate(&file, layer)
        }
        PolicyCmd::Show(a) => show::policy_show(a),
    }
}

fn exit_for(t: Tier) -> i32 {
    match t {
        Tier::Safe => 0,
        Tier::Confirm => 3,
        Tier::Forbidden => 4,
    }
}

/// The folder `--cwd` names, absolute; a usage error when it is not a folder.
pub(super) fn cwd_arg(given: Option<&std::path::Path>) -> Result<PathBuf> {
    let Some(c) = given else {
        return std::env::current_dir().context("cannot read the current folder");
    };
    if !c.is_dir() {
        return Err(usage(format!(
            "--cwd {}: no such folder; give the folder the command would run in",
            c.display()
        )));
    }
    std::path::absolute(c).with_context(|| format!("bad --cwd {}", c.display()))
}

/// The options of `policy check`, for the suggestion after a mistyped one.
const CHECK_OPTIONS: &[&str] = &["--json", "--cwd", "--tool", "--path"];

/// ` (did you mean `--json`?)` for an option close to one of `policy check`'s.
fn did_you_mean(opt: &str) -> String {
    let name = opt.split('=').next().unwrap_or(opt);
    CHECK_OPTIONS
        .iter()
        .map(|o| (strsim::damerau_levenshtein(name, o), o))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, o)| format!("; did you mean `{o}`?"))
        .unwrap_or_default()
}

fn policy_check(mut a: CheckArgs) -> Result<i32> {
    let places = state::places()?;
    let cwd = cwd_arg(a.cwd.as_deref())?;
    // `--tool Bash` checks a command, the one after `--`.
    if a.tool.as_deref() == Some(Tool::Bash.as_str()) {
        if a.path.is_some() {
            return Err(usage(
                "--tool Bash checks a command, not a file: give the command after `--` instead of --path",
            ));
        }
        a.tool = None;
    }
    let policy = hook::load_policy(&places, Some(&cwd))?;
    let fs = hook::code_store::StoredFs::new(&places);
    let ctx = crate::engine::Context {
        policy: &policy,
        places: &places,
        fs: &fs,
        cwd: Some(&cwd),
    };
    let (what, decision) = match &a.tool {
        Some(tool) => {
            if !a.command.is_empty() {
                return Err(usage(
                    "give either --tool (with --path) or a command after `--`, not both",
                ));
            }
            if a.path.is_none() && TOOLS_WITH_PATH.contains(&tool.as_str()) {
                return Err(usage(format!(
                    "--tool {tool} needs the file it acts on: --path FILE"
                )));
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
                return Err(usage("nothing to check: give a command after `--`, e.g. programmer-hook policy check -- 'git status'"));
            }
            // Options come before `--`; a word that looks like one after the options is a
            // mistyped option (`--jsn`), not a command.
            if let Some(opt) = a.command.first().filter(|w| w.starts_with('-')) {
                return Err(usage(format!(
                    "unexpected option `{opt}`{} (the options are --json, --cwd, --tool and --path; the command goes after `--`)",
                    did_you_mean(opt)
                )));
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
                "relaxable": p.relaxable,
                "contained": p.contained,
                "effect": p.effect,
                "reason": p.reason,
            })
        })
        .collect();
    json!({
        "input": what,
        "decision": hook::decision_word(d.verdict.tier),
        "tier": d.verdict.tier,
        "rule": d.verdict.rule,
        "relaxable": d.verdict.relaxable,
        "contained": d.verdict.contained,
        "effect": d.verdict.effect,
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
    if v.tier == Tier::Confirm {
        println!(
            "  autonomy auto: {}",
            if v.relaxable {
                "allowed without asking (relaxable), run confined in the project profile"
            } else if v.contained
                && d.parts.iter().filter(|p| p.tier == Tier::Confirm).all(|p| {
                    p.effect.as_deref() == Some(crate::engine::policy::schema::LIST_RUN)
                })
            {
                "allowed without asking in every session, run confined in the read profile or inside Claude Code's sandbox (a listing or a check that runs project code), else still asked"
            } else if v.contained {
                "allowed without asking, run confined in the project profile or inside Claude Code's sandbox (contained: project code the hook cannot read), else still asked"
            } else {
                "still asked (not relaxable: the hook could not see what this runs, it reaches outside the project, or what it does cannot be undone)"
            }
        );
        if let Some(e) = &v.effect {
            println!("  effect: {e}");
        }
    }
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

/// The layer a policy file is, from where it sits: a project's file is
/// `<repo>/.claude/programmer-policy.toml`, the managed policy's is the one of this machine;
/// anything else is checked as the user's.
fn layer_of(file: &Path) -> Layer {
    let project_name = policy::project_policy_path(Path::new(""));
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    if file.ends_with(&project_name) {
        Layer::Project
    } else if same(file, &crate::hook::managed::policy_path()) {
        Layer::Managed
    } else {
        Layer::User
    }
}

fn policy_validate(file: &Path, layer: Layer) -> Result<i32> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    // A user's or project's file is checked over the managed policy, whose rules it may not
    // replace or disable; when that does not load, over the defaults (`doctor` reports it).
    let base = match layer {
        Layer::User | Layer::Project => {
            Policy::load(Some(&crate::hook::managed::policy_path()), None, None)
                .or_else(|_| Policy::builtin())?
        }
        _ => Policy::builtin()?,
    };
    let problems = policy::validate::validate(&text, layer, &base);
    let what = match layer {
        Layer::Project => "a project file",
        Layer::Managed => "the managed policy",
        _ => "the user's file",
    };
    if problems.is_empty() {
        let n = policy::parse_file(&text, file)?.rules.len();
        println!("{}: valid as {what} ({n} rules)", file.display());
        return Ok(0);
    }
    for p in &problems {
        eprintln!("{}:{}:{}: {}", file.display(), p.line, p.col, p.message);
    }
    let n = problems.len();
    eprintln!(
        "{}: {n} problem{} as {what}; while this file is in force, the hook blocks every tool call",
        file.display(),
        if n == 1 { "" } else { "s" }
    );
    Ok(1)
}
