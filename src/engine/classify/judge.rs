//! Each fact of a call judged against the rules of its kind: a program run against the
//! command rules (with the signal rules for code it runs), a file read or written against
//! the access rules, a signal against the signal rules, a tool against the tool rules;
//! and the words a command names, the files it may send, the scripts it runs and the
//! commands hidden in its arguments. The conditions a rule sets are read by the matchers
//! below (`options`, `path_class`); the verdict among the rules that matched is chosen by
//! `verdict`.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use regex_lite::Regex;

use super::named;
use super::options::{
    self, args_match, args_unknown, excludes_only_options, flags_match, has_exclusions, names_only,
    path_operands, subcommand_matches, written_args_unknown,
};
use super::path_class::PathClasses;
use super::verdict::{self, Verdict};
use crate::engine::analyze::{
    self, Access, CodeRead, Facts, Hidden, Invocation, Signal, SignalName,
};
use crate::engine::args::{positionals, reads_recursively};
use crate::engine::mounts::mount_sources;
use crate::engine::paths::{self, component_match, Resolved};
use crate::engine::policy::{AccessKind, PathClass, Policy, Rule, RuleKind, Tier};
use crate::engine::shell::Word;
use crate::engine::Context;

/// Matches facts against rules, caching compiled regexes; the path classes keep the
/// expanded path lists.
pub(super) struct Matcher<'a> {
    ctx: &'a Context<'a>,
    regexes: RefCell<HashMap<String, Option<Regex>>>,
    matched: RefCell<Vec<String>>,
    classes: PathClasses<'a>,
}

impl<'a> Matcher<'a> {
    pub(super) fn new(ctx: &'a Context<'a>) -> Self {
        Matcher {
            ctx,
            regexes: RefCell::new(HashMap::new()),
            matched: RefCell::new(Vec::new()),
            classes: PathClasses::new(ctx),
        }
    }

