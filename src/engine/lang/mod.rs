//! Code in other languages: what a snippet of Python, JavaScript, Ruby or PHP would do.
//!
//! An interpreter given code on its command line (`python3 -c`, `node -e`, `ruby -e`,
//! `php -r`), on its standard input or in a small script file runs that code; this module
//! reads it with the language's tree-sitter grammar and lists its [`Effect`]s: files read,
//! written and deleted, programs started (a shell command line or an argument list),
//! network use, the whole environment printed, and anything it cannot follow
//! ([`Effect::Opaque`]: computed code, unknown modules, dynamic names). Each language is a
//! pure function from source text to effects; `analyze` turns the effects into the same
//! facts a shell command gives, so the same rules judge them. The four readers with a
//! grammar are one walker ([`walker`]): what it holds, its two passes over the tree and its
//! bounded evaluation are written once, and each language adds what differs.
//!
//! What is known is only what the text says: string constants, their concatenation, the
//! home folder (`os.path.expanduser("~")`, `Path.home()`, `os.homedir()`, `Dir.home`,
//! `$ENV{HOME}`, `getenv('HOME')`), path joins of those, and names assigned once. The rest
//! is unknown, and an effect on an unknown path is judged as such (asked about). Anything
//! the walker does not know is opaque: a snippet is only judged by its effects when every
//! call in it is one of the calls listed here.
//!
//! Perl and awk have no grammar here (see [`lexical`]): their code stays opaque, and only
//! the commands and paths written in them as plain strings are judged, to make the verdict
//! stricter; a Perl `-n`/`-p` loop body that only prints or edits the line it read is read
//! in full (see [`perl_loop`]).

pub mod argv;
mod calls;
pub mod javascript;
pub mod lexical;
pub mod memo;
pub(crate) mod path_calls;
mod perl_loop;
pub mod php;
pub mod python;
pub mod ruby;
mod syntax;
#[cfg(test)]
pub(crate) mod test_support;
pub(crate) mod walker;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tree_sitter::{Language, Node, Parser, Tree};

use crate::engine::timed_parse::parse_within;

pub(crate) use syntax::{Syntax, SyntaxWalk};

/// The largest snippet or script read (bytes). A larger one is opaque.
pub const MAX_CODE_BYTES: usize = 256 * 1024;
/// The most processor time the parser may use on one snippet (see `timed_parse`).
const MAX_PARSE_TIME: Duration = Duration::from_millis(100);
/// The deepest syntax tree walked (the walkers recurse).
const MAX_TREE_DEPTH: usize = 120;
/// The most effects one snippet may list before it is judged as a whole.
const MAX_EFFECTS: usize = 512;
/// The most values the walkers may compute for one snippet (a name is computed again
/// where it is used, so chains of names could cost more than the text's size).
const MAX_STEPS: usize = 100_000;

/// The languages read here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    JavaScript,
    Ruby,
    Php,
    Perl,
    Awk,
}

impl Lang {
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::JavaScript => "JavaScript",
            Lang::Ruby => "Ruby",
            Lang::Php => "PHP",
            Lang::Perl => "Perl",
            Lang::Awk => "awk",
        }
    }
}

/// A piece of a value: known text, or a part known only at run time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    Lit(String),
    Unknown,
}

/// A string value as far as the text tells it: a leading `~` stands for the home folder.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Text(pub Vec<Part>);

