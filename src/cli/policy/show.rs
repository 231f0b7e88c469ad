//! `policy show`: the rules in force, each with the layer and file it came from, and the
//! rules a later layer replaced or disabled; as a table, or the whole merged policy as JSON.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{json, Value};

use super::ShowArgs;
use crate::engine::policy::{self, Layer, Origin, Overridden, Override, Policy, Rule};
use crate::hook;
use crate::workflow::state;

/// The rule keys that say what a rule applies to (the rest say what it decides, or hold
/// its examples).
const NOT_MATCHERS: &[&str] = &[
    "id",
    "tier",
    "reason",
    "instead",
    "disabled",
    "match",
    "not_match",
];

/// How many characters of a rule's matchers the table shows.
const MATCHES_WIDTH: usize = 100;

/// The widest id column; longer ids push the rest of their row right.
const MAX_ID_WIDTH: usize = 36;

/// Which rules to show.
struct Filter {
    layer: Option<Layer>,
    id: Option<String>,
}

impl Filter {
    fn of(a: &ShowArgs) -> Filter {
        let layer = a.layer.as_deref().map(|l| match l {
            "managed" => Layer::Managed,
            "user" => Layer::User,
            "project" => Layer::Project,
            _ => Layer::Default,
        });
        Filter {
            layer,
            id: a.id.clone(),
        }
    }
    fn id_matches(&self, id: &str) -> bool {
        self.id.as_deref().is_none_or(|p| id.starts_with(p))
    }
    fn keeps_rule(&self, rule: &Rule, origin: &Origin) -> bool {
        self.layer.is_none_or(|l| l == origin.layer) && self.id_matches(&rule.id)
    }
    /// A change is kept for the layer that made it and the layer whose rule it changed.
    fn keeps_change(&self, o: &Overridden) -> bool {
        self.layer
            .is_none_or(|l| l == o.origin.layer || l == o.by.layer)
            && self.id_matches(&o.rule.id)
    }
}

/// The files the user's and the project's layers are read from, whether or not they exist.
struct LayerFiles {
    managed: PathBuf,
    user: PathBuf,
    /// The project's file, when one was found from the working folder up.
    project: Option<PathBuf>,
    cwd: PathBuf,
}

pub(super) fn policy_show(a: ShowArgs) -> Result<i32> {
    let places = state::places()?;
    let cwd = super::cwd_arg(a.cwd.as_deref())?;
    let p = hook::load_policy(&places, Some(&cwd))?;
    let files = LayerFiles {
        managed: hook::managed::policy_path(),
        user: policy::user_policy_path(&places.state_dir),
        project: hook::find_project_policy(&cwd, &places.home),
        cwd,
    };
    let filter = Filter::of(&a);
    let rules: Vec<(&Rule, &Origin)> = p
        .rules_with_origins()
        .filter(|(r, o)| filter.keeps_rule(r, o))
        .collect();
    let changes: Vec<&Overridden> = p
        .overridden()
        .iter()
        .filter(|o| filter.keeps_change(o))
        .collect();
    if a.json {
        let v = show_json(&p, &rules, &changes)?;
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_layers(&p, &files);
        print_rules(&rules, &changes);
        print_changes(&changes);
        print_totals(&p, &rules, &changes);
    }
    let nothing = rules.is_empty() && changes.is_empty();
    if filter.id.is_some() && nothing {
        eprintln!(
            "no rule id starts with {:?}{}",
            filter.id.as_deref().unwrap_or_default(),
            filter
                .layer
                .map(|l| format!(" in the {l} layer"))
                .unwrap_or_default()
        );
        return Ok(1);
    }
    Ok(0)
}

/// The file of a layer as a user finds it: the built-in files by their place in the
/// repository, the others by their path.
fn file_name(o: &Origin) -> String {
    match o.layer {
        Layer::Default => format!("policy/{}", o.file),
        _ => o.file.to_string(),
    }
}

/// The short name of a layer's file, for the table (the full paths head the listing).
fn short_file_name(o: &Origin) -> String {
    match o.layer {
        Layer::Default => o.file.to_string(),
        _ => Path::new(o.file.as_ref())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| o.file.to_string()),
    }
}

fn origin_json(o: &Origin) -> Value {
    json!({"layer": o.layer, "file": file_name(o)})
}

/// A rule as JSON, with the layer and file it came from.
fn rule_json(r: &Rule, o: &Origin) -> Result<Value> {
    let mut v = serde_json::to_value(r)?;
    if let Some(m) = v.as_object_mut() {
        m.insert("layer".into(), json!(o.layer));
        m.insert("file".into(), json!(file_name(o)));
    }
    Ok(v)
}

