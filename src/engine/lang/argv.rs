//! Interpreter command lines: where the code comes from (an option's value, standard
//! input, a script file), and the options that load other code (which make it opaque).
//!
//! The options themselves are data: each interpreter's table in the built-in policy
//! (`policy/19-options-shells.toml`, awk's in `policy/17-options-clis.toml`) says which
//! option gives the code (`code_flags`), the script (`script_flags`), a module run as the
//! program (`module_flags`), a library (`library_flags`), which load other code
//! (`load_flags`), loop over files (`loop_flags`), rewrite them (`in_place_flags`), run no
//! code (`no_code_flags`, `version_flags`), change nothing (`inert_flags`, `value_flags`),
//! and how a short option's value is written (`attached_flags`, `number_flags`). What is
//! here is how each interpreter reads its words: which cluster its short options (Python,
//! Ruby, Perl) and which take whole words (Node, PHP, awk), where its options end and its
//! script's arguments begin. Only the built-in tables are read: a user's or a project's
//! table cannot change where code is found. An option no list names makes the code opaque.

use std::sync::LazyLock;

use super::Lang;
use crate::engine::policy::{Effects, Policy};
use crate::engine::shell::Word;

/// An interpreter's option table, as the built-in policy has it (none: every option is
/// unknown).
#[derive(Clone, Copy)]
struct Grammar(&'static Effects);

static NO_TABLE: LazyLock<Effects> = LazyLock::new(Effects::default);

/// What an option is to the language reader, in the order the lists are looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    NoCode,
    Version,
    Code,
    Script,
    Module,
    Library,
    InPlace,
    /// Loads other code; `true` when it takes a value in the next word (or the rest of
    /// its word).
    Load(bool),
    /// Changes nothing; `true` when it takes a value.
    Inert(bool),
    /// A value only in the rest of its word.
    Attached,
    /// An optional number in its word, then more options.
    Number,
    Loop,
    Unknown,
}

impl Grammar {
    fn of(table: &str) -> Grammar {
        Grammar(Policy::builtin_effects(table).unwrap_or(&NO_TABLE))
    }

    fn role(self, opt: &str) -> Role {
        let e = self.0;
        if e.no_code_flags.contains(opt) {
            Role::NoCode
        } else if e.version_flags.contains(opt) {
            Role::Version
        } else if e.code_flags.contains(opt) {
            Role::Code
        } else if e.script_flags.contains(opt) {
            Role::Script
        } else if e.module_flags.contains(opt) {
            Role::Module
        } else if e.library_flags.contains(opt) {
            Role::Library
        } else if e.in_place_flags.contains(opt) {
            Role::InPlace
        } else if e.load_flags.contains(opt) {
            Role::Load(!e.attached_flags.contains(opt))
        } else if e.loop_flags.contains(opt) {
            Role::Loop
        } else if e.number_flags.contains(opt) {
            Role::Number
        } else if e.attached_flags.contains(opt) {
            Role::Attached
        } else if e.value_flags.contains(opt) {
            Role::Inert(true)
        } else if e.inert_flags.contains(opt) {
            Role::Inert(false)
        } else {
            Role::Unknown
        }
    }

    /// The role of an option word, and for a long one (`--opt=VALUE`) its attached value.
    fn long(self, t: &str) -> (Role, Option<&str>) {
        match self.role(t) {
            Role::Unknown if t.starts_with("--") => match t.split_once('=') {
                Some((opt, v)) => (self.role(opt), Some(v)),
                None => (Role::Unknown, None),
            },
            r => (r, None),
        }
    }
}

/// Where an interpreter's code comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Given on the command line (several `-e` are joined by newlines).
    Inline(Vec<Word>),
    /// Read from standard input.
    Stdin,
    /// A script file.
    File(Word),
}

/// How a command line runs code in a language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeCall {
    pub lang: Lang,
    pub source: Source,
    /// An option that runs or loads other code, or that this reading does not know.
    pub opaque: Option<String>,
    /// Files the code's implicit loop reads (`perl -ne CODE FILE`, `ruby -n`, awk).
    pub inputs: Vec<Word>,
    /// `-i`: the input files are rewritten.
    pub in_place: bool,
}