    /// The path classes of the call, which the facts of an MCP tool's call are read with.
    pub(super) fn classes(&self) -> &PathClasses<'a> {
        &self.classes
    }

    /// The rules that applied to some part, in the order first applied.
    pub(super) fn into_matched(self) -> Vec<String> {
        self.matched.into_inner()
    }

    fn policy(&self) -> &Policy {
        self.ctx.policy
    }

    pub(super) fn judge_facts(&self, facts: &Facts, parts: &mut Vec<Verdict>) {
        // What words name in unknown places is judged last, so that a more specific
        // verdict of the same tier names the call.
        let mut named_parts = Vec::new();
        for inv in &facts.invocations {
            let named = named::named_classes(&self.classes, inv);
            let mut v = self.invocation_verdict(inv);
            if let (Some(v), Some(why)) = (v.as_mut(), &named.unrelaxable) {
                if v.relaxable {
                    v.relaxable = false;
                    v.reason = format!(
                        "{}, naming {why} where the policy does not know what it does with it",
                        v.reason
                    );
                }
            }
            parts.extend(v);
            for s in &named.signals {
                named_parts.extend(self.signal_verdict(s));
            }
        }
        for s in &facts.sent {
            parts.extend(self.sent_verdict(s));
        }
        for a in &facts.accesses {
            parts.extend(self.access_verdict(a));
        }
        for s in &facts.signals {
            parts.extend(self.signal_verdict(s));
        }
        parts.extend(named_parts);
        // Project scripts a build tool runs: what is forbidden there is denied; the rest
        // leaves the tool's own verdict as it is.
        for sub in &facts.within {
            let mut inner = Vec::new();
            self.judge_facts(sub, &mut inner);
            parts.extend(inner.into_iter().filter(|v| v.tier == Tier::Forbidden));
        }
        // A program's arguments read as a command it may run: one that is forbidden by
        // what it does makes the call forbidden, under a rule of its own.
        for h in &facts.hidden {
            parts.extend(self.hidden_verdict(h));
        }
    }

    /// The verdict on a command read from a program's arguments: the rule for the signal
    /// `hidden-forbidden`, naming the command and the rule that forbids it, when one does.
    /// A rule that forbids a program by its name alone (`reboot`, `init`) does not count:
    /// such a word is as likely a subcommand of the outer program (`vagrant halt`).
    fn hidden_verdict(&self, h: &Hidden) -> Option<Verdict> {
        let mut inner = Vec::new();
        self.judge_facts(&h.facts, &mut inner);
        // On another machine or in a container, the local files the words name are not
        // what the command touches: only rules about the command itself count there.
        let counts = |r: &Rule| !(names_only(r) || (h.elsewhere && r.access.is_some()));
        let culprit = inner.into_iter().find(|v| {
            v.tier == Tier::Forbidden
                && self
                    .policy()
                    .rules()
                    .iter()
                    .find(|r| r.id == v.rule)
                    .is_some_and(|r| counts(r))
        })?;
        let signal = Signal {
            name: SignalName::HiddenForbidden,
            detail: h.command.clone(),
        };
        let mut v = self.signal_verdict(&signal)?;
        if v.tier == Tier::Forbidden {
            v.reason = format!(
                "{}: `{}`, which {} forbids ({})",
                v.reason, h.command, culprit.rule, culprit.reason
            );
            if let Some(i) = culprit.instead {
                v.instead = Some(i);
            }
        }
        Some(v)
    }

    /// The verdict of the tool rules on a call of `tool`. A tool rule with `line_regex` or
    /// `line_not_regex` reads the call's `command` text (`line`; the PowerShell tool's
    /// script): without one it does not match. Such rules only deny (see `checks`).
    pub(super) fn tool_verdict(&self, tool: &str, line: Option<&str>) -> Option<Verdict> {
        let rules = self.policy().rules_of(RuleKind::Tool).filter(|r| {
            r.tool.iter().any(|t| component_match(t, tool)) && self.tool_line_matches(r, line)
        });
        self.pick(rules, tool)
    }

    /// A tool rule's `line_regex` matches the call's text and its `line_not_regex` does
    /// not; a rule with either matches no call without a text.
    fn tool_line_matches(&self, r: &Rule, line: Option<&str>) -> bool {
        if r.line_regex.is_none() && r.line_not_regex.is_none() {
            return true;
        }
        let Some(line) = line else {
            return false;
        };
        let regex_ok = |re: &Option<crate::engine::policy::PolicyText>, want: bool| match re {
            None => true,
            Some(re) => self.regex(re).is_some_and(|x| x.is_match(line) == want),
        };
        regex_ok(&r.line_regex, true) && regex_ok(&r.line_not_regex, false)
    }

    fn invocation_verdict(&self, inv: &Invocation) -> Option<Verdict> {
        // The positional words are the same for every rule of the program: read them once.
        let empty = crate::engine::policy::List::default();
        let value_flags = self
            .policy()
            .effects(&inv.name)
            .map(|e| &e.value_flags)
            .unwrap_or(&empty);
        let pos = positionals(&inv.args, value_flags);
        let rules = self
            .policy()
            .command_rules(&inv.name)
            .filter(|r| self.command_matches(r, inv, &pos));
        // An interpreter that runs code in another language: when the code was read in full
        // (its effects are facts of their own) the rules for the signal `code-judged` apply
        // to it as ordinary rules, and when it could not be followed those for
        // `code-opaque`; so the fallback for interpreters does not, and any other rule for
        // the program still does.
        let signal = match inv.code {
            Some(CodeRead::Judged) => Some(SignalName::CodeJudged),
            Some(CodeRead::Opaque) => Some(SignalName::CodeOpaque),
            None => None,
        };
        // Only a program that runs such code looks at the signal rules at all.
        let code = signal
            .into_iter()
            .flat_map(|sig| {
                self.policy()
                    .rules_of(RuleKind::Signal)
                    .filter(move |r| r.signal.as_deref() == Some(sig.name()))
            })
            .filter(|r| inv.trusted_path || r.tier > Tier::Safe);
        let mut v = self.pick(rules.chain(code), &inv.display)?;
        // Arguments known only at run time (`git push $(…)`, `xargs rm`) could make the
        // command one that a Forbidden rule denies: such a verdict is not relaxable.
        if v.relaxable
            && args_unknown(inv)
            && options::forbidden_could_apply(self.policy(), inv, &pos)
        {
            v.relaxable = false;
            v.reason = format!(
                "{}, with arguments known only at run time that could make it a forbidden one",
                v.reason
            );
        }
        Some(v)
    }

    fn access_verdict(&self, a: &Access) -> Option<Verdict> {
        let subject = format!(
            "{} {} ({})",
            match a.kind {
                AccessKind::Read => "read",
                AccessKind::Write => "write",
            },
            a.path.lexical.as_deref().unwrap_or(&a.path.raw),
            a.origin
        );
        let rules = self.policy().rules_of(RuleKind::Access).filter(|r| {
            r.access == Some(a.kind)
                && (r.path_class.is_empty()
                    || r.path_class.iter().any(|c| {
                        (match a.kind {
                            AccessKind::Write => self.classes.in_class_written(&a.path, *c),
                            AccessKind::Read => self.classes.in_class(&a.path, *c, None),
                        }) || *c == PathClass::Sensitive
                            && self.classes.holds_a_secret(&a.path, a.recursive)
                    }))
        });
        let mut v = self.pick(rules, &subject)?;
        if v.tier == Tier::Forbidden && self.protected_by_project(&a.path) {
            v.reason = format!("{}; this path is protected by the project's own policy (.claude/programmer-policy.toml)", v.reason);
        }
        Some(v)
    }

    /// Whether a path is protected by a pattern the project's policy file added.
    fn protected_by_project(&self, p: &Resolved) -> bool {
        let extra = &self.policy().project_protected;
        !extra.is_empty()
            && extra.iter().any(|pat| {
                paths::expand_pattern(pat, self.ctx.places).is_some_and(|e| p.matches(&e))
            })
    }

    /// A file a network program may send: the verdict on its signal, if it raises one
    /// (see [`named::sent_signal`]).
    fn sent_verdict(&self, s: &analyze::Sent) -> Option<Verdict> {
        named::sent_signal(&self.classes, s).and_then(|signal| self.signal_verdict(&signal))
    }

    pub(super) fn signal_verdict(&self, s: &Signal) -> Option<Verdict> {
        let rules = self.policy().rules_of(RuleKind::Signal).filter(|r| {
            r.signal
                .as_deref()
                .is_some_and(|n| n == s.name.name() || n == "*")
        });
        self.pick(rules, &s.detail)
    }

    fn regex(&self, re: &str) -> Option<Regex> {
        let mut cache = self.regexes.borrow_mut();
        cache
            .entry(re.to_string())
            .or_insert_with(|| Regex::new(re).ok())
            .clone()
    }

    /// Whether rule `r` matches `inv`, whose positional words are `pos`.
    fn command_matches(&self, r: &Rule, inv: &Invocation, pos: &[&Word]) -> bool {
        if r.tier == Tier::Safe && !inv.trusted_path {
            return false;
        }
        // A Safe rule that excludes some arguments cannot vouch for arguments it cannot
        // see: ones added at run time (`xargs`) or known only then (`$X`, `$(…)`). Paths
        // found by `find -exec`/`fd -x` are never options, so a rule that excludes only
        // options still vouches for them.
        if r.tier == Tier::Safe && has_exclusions(r) && args_unknown(inv) {
            let only_found_paths = inv.extra_args_paths && !written_args_unknown(inv);
            if !(only_found_paths && excludes_only_options(r)) {
                return false;
            }
        }
        subcommand_matches(r, pos)
            && flags_match(r, inv)
            && args_match(r, inv, pos.len())
            && (r.args_only.is_empty() || options::args_only_match(self.policy(), r, inv))
            && (r.path_class.is_empty() || self.path_class_matches(r, inv, pos))
            && (r.mount_source.is_empty() || self.mount_source_matches(r, inv))
            && self.line_matches(r, inv)
    }

    /// Some host path the container command mounts, resolved like any path of the call,
    /// is in one of the rule's mount classes. A source that cannot be resolved (`$X`,
    /// `$(cat f)/..`) is in none: the command keeps the verdict of the other rules.
    fn mount_source_matches(&self, r: &Rule, inv: &Invocation) -> bool {
        let cwd = inv.cwd.as_deref();
        let mut tables = self.policy().effects_readings(&format!("{} run", inv.name));
        if tables.is_empty() {
            // A program a rule names that has no `run` table of its own (a user's rule for
            // another engine) is read as docker's `run` is, so its mounts are not missed.
            tables.extend(Policy::builtin_effects("docker run"));
        }
        let mounts: Vec<_> = tables
            .into_iter()
            .flat_map(|eff| mount_sources(&inv.args, eff))
            .collect();
        mounts.iter().any(|m| {
            let w = &m.source;
            let res = paths::resolve(&w.text, w.literal, cwd, self.ctx.places, self.ctx.fs);
            r.mount_source
                .iter()
                .any(|c| self.classes.in_mount_class(&res, m.writable, *c))
        })
    }

    /// Some positional argument (or an argument added at run time, for `unknown`) is in
    /// one of the rule's path classes.
    fn path_class_matches(&self, r: &Rule, inv: &Invocation, pos: &[&Word]) -> bool {
        let cwd = inv.cwd.as_deref();
        let recursion = OnceCell::new();
        path_operands(self.policy(), inv, pos).iter().any(|w| {
            let res = paths::resolve(&w.text, w.literal, cwd, self.ctx.places, self.ctx.fs);
            r.path_class.iter().any(|c| {
                self.classes.in_class(&res, *c, cwd)
                    || *c == PathClass::Sensitive
                        && self.classes.holds_a_secret(
                            &res,
                            *recursion.get_or_init(|| {
                                reads_recursively(self.policy(), &inv.name, &inv.args)
                            }),
                        )
            })
        }) || (inv.extra_args_unknown && r.path_class.contains(&PathClass::Unknown))
    }

    /// The rule's `line_regex` matches the command line and its `line_not_regex` does not.
    /// An invalid regex never lets a rule match.
    fn line_matches(&self, r: &Rule, inv: &Invocation) -> bool {
        if r.line_regex.is_none() && r.line_not_regex.is_none() {
            return true;
        }
        let line = inv.line();
        let regex_ok = |re: &Option<crate::engine::policy::PolicyText>, want: bool| match re {
            None => true,
            Some(re) => self.regex(re).is_some_and(|x| x.is_match(&line) == want),
        };
        regex_ok(&r.line_regex, true) && regex_ok(&r.line_not_regex, false)
    }
    /// The most restrictive matching rule (see [`verdict::pick`]); the rules applied are
    /// noted for the decision.
    fn pick<'r>(&self, rules: impl Iterator<Item = &'r Rule>, subject: &str) -> Option<Verdict> {
        verdict::pick(self.policy(), &self.matched, rules, subject)
    }
}