impl Text {
    pub fn lit(s: impl Into<String>) -> Text {
        Text(vec![Part::Lit(s.into())])
    }
    pub fn unknown() -> Text {
        Text(vec![Part::Unknown])
    }
    pub fn home() -> Text {
        Text::lit("~")
    }
    /// The text of a string literal made of these parts: "" when there are none.
    pub(crate) fn or_empty(self) -> Text {
        if self.0.is_empty() {
            Text::lit("")
        } else {
            self
        }
    }
    /// The value, when every part is known.
    pub fn known(&self) -> Option<String> {
        let mut s = String::new();
        for p in &self.0 {
            match p {
                Part::Lit(t) => s.push_str(t),
                Part::Unknown => return None,
            }
        }
        Some(s)
    }
    pub fn is_known(&self) -> bool {
        self.0.iter().all(|p| matches!(p, Part::Lit(_)))
    }
    pub fn concat(mut self, other: Text) -> Text {
        for p in other.0 {
            match (self.0.last_mut(), p) {
                (Some(Part::Lit(a)), Part::Lit(b)) => a.push_str(&b),
                (Some(Part::Unknown), Part::Unknown) => {}
                (_, p) => self.0.push(p),
            }
        }
        self
    }
    /// A path join: `b` replaces `a` when absolute (or home), else `a/b`.
    pub fn join(self, b: Text) -> Text {
        if let Some(Part::Lit(first)) = b.0.first() {
            if first.starts_with('/') || first == "~" || first.starts_with("~/") {
                return b;
            }
        }
        if self.0.is_empty() {
            return b;
        }
        let ends_with_slash = matches!(self.0.last(), Some(Part::Lit(t)) if t.ends_with('/'));
        if ends_with_slash {
            self.concat(b)
        } else {
            self.concat(Text::lit("/")).concat(b)
        }
    }
    /// The folder holding the path, when known.
    pub fn parent(&self) -> Text {
        match self.known() {
            Some(s) => {
                let t = s.trim_end_matches('/');
                match t.rsplit_once('/') {
                    Some(("", _)) => Text::lit("/"),
                    Some((d, _)) => Text::lit(d),
                    None if t == "~" => Text::lit("~/.."),
                    None => Text::lit("."),
                }
            }
            None => Text::unknown(),
        }
    }
    /// `$HOME/x` or `${HOME}/x` written as `~/x`.
    pub fn with_home_var(self) -> Text {
        match self.0.first() {
            Some(Part::Lit(t)) => {
                for prefix in ["${HOME}", "$HOME"] {
                    if let Some(rest) = t.strip_prefix(prefix) {
                        if rest.is_empty() || rest.starts_with('/') {
                            let mut parts = self.0.clone();
                            parts[0] = Part::Lit(format!("~{rest}"));
                            return Text(parts);
                        }
                    }
                }
                self
            }
            _ => self,
        }
    }
    /// The value as a shell word: known parts quoted, a leading `~` left for the shell to
    /// expand, unknown parts as a variable no script sets.
    pub fn shell_word(&self) -> String {
        let mut out = String::new();
        for (i, p) in self.0.iter().enumerate() {
            match p {
                Part::Lit(t) => {
                    let mut t = t.as_str();
                    if i == 0 && (t == "~" || t.starts_with("~/")) {
                        out.push('~');
                        t = &t[1..];
                    }
                    // Glob characters stay bare, so the shell's reading of a glob applies.
                    let mut run = String::new();
                    for c in t.chars() {
                        if c == '*' || c == '?' {
                            if !run.is_empty() {
                                out.push_str(&shell_quote(&std::mem::take(&mut run)));
                            }
                            out.push(c);
                        } else {
                            run.push(c);
                        }
                    }
                    if !run.is_empty() {
                        out.push_str(&shell_quote(&run));
                    }
                }
                Part::Unknown => out.push_str("\"${CODE_VALUE}\""),
            }
        }
        if out.is_empty() {
            out.push_str("''");
        }
        out
    }
    /// The value as a path word for the analyser: the text, and whether it is all known.
    pub fn path_text(&self) -> (String, bool) {
        match self.known() {
            Some(s) => (s, true),
            None => {
                let mut s = String::new();
                for p in &self.0 {
                    match p {
                        Part::Lit(t) => s.push_str(t),
                        Part::Unknown => s.push_str("$CODE_VALUE"),
                    }
                }
                (s, false)
            }
        }
    }
}