impl CodeCall {
    fn new(lang: Lang) -> CodeCall {
        CodeCall {
            lang,
            source: Source::Stdin,
            opaque: None,
            inputs: Vec::new(),
            in_place: false,
        }
    }
    fn unknown_option(&mut self, name: &str, opt: &str) {
        if self.opaque.is_none() {
            self.opaque = Some(format!("`{name} {opt}`: an option that is not analysed"));
        }
    }
    fn loads(&mut self, name: &str, opt: &str) {
        if self.opaque.is_none() {
            self.opaque = Some(format!("`{name} {opt}` loads other code first"));
        }
    }
    /// The inline code as one text, and whether all of it is known.
    pub fn inline_text(&self) -> Option<(String, bool)> {
        match &self.source {
            Source::Inline(ws) => Some((
                ws.iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                ws.iter().all(|w| w.literal),
            )),
            _ => None,
        }
    }
}

/// The language a program name runs: the entry of the built-in `languages` kind
/// (`policy/00-paths.toml`) that names it, a version left out (`python3.12` is `python`).
pub fn language(name: &str) -> Option<Lang> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let lang = Policy::builtin_kinds().languages.iter().find_map(|entry| {
        let (lang, names) = entry.split_once(':')?;
        names
            .split_whitespace()
            .any(|n| n == base)
            .then(|| lang.trim())
    })?;
    match lang {
        "python" => Some(Lang::Python),
        "javascript" => Some(Lang::JavaScript),
        "ruby" => Some(Lang::Ruby),
        "php" => Some(Lang::Php),
        "perl" => Some(Lang::Perl),
        "awk" => Some(Lang::Awk),
        _ => None,
    }
}

/// How `name args…` runs code, if it does: `None` when it runs none of its own (`--version`,
/// `python3 -m module`, `deno fmt`), which the command rules judge as before.
pub fn command_line(name: &str, args: &[Word]) -> Option<CodeCall> {
    let lang = language(name)?;
    match lang {
        Lang::Python => python(name, args),
        Lang::JavaScript => match name {
            "deno" => deno(args),
            "bun" => bun(args),
            _ => node(name, args),
        },
        Lang::Ruby => ruby(name, args),
        Lang::Php => php(name, args),
        Lang::Perl => perl(name, args),
        Lang::Awk => awk(name, args),
    }
}

fn python(name: &str, args: &[Word]) -> Option<CodeCall> {
    let g = Grammar::of("python");
    let mut c = CodeCall::new(Lang::Python);
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "-" {
            return Some(c);
        }
        if t == "--" {
            c.source = Source::File(args.get(i + 1)?.clone());
            return Some(c);
        }
        if t.starts_with("--") {
            match g.long(t) {
                (Role::NoCode, _) => return None,
                (Role::Inert(true), None) => i += 1,
                (Role::Inert(_), _) => {}
                _ => c.unknown_option(name, t),
            }
            i += 1;
            continue;
        }
        if let Some(flags) = t.strip_prefix('-') {
            for (j, f) in flags.char_indices() {
                let rest = &flags[j + f.len_utf8()..];
                match g.role(&format!("-{f}")) {
                    Role::Code => {
                        let code = if rest.is_empty() {
                            args.get(i + 1)?.clone()
                        } else {
                            Word {
                                text: rest.to_string(),
                                literal: args[i].literal,
                            }
                        };
                        c.source = Source::Inline(vec![code]);
                        return Some(c);
                    }
                    Role::Module => {
                        let module = if rest.is_empty() {
                            args.get(i + 1)
                        } else {
                            None
                        };
                        let module_text = module.map_or(rest, |w| w.text.as_str());
                        let after = i + if rest.is_empty() { 2 } else { 1 };
                        return match module_text {
                            "json.tool" if module.is_none_or(|w| w.literal) => {
                                json_tool(c, &args[after.min(args.len())..])
                            }
                            // Another module run as the program: no code of its own.
                            _ => None,
                        };
                    }
                    // Help or version: no code of its own.
                    Role::NoCode => return None,
                    Role::Inert(true) => {
                        if rest.is_empty() {
                            i += 1;
                        }
                        break;
                    }
                    Role::Inert(false) => {}
                    _ => c.unknown_option(name, t),
                }
            }
            i += 1;
            continue;
        }
        c.source = Source::File(args[i].clone());
        return Some(c);
    }
    Some(c)
}