fn show_json(p: &Policy, rules: &[(&Rule, &Origin)], changes: &[&Overridden]) -> Result<Value> {
    let rules = rules
        .iter()
        .map(|(r, o)| rule_json(r, o))
        .collect::<Result<Vec<_>>>()?;
    let overridden = changes
        .iter()
        .map(|c| {
            Ok(json!({
                "id": c.rule.id,
                "action": c.action,
                "layer": c.origin.layer,
                "file": file_name(&c.origin),
                "by": origin_json(&c.by),
                "rule": serde_json::to_value(&*c.rule)?,
            }))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(json!({
        "layers": p.origins().iter().map(origin_json).collect::<Vec<_>>(),
        "paths": p.paths,
        "kinds": p.kinds,
        "commands": p.all_effects(),
        "workflow": p.workflow,
        "rules": rules,
        "overridden": overridden,
    }))
}

/// The layers in the order they apply, with the files the user's and the project's come
/// from, or where they would.
fn print_layers(p: &Policy, files: &LayerFiles) {
    let defaults = p
        .origins()
        .iter()
        .filter(|o| o.layer == Layer::Default)
        .count();
    println!("Layers, in the order they apply (a later one replaces or disables by id):");
    println!("  default  built in: {defaults} files of policy/");
    let loaded = |layer: Layer| p.origins().iter().any(|o| o.layer == layer);
    if loaded(Layer::Managed) {
        println!(
            "  managed  {} (a floor the later layers cannot loosen)",
            files.managed.display()
        );
    } else {
        println!("  managed  none (no file at {})", files.managed.display());
    }
    if loaded(Layer::User) {
        println!("  user     {}", files.user.display());
    } else {
        println!("  user     none (no file at {})", files.user.display());
    }
    match &files.project {
        Some(f) if loaded(Layer::Project) => println!("  project  {}", f.display()),
        _ => println!(
            "  project  none (no .claude/programmer-policy.toml from {} up to its repository)",
            files.cwd.display()
        ),
    }
    println!();
}

fn print_rules(rules: &[(&Rule, &Origin)], changes: &[&Overridden]) {
    if rules.is_empty() {
        println!("No rule in force matches.");
        return;
    }
    let file_width = rules
        .iter()
        .map(|(_, o)| short_file_name(o).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let id_width = rules
        .iter()
        .map(|(r, _)| r.id.chars().count())
        .max()
        .unwrap_or(2)
        .clamp(2, MAX_ID_WIDTH);
    println!(
        "{:<7}  {:<file_width$}  {:<9}  {:<id_width$}  MATCHES",
        "LAYER", "FILE", "TIER", "ID"
    );
    for (r, o) in rules {
        let mut matches = clip(&matchers(r), MATCHES_WIDTH);
        if let Some(c) = changes
            .iter()
            .find(|c| c.action == Override::Replaced && c.rule.id == r.id && c.by == **o)
        {
            matches.push_str(&format!(
                "  [replaces the rule of {} {}]",
                c.origin.layer,
                file_name(&c.origin)
            ));
        }
        println!(
            "{:<7}  {:<file_width$}  {:<9}  {:<id_width$}  {matches}",
            o.layer.to_string(),
            short_file_name(o),
            r.tier.to_string().to_lowercase(),
            r.id,
        );
    }
}

fn print_changes(changes: &[&Overridden]) {
    if changes.is_empty() {
        return;
    }
    println!();
    println!("Replaced or disabled by a later layer (not in force as first written):");
    for c in changes {
        let did = match c.action {
            Override::Replaced => "replaced",
            Override::Disabled => "disabled",
        };
        println!(
            "  {}  ({} {}, {}): {did} by {} {}",
            c.rule.id,
            c.origin.layer,
            file_name(&c.origin),
            c.rule.tier.to_string().to_lowercase(),
            c.by.layer,
            file_name(&c.by)
        );
    }
}

fn print_totals(p: &Policy, rules: &[(&Rule, &Origin)], changes: &[&Overridden]) {
    let count = |l: Layer| rules.iter().filter(|(_, o)| o.layer == l).count();
    let acted = |a: Override| changes.iter().filter(|c| c.action == a).count();
    let shown = if rules.len() == p.rules().len() {
        format!("{} rules in force", rules.len())
    } else {
        format!(
            "{} of the {} rules in force shown",
            rules.len(),
            p.rules().len()
        )
    };
    println!();
    println!(
        "{shown}: {} default, {} managed, {} user, {} project; {} replaced, {} disabled (--json for every field)",
        count(Layer::Default),
        count(Layer::Managed),
        count(Layer::User),
        count(Layer::Project),
        acted(Override::Replaced),
        acted(Override::Disabled),
    );
}

/// What a rule applies to, in one line: `command=git subcommand=push flags_any=--force`.
fn matchers(r: &Rule) -> String {
    let Ok(Value::Object(fields)) = serde_json::to_value(r) else {
        return String::new();
    };
    let mut out = Vec::new();
    for (key, value) in &fields {
        if NOT_MATCHERS.contains(&key.as_str()) {
            continue;
        }
        match value {
            Value::Bool(true) => out.push(key.clone()),
            Value::Bool(false) | Value::Null => {}
            Value::Array(items) => {
                let words: Vec<String> = items.iter().map(word).collect();
                out.push(format!("{key}={}", words.join(",")));
            }
            other => out.push(format!("{key}={}", word(other))),
        }
    }
    out.join(" ")
}

/// One value of a matcher as written: strings bare (quoted when empty or with blanks).
fn word(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() || s.contains(char::is_whitespace) => format!("{s:?}"),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// At most `max` characters of `s`, with `…` where it was cut.
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}…", &s[..cut]),
    }
}
