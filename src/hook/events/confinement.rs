//! Which calls the gate lets through run confined, and in which profile; and where a call
//! would run: in Claude Code's sandbox ([`sandboxed`]), or confined by the hook
//! ([`confinable`]).
//!
//! A call allowed on a prediction runs confined ([`crate::confine`]): a Safe Bash call in
//! the `read` profile, unless every program in it is a plain reader (`plain_readers` in
//! the policy: `cat`, `wc`, `ls`); a call that an `auto` session relaxed, or that runs
//! project code the hook cannot read, in the `project` profile, as is a call a rule of the
//! user's made Safe (a choice, not a prediction); a test runner's listing or
//! a checker that loads project configuration, in `read` with its programs' scratch
//! folders. A call that runs in Claude Code's sandbox, or that the user approved after an
//! ask, is not rewritten. A call that asks to run unconfined (`dangerouslyDisableSandbox`)
//! when it would be confined is asked instead.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::outcome::GateOutcome;
use super::Env;
use crate::confine::Profile;
use crate::engine::analyze::Facts;
use crate::engine::classify::Decision;
use crate::engine::policy::{Kinds, Tier};
use crate::engine::sandbox;
use crate::engine::tools::Tool;
use crate::hook::protocol::{Event, EventName};

/// Why a call that asks to run unconfined is asked.
pub const ASKS_UNCONFINED: &str = "asked: the call asks to run unconfined (`dangerouslyDisableSandbox`), and it runs unasked only confined";

/// Whether the hook can confine this call at all: a Bash tool call (the only one whose
/// rewritten input the client runs) on a system with confinement.
pub(super) fn confinable(event: &Event) -> Result<(), String> {
    if event.kind() != Some(EventName::PreToolUse)
        || !event.tool_name.as_deref().is_some_and(|t| Tool::Bash.is(t))
    {
        return Err("only Bash calls can be confined".into());
    }
    crate::confine::available()
}

/// Whether a gate call runs in Claude Code's sandbox: a Bash call that does not ask to
/// leave it, in a project whose effective settings contain it. Else why not.
pub(super) fn sandboxed(env: &Env, event: &Event) -> Result<(), String> {
    if !event.tool_name.as_deref().is_some_and(|t| Tool::Bash.is(t))
        || event.kind() != Some(EventName::PreToolUse)
    {
        return Err("only Bash calls run in the sandbox".into());
    }
    if sandbox::call_leaves_sandbox(&event.tool_input) {
        return Err("the call asks to leave the sandbox (`dangerouslyDisableSandbox`)".into());
    }
    let lists = env.lists.ok_or("the policy's paths are not known here")?;
    let project = crate::hook::sandbox_settings::project_dir(event.cwd.as_deref())
        .ok_or("the call has no working folder")?;
    let c = crate::hook::sandbox_settings::containment(env.places, lists, &project);
    match c.problems.as_slice() {
        [] => Ok(()),
        [one] => Err(one.clone()),
        [first, rest @ ..] => Err(format!("{first} (and {} more)", rest.len())),
    }
}

/// Every program a call's facts name, with those of the scripts and commands inside it.
fn programs(f: &Facts, out: &mut Vec<String>) {
    out.extend(f.invocations.iter().map(|i| i.name.clone()));
    for w in &f.within {
        programs(w, out);
    }
}

/// Whether every program of the call is a plain reader.
fn plain(facts: &Facts, kinds: &Kinds) -> bool {
    if !facts.within.is_empty() || !facts.hidden.is_empty() {
        return false;
    }
    let mut names = Vec::new();
    programs(facts, &mut names);
    names.iter().all(|n| kinds.plain_readers.contains(n))
}

/// The scratch folders of the call's programs (`confine_scratch`), made absolute.
pub fn scratch(facts: &Facts, kinds: &Kinds, project: &Path, home: &Path) -> Vec<String> {
    program_paths(facts, &kinds.confine_scratch, project, home)
}

/// The secrets the call's programs use themselves (`confine_credentials`), made absolute.
pub fn credentials(facts: &Facts, kinds: &Kinds, project: &Path, home: &Path) -> Vec<String> {
    program_paths(facts, &kinds.confine_credentials, project, home)
}

/// The paths a `PROGRAM: PATH…` list gives the call's programs.
fn program_paths(
    facts: &Facts,
    list: &crate::engine::policy::List,
    project: &Path,
    home: &Path,
) -> Vec<String> {
    let mut names = Vec::new();
    programs(facts, &mut names);
    let mut out: Vec<String> = Vec::new();
    for entry in list.iter() {
        let Some((prog, dirs)) = entry.split_once(':') else {
            continue;
        };
        if !names.iter().any(|n| n == prog.trim()) {
            continue;
        }
        for d in dirs.split_whitespace() {
            let p: PathBuf = match d.strip_prefix("~/") {
                Some(rest) => home.join(rest),
                None if d.starts_with('/') => PathBuf::from(d),
                None => project.join(d),
            };
            let s = p.to_string_lossy().to_string();
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// The profile of a call about to be let through (its answer is `allow`), or none. May
/// turn the answer into an ask (a call that asks to run unconfined).
pub(super) fn profile(
    env: &Env,
    event: &Event,
    decision: &mut Decision,
    out: &mut GateOutcome,
) -> Option<Profile> {
    if out.answer_tier(decision) != Tier::Safe || confinable(event).is_err() {
        return None;
    }
    let wanted = match (decision.verdict.tier, out.relaxed_by) {
        // A rule the user wrote says "do not ask me", not "this only reads": a test run
        // or an install the user made Safe writes in the project as it did when approved.
        (Tier::Safe, _) if decision.parts.iter().any(|p| p.chosen) => Profile::Project,
        (Tier::Safe, _) => {
            let kinds = env.kinds?;
            if plain(&decision.facts, kinds) {
                return None;
            }
            Profile::Read
        }
        (Tier::Confirm, Some("confinement")) => out.confine?,
        (Tier::Confirm, Some("autonomy")) => Profile::Project,
        _ => return None,
    };
    if sandboxed(env, event).is_ok() {
        return None;
    }
    if sandbox::call_leaves_sandbox(&event.tool_input) {
        // It would run unconfined: the user decides.
        out.relaxed_by = None;
        let v = &mut decision.verdict;
        v.tier = Tier::Confirm;
        v.reason = format!("{} ({ASKS_UNCONFINED})", v.reason);
        return None;
    }
    Some(wanted)
}

/// The input the client runs instead: the same, with the command confined.
pub fn confined_input(
    event: &Event,
    profile: Profile,
    binary: &Path,
    state_dir: &Path,
    scratch: &[String],
    readable: &[String],
) -> Option<Value> {
    let command = event.tool_input.get("command")?.as_str()?;
    let id: String = event
        .raw
        .get("tool_use_id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(64)
        .collect();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let cwd_file = state_dir
        .join("confine")
        .join(format!("cwd-{}-{id}-{nanos}", std::process::id()));
    let project = crate::hook::sandbox_settings::project_dir(event.cwd.as_deref());
    let text = crate::confine::wrap::wrap(&crate::confine::wrap::Wrap {
        binary,
        profile,
        session: &event.session_id,
        project: (profile == Profile::Project)
            .then_some(project.as_deref())
            .flatten(),
        cwd_file: &cwd_file,
        scratch,
        readable,
        command,
    });
    let mut input = event.tool_input.clone();
    input
        .as_object_mut()?
        .insert("command".into(), Value::String(text));
    Some(input)
}
