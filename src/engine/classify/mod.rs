//! Classification: one tool call against the policy, giving a tier, a rule and a reason.
//!
//! This is the pure core. A tool call is turned into facts (for Bash, through `analyze`):
//! programs run, files read and written, signals. Every fact is matched against the rules
//! of its kind; when no ordinary rule of a kind matches, that kind's fallback rules apply
//! (an unknown command is Confirm). The call takes the most restrictive verdict of all its
//! facts, so a compound command is never safer than its most dangerous part.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::path::Path;

use anyhow::{anyhow, Result};
use regex_lite::Regex;
use serde_json::Value;

use crate::engine::analyze::{
    self, Access, CodeRead, Facts, Hidden, Invocation, Signal, SignalName,
};
use crate::engine::args::{positionals, reads_recursively, Recursion};
use crate::engine::mcp;
use crate::engine::mounts::mount_sources;
use crate::engine::paths::{self, component_match, Places, Resolved};
use crate::engine::patterns::PatternSet;
use crate::engine::policy::schema;
use crate::engine::policy::{
    AccessKind, List, MountClass, PathClass, Policy, Rule, RuleKind, Tier,
};
use crate::engine::shell::Word;
use crate::engine::tools::Tool;
use crate::engine::Context;

mod options;
mod verdict;

use options::{
    args_match, args_unknown, excludes_only_options, flags_match, has_exclusions, names_only,
    path_operands, subcommand_matches, written_args_unknown,
};
pub use verdict::{Decision, Verdict};

/// Classifies a tool call by name and input.
pub fn classify(tool: &str, input: &Value, ctx: &Context) -> Result<Decision> {
    let m = Matcher::new(ctx);
    let mut parts = Vec::new();
    let facts = if mcp::is_mcp_tool(tool) {
        let own = m.tool_verdict(tool, None);
        // A rule that makes the tool Safe says it only reads.
        let read_only = own.as_ref().is_some_and(|v| v.tier == Tier::Safe);
        // What its input names comes first: it names the call better than the tool's rule.
        let facts = m.mcp_facts(tool, input, read_only, &mut parts);
        parts.extend(own);
        facts
    } else {
        let facts = tool_facts(tool, input, ctx)?;
        if !Tool::Bash.is(tool) {
            let line = input.get("command").and_then(Value::as_str);
            parts.extend(m.tool_verdict(tool, line));
        }
        facts
    };
    m.judge_facts(&facts, &mut parts);
    Ok(verdict::decide(parts, tool, m.matched.into_inner(), facts))
}

/// Classifies a Bash command (what `policy check -- CMD` runs).
pub fn classify_command(command: &str, ctx: &Context) -> Decision {
    let m = Matcher::new(ctx);
    let facts = analyze::analyze_command(command, ctx);
    let mut parts = Vec::new();
    m.judge_facts(&facts, &mut parts);
    verdict::decide(parts, Tool::Bash.as_str(), m.matched.into_inner(), facts)
}

/// The facts of a tool call: Bash is analysed, file tools become accesses.
fn tool_facts(tool: &str, input: &Value, ctx: &Context) -> Result<Facts> {
    let str_field = |k: &str| -> Result<&str> {
        input
            .get(k)
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("tool_input.{k} is missing or not a string for tool {tool}"))
    };
    let opt_str = |k: &str| input.get(k).and_then(Value::as_str);
    let mut facts = Facts::default();
    let mut access = |kind: AccessKind, p: &str, origin: &str, recursive: Recursion| {
        let path = paths::resolve(p, true, ctx.cwd, ctx.places, ctx.fs);
        facts.accesses.push(Access {
            kind,
            path,
            recursive,
            origin: origin.to_string(),
        });
    };
    match Tool::parse(tool) {
        Some(Tool::Bash) => {
            let cmd = str_field("command")?;
            return Ok(analyze::analyze_command(cmd, ctx));
        }
        Some(Tool::Read) => access(
            AccessKind::Read,
            str_field("file_path")?,
            tool,
            Recursion::No,
        ),
        Some(Tool::Write | Tool::Edit | Tool::MultiEdit) => access(
            AccessKind::Write,
            str_field("file_path")?,
            tool,
            Recursion::No,
        ),
        Some(Tool::NotebookEdit) => access(
            AccessKind::Write,
            str_field("notebook_path")?,
            tool,
            Recursion::No,
        ),
        Some(t @ (Tool::Glob | Tool::Grep | Tool::Ls)) => {
            // Grep reads the files of the whole tree but hidden names (it is ripgrep), or
            // those its glob names; Glob and LS only list names.
            let glob = opt_str("glob");
            let recursive = match (t, glob) {
                (Tool::Grep, None) => Recursion::VisibleTree,
                (Tool::Grep, Some(_)) => Recursion::GlobInTree,
                _ => Recursion::No,
            };
            let dir = opt_str("path").unwrap_or(".");
            access(AccessKind::Read, dir, tool, recursive);
            if let Some(g) = glob {
                let joined = format!("{}/{}", dir.trim_end_matches('/'), g);
                let mut path = paths::resolve(&joined, true, ctx.cwd, ctx.places, ctx.fs);
                // A glob: every file it may match (`.env*` may be `.env`).
                path.dynamic |= has_glob(g);
                facts.accesses.push(Access {
                    kind: AccessKind::Read,
                    path,
                    recursive: Recursion::No,
                    origin: tool.to_string(),
                });
            }
        }
        _ => {}
    }
    Ok(facts)
}

