//! Rules suggested from what the user keeps approving.
//!
//! The asks of the log are grouped by *shape*: the program, its subcommand and its
//! arguments in order, with paths inside the folder the call ran in generalised (a
//! relative path without `..` or hidden parts). A shape approved at least `min` times
//! (and refused at most once for every nine approvals) becomes a Safe command rule for the
//! user's policy: `command`, `subcommand` and a `line_regex` that matches exactly that
//! shape, with `match` examples from the log and `not_match` examples that keep its
//! neighbours out (the examples of the program's Forbidden and Confirm rules, the calls of
//! it that were denied or refused). Only relaxable or contained Confirm asks of one Bash
//! command count (a contained one is a build or test run the user kept approving by
//! name): never a Forbidden verdict, never another opaque one, never a write or read the file rules
//! judge (they still apply: a command rule cannot allow a write outside the project or a
//! secret read). A rule is kept only when its examples pass (`policy test`) and re-deciding
//! the logged denials with it changes none of them. A suggested rule never lets a
//! read-only role (planner, reviewer) or phase write: those run only what the built-in
//! rules alone classify Safe (see `hook::events::gate`), whatever the user's file says.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Serialize;

use super::report::{Decided, Outcome};
use crate::engine::analyze::Invocation;
use crate::engine::classify::{self, Decision};
use crate::engine::examples;
use crate::engine::paths::{Places, RealFs};
use crate::engine::policy::{
    parse_file, Layer, List, Policy, PolicyFile, Rule, Tier, DEFAULT_FILES,
};
use crate::engine::tools::Tool;

/// What a path generalised to the project matches: relative, no `..`, no hidden parts.
pub const PATH_RE: &str =
    r"(\./)?[A-Za-z0-9_][A-Za-z0-9_.+,@=-]*(/[A-Za-z0-9_][A-Za-z0-9_.+,@=-]*)*/?";
/// How many `match` and `not_match` examples a rule gets at most.
const EXAMPLES: usize = 3;

/// One argument of a shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Token {
    Word(String),
    /// A path in the project, after an option's `--name=` when there is one.
    Path(String),
}

/// A command's shape.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Shape {
    program: String,
    subcommand: Option<String>,
    tokens: Vec<Token>,
}

impl Shape {
    fn text(&self) -> String {
        let mut s = self.program.clone();
        for t in &self.tokens {
            s.push(' ');
            match t {
                Token::Word(w) => s.push_str(w),
                Token::Path(prefix) => s.push_str(&format!("{prefix}<path>")),
            }
        }
        s
    }

    fn regex(&self) -> String {
        let mut s = format!("^{}", escape(&self.program));
        for t in &self.tokens {
            s.push(' ');
            match t {
                Token::Word(w) => s.push_str(&escape(w)),
                Token::Path(prefix) => {
                    s.push_str(&escape(prefix));
                    s.push_str(PATH_RE);
                }
            }
        }
        s.push('$');
        s
    }

    /// The shape with its paths outside the project: a neighbour to keep out.
    fn outside(&self) -> Option<String> {
        let mut any = false;
        let mut s = self.program.clone();
        for t in &self.tokens {
            s.push(' ');
            match t {
                Token::Word(w) => s.push_str(w),
                Token::Path(prefix) => {
                    any = true;
                    s.push_str(&format!("{prefix}../outside/file"));
                }
            }
        }
        any.then_some(s)
    }
}

/// A word of a command line as a regex: its `.` and `+` escaped (the only regex
/// characters a shape's words may hold).
fn escape(w: &str) -> String {
    let mut s = String::with_capacity(w.len());
    for c in w.chars() {
        if c == '.' || c == '+' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

fn safe_word(w: &str) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.,:=+@%/-".contains(c))
}

fn path_like(w: &str) -> bool {
    if w.contains('/') {
        return true;
    }
    match w.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && ext.starts_with(|c: char| c.is_ascii_alphabetic())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
        }
        None => false,
    }
}

fn in_project(w: &str) -> bool {
    regex_lite::Regex::new(&format!("^{PATH_RE}$")).is_ok_and(|r| r.is_match(w))
}

