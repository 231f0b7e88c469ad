//! Perl and awk, which have no grammar here.
//!
//! No tree-sitter grammar for either serves this build: the crates.io `tree-sitter-perl`
//! needs another version of the tree-sitter library than the one linked here, and there is
//! no awk grammar crate. So their code is never judged Safe by what it does: Perl code is
//! opaque (but for the print loops `perl_loop` reads in full), and awk keeps the rules it has as a command (`read.awk`). What these functions
//! add is stricter only: the commands and files their code names as plain strings, found
//! by a scan of its tokens (strings, words, punctuation), are judged like the effects of
//! any code: `system("rm -rf ~")` in either language is denied, not only asked about.

use super::{Effect, Judged, Part, Text};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Str(Text),
    /// A command in backticks or `qx`.
    Cmd(Text),
    Punct(char),
}

/// Perl: opaque, and the commands, deletes and writes its strings name; unless it is a
/// loop body that only prints (see [`super::perl_loop`]), which has no effects of its own.
pub fn perl(src: &str) -> Judged {
    let mut out = Judged::default();
    if super::perl_loop::is_print_loop(src) {
        return out;
    }
    out.opaque("Perl code is not read by a grammar here");
    for stmt in statements(&tokens(src, true)) {
        let words: Vec<&str> = stmt
            .iter()
            .filter_map(|t| match t {
                Tok::Word(w) => Some(w.as_str()),
                _ => None,
            })
            .collect();
        let strings = || {
            stmt.iter().filter_map(|t| match t {
                Tok::Str(s) => Some(s.clone()),
                Tok::Word(w) if w == "$ENV{HOME}" => Some(Text::home()),
                _ => None,
            })
        };
        for t in &stmt {
            if let Tok::Cmd(c) = t {
                out.push(Effect::Shell(c.clone()));
            }
        }
        let has = |k: &[&str]| words.iter().any(|w| k.contains(w));
        if has(&["system", "exec", "readpipe"]) {
            let args: Vec<Text> = strings().collect();
            match args.as_slice() {
                [one] => out.push(Effect::Shell(one.clone())),
                [] => {}
                many => out.push(Effect::Exec(many.to_vec())),
            }
        }
        let recursive = has(&["rmtree", "remove_tree"]);
        if recursive || has(&["unlink", "rmdir"]) {
            for s in strings() {
                out.push(Effect::Delete { path: s, recursive });
            }
        }
        if has(&["open", "sysopen"]) {
            let all: Vec<Text> = strings().collect();
            for (i, s) in all.iter().enumerate() {
                let Some(Part::Lit(first)) = s.0.first() else {
                    continue;
                };
                if let Some(cmd) = first.strip_prefix('|').or_else(|| first.strip_suffix('|')) {
                    let mut t = s.clone();
                    t.0[0] = Part::Lit(cmd.trim().to_string());
                    out.push(Effect::Shell(t));
                } else if first.starts_with('>') || first.starts_with("+<") {
                    let rest = first.trim_start_matches(['>', '+', '<']).trim_start();
                    if rest.is_empty() {
                        if let Some(p) = all.get(i + 1) {
                            out.push(Effect::Write(p.clone()));
                        }
                    } else {
                        let mut t = s.clone();
                        t.0[0] = Part::Lit(rest.to_string());
                        out.push(Effect::Write(t));
                    }
                } else if first == "-|" || first == "|-" {
                    out.push(Effect::Exec(all[i + 1..].to_vec()));
                }
            }
        }
    }
    out
}

