//! Compiles the default policy into the binary.
//!
//! The files in `policy/` are TOML for people. The hook runs once per tool call, so parsing
//! them at run time would cost more than the decision itself. Here each file is checked and
//! turned into Rust statics (`policy::BuiltinFile`) whose text is borrowed from the binary:
//! loading the defaults then allocates almost nothing. The TOML source is embedded too, for
//! `policy test`, and a unit test checks that the statics equal what serde reads from it.
//!
//! It also asks the linker to lay out the functions an everyday call runs next to each other
//! (`link/hot-symbols.txt`, see [`link_order`]).

use std::fmt::Write as _;
use std::path::Path;

use toml::Value;

#[path = "src/engine/policy/need.rs"]
mod need;

#[path = "src/engine/policy/schema.rs"]
#[allow(dead_code)]
mod schema;

use schema::{
    ACCESS_KINDS, EFFECT_KEYS, EFFECT_LISTS, FILE_KEYS, FIRST_VALUES, KIND_LISTS, MOUNT_CLASSES,
    PATH_CLASSES, PATH_LISTS, RULE_FLAGS, RULE_KEYS, RULE_LISTS, RULE_TEXTS, SELECTIONS, SEP,
    TIERS, WORKFLOW_KEYS,
};

fn main() {
    link_order();
    let dir = Path::new("policy");
    println!("cargo:rerun-if-changed=policy");
    println!("cargo:rerun-if-changed=src/engine/policy/schema.rs");
    println!("cargo:rerun-if-changed=src/engine/policy/need.rs");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("policy/ folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("pub static DEFAULT_FILES: &[BuiltinFile] = &[\n");
    // The `command` names of every rule of all files in order (as `Policy::builtin` lays
    // them out), for the index of command rules by program name.
    let mut rule_names: Vec<Vec<String>> = Vec::new();
    // Command effects by name: (file, entry) in `DEFAULT_FILES`, a later file winning.
    let mut effects_at: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    // The `sensitive` and `protected` lists as `Policy::builtin` joins them, for the
    // patterns of names alone among them (see `Policy::name_patterns`).
    let (mut sensitive, mut protected) = (String::new(), String::new());
    // Every path and kind list of all files joined in order, as `Policy::builtin` lays
    // them out: a call then borrows them instead of joining them.
    let mut path_lists: Vec<String> = vec![String::new(); PATH_LISTS.len()];
    let mut kind_lists: Vec<String> = vec![String::new(); KIND_LISTS.len()];
    for (file_index, f) in files.iter().enumerate() {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = std::fs::read_to_string(f).expect("readable policy file");
        let value: Value =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: invalid TOML: {e}", f.display()));
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("policy");
        let abs = std::fs::canonicalize(f).expect("path");
        let code = file_code(&value).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if let Some(cmds) = value.get("commands").and_then(Value::as_table) {
            for (entry, name) in cmds.keys().enumerate() {
                effects_at.insert(name.clone(), (file_index, entry));
            }
        }
        let paths = value.get("paths");
        for (all, key) in path_lists.iter_mut().zip(PATH_LISTS) {
            all.push_str(&joined(paths.and_then(|p| p.get(*key))));
        }
        let kinds = value.get("kinds");
        for (all, key) in kind_lists.iter_mut().zip(KIND_LISTS) {
            all.push_str(&joined(kinds.and_then(|k| k.get(*key))));
        }
        sensitive.push_str(&joined(paths.and_then(|p| p.get("sensitive"))));
        protected.push_str(&joined(paths.and_then(|p| p.get("protected"))));
        let rules = value.get("rule").and_then(Value::as_array);
        for rule in rules.into_iter().flatten() {
            rule_names.push(match rule.get("command") {
                Some(Value::String(s)) => vec![s.clone()],
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
                _ => Vec::new(),
            });
        }
        writeln!(
            out,
            "    BuiltinFile {{ name: {name:?}, source: include_str!({:?}), {code} }},",
            abs.display().to_string()
        )
        .expect("write");
    }
    out.push_str("];\n");
    out.push_str("pub static BUILTIN_EFFECTS_INDEX: &[(&str, u16, u16)] = &[\n");
    for (name, (file, entry)) in &effects_at {
        writeln!(out, "    ({name:?}, {file}, {entry}),").expect("write");
    }
    out.push_str("];\n");
    // Each name's own rules merged with the `*` rules, in policy order.
    let (by_name, any) =
        schema::command_index(rule_names.iter().map(|n| n.iter().map(String::as_str)));
    writeln!(out, "pub static BUILTIN_ANY_RULES: &[u32] = &{any:?};").expect("write");
    out.push_str("pub static BUILTIN_COMMAND_INDEX: &[(&str, &[u32])] = &[\n");
    for (name, all) in &by_name {
        writeln!(out, "    ({name:?}, &{all:?}),").expect("write");
    }
    out.push_str("];\n");
    let names: Vec<&str> = sensitive
        .split(SEP)
        .chain(protected.split(SEP))
        .filter(|w| !w.is_empty() && schema::names_only(w))
        .collect();
    writeln!(
        out,
        "pub static BUILTIN_NAME_PATTERNS: NamePatterns = NamePatterns {{ sensitive: {sensitive:?}, protected: {protected:?}, names: &{names:?} }};"
    )
    .expect("write");
    for (ty, keys, lists) in [
        ("PathLists", PATH_LISTS, &path_lists),
        ("Kinds", KIND_LISTS, &kind_lists),
    ] {
        write!(
            out,
            "pub static BUILTIN_{}: {ty} = {ty} {{ ",
            ty.to_uppercase()
        )
        .expect("write");
        for (key, all) in keys.iter().zip(lists) {
            write!(out, "{key}: List::from_static({all:?}), ").expect("write");
        }
        out.push_str("};\n");
    }
    // What a path must hold to match each pattern of the joined path lists (see
    // `engine::patterns`), with the list it was read from.
    out.push_str("pub static BUILTIN_PATH_NEEDS: &[(&str, &[(&str, Need)])] = &[\n");
    for all in &path_lists {
        let needs: Vec<String> = all
            .split(SEP)
            .skip(1)
            .map(|p| format!("({p:?}, Need::{:?})", need::need_of(p)))
            .collect();
        writeln!(out, "    ({all:?}, &[{}]),", needs.join(", ")).expect("write");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("default_policy.rs");
    std::fs::write(dest, out).expect("write generated policy");
}

/// Places the functions listed in `link/hot-symbols.txt` first in the binary's code, in
/// that order. Each call is a fresh process whose code is read from the file page by page
/// as it first runs; with the hot functions together, a call touches some 20 fewer pages
/// of the 4 MB of code. Only the release build for x86-64 Linux gets it, and only with
/// the linker Rust uses there by default since 1.90 (LLD, which reads the list): with a
/// linker of one's own (`RUSTC_LINKER`, `-C linker`, `-fuse-ld`) or an older Rust, the
/// build is the same but for the order. Names the build does not have are skipped
/// (the list is made for the toolchain CI uses; `link/update-hot-symbols.sh` remakes it).
fn link_order() {
    let list = Path::new("link/hot-symbols.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    println!("cargo:rerun-if-env-changed=PROGRAMMER_HOOK_LINK_MAP");
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    let flags = env("CARGO_ENCODED_RUSTFLAGS");
    let own_linker = std::env::var_os("RUSTC_LINKER").is_some()
        || flags.contains("linker")
        || flags.contains("fuse-ld");
    if env("PROFILE") != "release"
        || env("TARGET") != "x86_64-unknown-linux-gnu"
        || own_linker
        || !rustc_links_with_lld()
    {
        return;
    }
    let mut args = Vec::new();
    if let Ok(abs) = std::fs::canonicalize(list) {
        args.push(format!("-Wl,--symbol-ordering-file={}", abs.display()));
        args.push("-Wl,--no-warn-symbol-ordering".to_string());
    }
    // The linker's map of the binary, for link/update-hot-symbols.sh. Given here, not in
    // RUSTFLAGS, so that the build (and every symbol name) stays the one being mapped.
    let map = env("PROGRAMMER_HOOK_LINK_MAP");
    if !map.is_empty() {
        args.push(format!("-Wl,-Map={map}"));
        args.push("-Wl,--no-demangle".to_string());
    }
    for arg in args {
        println!("cargo:rustc-link-arg-bin=programmer-hook={arg}");
    }
}

/// Whether the compiler is Rust 1.90 or later, which links x86-64 Linux programs with LLD.
fn rustc_links_with_lld() -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = std::process::Command::new(rustc).arg("--version").output() else {
        return false;
    };
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let text = String::from_utf8_lossy(&out.stdout);
    let mut version = text
        .split_whitespace()
        .nth(1)
        .unwrap_or("")
        .split('.')
        .map(|n| n.parse::<u32>().unwrap_or(0));
    let (major, minor) = (version.next().unwrap_or(0), version.next().unwrap_or(0));
    major > 1 || (major == 1 && minor >= 90)
}

type R<T> = Result<T, String>;

fn table(v: &Value) -> R<&toml::map::Map<String, Value>> {
    v.as_table().ok_or_else(|| "expected a table".to_string())
}

fn check_keys(t: &toml::map::Map<String, Value>, known: &[&str], what: &str) -> R<()> {
    for k in t.keys() {
        if !known.contains(&k.as_str()) {
            return Err(format!("unknown key `{k}` in {what}"));
        }
    }
    Ok(())
}

fn text(s: &str) -> String {
    format!("Cow::Borrowed({s:?})")
}

fn opt_text(v: Option<&Value>) -> R<String> {
    match v {
        None => Ok("None".into()),
        Some(Value::String(s)) => Ok(format!("Some({})", text(s))),
        Some(other) => Err(format!("expected a string, found {other:?}")),
    }
}

/// A list's stored form (each word preceded by [`SEP`]), as far as it is a list of
/// strings; [`list`] reports anything else.
fn joined(v: Option<&Value>) -> String {
    let words: Vec<&str> = match v {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    words.iter().map(|w| format!("{SEP}{w}")).collect()
}

fn list(v: Option<&Value>) -> R<String> {
    let mut joined = String::new();
    match v {
        None => {}
        Some(Value::String(s)) => {
            joined.push(SEP);
            joined.push_str(s);
        }
        Some(Value::Array(a)) => {
            for x in a {
                let w = x
                    .as_str()
                    .ok_or_else(|| format!("expected strings, found {x:?}"))?;
                if w.contains(SEP) {
                    return Err(format!(
                        "list words may not contain the control character U+001F: {w:?}"
                    ));
                }
                joined.push(SEP);
                joined.push_str(w);
            }
        }
        Some(other) => return Err(format!("expected a list of strings, found {other:?}")),
    }
    Ok(format!("List::from_static({joined:?})"))
}

/// The Rust value of a closed value of `names`, as a variant of `ty`.
/// A key that is true or false, false when not given.
fn flag(v: Option<&Value>, key: &str) -> R<bool> {
    match v {
        None => Ok(false),
        Some(Value::Boolean(b)) => Ok(*b),
        Some(other) => Err(format!("`{key}` must be true or false, found {other:?}")),
    }
}

fn enum_value(v: &Value, names: &[&str], ty: &str) -> R<String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("expected a string, found {v:?}"))?;
    if names.contains(&s) {
        Ok(format!("{ty}::{}", schema::variant_name(s)))
    } else {
        Err(format!(
            "unknown value {s:?} (one of: {})",
            names.join(", ")
        ))
    }
}

fn rule_code(v: &Value) -> R<String> {
    let t = table(v)?;
    check_keys(t, RULE_KEYS, "a rule")?;
    let id = t
        .get("id")
        .and_then(Value::as_str)
        .ok_or("a rule has no string `id`")?;
    let at = |e: String| format!("rule {id}: {e}");
    let mut c = format!("Rule {{ id: {}, managed: false, layered: false, ", text(id));
    let tier = match t.get("tier") {
        Some(v) => enum_value(v, TIERS, "Tier").map_err(at)?,
        None => format!("Tier::{}", schema::variant_name(schema::DEFAULT_TIER)),
    };
    write!(c, "tier: {tier}, ").ok();
    let reason = t.get("reason").and_then(Value::as_str).unwrap_or("");
    write!(c, "reason: {}, ", text(reason)).ok();
    if let Some(s) = t.get("signal").and_then(Value::as_str) {
        if !schema::SIGNALS.contains(&s) {
            return Err(at(format!("unknown signal {s:?}")));
        }
    }
    if let Some(e) = t.get("effect") {
        let e = e
            .as_str()
            .ok_or_else(|| at("`effect` must be a string".into()))?;
        let flag = |k: &str| t.get(k).and_then(Value::as_bool).unwrap_or(false);
        let (relaxable, contained) = (flag("relaxable"), flag("contained"));
        if let Some(p) = schema::effect_problem(e, tier == "Tier::Confirm", relaxable, contained) {
            return Err(at(p));
        }
    }
    for k in RULE_TEXTS {
        write!(c, "{k}: {}, ", opt_text(t.get(*k)).map_err(at)?).ok();
    }
    for k in RULE_FLAGS {
        let b = flag(t.get(*k), k).map_err(at)?;
        if *k == "relaxable" && b && tier != "Tier::Confirm" {
            return Err(at(
                "only Confirm rules may set `relaxable = true`".to_string()
            ));
        }
        write!(c, "{k}: {b}, ").ok();
    }
    for k in RULE_LISTS {
        write!(c, "{k}: {}, ", list(t.get(*k)).map_err(at)?).ok();
    }
    let max = match t.get("max_positional") {
        None => "None".to_string(),
        Some(Value::Integer(n)) if *n >= 0 => format!("Some({n})"),
        Some(other) => {
            return Err(at(format!(
                "`max_positional` must be a count, found {other:?}"
            )))
        }
    };
    write!(c, "max_positional: {max}, ").ok();
    for (key, names, ty) in [
        ("path_class", PATH_CLASSES, "PathClass"),
        ("mount_source", MOUNT_CLASSES, "MountClass"),
    ] {
        let classes = match t.get(key) {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| enum_value(x, names, ty))
                .collect::<R<Vec<_>>>()
                .map_err(at)?,
            Some(other) => return Err(at(format!("`{key}` must be a list, found {other:?}"))),
        };
        write!(c, "{key}: Cow::Borrowed(&[{}]), ", classes.join(", ")).ok();
    }
    let access = match t.get("access") {
        None => "None".to_string(),
        Some(v) => format!(
            "Some({})",
            enum_value(v, ACCESS_KINDS, "AccessKind").map_err(at)?
        ),
    };
    write!(c, "access: {access}, ").ok();
    // Inline examples stay in the TOML source, read only by `policy test`.
    c.push_str("examples_match: Vec::new(), not_match: Vec::new() }");
    Ok(c)
}

fn effects_code(v: &Value) -> R<String> {
    let t = table(v)?;
    check_keys(t, EFFECT_KEYS, "command effects")?;
    let into_folder = flag(t.get("into_folder"), "into_folder")?;
    let complete = flag(t.get("complete"), "complete")?;
    let recursive = flag(t.get("recursive"), "recursive")?;
    let skips_hidden = flag(t.get("skips_hidden"), "skips_hidden")?;
    let remote_name = flag(t.get("remote_name"), "remote_name")?;
    let runs_input = flag(t.get("runs_input"), "runs_input")?;
    let command_input = flag(t.get("command_input"), "command_input")?;
    let operands = match t.get("operands") {
        None => 0,
        Some(Value::Integer(n)) if (0..=16).contains(n) => *n,
        Some(other) => {
            return Err(format!(
                "`operands` must be a number from 0 to 16, found {other:?}"
            ))
        }
    };
    let first_is = match t.get("first_is") {
        None => "None".to_string(),
        Some(v) => format!("Some({})", enum_value(v, FIRST_VALUES, "FirstValue")?),
    };
    let mut c = format!(
        "Effects {{ reads: {}, writes: {}, names: {}, command_args: {}, into_folder: {into_folder}, complete: {complete}, recursive: {recursive}, skips_hidden: {skips_hidden}, remote_name: {remote_name}, runs_input: {runs_input}, command_input: {command_input}, first_is: {first_is}, operands: {operands}, ",
        selection(t.get("reads"))?,
        selection(t.get("writes"))?,
        selection(t.get("names"))?,
        selection(t.get("command_args"))?
    );
    for k in EFFECT_LISTS {
        write!(c, "{k}: {}, ", list(t.get(*k))?).ok();
    }
    c.push('}');
    Ok(c)
}

fn selection(v: Option<&Value>) -> R<String> {
    match v {
        None => Ok("None".into()),
        Some(v) => Ok(format!("Some({})", enum_value(v, SELECTIONS, "Select")?)),
    }
}

fn lists_code(ty: &str, v: Option<&Value>, keys: &[&str]) -> R<String> {
    let empty = toml::map::Map::new();
    let t = match v {
        Some(v) => table(v)?,
        None => &empty,
    };
    check_keys(t, keys, ty)?;
    let mut c = format!("{ty} {{ ");
    for k in keys {
        write!(c, "{k}: {}, ", list(t.get(*k))?).ok();
    }
    c.push('}');
    Ok(c)
}

fn file_code(v: &Value) -> R<String> {
    let t = table(v)?;
    check_keys(t, FILE_KEYS, "a policy file")?;
    let mut c = String::new();
    write!(
        c,
        "paths: {}, ",
        lists_code("PathLists", t.get("paths"), PATH_LISTS)?
    )
    .ok();
    write!(
        c,
        "kinds: {}, ",
        lists_code("Kinds", t.get("kinds"), KIND_LISTS)?
    )
    .ok();
    c.push_str("commands: &[");
    if let Some(cmds) = t.get("commands") {
        for (name, e) in table(cmds)? {
            write!(
                c,
                "({name:?}, {}), ",
                effects_code(e).map_err(|e| format!("commands.{name}: {e}"))?
            )
            .ok();
        }
    }
    c.push_str("], ");
    let workflow = match t.get("workflow") {
        None => "None".to_string(),
        Some(w) => {
            let w = table(w)?;
            check_keys(w, WORKFLOW_KEYS, "workflow")?;
            let n = w
                .get("max_review_rounds")
                .and_then(Value::as_integer)
                .unwrap_or(i64::from(schema::DEFAULT_REVIEW_ROUNDS));
            let days = w
                .get("log_retention_days")
                .and_then(Value::as_integer)
                .unwrap_or(i64::from(schema::DEFAULT_LOG_RETENTION_DAYS));
            format!(
                "Some(WorkflowSettings {{ max_review_rounds: {n}, log_retention_days: {days} }})"
            )
        }
    };
    write!(c, "workflow: {workflow}, ").ok();
    c.push_str("rules: &[");
    if let Some(rules) = t.get("rule") {
        let a = rules
            .as_array()
            .ok_or("`rule` must be an array of tables")?;
        for r in a {
            c.push_str(&rule_code(r)?);
            c.push_str(", ");
        }
    }
    c.push(']');
    Ok(c)
}