/// The shape of an invocation, or why it has none a rule could hold.
fn shape_of(inv: &Invocation) -> Result<Shape, &'static str> {
    if !inv.trusted_path {
        return Err("the program is run from a path outside the standard folders");
    }
    if !safe_word(&inv.name) || inv.name.contains('/') {
        return Err("the program's name holds characters a rule does not generalise");
    }
    if inv.extra_args_unknown || inv.args.iter().any(|a| !a.literal) {
        return Err("some of its arguments are known only when it runs");
    }
    let mut tokens = Vec::new();
    for a in &inv.args {
        let w = a.text.as_str();
        if !safe_word(w) {
            return Err("an argument holds characters a rule does not generalise");
        }
        let (prefix, value) = match w.split_once('=') {
            Some((flag, value)) if w.starts_with('-') => (format!("{flag}="), value),
            _ if w.starts_with('-') => (String::new(), ""),
            _ => (String::new(), w),
        };
        if value.starts_with('/') || value.starts_with('~') {
            return Err("it names a path outside the folder it ran in");
        }
        if !value.is_empty() && path_like(value) {
            if !in_project(value) {
                return Err("it names a path outside the project or a hidden file");
            }
            tokens.push(Token::Path(prefix));
        } else {
            tokens.push(Token::Word(w.to_string()));
        }
    }
    let subcommand = match tokens.first() {
        Some(Token::Word(w))
            if w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
        {
            Some(w.clone())
        }
        _ => None,
    };
    Ok(Shape {
        program: inv.name.clone(),
        subcommand,
        tokens,
    })
}

/// The log's calls of one shape.
#[derive(Debug, Default)]
struct Group {
    approved: u64,
    refused: u64,
    /// The logged commands, most frequent first once sorted.
    subjects: BTreeMap<String, u64>,
    /// The command lines as the rules see them.
    lines: Vec<String>,
}

/// A suggested rule.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    /// The shape, paths shown as `<path>`.
    pub shape: String,
    pub approved: u64,
    pub refused: u64,
    #[serde(skip)]
    pub rule: Rule,
    /// The rule as TOML for the user's policy file.
    pub toml: String,
}

/// A shape approved often enough that gets no rule, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub shape: String,
    pub approved: u64,
    pub why: String,
}

/// What `suggest` needs.
pub struct Input<'a> {
    pub decided: &'a [Decided],
    /// The policy in force: the defaults and the user's file.
    pub policy: &'a Policy,
    pub places: &'a Places,
    pub min: u64,
}

/// Decisions of logged commands, cached by folder and command.
pub struct Judge<'a> {
    places: &'a Places,
    cache: HashMap<(u32, String, String), Decision>,
}