/// Matches facts against rules, caching compiled regexes and expanded path lists.
struct Matcher<'a> {
    ctx: &'a Context<'a>,
    regexes: RefCell<HashMap<String, Option<Regex>>>,
    matched: RefCell<Vec<String>>,
    lists: OnceCell<ExpandedLists<'a>>,
    /// The call's folder, as given and with its symlinks followed.
    workspace: OnceCell<Vec<String>>,
    /// Whether the call's folder lies outside every tree the path lists name (see
    /// `plain_name`).
    plain_folder: OnceCell<bool>,
    /// The secret and protected patterns that name a file by its name alone (`.env`).
    name_patterns: OnceCell<Cow<'a, [&'a str]>>,
    /// Whether a folder holds a secret (see `holds_a_secret`), by folder, whether hidden
    /// names count and whether its tree is looked at.
    trees: RefCell<HashMap<(String, bool, bool), bool>>,
}

/// The policy's path lists with `~` and the place names (`{home}`, `{state}` …) filled
/// in, once per call rather than once per path judged, each on its first use (a call that
/// names no path expands none). Most patterns name no place and are borrowed from the
/// policy as they are.
struct ExpandedLists<'a> {
    source: &'a crate::engine::policy::PathLists,
    /// The managed policy's sensitive paths, which `not_sensitive` does not lift.
    managed_source: &'a List,
    places: &'a Places,
    protected: OnceCell<PatternSet<'a>>,
    sensitive: OnceCell<PatternSet<'a>>,
    not_sensitive: OnceCell<PatternSet<'a>>,
    managed_sensitive: OnceCell<PatternSet<'a>>,
    system: OnceCell<PatternSet<'a>>,
    /// Only writes are checked against it.
    runs_later: OnceCell<PatternSet<'a>>,
}

impl<'a> ExpandedLists<'a> {
    fn new(
        source: &'a crate::engine::policy::PathLists,
        managed_source: &'a List,
        places: &'a Places,
    ) -> ExpandedLists<'a> {
        ExpandedLists {
            source,
            managed_source,
            places,
            protected: OnceCell::new(),
            sensitive: OnceCell::new(),
            not_sensitive: OnceCell::new(),
            managed_sensitive: OnceCell::new(),
            system: OnceCell::new(),
            runs_later: OnceCell::new(),
        }
    }

    fn expanded<'s>(&self, cell: &'s OnceCell<PatternSet<'a>>, l: &'a List) -> &'s PatternSet<'a> {
        cell.get_or_init(|| PatternSet::of_list(l, self.places))
    }

    fn protected(&self) -> &PatternSet<'a> {
        self.expanded(&self.protected, &self.source.protected)
    }
    fn sensitive(&self) -> &PatternSet<'a> {
        self.expanded(&self.sensitive, &self.source.sensitive)
    }
    fn not_sensitive(&self) -> &PatternSet<'a> {
        self.expanded(&self.not_sensitive, &self.source.not_sensitive)
    }
    fn managed_sensitive(&self) -> &PatternSet<'a> {
        self.expanded(&self.managed_sensitive, self.managed_source)
    }
    fn system(&self) -> &PatternSet<'a> {
        self.expanded(&self.system, &self.source.system)
    }
    fn runs_later(&self) -> &PatternSet<'a> {
        self.expanded(&self.runs_later, &self.source.runs_later)
    }
}

impl<'a> Matcher<'a> {
    fn new(ctx: &'a Context<'a>) -> Self {
        Matcher {
            ctx,
            regexes: RefCell::new(HashMap::new()),
            matched: RefCell::new(Vec::new()),
            lists: OnceCell::new(),
            workspace: OnceCell::new(),
            plain_folder: OnceCell::new(),
            name_patterns: OnceCell::new(),
            trees: RefCell::new(HashMap::new()),
        }
    }