/// The mode a `chmod` call of code is given, written as `chmod` takes it, from the source
/// text of the argument: a number (`0o4755`, `04755`, `493`), a string of octal digits or a
/// symbolic mode (`"755"`, `"u+s"`), or an expression naming the setuid or setgid bit
/// (`stat.S_ISUID | 0o755`: `u+s`). None when it is none of these: the call stays a write.
pub(crate) fn mode_word(src: &str) -> Option<String> {
    if src.contains("S_ISUID") {
        return Some("u+s".into());
    }
    if src.contains("S_ISGID") {
        return Some("g+s".into());
    }
    // A number, or numbers joined by `|` (`0o4000 | 0o755`).
    let number = |t: &str| -> Option<u32> {
        let t = t.trim().replace('_', "");
        let octal = |d: &str| {
            (!d.is_empty() && d.len() <= 6 && d.bytes().all(|b| (b'0'..=b'7').contains(&b)))
                .then(|| u32::from_str_radix(d, 8).ok())
                .flatten()
        };
        if let Some(d) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
            return octal(d);
        }
        if t.len() > 1 && t.starts_with('0') {
            return octal(&t[1..]);
        }
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    let numbers: Option<Vec<u32>> = src.split('|').map(number).collect();
    if let Some(n) = numbers.map(|ns| ns.into_iter().fold(0, |a, b| a | b)) {
        return (n <= 0o7777).then(|| format!("{n:o}"));
    }
    let t = src.trim();
    let quoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q)?.strip_suffix(*q));
    quoted
        .filter(|m| {
            !m.is_empty()
                && m.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-=,".contains(c))
        })
        .map(str::to_string)
}

/// A word quoted for the shell.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// One thing a snippet does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    Read(Text),
    Write(Text),
    Delete {
        path: Text,
        recursive: bool,
    },
    /// Runs a shell command line.
    Shell(Text),
    /// Runs a program with these arguments (the first is the program).
    Exec(Vec<Text>),
    /// Talks to the network (what, for messages).
    Network(String),
    /// Prints or sends the whole environment.
    EnvDump(String),
    /// Reads an environment variable whose name says it holds a secret.
    SecretEnv(String),
    /// Imports a module found by name on the module path (which a file of that name in
    /// the working folder can replace).
    Import(String),
    /// Something the walker cannot follow.
    Opaque(String),
}

/// The effects of a snippet, and whether they are all of it.
#[derive(Debug, Clone, Default)]
pub struct Judged {
    pub effects: Vec<Effect>,
    /// Values computed so far (see [`MAX_STEPS`]).
    steps: usize,
}

impl Judged {
    pub fn push(&mut self, e: Effect) {
        if self.effects.len() >= MAX_EFFECTS {
            if !self.effects.iter().any(|x| matches!(x, Effect::Opaque(_))) {
                self.effects
                    .push(Effect::Opaque("the code does more than is analysed".into()));
            }
            return;
        }
        if !self.effects.contains(&e) {
            self.effects.push(e);
        }
    }
    pub fn opaque(&mut self, why: impl Into<String>) {
        self.push(Effect::Opaque(why.into()));
    }
    /// Counts one computed value; false (and opaque) once the budget is spent.
    pub(crate) fn step(&mut self) -> bool {
        self.steps += 1;
        if self.steps == MAX_STEPS {
            self.opaque("the code computes more values than are followed");
        }
        self.steps < MAX_STEPS
    }
    pub fn is_opaque(&self) -> bool {
        self.effects.iter().any(|e| matches!(e, Effect::Opaque(_)))
    }
    /// A judgement made earlier of the same text (see [`memo`]).
    pub(crate) fn recalled(effects: Vec<Effect>) -> Judged {
        Judged { effects, steps: 0 }
    }
}

/// A value a Python, Ruby or PHP snippet computes, as far as it is known: a string, a path
/// (a `Path` object, `Dir.home`), a list, or something not followed. JavaScript's values
/// have objects and booleans too (`javascript::JsValue`).
#[derive(Debug, Clone)]
pub(crate) enum Value {
    Str(Text),
    Path(Text),
    List(Vec<Value>),
    Other,
}