impl<'a> Judge<'a> {
    pub fn new(places: &'a Places) -> Judge<'a> {
        Judge {
            places,
            cache: HashMap::new(),
        }
    }

    /// The decision on a logged command under `policy` (told apart by `which`).
    pub fn decide(
        &mut self,
        which: u32,
        policy: &Policy,
        cwd: Option<&str>,
        cmd: &str,
    ) -> &Decision {
        let key = (which, cwd.unwrap_or("").to_string(), cmd.to_string());
        let places = self.places;
        self.cache.entry(key).or_insert_with(|| {
            let ctx = crate::engine::Context {
                policy,
                places,
                fs: &RealFs,
                cwd: cwd.map(Path::new),
            };
            classify::classify_command(cmd, &ctx)
        })
    }
}

/// Whether a logged command can be decided again: complete, and not redacted.
pub fn replayable(d: &Decided) -> bool {
    let e = &d.entry;
    Tool::Bash.is(&e.tool) && !e.subject.ends_with('…') && !e.subject.contains("***")
}

/// The one relaxable Confirm command of an asked call, if that is all that asked.
fn asked_invocation(d: &Decision) -> Option<&Invocation> {
    if d.verdict.tier != Tier::Confirm || !(d.verdict.relaxable || d.verdict.contained) {
        return None;
    }
    let mut confirm = d.parts.iter().filter(|p| p.tier == Tier::Confirm);
    let (Some(part), None) = (confirm.next(), confirm.next()) else {
        return None;
    };
    d.facts
        .invocations
        .iter()
        .find(|i| i.display == part.subject)
}

/// Command lines approved that have no shape: times approved, and why.
type Unshaped = BTreeMap<String, (u64, &'static str)>;

/// Groups the answered relaxable asks by shape; shapes that cannot be generalised are
/// grouped by their command line, with the reason.
fn groups(input: &Input, judge: &mut Judge) -> (BTreeMap<Shape, Group>, Unshaped) {
    let mut shapes: BTreeMap<Shape, Group> = BTreeMap::new();
    let mut failed: Unshaped = BTreeMap::new();
    for d in input.decided {
        let e = &d.entry;
        let answered = matches!(d.outcome, Some(Outcome::Approved | Outcome::Refused));
        if e.decision != "ask" || e.tier != "Confirm" || !(e.relaxable || e.contained) || !answered
        {
            continue;
        }
        if !replayable(d) {
            continue;
        }
        let decision = judge.decide(0, input.policy, e.cwd.as_deref(), &e.subject);
        let Some(inv) = asked_invocation(decision) else {
            continue;
        };
        let approved = d.outcome == Some(Outcome::Approved);
        match shape_of(inv) {
            Ok(shape) => {
                let g = shapes.entry(shape).or_default();
                g.approved += u64::from(approved);
                g.refused += u64::from(!approved);
                *g.subjects.entry(e.subject.clone()).or_default() += 1;
                let line = inv.line();
                if !g.lines.contains(&line) {
                    g.lines.push(line);
                }
            }
            Err(why) => {
                let f = failed.entry(inv.line()).or_insert((0, why));
                f.0 += u64::from(approved);
            }
        }
    }
    (shapes, failed)
}

/// The `match` examples of every rule in force by id. The built-in rules keep theirs
/// only in the TOML source compiled into the binary.
fn rule_examples(policy: &Policy) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for b in DEFAULT_FILES {
        let Ok(f) = parse_file(b.source, Path::new(b.name)) else {
            continue;
        };
        for r in f.rules {
            out.insert(r.id.to_string(), r.examples_match);
        }
    }
    for r in policy
        .rules()
        .iter()
        .filter(|r| !r.examples_match.is_empty())
    {
        out.insert(r.id.to_string(), r.examples_match.clone());
    }
    out
}

/// The suggested rules, most approved first, and the shapes left out.
pub fn suggest(input: &Input) -> (Vec<Suggestion>, Vec<Skipped>) {
    let mut judge = Judge::new(input.places);
    let known = rule_examples(input.policy);
    let (shapes, failed) = groups(input, &mut judge);
    let mut out: Vec<Suggestion> = Vec::new();
    let mut skipped: Vec<Skipped> = failed
        .into_iter()
        .filter(|(_, (n, _))| *n >= input.min)
        .map(|(line, (approved, why))| Skipped {
            shape: line,
            approved,
            why: why.to_string(),
        })
        .collect();
    let mut ordered: Vec<(Shape, Group)> = shapes
        .into_iter()
        .filter(|(_, g)| g.approved >= input.min)
        .collect();
    ordered.sort_by_key(|(_, g)| std::cmp::Reverse(g.approved));
    for (shape, g) in ordered {
        let skip = |why: String| Skipped {
            shape: shape.text(),
            approved: g.approved,
            why,
        };
        if g.refused * 9 > g.approved {
            skipped.push(skip(format!("it was also refused {} times", g.refused)));
            continue;
        }
        let taken: Vec<&str> = out.iter().map(|s| &*s.rule.id).collect();
        let id = rule_id(&shape, input.policy, &taken);
        match candidate(input, &mut judge, &known, &shape, &g, id) {
            Ok(s) => out.push(s),
            Err(why) => skipped.push(skip(why)),
        }
    }
    (out, skipped)
}

/// A rule id for a shape that no rule in force and no other suggestion has.
fn rule_id(shape: &Shape, policy: &Policy, taken: &[&str]) -> String {
    let mut base = String::from("user.");
    for c in shape.text().replace("<path>", "path").chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            base.push(c);
        } else if !base.ends_with(['-', '.']) {
            base.push('-');
        }
    }
    let base: String = base.trim_end_matches('-').chars().take(48).collect();
    let free = |id: &str| !taken.contains(&id) && !policy.rules().iter().any(|r| r.id == id);
    let mut id = base.clone();
    let mut n = 2;
    while !free(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    id
}