    fn lists(&self) -> &ExpandedLists<'a> {
        self.lists.get_or_init(|| {
            ExpandedLists::new(
                &self.ctx.policy.paths,
                &self.ctx.policy.managed_sensitive,
                self.ctx.places,
            )
        })
    }

    fn policy(&self) -> &Policy {
        self.ctx.policy
    }

    fn judge_facts(&self, facts: &Facts, parts: &mut Vec<Verdict>) {
        // What words name in unknown places is judged last, so that a more specific
        // verdict of the same tier names the call.
        let mut named_parts = Vec::new();
        for inv in &facts.invocations {
            let named = self.named_classes(inv);
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

    /// The facts of an MCP tool's call, found in what its input names (see [`mcp`]): each
    /// shell command is analysed as a Bash command; each path is read (its whole tree, for
    /// a folder) by a tool a Safe rule marks as `read_only`, read and written by one of the
    /// `mcp_write_tools`, and otherwise named, as a word whose use is not known is (a
    /// secret or a protected path there asks, never relaxed: verdicts added to `parts`).
    fn mcp_facts(
        &self,
        tool: &str,
        input: &Value,
        read_only: bool,
        parts: &mut Vec<Verdict>,
    ) -> Facts {
        let ctx = self.ctx;
        let kinds = &self.policy().kinds;
        let args = mcp::arguments(input, &kinds.mcp_path_keys, &kinds.mcp_command_keys);
        let mut facts = Facts::default();
        for cmd in &args.commands {
            let f = analyze::analyze_command(cmd, ctx);
            facts.invocations.extend(f.invocations);
            facts.accesses.extend(f.accesses);
            facts.signals.extend(f.signals);
            facts.within.extend(f.within);
            facts.git_actions.extend(f.git_actions);
            facts.hidden.extend(f.hidden);
            facts.sent.extend(f.sent);
        }
        let writes = !read_only
            && kinds
                .mcp_write_tools
                .iter()
                .any(|g| component_match(g, tool));
        if read_only || writes {
            for p in &args.paths {
                let path = paths::resolve(p, true, ctx.cwd, ctx.places, ctx.fs);
                let mut access = |kind: AccessKind, recursive: Recursion| {
                    facts.accesses.push(Access {
                        kind,
                        path: path.clone(),
                        recursive,
                        origin: tool.to_string(),
                    });
                };
                access(AccessKind::Read, Recursion::Tree);
                if writes {
                    access(AccessKind::Write, Recursion::No);
                }
            }
        } else if !args.paths.is_empty() {
            let inv = Invocation {
                name: tool.to_string(),
                args: Vec::new(),
                trusted_path: false,
                extra_args_unknown: false,
                extra_args_paths: false,
                cwd: ctx.cwd.map(Path::to_path_buf),
                display: tool.to_string(),
                code: None,
                named: args.paths.iter().map(|p| Word::lit(p)).collect(),
                maybe_named: Vec::new(),
            };
            for s in &self.named_classes(&inv).signals {
                parts.extend(self.signal_verdict(s));
            }
        }
        if args.unread {
            parts.extend(self.signal_verdict(&Signal {
                name: SignalName::SecretNamed,
                detail: format!(
                    "{tool}: part of its input lies too deep or past the values read, and may name a file that holds secrets"
                ),
            }));
        }
        facts
    }

    /// What the words of an invocation in positions the policy does not know name (see
    /// `analyze::named`): a secret or a protected path is a signal of its own; a path
    /// outside the project, or one known only at run time, makes its verdict opaque.
    fn named_classes(&self, inv: &Invocation) -> NamedClasses {
        let mut out = NamedClasses::default();
        let cwd = inv.cwd.as_deref();
        let recursion = if inv.named.is_empty() {
            Recursion::No
        } else {
            reads_recursively(self.policy(), &inv.name, &inv.args)
        };
        let maybe = inv.maybe_named.iter().map(|w| (w, true));
        for (w, only_secret_or_protected) in inv.named.iter().map(|w| (w, false)).chain(maybe) {
            if w.literal && is_harmless_device(&w.text) || self.plain_name(w, cwd) {
                continue;
            }
            let res = paths::resolve(&w.text, w.literal, cwd, self.ctx.places, self.ctx.fs);
            let shown = res.lexical.as_deref().unwrap_or(&res.raw);
            if res.lexical.is_none() {
                // A literal word Bash leaves as it is (`~50%`) names no known place.
                if only_secret_or_protected || w.literal {
                    if !only_secret_or_protected && out.unrelaxable.is_none() {
                        out.unrelaxable = Some(format!("`{}`", res.raw));
                    }
                    continue;
                }
                out.signals.push(Signal {
                    name: SignalName::SecretNamed,
                    detail: format!(
                        "{}: `{}`, known only at run time, may name a file that holds secrets",
                        inv.display, res.raw
                    ),
                });
                continue;
            }
            let secret = self.in_class(&res, PathClass::Sensitive, cwd)
                || !only_secret_or_protected && self.holds_a_secret(&res, recursion);
            if secret {
                out.signals.push(Signal {
                    name: SignalName::SecretNamed,
                    detail: format!("{}: names {shown}, which may hold secrets", inv.display),
                });
            }
            if self.in_class(&res, PathClass::Protected, cwd) {
                out.signals.push(Signal {
                    name: SignalName::ProtectedNamed,
                    detail: format!("{}: names {shown}, a protected path", inv.display),
                });
            } else if !secret
                && !only_secret_or_protected
                && out.unrelaxable.is_none()
                && self.in_class(&res, PathClass::Outside, cwd)
            {
                out.unrelaxable = Some(format!("{shown}, outside the working folder"));
            }
        }
        out
    }

    /// Whether a word is a plain name (`status`, `install`, `src`) in the call's own folder
    /// that no class can hold, found without resolving it: no `/`, `~`, glob or expansion,
    /// no name-only secret pattern (`.env`, `*.pem`, `credentials`) matches it, it is no
    /// symbolic link, and the call's folder lies in none of the trees the path lists name
    /// (no component of it starts with a dot or is `Library`, and it is not under a system
    /// folder). Most words of everyday commands are such names.
    fn plain_name(&self, w: &Word, cwd: Option<&Path>) -> bool {
        let t = w.text.as_str();
        if !w.literal
            || t.is_empty()
            || t.contains('/')
            || t.starts_with('~')
            || t == "."
            || t == ".."
            || has_glob(t)
            || !self.plain_folder(cwd)
        {
            return false;
        }
        let name_only = self
            .name_patterns
            .get_or_init(|| self.ctx.policy.name_patterns());
        !name_only.iter().any(|p| component_match(p, t))
            && cwd.is_none_or(|c| self.ctx.fs.read_link(&c.join(t)).is_none())
    }

    /// Whether `cwd` is the call's folder, or a folder in it, and lies outside the trees
    /// the path lists name (see [`plain_folder`]).
    fn plain_folder(&self, cwd: Option<&Path>) -> bool {
        let (Some(cwd), Some(start)) = (cwd, self.ctx.cwd) else {
            return false;
        };
        cwd.starts_with(start)
            && *self.plain_folder.get_or_init(|| plain_folder(start))
            && (cwd == start || plain_folder(cwd))
    }

    /// A file a network program may send: a secret is a signal of its own, and so is a
    /// name known only at run time (it may be one).
    fn sent_verdict(&self, s: &analyze::Sent) -> Option<Verdict> {
        let w = &s.word;
        if w.literal && (is_harmless_device(&w.text) || w.text.starts_with("/dev/")) {
            return None;
        }
        if !w.literal && matches!(w.text.as_str(), "<(…)" | ">(…)" | "$(…)")
            || self.plain_name(w, s.cwd.as_deref())
        {
            return None;
        }
        let res = paths::resolve(
            &w.text,
            w.literal,
            s.cwd.as_deref(),
            self.ctx.places,
            self.ctx.fs,
        );
        let signal = if res.lexical.is_none() {
            Signal {
                name: SignalName::SecretNamed,
                detail: format!(
                    "{} may send `{}`, known only at run time, off the machine",
                    s.by, res.raw
                ),
            }
        } else if res.dynamic
            && has_glob(&res.raw)
            && (self.in_class(&res, PathClass::Sensitive, s.cwd.as_deref())
                || self.holds_a_secret(&res, s.recursive))
        {
            // A glob that could match a secret (`aws … SELECT * FROM t`): it may name one.
            Signal {
                name: SignalName::SecretNamed,
                detail: format!(
                    "{} may send what `{}` matches, which could hold secrets, off the machine",
                    s.by, res.raw
                ),
            }
        } else if self.in_class(&res, PathClass::Sensitive, s.cwd.as_deref())
            || self.holds_a_secret(&res, s.recursive)
        {
            Signal {
                name: SignalName::SecretSent,
                detail: format!(
                    "{} may send {}, which may hold secrets, off the machine",
                    s.by,
                    res.lexical.as_deref().unwrap_or(&res.raw)
                ),
            }
        } else {
            return None;
        };
        self.signal_verdict(&signal)
    }

    /// The verdict of the tool rules on a call of `tool`. A tool rule with `line_regex` or
    /// `line_not_regex` reads the call's `command` text (`line`; the PowerShell tool's
    /// script): without one it does not match. Such rules only deny (see `checks`).
    fn tool_verdict(&self, tool: &str, line: Option<&str>) -> Option<Verdict> {
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
                        self.in_class(&a.path, *c, None)
                            || *c == PathClass::Sensitive
                                && self.holds_a_secret(&a.path, a.recursive)
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

    fn signal_verdict(&self, s: &Signal) -> Option<Verdict> {
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
                .any(|c| self.in_mount_class(&res, m.writable, *c))
        })
    }

    /// Whether a container's host path, writable or not, is in a mount class.
    fn in_mount_class(&self, p: &Resolved, writable: bool, class: MountClass) -> bool {
        let home = &self.ctx.places.home;
        // Expanded here, not with the other lists: only container commands ask.
        let expanded = |list: &'a List| -> Vec<Cow<'a, str>> {
            list.iter()
                .flat_map(|s| paths::expand_pattern_all(s, self.ctx.places))
                .collect()
        };
        match class {
            MountClass::Root => p.forms().any(|f| f == "/"),
            MountClass::Home => p.forms().any(|f| paths::is_home_folder(f, home)),
            MountClass::System => self.in_class(p, PathClass::System, None),
            // Docker expands no glob: a source is a secret by its forms, as written.
            MountClass::Secrets => self.names_a_secret(p),
            MountClass::EngineSocket => {
                let sockets = expanded(&self.ctx.policy.paths.engine_sockets);
                // A socket's name decides even where its folder is known only at run time
                // (`$XDG_RUNTIME_DIR/docker.sock`).
                let base = p.raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
                sockets.iter().any(|s| {
                    p.matches(s)
                        || (!s.contains('/') && component_match(s, base))
                        || p.forms().any(|f| paths::is_above_pattern(f, s))
                })
            }
            // A protected path, or a folder above one named from the root (the hook's
            // settings, state and binary; not a project's own `.git/config`, which every
            // project folder holds).
            MountClass::Protected => {
                writable
                    && (self.in_class(p, PathClass::Protected, None)
                        || expanded(&self.ctx.policy.paths.protected)
                            .iter()
                            .filter(|s| s.starts_with('/'))
                            .any(|s| p.forms().any(|f| paths::is_above_pattern(f, s))))
            }
        }
    }

    /// Some positional argument (or an argument added at run time, for `unknown`) is in
    /// one of the rule's path classes.
    fn path_class_matches(&self, r: &Rule, inv: &Invocation, pos: &[&Word]) -> bool {
        let cwd = inv.cwd.as_deref();
        let recursion = OnceCell::new();
        path_operands(self.policy(), inv, pos).iter().any(|w| {
            let res = paths::resolve(&w.text, w.literal, cwd, self.ctx.places, self.ctx.fs);
            r.path_class.iter().any(|c| {
                self.in_class(&res, *c, cwd)
                    || *c == PathClass::Sensitive
                        && self.holds_a_secret(
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

    /// Whether a resolved path is in a class.
    pub fn in_class(&self, p: &Resolved, class: PathClass, cwd: Option<&Path>) -> bool {
        let places = self.ctx.places;
        let lists = self.lists();
        match class {
            // A glob writes every protected file it could match, whether or not it exists.
            PathClass::Protected if p.dynamic && p.forms().any(has_glob) => {
                lists.protected().matches(p)
                    || p.forms().any(|f| {
                        paths::glob_overlaps_any(
                            lists
                                .protected()
                                .expanded_where(|last| paths::last_names_overlap(last, f)),
                            f,
                        )
                    })
            }
            PathClass::Protected => lists.protected().matches(p),
            PathClass::Sensitive if p.dynamic && has_glob(&p.raw) => {
                // `cat .env?`, `cat ~/.aws/*`: could the glob name a secret?
                p.forms().any(|f| {
                    let skeleton = glob_skeleton(f);
                    let last = skeleton.rsplit('/').next().unwrap_or(&skeleton);
                    let mut candidates = lists
                        .sensitive()
                        .expanded_where(|name| last_names_may_agree(last, name));
                    candidates.any(|pat| {
                        if !last_names_may_agree(last, pat) {
                            return false;
                        }
                        let sample = sample_path(pat, &skeleton);
                        paths::glob_match(&skeleton, &sample)
                    })
                })
            }
            PathClass::Sensitive => self.names_a_secret(p),
            PathClass::System => lists.system().matches(p),
            // Broad against the folder the command runs in and the one the call started in
            // (`cd .. && rm -rf project` deletes the working folder too). A folder in a
            // temporary folder the command moved into (`d=$(mktemp -d); cd "$d"; …; rm -rf
            // "$d"`) is not the working folder of anything but that command.
            PathClass::Broad => {
                let system = &self.policy().paths.system;
                let moved_into_temp = |c: &Path| {
                    Some(c) != self.ctx.cwd
                        && TEMP_FOLDERS.iter().any(|t| {
                            c.to_str()
                                .and_then(|c| c.strip_prefix(t))
                                .is_some_and(|rest| rest.len() > 1 && rest.starts_with('/'))
                        })
                };
                let here = cwd.filter(|c| !moved_into_temp(c));
                paths::is_broad(p, here, &places.home, system)
                    || paths::is_broad(p, self.ctx.cwd, &places.home, system)
            }
            PathClass::Unknown => p.lexical.is_none(),
            PathClass::Outside => p.lexical.is_some() && p.forms().any(|f| !self.in_workspace(f)),
            PathClass::RunsLater => lists.runs_later().matches(p),
            PathClass::GitHistory => p.forms().any(paths::in_git_folder),
        }
    }

    /// Whether a form of the path is on the `sensitive` list and none on `not_sensitive`,
    /// or one is on the managed policy's `sensitive` list, which no later layer lifts.
    fn names_a_secret(&self, p: &Resolved) -> bool {
        let lists = self.lists();
        lists.sensitive().matches(p)
            && (!lists.not_sensitive().matches(p) || lists.managed_sensitive().matches(p))
    }

    /// Whether a read of the tree under `p` (`recursion`, see [`reads_recursively`]) reads
    /// a secret: `p` is `/` or a folder above a path the `sensitive` lists name at a fixed
    /// place (the home folder holds `~/.ssh/**`, `/etc` holds `/etc/shadow`), or a file or
    /// folder in its tree is on them (`.env`, `deploy.pem`), among the first
    /// [`MAX_TREE_ENTRIES`] met breadth first (without the names that start with a dot
    /// when the reader leaves those out). A glob's tree starts at its last folder without
    /// one (`~/*` reads the home folder's). A path known only at run time is judged
    /// elsewhere (`secret-named`).
    fn holds_a_secret(&self, p: &Resolved, recursion: Recursion) -> bool {
        if !recursion.is_tree() {
            return false;
        }
        let hidden = recursion == Recursion::Tree;
        let walk = recursion != Recursion::GlobInTree;
        p.forms().any(|f| {
            let root = if p.dynamic { glob_root(f) } else { f };
            let key = (root.to_string(), hidden, walk);
            if let Some(known) = self.trees.borrow().get(&key) {
                return *known;
            }
            let found = self.above_a_secret(root) || walk && self.tree_holds_a_secret(root, hidden);
            self.trees.borrow_mut().insert(key, found);
            found
        })
    }

    /// Whether the absolute folder `dir` is a home folder, a folder of home folders, or
    /// above a pattern of the `sensitive` lists that starts at a fixed place.
    fn above_a_secret(&self, dir: &str) -> bool {
        // Every user's home folder holds what `~/…` names in ours, and so do the folders
        // of home folders.
        let home = &self.ctx.places.home;
        if paths::is_home_folder(dir, home)
            || ["/home", "/Users"].contains(&dir)
            || home.parent().is_some_and(|h| Path::new(dir) == h)
        {
            return true;
        }
        // The patterns as written, `~` read in place (no list is expanded): a folder is
        // above one only if its first name after the root, or after the home folder for a
        // pattern that starts at `~`, agrees with the pattern's.
        let home = home.to_string_lossy();
        let in_home = dir
            .strip_prefix(home.trim_end_matches('/'))
            .filter(|r| r.starts_with('/'));
        let policy = self.policy();
        let lists = [&policy.paths.sensitive, &policy.managed_sensitive];
        lists.iter().flat_map(|l| l.iter()).any(|pat| {
            let (at, pat) = match pat.strip_prefix('~').or_else(|| pat.strip_prefix("{home}")) {
                Some(rest) if rest.starts_with('/') => match in_home {
                    Some(r) => (r, rest),
                    None => return false,
                },
                _ if pat.starts_with('/') => (dir, pat),
                _ if pat.starts_with('{') => {
                    return paths::expand_pattern(pat, self.ctx.places)
                        .is_some_and(|e| paths::is_above_pattern(dir, &e));
                }
                _ => return false,
            };
            let (mine, theirs) = (first_name(at), first_name(pat));
            (mine.is_empty() || theirs == "**" || component_match(theirs, mine))
                && paths::is_above_pattern(at, pat)
        })
    }

    /// Whether a file or folder in the tree under `dir` is on the `sensitive` lists (see
    /// [`Self::holds_a_secret`]). Only a pattern of a name alone can match there once the
    /// folder is above no pattern that starts at a fixed place, so each name is compared
    /// with those (a pattern relative to any folder, `config/*.key`, has each path judged
    /// in full). A symbolic link is not followed, and `.git` is not entered (git's objects
    /// and refs are named by hashes).
    fn tree_holds_a_secret(&self, dir: &str, hidden: bool) -> bool {
        // A folder that is not there, or empty, holds nothing: the lists are not read.
        let root = dir.trim_end_matches('/').to_string();
        let first = match self.ctx.fs.list_dir(Path::new(&root), MAX_TREE_ENTRIES) {
            Some(entries) if !entries.is_empty() => entries,
            _ => return false,
        };
        let policy = self.policy();
        fn names(l: &List) -> Vec<NamePattern<'_>> {
            l.iter()
                .filter(|p| schema::names_only(p) && !p.starts_with('~'))
                .map(NamePattern::new)
                .collect()
        }
        let secret = names(&policy.paths.sensitive);
        let lifted = names(&policy.paths.not_sensitive);
        let managed = names(&policy.managed_sensitive);
        let relative = policy
            .paths
            .sensitive
            .iter()
            .chain(policy.managed_sensitive.iter())
            .any(|p| p.contains('/') && !p.starts_with(['/', '~', '{']));
        let hit = |l: &[NamePattern], name: &str| l.iter().any(|p| p.matches(name));
        let mut queue = std::collections::VecDeque::from([root]);
        let mut first = Some(first);
        let mut left = MAX_TREE_ENTRIES;
        while let Some(folder) = queue.pop_front() {
            let listed = first
                .take()
                .or_else(|| self.ctx.fs.list_dir(Path::new(&folder), left));
            let Some(entries) = listed else {
                continue;
            };
            left = left.saturating_sub(entries.len());
            for (name, is_dir) in entries {
                if !hidden && name.starts_with('.') {
                    continue;
                }
                if hit(&managed, &name) || hit(&secret, &name) && !hit(&lifted, &name) {
                    return true;
                }
                let path = || format!("{folder}/{name}");
                if relative {
                    let r = Resolved {
                        lexical: Some(path()),
                        real: None,
                        raw: String::new(),
                        dynamic: false,
                    };
                    if self.names_a_secret(&r) {
                        return true;
                    }
                }
                if is_dir && name != ".git" {
                    queue.push_back(path());
                }
            }
            if left == 0 {
                break;
            }
        }
        false
    }

    /// Whether an absolute path is the folder the call runs in (as given, or with its
    /// symlinks followed) or inside it, or inside a temporary folder.
    fn in_workspace(&self, path: &str) -> bool {
        let inside = |base: &str| path.starts_with(&format!("{}/", base.trim_end_matches('/')));
        let cwd = self.workspace.get_or_init(|| {
            self.ctx.cwd.map_or_else(Vec::new, |cwd| {
                let r = paths::resolve(
                    &cwd.to_string_lossy(),
                    true,
                    None,
                    self.ctx.places,
                    self.ctx.fs,
                );
                r.forms().map(str::to_string).collect()
            })
        });
        cwd.iter().any(|c| c == path || inside(c)) || TEMP_FOLDERS.iter().any(|t| inside(t))
    }
}

/// How many files and folders a search for a secret in a tree a command reads looks at
/// (see `Matcher::holds_a_secret`): a tree larger than that is judged by its first ones.
const MAX_TREE_ENTRIES: usize = 2048;

/// A pattern of a name alone, read once: a plain name, `*.ext` and `prefix*` are compared
/// without globbing, any other as a glob.
enum NamePattern<'p> {
    Exact(&'p str),
    Ends(&'p str),
    Starts(&'p str),
    Glob(&'p str),
}

impl<'p> NamePattern<'p> {
    fn new(pattern: &'p str) -> NamePattern<'p> {
        let glob = |s: &str| s.contains(['*', '?', '[']);
        if !glob(pattern) {
            NamePattern::Exact(pattern)
        } else if let Some(end) = pattern.strip_prefix('*').filter(|e| !glob(e)) {
            NamePattern::Ends(end)
        } else if let Some(start) = pattern.strip_suffix('*').filter(|s| !glob(s)) {
            NamePattern::Starts(start)
        } else {
            NamePattern::Glob(pattern)
        }
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            NamePattern::Exact(p) => *p == name,
            NamePattern::Ends(e) => name.ends_with(e),
            NamePattern::Starts(s) => name.starts_with(s),
            NamePattern::Glob(g) => component_match(g, name),
        }
    }
}

/// The first name of an absolute path (`/etc/shadow` → `etc`); empty for `/`.
fn first_name(p: &str) -> &str {
    p.trim_start_matches('/').split('/').next().unwrap_or("")
}

/// The folder a glob's tree starts at: its last folder before a name with a glob
/// (`/home/user/*` → `/home/user`, `/a/*/b` → `/a`).
fn glob_root(p: &str) -> &str {
    let mut end = 0;
    for (i, c) in p.char_indices() {
        if c == '/' {
            end = i;
        } else if matches!(c, '*' | '?' | '[') {
            return if end == 0 { "/" } else { &p[..end] };
        }
    }
    p
}

/// What an invocation's words in unknown positions name.
#[derive(Default)]
struct NamedClasses {
    /// `secret-named`, `protected-named`.
    signals: Vec<Signal>,
    /// Why its verdict may not be relaxed, if it may not.
    unrelaxable: Option<String>,
}

/// Whether a folder lies outside the trees the default path lists name: no component starts
/// with a dot (`~/.ssh`, `.git`, `.claude`) or is `Library`, and it is under no system folder.
fn plain_folder(dir: &Path) -> bool {
    const SYSTEM: &[&str] = &[
        "etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "boot", "dev", "proc", "sys",
        "System", "private",
    ];
    let mut parts = dir.iter().filter_map(|c| c.to_str()).filter(|c| *c != "/");
    let first_ok = parts.clone().next().is_none_or(|f| !SYSTEM.contains(&f));
    first_ok && parts.all(|c| !c.starts_with('.') && c != "Library")
}

/// Devices a word may name that hold nothing: `/dev/null`, `-` (standard input).
fn is_harmless_device(t: &str) -> bool {
    matches!(
        t,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/stdin" | "/dev/tty" | "-"
    ) || t.starts_with("/dev/fd/")
}

/// Folders outside the project where writes are still ordinary work.
const TEMP_FOLDERS: &[&str] = &["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"];

fn has_glob(t: &str) -> bool {
    t.contains(['*', '?', '[', '{'])
}

/// Whether the last name of a [`sample_path`] of `pattern` can match `last`, the last name
/// of a glob's skeleton: its text before the first `*` and after the last. A necessary
/// condition of the glob matching the sample (a `*` never spans a `/`), checked without
/// building the sample; a `**` in either last name decides nothing here.
fn last_names_may_agree(last: &str, pattern: &str) -> bool {
    let base = paths::last_name(pattern);
    let double_star = |s: &str| s.as_bytes().windows(2).any(|w| w == b"**");
    if double_star(last) {
        return true;
    }
    if double_star(base) {
        // The sample's last name is the pattern's with `**` as `x` and `*` left out
        // (`~/.ssh/**` gives `x`).
        return base == "**" && component_match(last, "x")
            || base != "**" && component_match(last, &base.replace("**", "x").replace('*', ""));
    }
    // Compared as bytes, which is the same as comparing the characters (`*` is one byte,
    // and no other character's encoding holds it).
    let (l, b) = (last.as_bytes(), base.as_bytes());
    let star = l.iter().position(|&c| c == b'*');
    let head = star.map_or(l, |i| &l[..i]);
    let tail = l
        .iter()
        .rposition(|&c| c == b'*')
        .map_or(l, |i| &l[i + 1..]);
    if !b.contains(&b'*') {
        // The sample's last name is the pattern's own.
        return b.starts_with(head) && b.ends_with(tail) && (star.is_some() || b == l);
    }
    // The sample's last name is the pattern's with its `*` left out.
    let mut bytes = b.iter().filter(|&&c| c != b'*');
    let starts = head.iter().all(|h| bytes.next() == Some(h));
    let mut back = b.iter().rev().filter(|&&c| c != b'*');
    let ends = tail.iter().rev().all(|t| back.next() == Some(t));
    let length = || b.iter().filter(|&&c| c != b'*').count();
    starts && ends && (star.is_some() || length() == l.len())
}

/// A shell glob as a path pattern: `?`, `[…]` and `{…}` become `*`.
fn glob_skeleton(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    let mut depth = 0usize;
    for c in p.chars() {
        match c {
            '[' | '{' => {
                if depth == 0 {
                    out.push('*');
                }
                depth += 1;
            }
            ']' | '}' if depth > 0 => depth -= 1,
            '?' if depth == 0 => out.push('*'),
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

/// A concrete path that a path-list pattern stands for, placed next to `near` when the
/// pattern matches at any depth: `**` and `*` become a plain name.
fn sample_path(pattern: &str, near: &str) -> String {
    let concrete = pattern
        .replace("/**", "/x")
        .replace("**/", "")
        .replace("**", "x")
        .replace('*', "");
    if concrete.starts_with('/') {
        concrete
    } else {
        let dir = near.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        format!("{dir}/{concrete}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick test of last names never turns away a glob that names a secret: for every
    /// pattern of the built-in `sensitive` list and globs of many shapes, whenever the
    /// skeleton matches the sample, the quick test lets it through.
    #[test]
    fn last_names_never_turn_away_a_match() {
        let policy = crate::engine::policy::Policy::builtin().expect("defaults load");
        let globs = [
            "/p/**/*.rs",
            "/p/*.env",
            "/p/.env*",
            "/p/*",
            "/p/**",
            "/h/.ssh/*",
            "/h/.ssh/id_*",
            "/h/.aws/cred*",
            "/p/src/*.pem",
            "/p/*.key",
            "/p/.e?v",
            "/p/secrets/*.json",
            "/p/a*b",
            "/h/.config/gh/*",
            "/p/*rc",
            "/p/.npm*",
            "/p/id_rsa*",
            "/p/*.p12",
            "/p/x",
            "/h/.ssh/x*",
            "/p/?",
        ];
        let mut matched = 0;
        for pat in policy.paths.sensitive.iter() {
            for g in globs {
                let skeleton = glob_skeleton(g);
                let last = skeleton.rsplit('/').next().unwrap_or(&skeleton);
                let sample = sample_path(pat, &skeleton);
                if paths::glob_match(&skeleton, &sample) {
                    matched += 1;
                    assert!(last_names_may_agree(last, pat), "{pat} under {g}");
                }
            }
        }
        assert!(matched > 20, "the globs name secrets: {matched}");
        assert!(!last_names_may_agree("*.rs", ".env"));
        assert!(last_names_may_agree("*.env", ".env"));
        assert!(last_names_may_agree("id_*", "id_rsa*"));
        assert!(!last_names_may_agree("*.rs", "~/.ssh/**"));
        assert!(last_names_may_agree("x*", "~/.ssh/**"));
    }
}