impl Value {
    /// The text of a string or path; anything else is not known.
    pub(crate) fn text(&self) -> Text {
        match self {
            Value::Str(t) | Value::Path(t) => t.clone(),
            _ => Text::unknown(),
        }
    }
}

impl walker::Computed for Value {
    const UNKNOWN: Value = Value::Other;
    fn text(&self) -> Text {
        Value::text(self)
    }
    fn items(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            _ => None,
        }
    }
}

/// What `src` in `lang` does.
pub fn analyze(lang: Lang, src: &str) -> Judged {
    match lang {
        Lang::Python => python::analyze(src),
        Lang::JavaScript => javascript::analyze(src),
        Lang::Ruby => ruby::analyze(src),
        Lang::Php => php::analyze(src),
        Lang::Perl => lexical::perl(src),
        Lang::Awk => lexical::awk(src),
    }
}

/// Parses `src`, bounded in size, time and depth, and gives its tree to `judge`; an error
/// tree is refused. What could not be read is the judgement of the snippet: opaque, with
/// the reason.
pub(crate) fn read(
    language: Language,
    src: &str,
    lang: Lang,
    judge: impl for<'t> FnOnce(&'t Syntax<'t>) -> Judged,
) -> Judged {
    let refused = |why: String| {
        let mut j = Judged::default();
        j.opaque(why);
        j
    };
    let tree = match parse_tree(language, src, lang) {
        Ok(t) => t,
        Err(why) => return refused(why),
    };
    match Syntax::index(&tree, src, MAX_TREE_DEPTH) {
        Ok(syntax) => judge(&syntax),
        Err(syntax::TooDeep) => refused(format!("the {} code nests too deeply", lang.name())),
    }
}

fn parse_tree(language: Language, src: &str, lang: Lang) -> Result<Tree, String> {
    if src.len() > MAX_CODE_BYTES {
        return Err(format!(
            "{} code of {} bytes, more than the {MAX_CODE_BYTES} analysed",
            lang.name(),
            src.len()
        ));
    }
    if src.contains('\0') {
        return Err("the code contains a NUL byte".into());
    }
    let mut parser = Parser::new();
    if parser.set_language(&language).is_err() {
        return Err(format!("the {} grammar could not be loaded", lang.name()));
    }
    let parsed = parse_within(&mut parser, src.as_bytes(), MAX_PARSE_TIME);
    let Ok(tree) = parsed else {
        return Err(format!(
            "the {} code could not be parsed in time",
            lang.name()
        ));
    };
    if tree.root_node().has_error() {
        return Err(format!("the code is not valid {}", lang.name()));
    }
    Ok(tree)
}

/// Whether the dotted name `q` is one of `list` or a member of one (`os.path.join` of
/// `os.path`).
pub(crate) fn in_list(q: &str, list: &[&str]) -> bool {
    list.iter().any(|m| {
        q.strip_prefix(m)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
    })
}

/// The text of a node.
pub(crate) fn text<'a>(src: &'a str, n: Node) -> &'a str {
    src.get(n.byte_range()).unwrap_or("")
}

/// Backslash escapes common to the C family of string literals.
pub(crate) fn unescape(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            '`' => out.push('`'),
            '$' => out.push('$'),
            '/' => out.push('/'),
            '\n' => {}
            // \x, \u and the like: not worth decoding, and never needed for a path.
            _ => return None,
        }
    }
    Some(out)
}

/// Whether an environment variable's name says it holds a secret.
pub(crate) fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    [
        "SECRET",
        "TOKEN",
        "PASSWORD",
        "PASSWD",
        "API_KEY",
        "APIKEY",
        "ACCESS_KEY",
        "PRIVATE_KEY",
        "CREDENTIAL",
    ]
    .iter()
    .any(|k| n.contains(k))
}