/// The policy in force with `rules` added as the user's.
pub fn with_rules(policy: &Policy, rules: &[Rule]) -> Result<Policy, String> {
    let mut p = policy.clone();
    let file = PolicyFile {
        rules: rules.to_vec(),
        ..PolicyFile::default()
    };
    p.merge(file, Layer::User, "suggested rules")
        .map_err(|e| format!("{e:#}"))?;
    Ok(p)
}

/// Builds and checks the rule of one shape.
fn candidate(
    input: &Input,
    judge: &mut Judge,
    known: &HashMap<String, Vec<String>>,
    shape: &Shape,
    g: &Group,
    id: String,
) -> Result<Suggestion, String> {
    let mut rule = Rule {
        id: id.into(),
        tier: Tier::Safe,
        reason: format!(
            "approved {} times when asked (suggested by `programmer-hook suggest`)",
            g.approved
        )
        .into(),
        command: List::from_iter([shape.program.as_str()]),
        subcommand: shape.subcommand.iter().collect(),
        line_regex: Some(shape.regex().into()),
        ..Rule::default()
    };
    let policy = with_rules(input.policy, std::slice::from_ref(&rule))?;
    rule.examples_match = match_examples(&policy, &rule, g);
    if rule.examples_match.is_empty() {
        return Err("no logged command of it is allowed as a whole by the rule (another part of it still asks)".into());
    }
    rule.not_match = neighbours(input, known, &policy, &rule, shape);
    let policy = with_rules(input.policy, std::slice::from_ref(&rule))?;
    let (_, failures) = examples::check(&policy, std::slice::from_ref(&rule));
    if let Some(f) = failures.first() {
        return Err(format!("its example `{}` fails: {}", f.example, f.problem));
    }
    if let Some(changed) = changed_denial(input, judge, &policy, &shape.program) {
        return Err(format!(
            "it would change how a denied call was decided: `{changed}`"
        ));
    }
    let toml = toml_rule(&rule, &shape.text(), g);
    Ok(Suggestion {
        shape: shape.text(),
        approved: g.approved,
        refused: g.refused,
        rule,
        toml,
    })
}

/// Logged commands of the shape that the rule allows as a whole, most frequent first,
/// then the command lines; none that names a place outside the example machine's project.
fn match_examples(policy: &Policy, rule: &Rule, g: &Group) -> Vec<String> {
    let mut subjects: Vec<(&String, &u64)> = g.subjects.iter().collect();
    subjects.sort_by_key(|(_, n)| std::cmp::Reverse(**n));
    let local = |s: &str| !s.split_whitespace().any(|w| w.starts_with(['/', '~']));
    let mut out: Vec<String> = Vec::new();
    for ex in subjects.into_iter().map(|(s, _)| s).chain(g.lines.iter()) {
        if out.len() == EXAMPLES || out.contains(ex) || !local(ex) {
            continue;
        }
        let ok = examples::run_example(policy, ex)
            .is_ok_and(|d| d.verdict.tier == Tier::Safe && d.matched.iter().any(|m| *m == rule.id));
        if ok {
            out.push(ex.clone());
        }
    }
    out
}

