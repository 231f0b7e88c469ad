//! `make T`: the recipes of `T` and of the targets it needs, read from the Makefile and
//! analysed apart (see [`super::scripts`]), with the plain variables of the Makefile
//! filled in and the others unknown.

use std::path::{Path, PathBuf};

use super::{Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::policy::Policy;
use crate::engine::shell::Word;

/// How many targets of a Makefile are followed through their prerequisites.
const MAX_TARGETS: usize = 64;
/// How many lines of recipes are judged.
const MAX_RECIPE_LINES: usize = 512;

/// What a `make` command line asks for.
struct MakeCall {
    /// The folder it runs in (`-C`), when known.
    dir: Option<PathBuf>,
    /// The Makefile named with `-f`.
    file: Option<String>,
    targets: Vec<String>,
}

impl Analyzer<'_> {
    /// `make [OPTIONS] [TARGETS]`: the recipes it runs, analysed apart.
    pub(super) fn make(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let Some(call) = self.make_call(inv) else {
            return;
        };
        let Some(dir) = call.dir else { return };
        // A Makefile a downloader saved earlier in the command: its recipes are remote code.
        let names: Vec<&str> = match call.file.as_deref() {
            Some(f) => vec![f],
            None => vec!["GNUmakefile", "makefile", "Makefile"],
        };
        for n in names {
            self.runs_file(&Word::lit(n), Some(&dir));
        }
        let Some(path) = self.makefile_path(&dir, call.file.as_deref()) else {
            return;
        };
        let Some(text) = self.project_file(&path, "recipes") else {
            return;
        };
        let mk = Makefile::parse(&text);
        let mut targets = call.targets;
        if targets.is_empty() {
            match &mk.default {
                Some(t) => targets.push(t.clone()),
                None => return,
            }
        }
        let lines = self.recipe_lines(&mk, &targets);
        self.within(lines, Some(dir), ctx);
    }

    /// The folder, Makefile and targets of a `make` command, read with make's built-in
    /// table: `folder_flags` (`-C DIR`) move it, `script_flags` (`-f FILE`) name the
    /// Makefile, `no_code_flags` (`-n`, `--version` …) run no recipe, the other options
    /// that take a value skip it; a long option's value may follow `=`, a one-letter one's
    /// be the rest of its word (`-Cdir`). None when it runs no recipe or builds a target
    /// named at run time (a signal).
    fn make_call(&mut self, inv: &Invocation) -> Option<MakeCall> {
        let Some(eff) =
            Policy::builtin_effects(&inv.name).or_else(|| Policy::builtin_effects("make"))
        else {
            self.facts
                .signal(SignalName::CodeOpaque, "make's options could not be read");
            return None;
        };
        let mut call = MakeCall {
            dir: inv.cwd.clone(),
            file: None,
            targets: Vec::new(),
        };
        let args = &inv.args;
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            let t = a.text.as_str();
            i += 1;
            if t.starts_with('-') {
                if eff.no_code_flags.contains(t) {
                    return None;
                }
                let (opt, attached) = match t.split_once('=') {
                    Some((o, v)) if t.starts_with("--") => (o, Some(v)),
                    _ if !t.starts_with("--") && t.len() > 2 && t.is_char_boundary(2) => {
                        (&t[..2], Some(&t[2..]))
                    }
                    _ => (t, None),
                };
                if !eff.takes_value(opt) {
                    continue;
                }
                let value = match attached {
                    Some(v) => Some(Word {
                        text: v.to_string(),
                        literal: a.literal,
                    }),
                    None => {
                        i += 1;
                        args.get(i - 1).cloned()
                    }
                };
                let Some(value) = value else { continue };
                if eff.folder_flags.contains(opt) {
                    call.dir = self
                        .resolve(&value, call.dir.as_deref())
                        .lexical
                        .map(PathBuf::from);
                } else if eff.script_flags.contains(opt) {
                    call.file = Some(value.text);
                }
                continue;
            }
            if t.contains('=') {
                continue;
            }
            if !a.literal {
                self.facts.signal(
                    SignalName::CodeOpaque,
                    "make builds a target named at run time",
                );
                return None;
            }
            call.targets.push(t.to_string());
        }
        Some(call)
    }

    /// The Makefile make reads in `dir`: the one named with `-f`, else the first of
    /// `GNUmakefile`, `makefile`, `Makefile` that exists or that the command writes before.
    fn makefile_path(&self, dir: &Path, file: Option<&str>) -> Option<PathBuf> {
        match file {
            Some(f) => {
                let p = Path::new(f);
                Some(if p.is_absolute() {
                    p.to_path_buf()
                } else {
                    dir.join(p)
                })
            }
            None => ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .map(|n| dir.join(n))
                .find(|p| {
                    self.written_before(&p.to_string_lossy())
                        || self.env.fs.canonicalize(p).is_some()
                }),
        }
    }

    /// The recipe lines (label, line) that building `targets` runs, the targets they need
    /// followed; a signal for a target named on the command line whose recipe may come
    /// from an included file.
    fn recipe_lines(&mut self, mk: &Makefile, targets: &[String]) -> Vec<(String, String)> {
        let mut lines = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut todo = targets.to_vec();
        while let Some(t) = todo.pop() {
            if seen.contains(&t) || seen.len() >= MAX_TARGETS {
                continue;
            }
            seen.push(t.clone());
            let rules: Vec<&Rule> = mk.rules.iter().filter(|r| r.targets.contains(&t)).collect();
            if rules.is_empty() && targets.contains(&t) && mk.includes {
                self.facts.signal(
                    SignalName::CodeOpaque,
                    format!("the recipe of `{t}` may come from a file the Makefile includes"),
                );
            }
            for r in rules {
                todo.extend(r.prerequisites.iter().cloned());
                for l in &r.recipe {
                    if lines.len() < MAX_RECIPE_LINES {
                        lines.push((format!("make {t}"), mk.expand(l, &t)));
                    }
                }
            }
        }
        lines
    }
}

