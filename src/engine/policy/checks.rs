//! The checks a layer passes before it is merged: every problem of each rule and of the
//! file's other tables. A project file may only make the policy stricter.

use super::{schema, Layer, Policy, PolicyFile, Rule, Tier};

impl Policy {
    /// What is wrong with rule `r` (the `index`-th of its file) in a file of `layer`, merged
    /// over this policy: every problem, so that `policy validate` can list them all.
    pub fn rule_problems(&self, r: &Rule, index: usize, layer: Layer) -> Vec<String> {
        let mut out = Vec::new();
        if r.id.trim().is_empty() {
            out.push(format!("rule #{} has no id", index + 1));
            return out;
        }
        let id = &r.id;
        if !r.disabled && r.kind().is_none() {
            out.push(format!(
                "rule {id:?} must name exactly one of `tool`, `command`, `access` or `signal`"
            ));
        }
        if r.relaxable && r.tier != Tier::Confirm {
            out.push(format!(
                "rule {id:?} is {} but sets `relaxable = true`; only Confirm rules may be relaxable",
                r.tier
            ));
        }
        if r.contained && r.tier != Tier::Confirm {
            out.push(format!(
                "rule {id:?} is {} but sets `contained = true`; only Confirm rules may be contained",
                r.tier
            ));
        }
        if r.contained && r.relaxable {
            out.push(format!(
                "rule {id:?} sets both `relaxable` and `contained`; a rule is one or the other"
            ));
        }
        if let Some(e) = r.effect.as_deref() {
            out.extend(
                schema::effect_problem(e, r.tier == Tier::Confirm, r.relaxable, r.contained)
                    .map(|p| format!("rule {id:?}: {p}")),
            );
        }
        // A tool rule that reads the call's text (the PowerShell tool's script, which has no
        // grammar here) only denies: text matched so is never a reason to allow or relax.
        if !r.tool.is_empty()
            && (r.line_regex.is_some() || r.line_not_regex.is_some())
            && r.tier != Tier::Forbidden
        {
            out.push(format!(
                "rule {id:?} reads a tool call's text (`line_regex`, `line_not_regex`) but is not forbidden; such a rule may only deny"
            ));
        }
        // A signal rule names a signal the analysis raises (a `SignalName`), or `*`.
        if let Some(s) = r
            .signal
            .as_deref()
            .filter(|s| *s != "*" && schema::SignalName::from_name(s).is_none())
        {
            out.push(format!(
                "rule {id:?} names the signal {s:?}, which the analysis never raises (one of: {})",
                schema::SIGNALS.join(", ")
            ));
        }
        // The defaults' regexes are checked by the test suite, not on every hook call.
        if layer != Layer::Default {
            for re in r.line_regex.iter().chain(r.line_not_regex.iter()) {
                if let Err(e) = regex_lite::Regex::new(re) {
                    out.push(format!("rule {id:?} has an invalid regex {re:?}: {e}"));
                }
            }
        }
        let existing = self.rules.iter().find(|x| x.id == r.id);
        let exists = existing.is_some();
        // The managed policy is a floor: no later layer replaces or disables its rules.
        if layer != Layer::Managed && existing.is_some_and(|x| x.managed) {
            out.push(format!(
                "rule {id:?} is a rule of the managed policy of this machine; a user or project policy may not replace or disable it (add a rule of another id to be stricter)"
            ));
            return out;
        }
        if r.disabled && !exists && layer != Layer::Project {
            out.push(format!(
                "rule {id:?} is disabled, but no rule has that id (`programmer-hook policy show` lists them)"
            ));
        }
        if layer == Layer::Project {
            out.extend(project_rule_problem(r, exists));
        }
        out
    }

    /// What is wrong with the parts of a file other than its rules, in a file of `layer`:
    /// a project file may only make the policy stricter.
    pub fn file_problems(&self, file: &PolicyFile, layer: Layer) -> Vec<String> {
        let mut out: Vec<String> = file
            .commands
            .iter()
            .flat_map(|(name, e)| e.problems(name))
            .collect();
        for entry in file.kinds.languages.iter() {
            let known = entry.split_once(':').is_some_and(|(lang, names)| {
                schema::LANGUAGES.contains(&lang.trim()) && !names.trim().is_empty()
            });
            if !known {
                out.push(format!("`kinds.languages` holds {entry:?}, which is not `LANGUAGE: NAME…` with a language the analysis reads ({})", schema::LANGUAGES.join(", ")));
            }
        }
        let k = &file.kinds;
        for (name, list) in [
            ("languages", &k.languages),
            ("vim_editors", &k.vim_editors),
            ("project_runners", &k.project_runners),
            ("plain_readers", &k.plain_readers),
            ("confine_scratch", &k.confine_scratch),
            ("confine_caches", &k.confine_caches),
            ("confine_credentials", &k.confine_credentials),
        ] {
            if layer != Layer::Default && !list.is_empty() {
                out.push(format!("`kinds.{name}` is read from the built-in files only; a policy file may not change it"));
            }
        }
        if layer != Layer::Project {
            return out;
        }
        if !file.paths.not_sensitive.is_empty() {
            out.push("`paths.not_sensitive` would relax the policy; a project policy may only add to protected, sensitive, system and engine_sockets paths".to_string());
        }
        for name in file.commands.keys() {
            if self.effects(name).is_some() {
                out.push(format!("the effects of {name:?} are already defined; a project policy may not change them"));
            }
        }
        if file.workflow.is_some() {
            out.push("a project policy may not change workflow settings".to_string());
        }
        if !file.kinds.git_safe_config.is_empty() {
            out.push("`kinds.git_safe_config` would relax the policy; a project policy may not add to it".to_string());
        }
        out
    }
}

/// A project file comes from an untrusted repository: each of its rules may only make the
/// policy stricter.
fn project_rule_problem(r: &Rule, exists: bool) -> Option<String> {
    let id = &r.id;
    if exists {
        return Some(format!("rule {id:?} already exists; a project policy may only add new rules, not replace or disable existing ones"));
    }
    if r.relaxable {
        return Some(format!("rule {id:?} sets `relaxable = true`, which would let autonomy auto run it without asking; a project policy may only make the policy stricter"));
    }
    if r.contained {
        return Some(format!("rule {id:?} sets `contained = true`, which would let autonomy auto run it without asking inside the sandbox; a project policy may only make the policy stricter"));
    }
    if r.disabled || r.tier == Tier::Safe || r.fallback {
        return Some(format!("rule {id:?} would relax the policy; a project policy may only add Confirm or Forbidden rules"));
    }
    None
}

/// A rule id given twice in one file: the second would silently replace the first.
pub fn duplicate_ids(rules: &[Rule]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    rules
        .iter()
        .filter(|r| !r.id.trim().is_empty() && !seen.insert(r.id.as_ref()))
        .map(|r| format!("rule {:?} is given twice in this file", r.id))
        .collect()
}