/// Commands of the same program the rule must not match: the examples of its Forbidden
/// rules, then of its opaque Confirm rules, then its logged denials and refusals, then
/// its other Confirm rules' examples, and the shape with a path outside the project.
fn neighbours(
    input: &Input,
    known: &HashMap<String, Vec<String>>,
    policy: &Policy,
    rule: &Rule,
    shape: &Shape,
) -> Vec<String> {
    let program = shape.program.as_str();
    let of_program = |ex: &&String| ex.split_whitespace().next() == Some(program);
    let rules: Vec<&Rule> = input.policy.command_rules(program).collect();
    let from_rules = |keep: &dyn Fn(&Rule) -> bool| -> Vec<String> {
        rules
            .iter()
            .filter(|r| keep(r))
            .flat_map(|r| known.get(&*r.id).into_iter().flatten())
            .filter(of_program)
            .cloned()
            .collect()
    };
    let logged: Vec<String> = input
        .decided
        .iter()
        .filter(|d| d.entry.decision == "deny" || d.outcome == Some(Outcome::Refused))
        .filter(|d| replayable(d))
        .map(|d| &d.entry.subject)
        .filter(of_program)
        .cloned()
        .collect();
    let mut candidates = from_rules(&|r| r.tier == Tier::Forbidden);
    candidates.extend(from_rules(&|r| {
        r.tier == Tier::Confirm && !r.relaxable && !r.contained
    }));
    candidates.extend(logged);
    candidates.extend(from_rules(&|r| {
        r.tier == Tier::Confirm && (r.relaxable || r.contained)
    }));
    let mut out: Vec<String> = Vec::new();
    for ex in candidates {
        if out.len() == EXAMPLES || out.contains(&ex) {
            continue;
        }
        let matches = examples::run_example(policy, &ex)
            .map_or(true, |d| d.matched.iter().any(|m| *m == rule.id));
        if !matches {
            out.push(ex);
        }
    }
    out.extend(shape.outside());
    if out.is_empty() {
        out.push(format!("{} /", shape.text().replace("<path>", "src")));
    }
    out
}

/// The first logged denial of the program that the new policy decides otherwise.
fn changed_denial(
    input: &Input,
    judge: &mut Judge,
    policy: &Policy,
    program: &str,
) -> Option<String> {
    let mut fresh = Judge::new(input.places);
    for d in input.decided.iter().filter(|d| d.entry.decision == "deny") {
        let e = &d.entry;
        if !replayable(d) || !e.subject.split_whitespace().any(|w| w.ends_with(program)) {
            continue;
        }
        let before = judge
            .decide(0, input.policy, e.cwd.as_deref(), &e.subject)
            .verdict
            .tier;
        let after = fresh
            .decide(0, policy, e.cwd.as_deref(), &e.subject)
            .verdict
            .tier;
        if before != after {
            return Some(e.subject.clone());
        }
    }
    None
}

/// A TOML string.
pub fn toml_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn toml_list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let v: Vec<String> = items.into_iter().map(toml_str).collect();
    format!("[{}]", v.join(", "))
}

/// A rule as TOML, with a comment saying where it comes from.
fn toml_rule(r: &Rule, shape: &str, g: &Group) -> String {
    let regex = r.line_regex.as_deref().unwrap_or("");
    let regex = if regex.contains('\'') {
        toml_str(regex)
    } else {
        format!("'{regex}'")
    };
    let mut t = format!(
        "# {shape}: approved {} times, refused {} times\n[[rule]]\nid = {}\ntier = \"safe\"\nreason = {}\ncommand = {}\n",
        g.approved,
        g.refused,
        toml_str(&r.id),
        toml_str(&r.reason),
        toml_list(r.command.iter())
    );
    if !r.subcommand.is_empty() {
        t.push_str(&format!(
            "subcommand = {}\n",
            toml_list(r.subcommand.iter())
        ));
    }
    t.push_str(&format!("line_regex = {regex}\n"));
    t.push_str(&format!(
        "match = {}\nnot_match = {}\n",
        toml_list(r.examples_match.iter().map(String::as_str)),
        toml_list(r.not_match.iter().map(String::as_str))
    ));
    t
}

/// How the log would have been decided under a new policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// Logged calls, and those of them that could be decided again.
    pub calls: u64,
    pub replayed: u64,
    pub asks_before: u64,
    pub asks_after: u64,
    pub denies: u64,
    /// Denied calls the new policy decides otherwise.
    pub denies_changed: Vec<String>,
}