/// A rule of a Makefile.
struct Rule {
    targets: Vec<String>,
    prerequisites: Vec<String>,
    recipe: Vec<String>,
}

/// What is read of a Makefile: its rules, plain variables, the default target, and
/// whether it includes other files.
struct Makefile {
    rules: Vec<Rule>,
    vars: Vec<(String, String)>,
    default: Option<String>,
    includes: bool,
}

impl Makefile {
    fn parse(text: &str) -> Makefile {
        let mut mk = Makefile {
            rules: Vec::new(),
            vars: Vec::new(),
            default: None,
            includes: false,
        };
        let mut in_define = false;
        for line in joined_lines(text) {
            if in_define {
                if line.trim_start().starts_with("endef") {
                    in_define = false;
                }
                continue;
            }
            if let Some(r) = line.strip_prefix('\t') {
                if let Some(rule) = mk.rules.last_mut() {
                    rule.recipe.push(r.to_string());
                }
                continue;
            }
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            match t.split_whitespace().next().unwrap_or("") {
                "define" => in_define = true,
                // `-include` is `include` that ignores a missing file.
                d if matches!(d.strip_prefix('-').unwrap_or(d), "include" | "sinclude") => {
                    mk.includes = true
                }
                "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif" | "export"
                | "unexport" | "override" | "vpath" => {}
                _ => mk.statement(t),
            }
        }
        mk
    }

    /// A line that is not a recipe or a directive: a variable (`NAME = v`, `NAME := v`,
    /// `NAME ?= v`, `NAME += v`) or a rule (`targets: prerequisites [; recipe]`).
    fn statement(&mut self, t: &str) {
        if let Some((name, value)) = assignment(t) {
            self.vars.retain(|(n, _)| *n != name);
            self.vars.push((name, value));
            return;
        }
        if let Some(rule) = rule_line(t) {
            if self.default.is_none() {
                self.default = rule
                    .targets
                    .iter()
                    .find(|t| !t.starts_with('.') && !t.contains('%'))
                    .cloned();
            }
            self.rules.push(rule);
        }
    }

    /// A recipe line as the shell gets it: make's prefixes removed, plain variables filled
    /// in, the others unknown.
    fn expand(&self, line: &str, target: &str) -> String {
        let line = line
            .trim_start()
            .trim_start_matches(['@', '-', '+'])
            .trim_start();
        self.expand_vars(line, target, 0)
    }

