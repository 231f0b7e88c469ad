//! Escalation: what the orchestrator does with a call the hook will not simply let run.
//!
//! The design puts a `master-orchestrator` agent above the programmer-orchestrator, for
//! cross-agent coordination (another agent's work, such as installing a system package),
//! autonomy decisions the hook cannot make, and security-sensitive operations. When the
//! user's setup defines such an agent (where Claude Code loads agents from: the project's
//! `.claude/agents/`, the user's, or an installed plugin's `agents/`), the hook's answer
//! to such a call says to hand it there; otherwise, to stop and ask the user. Which calls
//! need it is decided here from the verdict alone; [`target`] is the only I/O.

use std::path::Path;

use crate::engine::policy::Tier;
use crate::workflow::pack;

/// The name of the agent that escalations go to.
pub const MASTER: &str = "master-orchestrator";

/// Where an escalation goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Escalation {
    /// To the master-orchestrator agent, by this `subagent_type`.
    Master(String),
    /// To the user: no master-orchestrator agent is set up.
    User,
}

/// Whether a verdict needs escalating: a Forbidden verdict of the policy (a
/// security-sensitive operation; the workflow's own refusals say which agent's work it
/// is instead, and the hook's own controls are the user's), or a Confirm the hook could
/// not see through, which even autonomy `auto` asks about (an autonomy decision the hook
/// cannot make, or work outside the project).
pub fn needed(tier: Tier, rule: &str, relaxable: bool) -> bool {
    let workflow_rule = ["role.", "phase.", "gate.", "programmer-hook.", "hook."]
        .iter()
        .any(|p| rule.starts_with(p));
    match tier {
        Tier::Forbidden => !workflow_rule,
        Tier::Confirm => !relaxable && !workflow_rule,
        Tier::Safe => false,
    }
}

/// The sentence the answer ends with, for the main thread (the orchestrator) or a
/// subagent (which reports to the orchestrator).
pub fn note(e: &Escalation, main_thread: bool) -> String {
    let why = "Escalation: this is a security-sensitive operation, an autonomy decision the hook cannot make, or work outside the project";
    match (e, main_thread) {
        (Escalation::Master(name), true) => format!(
            "{why}; a `{MASTER}` agent is set up, so hand it to that agent (Agent tool, `subagent_type: \"{name}\"`) with what you need and why, instead of working around it"
        ),
        (Escalation::User, true) => format!(
            "{why}; no `{MASTER}` agent is set up, so stop and ask the user"
        ),
        (Escalation::Master(_), false) => format!(
            "{why}; report it to the orchestrator, which hands it to the `{MASTER}` agent"
        ),
        (Escalation::User, false) => format!(
            "{why}; report it to the orchestrator, which stops and asks the user (no `{MASTER}` agent is set up)"
        ),
    }
}

/// Where escalations go for a session in `cwd`: the master-orchestrator agent Claude Code
/// would load (the project's and the user's agent folders, then installed plugins), else
/// the user.
pub fn target(cwd: Option<&Path>, home: &Path, config_dir: &Path) -> Escalation {
    let dirs = pack::agent_dirs(cwd, home, config_dir);
    if pack::agent_defined(MASTER, &dirs) {
        return Escalation::Master(MASTER.to_string());
    }
    for (plugin, dir) in pack::plugin_agent_dirs(config_dir) {
        if pack::agent_defined(MASTER, &[dir]) {
            return Escalation::Master(format!("{plugin}:{MASTER}"));
        }
    }
    Escalation::User
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_verdicts_need_escalating() {
        use Tier::*;
        let cases: &[(Tier, &str, bool, bool)] = &[
            // Security-sensitive: the policy's Forbidden verdicts.
            (Forbidden, "git.force-push", false, true),
            (Forbidden, "path.secret-write", false, true),
            (Forbidden, "exec.remote-code", false, true),
            // What the hook cannot see through, or reaches outside the project.
            (Confirm, "file.write-outside", false, true),
            (Confirm, "shell.dynamic-command", false, true),
            (Confirm, "pkg.install", false, true),
            // Routine confirmations, which autonomy may relax.
            (Confirm, "file.write", true, false),
            (Confirm, "build.run", true, false),
            // The workflow's refusals name whose work it is; the controls are the user's.
            (Forbidden, "role.no-write", false, false),
            (Forbidden, "phase.plan-read-only", false, false),
            (Forbidden, "gate.tests-before-review", false, false),
            (Forbidden, "programmer-hook.control", false, false),
            (Confirm, "programmer-hook.add-project", false, false),
            (Forbidden, "hook.blocked", false, false),
            (Safe, "read.files", false, false),
        ];
        for (tier, rule, relaxable, want) in cases {
            assert_eq!(needed(*tier, rule, *relaxable), *want, "{tier} {rule}");
        }
    }

    #[test]
    fn the_note_says_which_of_the_two_applies() {
        let master = Escalation::Master("team:master-orchestrator".into());
        let m = note(&master, true);
        assert!(
            m.contains("subagent_type: \"team:master-orchestrator\""),
            "{m}"
        );
        assert!(!m.contains("ask the user"), "{m}");
        let u = note(&Escalation::User, true);
        assert!(
            u.contains("no `master-orchestrator` agent is set up, so stop and ask the user"),
            "{u}"
        );
        assert!(note(&master, false).contains("report it to the orchestrator"));
        assert!(note(&Escalation::User, false).contains("asks the user"));
    }

    #[test]
    fn the_master_orchestrator_is_found_where_claude_code_loads_agents() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let home = tmp.path().join("home");
        let config = home.join(".claude");
        let project = home.join("work/app");
        std::fs::create_dir_all(&project).expect("mkdir");
        let def = "---\nname: master-orchestrator\ndescription: x\n---\nbody\n";
        let t = || target(Some(&project), &home, &config);
        assert_eq!(t(), Escalation::User);
        // A file of another name that defines another agent is not it.
        std::fs::create_dir_all(config.join("agents")).expect("mkdir");
        std::fs::write(
            config.join("agents/master-orchestrator.md"),
            "---\nname: other\n---\n",
        )
        .expect("write");
        assert_eq!(t(), Escalation::User);
        // A plugin's agent, by the plugin's name.
        let plugin = tmp.path().join("cache/team");
        std::fs::create_dir_all(plugin.join("agents/sub")).expect("mkdir");
        std::fs::write(plugin.join("agents/sub/boss.md"), def).expect("write");
        std::fs::create_dir_all(config.join("plugins")).expect("mkdir");
        let record = serde_json::json!({"version": 2, "plugins": {"team@market": [
            {"scope": "user", "installPath": plugin}]}});
        std::fs::write(
            config.join("plugins/installed_plugins.json"),
            record.to_string(),
        )
        .expect("write");
        assert_eq!(t(), Escalation::Master("team:master-orchestrator".into()));
        // The user's own agent, under any file name, comes first.
        std::fs::write(config.join("agents/boss.md"), def).expect("write");
        assert_eq!(t(), Escalation::Master("master-orchestrator".into()));
        // So does the project's.
        std::fs::remove_file(config.join("agents/boss.md")).expect("rm");
        std::fs::create_dir_all(project.join(".claude/agents")).expect("mkdir");
        std::fs::write(project.join(".claude/agents/mo.md"), def).expect("write");
        assert_eq!(t(), Escalation::Master("master-orchestrator".into()));
    }
}