/// Decides the logged Bash commands again under `old` and `new`: the asks that `new`
/// would allow, and the denials it would decide otherwise. Calls of other tools are
/// decided by tool and file rules, which a command rule does not change.
pub fn replay(decided: &[Decided], old: &Policy, new: &Policy, places: &Places) -> Replay {
    let mut judge = Judge::new(places);
    let mut r = Replay::default();
    for d in decided {
        let e = &d.entry;
        r.calls += 1;
        let ask = e.decision == "ask";
        let deny = e.decision == "deny";
        r.asks_before += u64::from(ask);
        r.denies += u64::from(deny);
        if !replayable(d) {
            r.asks_after += u64::from(ask);
            continue;
        }
        r.replayed += 1;
        let before = judge
            .decide(0, old, e.cwd.as_deref(), &e.subject)
            .verdict
            .tier;
        let after = judge
            .decide(1, new, e.cwd.as_deref(), &e.subject)
            .verdict
            .tier;
        r.asks_after += u64::from(ask && !(before > Tier::Safe && after == Tier::Safe));
        if deny && before != after {
            r.denies_changed.push(e.subject.clone());
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::audit::Entry;

    fn asked(cmd: &str, outcome: Outcome) -> Decided {
        Decided {
            entry: Entry {
                time: "2026-12-01T10:00:00.000Z".into(),
                session: "s".into(),
                agent: "main".into(),
                event: "PreToolUse".into(),
                tool: "Bash".into(),
                decision: "ask".into(),
                tier: "Confirm".into(),
                rule: "pkg.install".into(),
                relaxable: true,
                contained: false,
                relaxed_by: None,
                effect: None,
                subject: cmd.into(),
                phase: None,
                cwd: Some(examples::EXAMPLE_CWD.into()),
                tool_use_id: Some("t".into()),
                took_us: None,
                blocked: None,
                confined: None,
            },
            outcome: Some(outcome),
        }
    }

    fn shapes(approved: usize, refused: usize) -> (Vec<String>, Vec<Skipped>) {
        let mut decided = vec![asked("npm install", Outcome::Approved); approved];
        decided.extend(vec![asked("npm install", Outcome::Refused); refused]);
        let policy = Policy::builtin().expect("policy");
        let places = examples::example_places();
        let input = Input {
            decided: &decided,
            policy: &policy,
            places: &places,
            min: 3,
        };
        let (s, skipped) = suggest(&input);
        (s.into_iter().map(|s| s.shape).collect(), skipped)
    }

    #[test]
    fn refused_at_most_once_for_every_nine_approvals() {
        assert_eq!(shapes(9, 1).0, ["npm install"]);
        let (got, skipped) = shapes(8, 1);
        assert!(got.is_empty());
        assert_eq!(skipped[0].why, "it was also refused 1 times");
        assert!(shapes(2, 0).0.is_empty());
    }

    #[test]
    fn shapes_generalise_paths_in_the_project_only() {
        let policy = Policy::builtin().expect("policy");
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("cargo fmt src/main.rs", Ok("cargo fmt <path>")),
            ("make -C sub build", Ok("make -C sub build")),
            (
                "cargo test --manifest-path=crates/a/Cargo.toml",
                Ok("cargo test --manifest-path=<path>"),
            ),
            (
                "cargo fmt ../x.rs",
                Err("it names a path outside the project or a hidden file"),
            ),
            (
                "cargo fmt .env.rs",
                Err("it names a path outside the project or a hidden file"),
            ),
            (
                "cargo fmt /etc/x.rs",
                Err("it names a path outside the folder it ran in"),
            ),
            (
                "cargo test 'a b'",
                Err("an argument holds characters a rule does not generalise"),
            ),
        ];
        for (cmd, want) in cases {
            let places = examples::example_places();
            let ctx = crate::engine::Context {
                policy: &policy,
                places: &places,
                fs: &crate::engine::paths::NoFs,
                cwd: Some(Path::new(examples::EXAMPLE_CWD)),
            };
            let facts = crate::engine::analyze::analyze_command(cmd, &ctx);
            let got = shape_of(&facts.invocations[0]).map(|s| s.text());
            assert_eq!(got, want.map(String::from), "{cmd}");
        }
        let re = regex_lite::Regex::new(&format!("^{PATH_RE}$")).expect("regex");
        for ok in ["src/a.rs", "./a", "a/b/", "Cargo.toml"] {
            assert!(re.is_match(ok), "{ok}");
        }
        for bad in [
            "/a",
            "../a",
            "a/../b",
            ".env",
            "a/.git/config",
            "~/x",
            "a b",
            "",
        ] {
            assert!(!re.is_match(bad), "{bad}");
        }
    }
}