/// The value of an environment variable read by name: the home folder for `HOME`, else not
/// known (and a secret read when the name says it holds one).
pub(crate) fn env_value(name: &str, out: &mut Judged) -> Text {
    if name == "HOME" {
        return Text::home();
    }
    if secret_name(name) {
        out.push(Effect::SecretEnv(name.to_string()));
    }
    Text::unknown()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chmod_modes_of_code() {
        for (src, want) in [
            ("0o4755", Some("4755")),
            ("0o755", Some("755")),
            ("04755", Some("4755")),
            ("0777", Some("777")),
            ("493", Some("755")),
            ("2541", Some("4755")),
            ("0o2_775", Some("2775")),
            ("\"u+s\"", Some("u+s")),
            ("'755'", Some("755")),
            ("stat.S_ISUID | 0o755", Some("u+s")),
            ("S_ISGID | S_IRWXU", Some("g+s")),
            ("mode", None),
            ("0o755 | x", None),
            ("0o4000 | 0o755", Some("4755")),
            ("0", Some("0")),
            ("\"$(rm)\"", None),
        ] {
            assert_eq!(mode_word(src).as_deref(), want, "{src}");
        }
    }

    #[test]
    fn texts_join_like_paths() {
        assert_eq!(
            Text::home().join(Text::lit(".ssh")).known().as_deref(),
            Some("~/.ssh")
        );
        assert_eq!(
            Text::lit("a/").join(Text::lit("b")).known().as_deref(),
            Some("a/b")
        );
        assert_eq!(
            Text::lit("a").join(Text::lit("/etc")).known().as_deref(),
            Some("/etc")
        );
        assert_eq!(Text::lit("/x/y").parent().known().as_deref(), Some("/x"));
        assert_eq!(
            Text::lit("$HOME/x").with_home_var().known().as_deref(),
            Some("~/x")
        );
        assert!(!Text::lit("a").join(Text::unknown()).is_known());
    }

    /// Deep nesting is refused before the walkers recurse, and what is under the bound is
    /// walked within a test thread's stack.
    #[test]
    fn deep_code_is_bounded() {
        for n in [50usize, 200, 5000] {
            let py = format!("print({}1{})", "(".repeat(n), ")".repeat(n));
            let js = format!("console.log({}1{})", "[".repeat(n), "]".repeat(n));
            let rb = format!("puts {}1{}", "[".repeat(n), "]".repeat(n));
            let php = format!("echo {}1{};", "(".repeat(n), ")".repeat(n));
            for (lang, src) in [
                (Lang::Python, py),
                (Lang::JavaScript, js),
                (Lang::Ruby, rb),
                (Lang::Php, php),
            ] {
                let j = analyze(lang, &src);
                if n > MAX_TREE_DEPTH {
                    assert!(j.is_opaque(), "{lang:?} nested {n}");
                }
            }
        }
    }

    /// Names built from names (`b = a + a; c = b + b …`) cost a bounded amount of work.
    #[test]
    fn chains_of_names_are_bounded() {
        let mut py = String::from("a0 = 'x'\n");
        let mut js = String::from("const a0 = 'x';\n");
        for i in 1..40 {
            py.push_str(&format!("a{i} = a{} + a{}\n", i - 1, i - 1));
            js.push_str(&format!("const a{i} = a{} + a{};\n", i - 1, i - 1));
        }
        py.push_str("open(a39)\n");
        js.push_str("require('fs').readFileSync(a39);\n");
        let start = std::time::Instant::now();
        analyze(Lang::Python, &py);
        analyze(Lang::JavaScript, &js);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn shell_words_keep_home_and_mark_unknowns() {
        assert_eq!(Text::home().shell_word(), "~");
        assert_eq!(Text::lit("~/a b").shell_word(), "~'/a b'");
        assert_eq!(Text::lit("it's").shell_word(), "'it'\\''s'");
        assert_eq!(
            Text::lit("/x/").concat(Text::unknown()).shell_word(),
            "/x/\"${CODE_VALUE}\""
        );
        assert_eq!(Text::lit("").shell_word(), "''");
        assert_eq!(Text::lit("~/a b/*.txt").shell_word(), "~'/a b/'*.txt");
        assert_eq!(Text::lit("./*").shell_word(), "./*");
    }
}