/// `python3 -m json.tool [OPTIONS] [INFILE]`: the module reads INFILE (or its input) and
/// prints it formatted; read as the code `import json.tool` (a file of the project named
/// like the module would be loaded instead) with INFILE its input. A second file is where
/// it writes, and an option its table (`python -m json.tool`) does not know may be one that
/// does: no code read, so the command rules judge it.
fn json_tool(mut c: CodeCall, args: &[Word]) -> Option<CodeCall> {
    let table = Grammar::of("python -m json.tool").0;
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        let opt = t.split_once('=').map_or(t, |(o, _)| o);
        if t.starts_with('-') && t != "-" {
            if table.value_flags.contains(opt) {
                if opt == t {
                    i += 1;
                }
            } else if !table.flags.contains(t) {
                return None;
            }
        } else {
            files.push(args[i].clone());
        }
        i += 1;
    }
    if files.len() > 1 {
        return None;
    }
    c.source = Source::Inline(vec![Word::lit("import json.tool")]);
    c.inputs = files.into_iter().filter(|f| f.text != "-").collect();
    Some(c)
}

fn node(name: &str, args: &[Word]) -> Option<CodeCall> {
    let g = Grammar::of("node");
    let mut c = CodeCall::new(Lang::JavaScript);
    let mut i = 0;
    let mut wants_code = false;
    while i < args.len() {
        let t = args[i].text.as_str();
        if wants_code {
            c.source = Source::Inline(vec![args[i].clone()]);
            return Some(c);
        }
        match t {
            "-" => return Some(c),
            "--" => {
                c.source = Source::File(args.get(i + 1)?.clone());
                return Some(c);
            }
            _ if t.starts_with('-') => match g.long(t) {
                (Role::NoCode, _) => return None,
                (Role::Code, None) => wants_code = true,
                (Role::Code, Some(code)) => {
                    c.source = Source::Inline(vec![Word {
                        text: code.to_string(),
                        literal: args[i].literal,
                    }]);
                    return Some(c);
                }
                (Role::Load(_), attached) => {
                    c.loads(name, t);
                    if attached.is_none() {
                        i += 1;
                    }
                }
                (Role::Inert(_), _) => {}
                _ => c.unknown_option(name, t),
            },
            _ => {
                c.source = Source::File(args[i].clone());
                return Some(c);
            }
        }
        i += 1;
    }
    if wants_code {
        return None;
    }
    Some(c)
}

/// `deno eval [OPTIONS] CODE`: the options are those of its table `deno eval`.
fn deno(args: &[Word]) -> Option<CodeCall> {
    let mut c = CodeCall::new(Lang::JavaScript);
    let sub = args.first()?.text.as_str();
    let rest = &args[1..];
    match sub {
        "eval" => {
            let g = Grammar::of("deno eval");
            for w in rest {
                if w.text.starts_with('-') {
                    if g.role(&w.text) != Role::Inert(false) {
                        c.unknown_option("deno eval", &w.text);
                    }
                    continue;
                }
                c.source = Source::Inline(vec![w.clone()]);
                return Some(c);
            }
            None
        }
        _ => None,
    }
}

/// `bun -e CODE`: only its first word may give code.
fn bun(args: &[Word]) -> Option<CodeCall> {
    let mut c = CodeCall::new(Lang::JavaScript);
    match Grammar::of("bun").role(&args.first()?.text) {
        Role::Code => {
            c.source = Source::Inline(vec![args.get(1)?.clone()]);
            Some(c)
        }
        _ => None,
    }
}

/// Whether a Ruby library is one whose loading has no effect of its own: one of the
/// `inert_libraries` of ruby's built-in table.
pub fn ruby_lib(lib: &str) -> bool {
    Grammar::of("ruby").0.inert_libraries.contains(lib)
}

fn ruby(name: &str, args: &[Word]) -> Option<CodeCall> {
    let g = Grammar::of("ruby");
    let mut c = CodeCall::new(Lang::Ruby);
    let mut code: Vec<Word> = Vec::new();
    let mut loops = false;
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if t == "-" {
            i += 1;
            break;
        }
        if !t.starts_with('-') || t.len() == 1 {
            break;
        }
        if t.starts_with("--") {
            match g.long(t) {
                (Role::NoCode, _) => return None,
                (Role::Inert(_), _) => {}
                _ => c.unknown_option(name, t),
            }
            i += 1;
            continue;
        }
        let consumed_next = ruby_flags(g, name, args, i, &mut c, &mut code, &mut loops)?;
        i += if consumed_next { 2 } else { 1 };
    }
    let rest = &args[i.min(args.len())..];
    if code.is_empty() {
        match rest.first() {
            Some(f) => c.source = Source::File(f.clone()),
            None => c.source = Source::Stdin,
        }
        return Some(c);
    }
    c.source = Source::Inline(code);
    // Files after the code: read by `-n`/`-p` (and by `ARGF` or `gets` in any case).
    if loops || c.in_place {
        c.inputs = rest.to_vec();
    }
    Some(c)
}

