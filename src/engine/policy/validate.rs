//! `policy validate`: every mistake in a policy file at once, each with its line and column.
//!
//! The hook stops at a file's first problem (the call is then blocked, which is safe); a
//! person fixing the file wants all of them. This reads the file table by table and rule
//! by rule, keeping where each one starts, and runs on each the same checks the loader runs
//! ([`Policy::rule_problems`], [`Policy::file_problems`]), so validation and the hook can
//! never disagree about what loads.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::{Spanned, Value};

use super::{line_col, schema, Effects, Layer, Policy, PolicyFile, Rule, WorkflowSettings};

/// One problem of a file, where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

type Table = BTreeMap<Spanned<String>, Spanned<Value>>;

/// The tables other than the rules, with the place of each key (all `None` when one of them
/// has the wrong shape; each is then read whole).
#[derive(Deserialize, Default)]
struct Sections {
    #[serde(default)]
    paths: Option<Table>,
    #[serde(default)]
    kinds: Option<Table>,
    #[serde(default)]
    workflow: Option<Table>,
    #[serde(default)]
    commands: Option<BTreeMap<Spanned<String>, Spanned<Table>>>,
}

/// A table without its places.
fn plain(table: &Table) -> Value {
    Value::Table(
        table
            .iter()
            .map(|(k, v)| (k.get_ref().clone(), v.get_ref().clone()))
            .collect(),
    )
}

/// Checks each key of `table` on its own: a key not in `keys` is a problem at the key, a
/// value `T` does not take a problem at the value, and what `more` finds in a `T` holding
/// only that key a problem at the key; so one mistake hides no other.
fn each_key<T: serde::de::DeserializeOwned>(
    table: &Table,
    keys: &[&str],
    what: &str,
    problems: &mut Vec<Problem>,
    at: &dyn Fn(usize, String) -> Problem,
    mut more: impl FnMut(T) -> Vec<String>,
) {
    for (k, v) in table {
        let name = k.get_ref();
        if !keys.contains(&name.as_str()) {
            problems.push(at(
                k.span().start,
                format!(
                    "unknown key `{name}` in {what} (the keys are: {})",
                    keys.join(", ")
                ),
            ));
            continue;
        }
        let one = Value::Table(toml::map::Map::from_iter([(
            name.clone(),
            v.get_ref().clone(),
        )]));
        match T::deserialize(one) {
            Ok(t) => {
                for m in more(t) {
                    problems.push(at(k.span().start, m));
                }
            }
            Err(e) => problems.push(at(
                v.span().start,
                format!("`{name}` in {what}: {}", e.message().trim()),
            )),
        }
    }
}

/// The rules of a file with the place of each, the other tables skipped.
#[derive(Deserialize)]
struct Rules {
    #[serde(default)]
    rule: Vec<Spanned<Table>>,
}

