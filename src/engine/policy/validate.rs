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

use super::{line_col, schema, Layer, Policy, PolicyFile, Rule};

/// One problem of a file, where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

type Table = BTreeMap<Spanned<String>, Spanned<Value>>;

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
    let mut file = PolicyFile::default();
    for (key, value) in &top {
        let offset = key.span().start;
        if !schema::FILE_KEYS.contains(&key.get_ref().as_str()) {
            problems.push(at(
                offset,
                format!(
                    "unknown table `{}` (a policy file holds: {})",
                    key.get_ref(),
                    schema::FILE_KEYS.join(", ")
                ),
            ));
        } else if key.get_ref() != "rule" {
            if let Err(e) = section_into(&mut file, key.get_ref(), value.get_ref()) {
                problems.push(at(
                    value.span().start,
                    format!("in `{}`: {e}", key.get_ref()),
                ));
            }
        }
    }
    problems.extend(
        base.file_problems(&file, layer)
            .into_iter()
            .map(|m| at(0, m)),
    );
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

/// Reads one rule table: its unknown keys are problems at the key; other errors at the
/// rule's start.
fn read_rule(
    table: &Table,
    problems: &mut Vec<Problem>,
    at: &dyn Fn(usize, String) -> Problem,
    start: usize,
) -> Option<Rule> {
    let mut plain = toml::map::Map::new();
    let mut ok = true;
    for (k, v) in table {
        if !schema::RULE_KEYS.contains(&k.get_ref().as_str()) {
            problems.push(at(
                k.span().start,
                format!("unknown key `{}` in a rule", k.get_ref()),
            ));
            ok = false;
        }
        plain.insert(k.get_ref().clone(), v.get_ref().clone());
    }
    if !ok {
        return None;
    }
    match Rule::deserialize(Value::Table(plain)) {
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