/// One word of Ruby's short options (`-ne`, `-rjson`): the code, libraries and modes it
/// gives. True when it took the next word as its value; `None` when the run does not run
/// code (`-v` alone, `-c` …) or a value is missing.
fn ruby_flags(
    g: Grammar,
    name: &str,
    args: &[Word],
    i: usize,
    c: &mut CodeCall,
    code: &mut Vec<Word>,
    loops: &mut bool,
) -> Option<bool> {
    let t = args[i].text.as_str();
    let flags = &t[1..];
    let mut consumed_next = false;
    for (j, f) in flags.char_indices() {
        let rest = &flags[j + f.len_utf8()..];
        match g.role(&format!("-{f}")) {
            Role::Code => {
                code.push(cluster_value(args, i, rest, &mut consumed_next)?);
                break;
            }
            Role::Library => {
                let lib = cluster_value(args, i, rest, &mut consumed_next)
                    .map(|w| w.text)
                    .unwrap_or_default();
                if !ruby_lib(&lib) {
                    c.opaque = Some(format!("`{name} -{f} {lib}` loads other code first"));
                }
                break;
            }
            Role::InPlace => {
                c.in_place = true;
                break;
            }
            Role::Inert(true) => {
                if rest.is_empty() {
                    consumed_next = true;
                }
                break;
            }
            Role::Attached => break,
            Role::Loop => *loops = true,
            // `-v` alone prints the version; before code it only turns warnings on.
            Role::Version if args.len() == 1 => return None,
            Role::Version | Role::Inert(false) | Role::Number => {}
            Role::NoCode => return None,
            Role::Load(takes) => {
                c.loads(name, t);
                if takes && rest.is_empty() {
                    consumed_next = true;
                }
                break;
            }
            Role::Script | Role::Module | Role::Unknown => c.unknown_option(name, t),
        }
    }
    Some(consumed_next)
}

fn perl(name: &str, args: &[Word]) -> Option<CodeCall> {
    let g = Grammar::of("perl");
    let mut c = CodeCall::new(Lang::Perl);
    let mut code: Vec<Word> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if !t.starts_with('-') || t.len() == 1 {
            break;
        }
        if t.starts_with("--") {
            if g.role(t) == Role::NoCode {
                return None;
            }
            c.unknown_option(name, t);
            i += 1;
            continue;
        }
        let consumed_next = perl_flags(g, name, args, i, &mut c, &mut code)?;
        i += if consumed_next { 2 } else { 1 };
    }
    let rest = &args[i.min(args.len())..];
    if code.is_empty() {
        match rest.first() {
            Some(f) => c.source = Source::File(f.clone()),
            None => c.source = Source::Stdin,
        }
        return Some(c);
    }
    c.source = Source::Inline(code);
    c.inputs = rest.to_vec();
    if c.opaque.is_none() && !c.inputs.iter().all(plain_file_name) {
        c.opaque = Some(
            "Perl's `-n`/`-p` loop opens a file name such as `cmd|` or `>f` as a command or a write"
                .into(),
        );
    }
    Some(c)
}

/// A file name the `-n`/`-p` loop of Perl (`<>`, which opens with the two-argument `open`)
/// opens for reading whatever it is: the characters that make a name a command, a write or
/// a duplicated descriptor (`|`, `<`, `>`, `&`, `+`, spaces) count only at its start or end,
/// so a known name without them passes, and so does a glob whose first and last characters
/// are plain (`./*.log`, `src/*.rs`: whatever file it names starts and ends like that).
fn plain_file_name(w: &Word) -> bool {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._/~,:=%@-".contains(c);
    let t = w.text.as_str();
    let (Some(first), Some(last)) = (t.chars().next(), t.chars().last()) else {
        return false;
    };
    let glob_ok = !w.literal && !t.contains(['$', '`', '(', ')', '{', '}']);
    first != '-'
        && plain(first)
        && plain(last)
        && t.chars()
            .all(|c| plain(c) || (glob_ok && matches!(c, '*' | '?' | '[' | ']' | '!')))
}

