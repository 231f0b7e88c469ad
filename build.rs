//! Builds the default policy into the binary.
//!
//! The files in `policy/` are TOML for people. Parsing TOML on every hook call would cost
//! more than the rest of the decision, so here each file is checked to be valid TOML and
//! converted to compact JSON (without the inline examples, which only `policy test` reads).
//! The generated file lists every policy file with both forms.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new("policy");
    println!("cargo:rerun-if-changed=policy");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("policy/ folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("/// `(file name, TOML source, compact JSON without examples)`\n");
    out.push_str("pub const DEFAULT_POLICY: &[(&str, &str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = std::fs::read_to_string(f).expect("readable policy file");
        let mut value: toml::Value =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: invalid TOML: {e}", f.display()));
        strip_examples(&mut value);
        let json = serde_json::to_string(&value).expect("JSON");
        let abs = std::fs::canonicalize(f).expect("path");
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("policy");
        writeln!(
            out,
            "    ({name:?}, include_str!({:?}), {json:?}),",
            abs.display().to_string()
        )
        .expect("write");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("default_policy.rs");
    std::fs::write(dest, out).expect("write generated policy");
}

fn strip_examples(v: &mut toml::Value) {
    match v {
        toml::Value::Table(t) => {
            t.remove("match");
            t.remove("not_match");
            for (_, x) in t.iter_mut() {
                strip_examples(x);
            }
        }
        toml::Value::Array(a) => a.iter_mut().for_each(strip_examples),
        _ => {}
    }
}