/// Every problem of `text` as a file of `layer` over `base` (the layers below it).
pub fn validate(text: &str, layer: Layer, base: &Policy) -> Vec<Problem> {
    let at = |offset: usize, message: String| {
        let (line, col) = line_col(text, offset);
        Problem { line, col, message }
    };
    let top: Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            let offset = e.span().map_or(0, |s| s.start);
            return vec![at(offset, e.message().trim().to_string())];
        }
    };
    let mut problems = Vec::new();
    let sections: Sections = toml::from_str(text).unwrap_or_default();
    for (key, value) in &top {
        let offset = key.span().start;
        let name = key.get_ref().as_str();
        if !schema::FILE_KEYS.contains(&name) {
            problems.push(at(
                offset,
                format!(
                    "unknown table `{name}` (a policy file holds: {})",
                    schema::FILE_KEYS.join(", ")
                ),
            ));
            continue;
        }
        let mut file = PolicyFile::default();
        let checked = match name {
            "paths" => sections.paths.as_ref().map(|t| {
                each_key(t, schema::PATH_LISTS, "`paths`", &mut problems, &at, |p| {
                    file.paths = p;
                    base.file_problems(&file, layer)
                })
            }),
            "kinds" => sections.kinds.as_ref().map(|t| {
                each_key(t, schema::KIND_LISTS, "`kinds`", &mut problems, &at, |k| {
                    file.kinds = k;
                    base.file_problems(&file, layer)
                })
            }),
            "workflow" => sections.workflow.as_ref().map(|t| {
                let n = problems.len();
                each_key(
                    t,
                    schema::WORKFLOW_KEYS,
                    "`workflow`",
                    &mut problems,
                    &at,
                    |_: WorkflowSettings| Vec::new(),
                );
                if problems.len() == n {
                    file.workflow = Some(WorkflowSettings::default());
                    for m in base.file_problems(&file, layer) {
                        problems.push(at(offset, m));
                    }
                }
            }),
            "commands" => sections.commands.as_ref().map(|cmds| {
                for (cmd, effects) in cmds {
                    let n = problems.len();
                    let what = format!("the effects of {:?}", cmd.get_ref());
                    each_key(
                        effects.get_ref(),
                        schema::EFFECT_KEYS,
                        &what,
                        &mut problems,
                        &at,
                        |_: Effects| Vec::new(),
                    );
                    if problems.len() > n {
                        continue;
                    }
                    match Effects::deserialize(plain(effects.get_ref())) {
                        Ok(e) => {
                            file.commands = BTreeMap::from([(cmd.get_ref().clone().into(), e)]);
                            for m in base.file_problems(&file, layer) {
                                problems.push(at(cmd.span().start, m));
                            }
                        }
                        Err(e) => problems.push(at(
                            effects.span().start,
                            format!("in {what}: {}", e.message().trim()),
                        )),
                    }
                }
            }),
            _ => Some(()),
        };
        // A table of the wrong shape (`paths = "x"`): its one error, where it starts.
        if checked.is_none() {
            if let Err(e) = section_into(&mut file, name, value.get_ref()) {
                problems.push(at(value.span().start, format!("in `{name}`: {e}")));
            }
        }
    }
    let rules: Rules = toml::from_str(text).unwrap_or(Rules { rule: Vec::new() });
    let mut seen: Vec<String> = Vec::new();
    for (i, spanned) in rules.rule.iter().enumerate() {
        let start = spanned.span().start;
        let Some(rule) = read_rule(spanned.get_ref(), &mut problems, &at, start) else {
            continue;
        };
        let id_at = spanned
            .get_ref()
            .iter()
            .find(|(k, _)| k.get_ref() == "id")
            .map_or(start, |(_, v)| v.span().start);
        for m in base.rule_problems(&rule, i, layer) {
            problems.push(at(id_at, m));
        }
        if seen.contains(&rule.id.to_string()) {
            problems.push(at(
                id_at,
                format!("rule {:?} is given twice in this file", rule.id),
            ));
        }
        seen.push(rule.id.to_string());
    }
    problems.sort_by_key(|p| (p.line, p.col));
    problems
}

/// Reads one rule table. Each key is checked on its own (an unknown key is a problem at the
/// key, a wrong value at the value), so that one mistake hides no other; what only the
/// whole rule shows (a missing id) is a problem at the rule's start.
fn read_rule(
    table: &Table,
    problems: &mut Vec<Problem>,
    at: &dyn Fn(usize, String) -> Problem,
    start: usize,
) -> Option<Rule> {
    let mut ok = true;
    for (k, v) in table {
        let name = k.get_ref();
        if !schema::RULE_KEYS.contains(&name.as_str()) {
            problems.push(at(
                k.span().start,
                format!("unknown key `{name}` in a rule"),
            ));
            ok = false;
            continue;
        }
        // The key alone, with an id when it is not the id.
        let mut one = toml::map::Map::new();
        one.insert("id".into(), Value::String("x".into()));
        one.insert(name.clone(), v.get_ref().clone());
        if let Err(e) = Rule::deserialize(Value::Table(one)) {
            problems.push(at(
                v.span().start,
                format!("`{name}` in a rule: {}", e.message().trim()),
            ));
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    match Rule::deserialize(plain(table)) {
        Ok(r) => Some(r),
        Err(e) => {
            problems.push(at(start, format!("in a rule: {}", e.message().trim())));
            None
        }
    }
}

/// Reads one table other than the rules into `file`.
fn section_into(file: &mut PolicyFile, key: &str, value: &Value) -> Result<(), String> {
    let v = value.clone();
    let e = |e: toml::de::Error| e.message().trim().to_string();
    match key {
        "paths" => file.paths = Deserialize::deserialize(v).map_err(e)?,
        "kinds" => file.kinds = Deserialize::deserialize(v).map_err(e)?,
        "commands" => file.commands = Deserialize::deserialize(v).map_err(e)?,
        "workflow" => file.workflow = Some(Deserialize::deserialize(v).map_err(e)?),
        _ => {}
    }
    Ok(())
}