/// One word of Perl's short options (`-ne`, `-MPOSIX`): the code and modes it gives. True
/// when it took the next word as its value; `None` when the run does not run code (`-v`,
/// `-c` …) or a value is missing.
fn perl_flags(
    g: Grammar,
    name: &str,
    args: &[Word],
    i: usize,
    c: &mut CodeCall,
    code: &mut Vec<Word>,
) -> Option<bool> {
    let t = args[i].text.as_str();
    let flags = &t[1..];
    let mut consumed_next = false;
    for (j, f) in flags.char_indices() {
        let rest = &flags[j + f.len_utf8()..];
        match g.role(&format!("-{f}")) {
            Role::Code => {
                code.push(cluster_value(args, i, rest, &mut consumed_next)?);
                break;
            }
            Role::InPlace => {
                c.in_place = true;
                break;
            }
            // No Perl module is known to have no effect of its own.
            Role::Library | Role::Load(true) => {
                c.loads(name, t);
                if rest.is_empty() {
                    consumed_next = true;
                }
                break;
            }
            Role::Load(false) => {
                c.loads(name, t);
                break;
            }
            Role::Inert(true) => {
                if rest.is_empty() {
                    consumed_next = true;
                }
                break;
            }
            Role::Attached => break,
            // An optional octal number, then more options may follow.
            Role::Number if rest.starts_with(|c: char| c.is_ascii_digit()) => break,
            Role::Number | Role::Loop | Role::Inert(false) => {}
            Role::NoCode => return None,
            Role::Version | Role::Script | Role::Module | Role::Unknown => {
                c.unknown_option(name, t)
            }
        }
    }
    Some(consumed_next)
}

fn php(name: &str, args: &[Word]) -> Option<CodeCall> {
    let g = Grammar::of("php");
    let mut c = CodeCall::new(Lang::Php);
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            c.source = Source::File(args.get(i + 1)?.clone());
            return Some(c);
        }
        if !t.starts_with('-') {
            c.source = Source::File(args[i].clone());
            return Some(c);
        }
        match g.role(t) {
            Role::Code => {
                c.source = Source::Inline(vec![args.get(i + 1)?.clone()]);
                return Some(c);
            }
            Role::Script => {
                c.source = Source::File(args.get(i + 1)?.clone());
                return Some(c);
            }
            Role::NoCode => return None,
            Role::Inert(false) => {}
            Role::Load(_) => {
                c.loads(name, t);
                i += 1;
            }
            _ => c.unknown_option(name, t),
        }
        i += 1;
    }
    Some(c)
}

fn awk(name: &str, args: &[Word]) -> Option<CodeCall> {
    // gawk, mawk and nawk are read as awk is: the options that give or load code are the
    // same where they have them.
    let g = Grammar::of("awk");
    let mut c = CodeCall::new(Lang::Awk);
    let mut i = 0;
    let mut program: Option<Word> = None;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if !t.starts_with('-') || t.len() == 1 {
            break;
        }
        // `-F,`, `-vX=1`: a short option with its value in the same word.
        let attached = !t.starts_with("--")
            && t.len() > 2
            && t.get(..2).is_some_and(|o| g.role(o) == Role::Inert(true));
        match g.role(t) {
            Role::Inert(true) => i += 2,
            Role::Script => {
                c.source = Source::File(args.get(i + 1)?.clone());
                program = Some(Word::lit(""));
                i += 2;
            }
            Role::Code => {
                program = args.get(i + 1).cloned();
                i += 2;
            }
            Role::NoCode => return None,
            _ if attached => i += 1,
            // gawk's `-i inplace` (its table's `in_place_flags`) loads a library too.
            Role::Load(_) | Role::InPlace => {
                c.loads(name, t);
                i += 2;
            }
            Role::Inert(false) => i += 1,
            _ => {
                c.unknown_option(name, t);
                i += 1;
            }
        }
    }
    let rest = &args[i.min(args.len())..];
    let files = match program {
        Some(p) => {
            if matches!(c.source, Source::Stdin) {
                c.source = Source::Inline(vec![p]);
            }
            rest
        }
        None => match rest.split_first() {
            Some((p, files)) => {
                c.source = Source::Inline(vec![p.clone()]);
                files
            }
            None => return None,
        },
    };
    c.inputs = files
        .iter()
        .filter(|w| !w.text.contains('=') || w.text.starts_with('/') || w.text.starts_with('.'))
        .cloned()
        .collect();
    Some(c)
}