/// awk: the commands it runs (`system(…)`, `print | "cmd"`, `"cmd" | getline`) and the
/// files it prints to (`print > "file"`), when written as plain strings.
pub fn awk(src: &str) -> Judged {
    let mut out = Judged::default();
    let toks = tokens(src, false);
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        let prev = i.checked_sub(1).and_then(|j| toks.get(j));
        match t {
            Tok::Word(w) if w == "system" => {
                if let (Some(Tok::Punct('(')), Some(Tok::Str(s))) = (next, toks.get(i + 2)) {
                    out.push(Effect::Shell(s.clone()));
                } else {
                    out.opaque("awk runs a command built at run time");
                }
            }
            Tok::Punct('|') => {
                if let Some(Tok::Str(s)) = next {
                    out.push(Effect::Shell(s.clone()));
                }
                if let (Some(Tok::Str(s)), Some(Tok::Word(g))) = (prev, next) {
                    if g == "getline" {
                        out.push(Effect::Shell(s.clone()));
                    }
                }
            }
            Tok::Punct('>') => {
                // `print > "f"`, `print >> "f"`: a redirection when a print came before
                // in the statement; else most likely a comparison.
                let printed = toks[..i]
                    .iter()
                    .rev()
                    .take_while(|t| !matches!(t, Tok::Punct(';' | '{' | '}' | '\n')))
                    .any(|t| matches!(t, Tok::Word(w) if w == "print" || w == "printf"));
                let target = match next {
                    Some(Tok::Punct('>')) => toks.get(i + 2),
                    other => other,
                };
                if printed {
                    if let Some(Tok::Str(s)) = target {
                        out.push(Effect::Write(s.clone()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Statements: tokens between `;`, newlines and braces.
fn statements(toks: &[Tok]) -> Vec<Vec<Tok>> {
    let mut out = vec![Vec::new()];
    for t in toks {
        if matches!(t, Tok::Punct(';' | '\n' | '{' | '}')) {
            out.push(Vec::new());
        } else if let Some(last) = out.last_mut() {
            last.push(t.clone());
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The closing delimiter of a Perl quote-like operator.
fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        c => c,
    }
}

fn tokens(src: &str, perl: bool) -> Vec<Tok> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '\n' {
            out.push(Tok::Punct('\n'));
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '"' || c == '\'' || (perl && c == '`') {
            let (body, end) = quoted(&chars, i + 1, c);
            let interp = c != '\'';
            let t = value(&body, interp, perl);
            out.push(if c == '`' { Tok::Cmd(t) } else { Tok::Str(t) });
            i = end;
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '$' || c == '@' || c == '%' && perl {
            let start = i;
            i += 1;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == ':')
            {
                i += 1;
            }
            let mut w: String = chars[start..i].iter().collect();
            // `$ENV{HOME}` and `$ENV{'HOME'}`.
            if perl && w == "$ENV" && chars.get(i) == Some(&'{') {
                let close = chars[i..].iter().position(|&c| c == '}').map(|p| i + p);
                if let Some(close) = close {
                    let key: String = chars[i + 1..close]
                        .iter()
                        .filter(|c| c.is_alphanumeric() || **c == '_')
                        .collect();
                    w = format!("$ENV{{{key}}}");
                    i = close + 1;
                }
            }
            // `q(…)`, `qq{…}`, `qx/…/`.
            if perl && matches!(w.as_str(), "q" | "qq" | "qx" | "qw") {
                if let Some(&open) = chars.get(i).filter(|c| {
                    !c.is_alphanumeric()
                        && !c.is_whitespace()
                        && **c != ','
                        && **c != ';'
                        && **c != '='
                }) {
                    let (body, end) = quoted(&chars, i + 1, closing(open));
                    let t = value(&body, w != "q" && w != "qw", perl);
                    out.push(if w == "qx" { Tok::Cmd(t) } else { Tok::Str(t) });
                    i = end;
                    continue;
                }
            }
            out.push(Tok::Word(w));
            continue;
        }
        out.push(Tok::Punct(c));
        i += 1;
    }
    out
}

/// The text up to an unescaped `close`, and the index after it.
fn quoted(chars: &[char], mut i: usize, close: char) -> (String, usize) {
    let mut s = String::new();
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            s.push(c);
            s.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if c == close {
            return (s, i + 1);
        }
        s.push(c);
        i += 1;
    }
    (s, i)
}

/// A string's value: escapes undone, `$ENV{HOME}` as the home folder, other variables
/// unknown (in strings that interpolate).
fn value(body: &str, interp: bool, perl: bool) -> Text {
    if !interp {
        return Text::lit(body.replace("\\'", "'").replace("\\\\", "\\"));
    }
    let mut t = Text::default();
    let mut lit = String::new();
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            lit.push(match chars[i + 1] {
                'n' => '\n',
                't' => '\t',
                other => other,
            });
            i += 2;
            continue;
        }
        if perl
            && (c == '$' || c == '@')
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_alphanumeric() || *n == '{' || *n == '_')
        {
            let rest: String = chars[i..].iter().collect();
            let home = ["$ENV{HOME}", "$ENV{'HOME'}", "$ENV{\"HOME\"}"]
                .iter()
                .find(|h| rest.starts_with(**h));
            t = t.concat(Text::lit(std::mem::take(&mut lit)));
            match home {
                Some(h)
                    if t.0
                        .iter()
                        .all(|p| matches!(p, Part::Lit(s) if s.is_empty())) =>
                {
                    t = Text::home();
                    i += h.chars().count();
                }
                _ => {
                    t = t.concat(Text::unknown());
                    i += 1;
                    while i < chars.len()
                        && (chars[i].is_alphanumeric()
                            || matches!(chars[i], '_' | '{' | '}' | '\'' | ':'))
                    {
                        i += 1;
                    }
                }
            }
            continue;
        }
        lit.push(c);
        i += 1;
    }
    t.concat(Text::lit(lit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Text {
        Text::lit(s)
    }

    #[test]
    fn perl_commands_and_files() {
        let e = perl("system(\"rm -rf /\")").effects;
        assert!(e.contains(&Effect::Shell(lit("rm -rf /"))), "{e:?}");
        assert!(e.iter().any(|x| matches!(x, Effect::Opaque(_))));
        assert!(perl("my $x = `rm -rf ~`;")
            .effects
            .contains(&Effect::Shell(lit("rm -rf ~"))));
        assert!(perl("qx{rm -rf ~}")
            .effects
            .contains(&Effect::Shell(lit("rm -rf ~"))));
        let e = perl("use File::Path; rmtree($ENV{HOME})").effects;
        assert!(
            e.contains(&Effect::Delete {
                path: Text::home(),
                recursive: true
            }),
            "{e:?}"
        );
        let e =
            perl("open(my $f, '>>', \"$ENV{HOME}/.ssh/authorized_keys\"); print $f 'k'").effects;
        assert!(
            e.contains(&Effect::Write(lit("~/.ssh/authorized_keys"))),
            "{e:?}"
        );
        // A print loop has no effects and is not opaque; any other code is opaque.
        assert!(perl("print if /ERROR/").effects.is_empty());
        let e = perl("print for 1..3").effects;
        assert_eq!(e.len(), 1);
        assert!(matches!(e[0], Effect::Opaque(_)), "{e:?}");
    }

    #[test]
    fn awk_commands_and_files() {
        assert!(awk("BEGIN { system(\"rm -rf ~\") }")
            .effects
            .contains(&Effect::Shell(lit("rm -rf ~"))));
        assert!(awk("{ print | \"sh\" }")
            .effects
            .contains(&Effect::Shell(lit("sh"))));
        assert!(awk("BEGIN { while ((\"ls\" | getline l) > 0) print l }")
            .effects
            .contains(&Effect::Shell(lit("ls"))));
        assert!(awk("{ print > \"/etc/passwd\" }")
            .effects
            .contains(&Effect::Write(lit("/etc/passwd"))));
        assert!(awk("$1 > 10 { print }").effects.is_empty());
    }
}
