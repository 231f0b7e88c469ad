//! `suggest`: rules for the user's policy from the asks the user keeps approving, and with
//! `--apply`, writing them (after their examples pass, keeping a backup).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;

use super::since::parse_since;
use crate::engine::examples;
use crate::engine::policy::{self, Layer, Policy, Rule};
use crate::log::suggest::{self, Replay, Suggestion};
use crate::log::window::{self, Filters};
use crate::workflow::{clock, state};

#[derive(Args)]
pub struct SuggestArgs {
    /// Only commands approved at least this many times with the same shape.
    #[arg(long, default_value_t = 3, value_parser = at_least_one)]
    min: u64,
    /// From when: a number of days (`30d`) or hours back, or a day; default: the whole log kept.
    #[arg(long)]
    since: Option<String>,
    /// Write the suggested rules to the user's policy file once their examples pass (the
    /// file as it was is kept beside it as a backup).
    #[arg(long)]
    apply: bool,
}

fn at_least_one(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number of times, at least 1".into()),
    }
}

/// The days of log `suggest` replays under the new rules.
const REPLAY_DAYS: &str = "7d";

pub fn run_suggest(a: SuggestArgs) -> Result<i32> {
    let now = chrono::Utc::now();
    let since = match &a.since {
        Some(s) => parse_since(s, now)?,
        None => String::new(),
    };
    let places = state::places()?;
    let path = policy::user_policy_path(&places.state_dir);
    // The managed policy too: what its rules decide, no suggested rule changes.
    let managed = crate::hook::managed::policy_path();
    let policy = Policy::load(Some(&managed), Some(&path), None)?;
    let (decided, bad) = window::load(&places.state_dir, &since, &Filters::default())?;
    let input = suggest::Input {
        decided: &decided,
        policy: &policy,
        places: &places,
        min: a.min,
    };
    let (suggestions, skipped) = suggest::suggest(&input);
    let mut out = std::io::stdout().lock();
    print_suggestions(&mut out, &path, a.min, &suggestions, &skipped)?;
    if bad > 0 {
        eprintln!("note: {bad} log lines could not be read and were skipped");
    }
    if suggestions.is_empty() {
        return Ok(0);
    }
    let rules: Vec<Rule> = suggestions.iter().map(|s| s.rule.clone()).collect();
    let new = suggest::with_rules(&policy, &rules).map_err(anyhow::Error::msg)?;
    let week = parse_since(REPLAY_DAYS, now)?;
    let (recent, _) = window::load(&places.state_dir, &week, &Filters::default())?;
    let r = suggest::replay(&recent, &policy, &new, &places);
    writeln!(out, "{}", replay_text(&r, a.apply))?;
    if !a.apply {
        writeln!(out, "# Add them with `programmer-hook suggest --apply`.")?;
        return Ok(0);
    }
    if !r.denies_changed.is_empty() {
        bail!(
            "the rules were not written: under them these denied calls would be decided otherwise: {}",
            r.denies_changed.join("; ")
        );
    }
    let (checked, backup) = apply(&path, &suggestions)?;
    writeln!(
        out,
        "# Wrote {} rules to {} ({checked} examples passed){}.",
        suggestions.len(),
        path.display(),
        backup
            .map(|b| format!("; the file as it was is kept as {}", b.display()))
            .unwrap_or_default()
    )?;
    Ok(0)
}

/// The rules as TOML, each with a comment; the shapes left out as comments.
fn print_suggestions(
    out: &mut impl std::io::Write,
    path: &Path,
    min: u64,
    suggestions: &[Suggestion],
    skipped: &[suggest::Skipped],
) -> Result<()> {
    if suggestions.is_empty() {
        writeln!(
            out,
            "# No rule to suggest: no command was approved {min} times or more with the same shape."
        )?;
    } else {
        writeln!(
            out,
            "# {} rules for {} (from commands approved at least {min} times)\n",
            suggestions.len(),
            path.display(),
        )?;
    }
    for s in suggestions {
        writeln!(out, "{}", s.toml)?;
    }
    for s in skipped {
        writeln!(
            out,
            "# not suggested: `{}` (approved {} times): {}",
            s.shape, s.approved, s.why
        )?;
    }
    Ok(())
}

fn replay_text(r: &Replay, applied: bool) -> String {
    let fewer = r.asks_before - r.asks_after;
    let denies = match r.denies_changed.len() {
        0 => format!("{} denials, none decided otherwise", r.denies),
        n => format!("{} denials, {n} decided otherwise", r.denies),
    };
    format!(
        "# {} the last 7 days of the log ({} calls) would have asked {} times instead of {} ({fewer} fewer); {denies}.",
        if applied { "Under the new rules," } else { "With these rules," },
        r.calls,
        r.asks_after,
        r.asks_before
    )
}

/// Adds the rules to the user's policy file once `policy test` passes on them, keeping
/// the old file as a backup. Returns the examples checked and the backup.
fn apply(path: &Path, suggestions: &[Suggestion]) -> Result<(usize, Option<PathBuf>)> {
    let _lock = state::lock(path)?;
    let old = match std::fs::read_to_string(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut text = old.clone().unwrap_or_default();
    if !text.is_empty() {
        text.push_str(if text.ends_with('\n') { "\n" } else { "\n\n" });
    }
    text.push_str(&format!(
        "# Added by `programmer-hook suggest --apply` on {}.\n",
        clock::now().get(..10).unwrap_or("")
    ));
    for s in suggestions {
        text.push('\n');
        text.push_str(&s.toml);
    }
    let checked = policy_test(path, &text, suggestions)?;
    let backup = match &old {
        Some(old) => {
            let b = state::free_sibling(path, "bak");
            state::write_backup(&b, old.as_bytes())?;
            Some(b)
        }
        None => None,
    };
    state::write_atomic(path, text.as_bytes())?;
    Ok((checked, backup))
}

/// What `policy test FILE` does, on the new file's suggested rules.
fn policy_test(path: &Path, text: &str, suggestions: &[Suggestion]) -> Result<usize> {
    let file = policy::parse_file(text, path)
        .context("the policy file with the suggested rules does not read; nothing was written")?;
    let mut p = Policy::load(Some(&crate::hook::managed::policy_path()), None, None)?;
    p.merge(file.clone(), Layer::User, &path.display().to_string())
        .context("the policy file with the suggested rules does not load; nothing was written")?;
    let added: Vec<Rule> = file
        .rules
        .into_iter()
        .filter(|r| suggestions.iter().any(|s| s.rule.id == r.id))
        .collect();
    let (n, failures) = examples::check(&p, &added);
    if let Some(f) = failures.first() {
        bail!(
            "`policy test` fails on the suggested rule {}: `{}` {}; nothing was written",
            f.rule,
            f.example,
            f.problem
        );
    }
    Ok(n)
}