/// The value of the short option that ends a cluster (`-e CODE`, `-eCODE`, `-rjson`): the
/// rest of the cluster, or else the next word (which `consumed_next` then says was taken).
fn cluster_value(args: &[Word], i: usize, rest: &str, consumed_next: &mut bool) -> Option<Word> {
    if rest.is_empty() {
        *consumed_next = true;
        args.get(i + 1).cloned()
    } else {
        Some(Word {
            text: rest.to_string(),
            literal: args[i].literal,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::lit).collect()
    }

    #[test]
    fn python_forms() {
        let c = python("python3", &words("-c print(1) a")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("print(1)")]));
        let c = python("python3", &words("-Ic x")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        assert_eq!(
            python("python3", &words("-")).unwrap().source,
            Source::Stdin
        );
        assert_eq!(python("python3", &[]).unwrap().source, Source::Stdin);
        assert_eq!(
            python("python3", &words("-u tool.py x")).unwrap().source,
            Source::File(Word::lit("tool.py"))
        );
        assert!(python("python3", &words("-m pytest")).is_none());
        // `-m json.tool` reads its one file; a second is a file it writes.
        let c = python("python3", &words("-m json.tool --indent 2 a.json")).unwrap();
        assert_eq!(c.inputs, vec![Word::lit("a.json")]);
        assert_eq!(
            c.source,
            Source::Inline(vec![Word::lit("import json.tool")])
        );
        assert!(python("python3", &words("-m json.tool a.json b.json")).is_none());
        assert!(python("python3", &words("-m json.tool --unknown a.json")).is_none());
        assert!(python("python3", &words("--version")).is_none());
        assert!(python("python3", &words("-Z -c x"))
            .unwrap()
            .opaque
            .is_some());
    }

    #[test]
    fn node_forms() {
        let c = node("node", &words("-e x")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        let c = node("node", &words("-pe x")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        let c = node("node", &words("--eval=x")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        assert!(node("node", &words("-r ./hook -e x"))
            .unwrap()
            .opaque
            .is_some());
        assert!(node("node", &words("--version")).is_none());
        assert_eq!(node("node", &words("-")).unwrap().source, Source::Stdin);
        assert_eq!(
            node("node", &words("x.js")).unwrap().source,
            Source::File(Word::lit("x.js"))
        );
        assert!(deno(&words("eval x")).is_some());
        assert!(deno(&words("fmt")).is_none());
        assert!(bun(&words("-e x")).is_some());
    }

    #[test]
    fn ruby_perl_php_awk_forms() {
        let c = ruby("ruby", &words("-rjson -e x f.txt")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        assert!(c.opaque.is_none());
        assert!(ruby("ruby", &words("-rmylib -e x"))
            .unwrap()
            .opaque
            .is_some());
        let c = ruby("ruby", &words("-ne x f.txt")).unwrap();
        assert_eq!(c.inputs, vec![Word::lit("f.txt")]);
        let c = perl("perl", &words("-pi -e s/a/b/ f.txt")).unwrap();
        assert!(c.in_place);
        assert_eq!(c.inputs, vec![Word::lit("f.txt")]);
        let c = perl("perl", &words("-ne x log.txt")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        // The loop opens `cmd|`, `>f` and names made at run time as commands or writes.
        for bad in ["ls|", ">out", "*.log", "-x"] {
            let args = vec![Word::lit("-ne"), Word::lit("print"), Word::lit(bad)];
            let c = perl("perl", &args).unwrap();
            assert!(c.opaque.is_some(), "{bad}");
        }
        let glob = Word {
            text: "src/*.rs".into(),
            literal: false,
        };
        let c = perl("perl", &[Word::lit("-ne"), Word::lit("print"), glob]).unwrap();
        assert!(c.opaque.is_none());
        let c = php("php", &words("-r x")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("x")]));
        // `-i LIB` takes its value: the program is the word after it.
        let c = awk("awk", &words("-i inplace {print} a.csv")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("{print}")]));
        assert!(c.opaque.is_some());
        let c = awk("awk", &words("-F, {print} a.csv")).unwrap();
        assert_eq!(c.source, Source::Inline(vec![Word::lit("{print}")]));
        assert_eq!(c.inputs, vec![Word::lit("a.csv")]);
    }
}