    fn expand_vars(&self, s: &str, target: &str, depth: usize) -> String {
        let unknown = "\"${MAKE_VALUE}\"";
        let mut out = String::new();
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '$' {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            match chars.get(i + 1) {
                Some('$') => {
                    out.push('$');
                    i += 2;
                }
                Some(&open @ ('(' | '{')) => {
                    let close = if open == '(' { ')' } else { '}' };
                    let mut level = 0;
                    let mut j = i + 1;
                    while j < chars.len() {
                        if chars[j] == open {
                            level += 1;
                        } else if chars[j] == close {
                            level -= 1;
                            if level == 0 {
                                break;
                            }
                        }
                        j += 1;
                    }
                    let name: String = chars[i + 2..j.min(chars.len())].iter().collect();
                    let value = match name.as_str() {
                        "MAKE" => Some("make".to_string()),
                        "CURDIR" => Some(".".to_string()),
                        _ => self
                            .vars
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|(_, v)| v.clone())
                            .filter(|_| depth < 8)
                            .map(|v| self.expand_vars(&v, target, depth + 1)),
                    };
                    out.push_str(value.as_deref().unwrap_or(unknown));
                    i = j + 1;
                }
                Some('@') => {
                    out.push_str(target);
                    i += 2;
                }
                Some(_) => {
                    out.push_str(unknown);
                    i += 2;
                }
                None => i += 1,
            }
        }
        out
    }
}

/// `NAME = value` (or `:=`, `::=`, `?=`, `+=`, `!=`): a Makefile variable.
fn assignment(t: &str) -> Option<(String, String)> {
    let end = t.find(|c: char| c.is_whitespace() || matches!(c, ':' | '=' | '?' | '+' | '!'))?;
    let name = &t[..end];
    if name.is_empty() {
        return None;
    }
    let rest = t[end..].trim_start();
    ["::=", ":=", "?=", "+=", "!=", "="]
        .iter()
        .find_map(|op| rest.strip_prefix(op))
        .map(|v| (name.to_string(), v.trim().to_string()))
}

/// The lines of a Makefile, each with its continuations (a `\` at the end) joined.
fn joined_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for l in text.lines() {
        if let Some(head) = l.strip_suffix('\\') {
            cur.push_str(head);
            cur.push(' ');
            continue;
        }
        cur.push_str(l);
        lines.push(std::mem::take(&mut cur));
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// `targets: prerequisites [| order-only] [; recipe]` (or `::`): a rule, with the recipe
/// written after `;` as its first line.
fn rule_line(t: &str) -> Option<Rule> {
    let (targets, rest) = t.split_once(':')?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let (prereq, inline) = match rest.split_once(';') {
        Some((p, r)) => (p, Some(r.trim().to_string())),
        None => (rest, None),
    };
    Some(Rule {
        targets: targets.split_whitespace().map(str::to_string).collect(),
        prerequisites: prereq
            .split('|')
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect(),
        recipe: inline.into_iter().filter(|r| !r.is_empty()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makefiles() {
        let mk = Makefile::parse(
            "CC := gcc\nOUT = build\n\nall: app\n\napp: main.o\n\t@$(CC) -o $(OUT)/$@ main.o\n\nclean:\n\trm -rf $(OUT) \\\n\t  tmp\n\nx: ; echo inline\n",
        );
        assert_eq!(mk.default.as_deref(), Some("all"));
        let app = mk.rules.iter().find(|r| r.targets == ["app"]).expect("app");
        assert_eq!(mk.expand(&app.recipe[0], "app"), "gcc -o build/app main.o");
        let clean = mk
            .rules
            .iter()
            .find(|r| r.targets == ["clean"])
            .expect("clean");
        assert_eq!(
            mk.expand(&clean.recipe[0], "clean")
                .split_whitespace()
                .collect::<Vec<_>>(),
            ["rm", "-rf", "build", "tmp"]
        );
        let x = mk.rules.iter().find(|r| r.targets == ["x"]).expect("x");
        assert_eq!(x.recipe, ["echo inline"]);
        assert_eq!(
            mk.expand("echo $$HOME $(UNKNOWN)", "t"),
            "echo $HOME \"${MAKE_VALUE}\""
        );
    }
}
