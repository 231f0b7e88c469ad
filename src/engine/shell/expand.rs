//! Word expansion as Bash does it, on what is known before the script runs: brace
//! expansion (`{a,b}`, `{1..3}`) anywhere in a word, command substitutions whose output
//! is constant text (`$(echo ~)`, `` `printf 'rm -rf %s' x` ``) and the splitting of an
//! unquoted one into words.
//!
//! The walk turns a word's syntax nodes into [`Tok`]s, which keep apart what Bash still
//! expands (unquoted characters) from what stands for itself (quoted or escaped text) and
//! from what is not known (other expansions). [`expand`] then gives the words: braces
//! first, then splitting, as Bash orders them. Expansion is bounded: a word that would give
//! more than [`MAX_BRACE_WORDS`] words stays one word whose value is not known.

use super::Word;

/// The most words one word may expand to by brace expansion; past it the word stays one
/// word, not known in advance.
pub const MAX_BRACE_WORDS: usize = 64;
/// How deeply braces may nest in one word before it stays not known.
const MAX_BRACE_DEPTH: usize = 16;
/// The longest output of a constant command substitution taken as known.
const MAX_OUTPUT: usize = 4096;

/// One piece of a word, as the walk reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// An unquoted, unescaped character: brace expansion and globbing see it.
    Active(char),
    /// Text that stands for itself (quoted or escaped, or a substitution's output in quotes).
    Inert(String),
    /// The output of an unquoted substitution: split into words, globs active, no braces.
    Split(String),
    /// An expansion whose value is not known before the script runs: its source text.
    Unknown(String),
    /// `$(git rev-parse --show-toplevel)`: the project's top folder, read as the working
    /// folder (`$PWD`), unless the word then climbs out of it with `..`.
    Toplevel,
}

/// The most words one script's words may grow by through expansion (braces, split
/// output), so that a short command cannot stand for a great many words.
pub const MAX_EXTRA_WORDS: usize = 256;

/// The words `toks` stands for. `split`: whether the output of unquoted substitutions is
/// split into words (not in an assignment's value). `extra_left`: how many words more
/// than one it may still give (see [`MAX_EXTRA_WORDS`]); past that it stays one word,
/// not known.
pub fn expand(toks: &[Tok], split: bool, extra_left: &mut usize) -> Vec<Word> {
    let alternatives = if toks.contains(&Tok::Active('{')) {
        match braces(toks, 0) {
            Some(a) => a,
            None => return vec![unknown_word(toks)],
        }
    } else {
        vec![toks.to_vec()]
    };
    let mut out = Vec::new();
    for alt in &alternatives {
        fields(alt, split, &mut out);
    }
    let extra = out.len().saturating_sub(1);
    if extra > *extra_left {
        return vec![unknown_word(toks)];
    }
    *extra_left -= extra;
    out
}

/// One word for `toks`, with no brace expansion and no splitting (an assignment's value,
/// a here-string).
pub fn single(toks: &[Tok]) -> Word {
    let mut b = Field::default();
    for t in toks {
        b.push(t);
    }
    b.finish()
}

/// The text of `toks` as one word whose value is not known.
fn unknown_word(toks: &[Tok]) -> Word {
    let mut w = single(toks);
    w.literal = false;
    w
}

/// A word being built.
#[derive(Default)]
struct Field {
    text: String,
    /// Whether anything was written (a quoted empty string counts: `""` is a word).
    started: bool,
    literal: bool,
    unknown: bool,
    /// Where `Tok::Toplevel` was written in `text`.
    toplevel: Option<usize>,
}

impl Field {
    fn push(&mut self, t: &Tok) {
        match t {
            Tok::Active(c) => {
                if matches!(c, '*' | '?' | '[') {
                    self.unknown = true;
                }
                self.text.push(*c);
                self.started = true;
            }
            Tok::Inert(s) => {
                self.text.push_str(s);
                self.started = true;
            }
            Tok::Split(s) => self.glob_text(s),
            Tok::Unknown(s) => {
                self.unknown = true;
                self.text.push_str(s);
                self.started = true;
            }
            Tok::Toplevel => {
                self.unknown = true;
                self.toplevel = Some(self.text.len());
                self.text.push_str("$PWD");
                self.started = true;
            }
        }
    }

    /// Unquoted text where globs are active.
    fn glob_text(&mut self, s: &str) {
        if s.contains(['*', '?', '[']) {
            self.unknown = true;
        }
        self.text.push_str(s);
        self.started |= !s.is_empty();
    }

    fn finish(mut self) -> Word {
        if let Some(at) = self.toplevel {
            // `$(git rev-parse --show-toplevel)/../x` is not known from the working folder.
            if self.text[at..].contains("..") {
                self.text.replace_range(at..at + "$PWD".len(), "$(…)");
            }
        }
        self.literal = !self.unknown;
        Word {
            text: self.text,
            literal: self.literal,
        }
    }
}

/// The words of one brace alternative, appended to `out`.
fn fields(toks: &[Tok], split: bool, out: &mut Vec<Word>) {
    let mut cur = Field::default();
    for t in toks {
        match t {
            Tok::Split(s) if split => {
                let mut parts = s.split([' ', '\t', '\n']).peekable();
                let mut first = true;
                while let Some(p) = parts.next() {
                    if !first {
                        // A blank ends the word so far.
                        let done = std::mem::take(&mut cur);
                        if done.started {
                            out.push(done.finish());
                        }
                    }
                    first = false;
                    cur.glob_text(p);
                    if parts.peek().is_none() {
                        break;
                    }
                }
            }
            _ => cur.push(t),
        }
    }
    if cur.started {
        out.push(cur.finish());
    }
}

/// Brace expansion of `toks`: the alternatives, or none when there would be more than
/// [`MAX_BRACE_WORDS`] or the braces nest too deeply.
fn braces(toks: &[Tok], depth: usize) -> Option<Vec<Vec<Tok>>> {
    let opens = toks.iter().filter(|t| **t == Tok::Active('{')).count();
    if depth > MAX_BRACE_DEPTH || opens > 4 * MAX_BRACE_WORDS {
        return None;
    }
    let mut from = 0;
    while let Some(open) = find_active(toks, from, '{') {
        let Some((close, commas)) = matching_close(toks, open) else {
            // No `}` closes this one; a later `{` may still be closed (`a{b{c,d}`).
            from = open + 1;
            continue;
        };
        let inner = &toks[open + 1..close];
        let parts: Vec<Vec<Tok>> = if !commas.is_empty() {
            let mut parts = Vec::new();
            let mut start = open + 1;
            for c in commas.iter().copied().chain(std::iter::once(close)) {
                parts.push(toks[start..c].to_vec());
                start = c + 1;
            }
            parts
        } else if let Some(seq) = sequence(inner) {
            seq?.into_iter()
                .map(|s| s.chars().map(Tok::Active).collect())
                .collect()
        } else {
            from = open + 1;
            continue;
        };
        let prefix = &toks[..open];
        let suffix = braces(&toks[close + 1..], depth + 1)?;
        let mut out = Vec::new();
        for p in parts {
            for alt in braces(&p, depth + 1)? {
                for s in &suffix {
                    if out.len() >= MAX_BRACE_WORDS {
                        return None;
                    }
                    let mut w = prefix.to_vec();
                    w.extend(alt.iter().cloned());
                    w.extend(s.iter().cloned());
                    out.push(w);
                }
            }
        }
        return Some(out);
    }
    Some(vec![toks.to_vec()])
}

fn find_active(toks: &[Tok], from: usize, c: char) -> Option<usize> {
    toks.iter()
        .enumerate()
        .skip(from)
        .find(|(_, t)| **t == Tok::Active(c))
        .map(|(i, _)| i)
}

/// The `}` that closes the `{` at `open`, and the top-level commas between them.
fn matching_close(toks: &[Tok], open: usize) -> Option<(usize, Vec<usize>)> {
    let mut depth = 0usize;
    let mut commas = Vec::new();
    for (i, t) in toks.iter().enumerate().skip(open + 1) {
        match t {
            Tok::Active('{') => depth += 1,
            Tok::Active('}') if depth == 0 => return Some((i, commas)),
            Tok::Active('}') => depth -= 1,
            Tok::Active(',') if depth == 0 => commas.push(i),
            _ => {}
        }
    }
    None
}

/// `{1..5}`, `{a..e}`, `{10..1..3}`: the values, when `inner` is a sequence (`Some(None)`
/// when it has too many); `None` when it is not one.
fn sequence(inner: &[Tok]) -> Option<Option<Vec<String>>> {
    let text: String = inner
        .iter()
        .map(|t| match t {
            Tok::Active(c) => Some(*c),
            _ => None,
        })
        .collect::<Option<String>>()?;
    let parts: Vec<&str> = text.split("..").collect();
    let (a, b, step) = match parts.as_slice() {
        [a, b] => (*a, *b, None),
        [a, b, s] => (*a, *b, Some(s.parse::<i64>().ok()?)),
        _ => return None,
    };
    let step = step.map(i64::unsigned_abs).unwrap_or(1).max(1);
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let count = x.abs_diff(y) / step + 1;
        if count > MAX_BRACE_WORDS as u64 {
            return Some(None);
        }
        let padded = |s: &str| {
            s.trim_start_matches('-').len() > 1 && s.trim_start_matches('-').starts_with('0')
        };
        let width = if padded(a) || padded(b) {
            a.len().max(b.len())
        } else {
            0
        };
        let mut out = Vec::new();
        let mut v = x;
        for _ in 0..count {
            out.push(if width > 0 {
                if v < 0 {
                    format!("-{:0w$}", v.unsigned_abs(), w = width - 1)
                } else {
                    format!("{v:0width$}")
                }
            } else {
                v.to_string()
            });
            v = if x <= y {
                v.saturating_add(step as i64)
            } else {
                v.saturating_sub(step as i64)
            };
        }
        return Some(Some(out));
    }
    let (ca, cb) = (single_char(a)?, single_char(b)?);
    let (lo, hi) = (ca.min(cb) as u64, ca.max(cb) as u64);
    let count = (hi - lo) / step + 1;
    if count > MAX_BRACE_WORDS as u64 {
        return Some(None);
    }
    let mut out: Vec<String> = (0..count)
        .filter_map(|k| char::from_u32((lo + k * step) as u32).map(String::from))
        .collect();
    if ca > cb {
        out.reverse();
    }
    Some(Some(out))
}

fn single_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    let c = it.next()?;
    (it.next().is_none() && c.is_ascii_alphabetic()).then_some(c)
}

/// What a command whose words are all known prints, when that is known from the words
/// alone: `echo` and `printf` with plain formats. Trailing newlines are removed, as a
/// command substitution does.
pub fn constant_output(words: &[Word]) -> Option<String> {
    if words.iter().any(|w| !w.literal) {
        return None;
    }
    let (name, args) = words.split_first()?;
    let mut out = match name.text.as_str() {
        "echo" => echo(args)?,
        "printf" => printf(args)?,
        _ => return None,
    };
    while out.ends_with('\n') {
        out.pop();
    }
    (out.len() <= MAX_OUTPUT).then_some(out)
}

/// The name `mktemp ARGS…` prints, as a path that stands for the file or folder it makes:
/// in the folder its table's `write_flags` option names (`-p DIR`, `--tmpdir=DIR`), else
/// `/tmp` without a template, else the template (which `mktemp` reads from the working
/// folder, or from `/tmp` with `-t`: either way a place of the call's own). The template's
/// `X`s stay as written and the default template is `tmp.XXXXXXXXXX`, so the path names
/// nothing that exists. Its options are read from `mktemp`'s built-in table; any other, a
/// second operand, or a word that could split or glob leaves the name unknown.
pub fn mktemp_output(args: &[Word]) -> Option<String> {
    let table = crate::engine::policy::Policy::builtin_effects("mktemp")?;
    let plain = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./-+@%,:~=".contains(c))
    };
    let mut dir: Option<&str> = None;
    let mut template: Option<&str> = None;
    let mut words = args.iter().map(|w| w.text.as_str());
    let mut options = true;
    while let Some(w) = words.next() {
        if !plain(w) {
            return None;
        }
        if options && w == "--" {
            options = false;
        } else if options && w.starts_with("--") {
            let (name, attached) = match w.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (w, None),
            };
            if table.value_flags.contains(name) {
                let value = match attached {
                    Some(v) => v,
                    None => words.next()?,
                };
                if table.write_flags.contains(name) {
                    dir = Some(value);
                }
            } else if !table.flags.contains(name) || attached.is_some() {
                return None;
            }
        } else if options && w.starts_with('-') && w.len() > 1 {
            for (i, c) in w.char_indices().skip(1) {
                let flag = format!("-{c}");
                if table.value_flags.contains(&flag) {
                    let rest = &w[i + c.len_utf8()..];
                    let value = if rest.is_empty() { words.next()? } else { rest };
                    if table.write_flags.contains(&flag) {
                        dir = Some(value);
                    }
                    break;
                }
                if !table.flags.contains(&flag) {
                    return None;
                }
            }
        } else if template.replace(w).is_some() {
            return None;
        }
    }
    let name = template.unwrap_or("tmp.XXXXXXXXXX");
    Some(match (dir, template) {
        (Some(d), _) => format!("{}/{name}", d.trim_end_matches('/')),
        (None, None) => format!("/tmp/{name}"),
        (None, Some(t)) => t.to_string(),
    })
}

/// `echo [-neE]… ARGS…`. Text with a backslash is not read: `echo -e` decodes escapes,
/// and so does a plain `echo` in some shells (`sh` on macOS, zsh).
fn echo(args: &[Word]) -> Option<String> {
    let mut rest = args;
    while let Some((w, tail)) = rest.split_first() {
        let t = w.text.as_str();
        let is_option =
            t.len() > 1 && t.starts_with('-') && t[1..].chars().all(|c| "neE".contains(c));
        if !is_option {
            break;
        }
        rest = tail;
    }
    let text = rest
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    (!text.contains('\\')).then_some(text)
}

/// `printf FORMAT ARGS…` with `%s`, `%d`, `%%` and the plain escapes; the format is used
/// again while arguments are left, as Bash does.
fn printf(args: &[Word]) -> Option<String> {
    let mut args = args.iter().map(|w| w.text.as_str());
    let mut format = args.next()?;
    if format == "--" {
        format = args.next()?;
    }
    if format.starts_with('-') {
        return None;
    }
    let rest: Vec<&str> = args.collect();
    let mut out = String::new();
    let mut next = 0;
    loop {
        let used = printf_once(format, &rest, &mut next, &mut out)?;
        if !used || next >= rest.len() || out.len() > MAX_OUTPUT {
            break;
        }
    }
    Some(out)
}

/// One pass of `format`; whether it took any argument.
fn printf_once(format: &str, args: &[&str], next: &mut usize, out: &mut String) -> Option<bool> {
    let mut used = false;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => printf_escape(&mut chars, out)?,
            '%' => {
                let conv = chars.next()?;
                if conv == '%' {
                    out.push('%');
                    continue;
                }
                let arg = args.get(*next).copied().unwrap_or("");
                *next += 1;
                used = true;
                match conv {
                    's' => out.push_str(arg),
                    'd' | 'i' if arg.is_empty() => out.push('0'),
                    'd' | 'i' => out.push_str(&arg.parse::<i64>().ok()?.to_string()),
                    _ => return None,
                }
            }
            _ => out.push(c),
        }
    }
    Some(used)
}

/// The escape after a backslash in a `printf` format, written to `out`: the letters,
/// `\xHH` and octal `\NNN`; another character keeps its backslash, as in Bash. `\c`
/// (stop) and `\u` are not read.
fn printf_escape(chars: &mut std::iter::Peekable<std::str::Chars>, out: &mut String) -> Option<()> {
    let c = chars.next()?;
    let simple = match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        'e' | 'E' => Some('\u{1b}'),
        '\\' | '"' | '\'' => Some(c),
        _ => None,
    };
    if let Some(ch) = simple {
        out.push(ch);
        return Some(());
    }
    let (radix, first, max) = match c {
        'x' => (16, 0, 2),
        '0'..='7' => (8, c.to_digit(8)?, 3),
        'c' | 'u' | 'U' => return None,
        _ => {
            out.push('\\');
            out.push(c);
            return Some(());
        }
    };
    let mut value = first;
    let mut digits = u32::from(radix == 8);
    while digits < max {
        match chars.peek().and_then(|d| d.to_digit(radix)) {
            Some(d) => {
                value = value * radix + d;
                chars.next();
                digits += 1;
            }
            None => break,
        }
    }
    if digits == 0 {
        return None;
    }
    out.push(char::from_u32(value)?);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(toks: &[Tok], split: bool) -> Vec<Word> {
        expand(toks, split, &mut MAX_EXTRA_WORDS.clone())
    }

    /// Tokens of an unquoted word (no quotes, no expansions).
    fn toks(s: &str) -> Vec<Tok> {
        s.chars().map(Tok::Active).collect()
    }

    fn texts(words: Vec<Word>) -> Vec<String> {
        words.into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn brace_expansion() {
        let cases: &[(&str, &[&str])] = &[
            ("{rm,-rf,~}", &["rm", "-rf", "~"]),
            ("~/.s{s,}h", &["~/.ssh", "~/.sh"]),
            ("/{etc,usr}", &["/etc", "/usr"]),
            ("a{b,c}d{e,f}", &["abde", "abdf", "acde", "acdf"]),
            ("{a,{b,c}}", &["a", "b", "c"]),
            ("{a}", &["{a}"]),
            ("{}", &["{}"]),
            ("a{", &["a{"]),
            ("{1..3}", &["1", "2", "3"]),
            ("{3..1}", &["3", "2", "1"]),
            ("{01..03}", &["01", "02", "03"]),
            ("{a..c}", &["a", "b", "c"]),
            ("{1..7..3}", &["1", "4", "7"]),
            ("x{1..2}{a,b}", &["x1a", "x1b", "x2a", "x2b"]),
            ("{x}{a,b}", &["{x}a", "{x}b"]),
            ("a{b{c,d}", &["a{bc", "a{bd"]),
        ];
        for (src, want) in cases {
            assert_eq!(texts(ex(&toks(src), true)), *want, "{src}");
        }
    }

    #[test]
    fn quoted_braces_do_not_expand() {
        let t = vec![Tok::Inert("{a,b}".into())];
        assert_eq!(texts(ex(&t, true)), ["{a,b}"]);
        // `{"a b",c}`: a quoted alternative stays one word.
        let mut t = vec![Tok::Active('{'), Tok::Inert("a b".into())];
        t.extend(toks(",c}"));
        assert_eq!(texts(ex(&t, true)), ["a b", "c"]);
    }

    #[test]
    fn too_many_words_stay_unknown() {
        let w = ex(&toks("{1..100}"), true);
        assert_eq!(w.len(), 1);
        assert!(!w[0].literal);
        let w = ex(&toks("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"), true);
        assert_eq!(w.len(), 1);
        assert!(!w[0].literal);
        let deep = "{a,".repeat(40) + &"}".repeat(40);
        assert!(!ex(&toks(&deep), true)[0].literal);
    }

    #[test]
    fn growth_is_bounded() {
        let mut left = 3;
        assert_eq!(expand(&toks("{a,b,c}"), true, &mut left).len(), 3);
        assert_eq!(left, 1);
        let w = expand(&toks("{a,b,c}"), true, &mut left);
        assert_eq!((w.len(), w[0].literal, left), (1, false, 1));
        let w = expand(&[Tok::Split("a b c".into())], true, &mut left);
        assert_eq!((w.len(), w[0].literal), (1, false));
    }

    #[test]
    fn split_output() {
        let t = vec![Tok::Split("rm -rf ~".into())];
        assert_eq!(texts(ex(&t, true)), ["rm", "-rf", "~"]);
        assert_eq!(texts(ex(&t, false)), ["rm -rf ~"]);
        let mut t = toks("a");
        t.push(Tok::Split(" b c".into()));
        t.extend(toks("d"));
        assert_eq!(texts(ex(&t, true)), ["a", "b", "cd"]);
        assert!(ex(&[Tok::Split(String::new())], true).is_empty());
        assert_eq!(texts(ex(&[Tok::Inert(String::new())], true)), [""]);
        let globbed = ex(&[Tok::Split("*.rs".into())], true);
        assert!(!globbed[0].literal);
    }

    #[test]
    fn literal_flag() {
        assert!(ex(&toks("{a,b}"), true).iter().all(|w| w.literal));
        assert!(!ex(&toks("{a,b}*"), true)[0].literal);
        assert!(!ex(&[Tok::Unknown("$X".into())], true)[0].literal);
        assert!(ex(&[Tok::Inert("*".into())], true)[0].literal);
    }

    #[test]
    fn toplevel_is_the_working_folder_unless_left() {
        let w = ex(&[Tok::Toplevel, Tok::Inert("/.claude".into())], true);
        assert_eq!(w[0].text, "$PWD/.claude");
        let w = ex(&[Tok::Toplevel, Tok::Inert("/../x".into())], true);
        assert_eq!(w[0].text, "$(…)/../x");
    }

    #[test]
    fn constant_outputs() {
        let w = |s: &str| -> Vec<Word> { s.split(' ').map(Word::lit).collect() };
        let cases: &[(&str, Option<&str>)] = &[
            ("echo ~", Some("~")),
            ("echo -n a b", Some("a b")),
            ("echo -e a\\nb", None),
            ("echo -E a\\nb", None),
            ("echo -e -n a\\nb", None),
            ("printf rm%s-rf%s~ _ _", Some("rm_-rf_~")),
            ("printf %s, a b c", Some("a,b,c,")),
            ("printf %d 42", Some("42")),
            ("printf %d x", None),
            ("printf %5s x", None),
            ("printf -v x y", None),
            ("printf a\\n", Some("a")),
            ("printf \\x72\\155", Some("rm")),
            ("printf a\\qb", Some("a\\qb")),
            ("printf a\\cb", None),
            ("ls x", None),
        ];
        for (cmd, want) in cases {
            assert_eq!(constant_output(&w(cmd)).as_deref(), *want, "{cmd}");
        }
        let unknown = [
            Word::lit("echo"),
            Word {
                text: "$X".into(),
                literal: false,
            },
        ];
        assert_eq!(constant_output(&unknown), None);
    }

    #[test]
    fn mktemp_names() {
        let cases: &[(&str, Option<&str>)] = &[
            ("", Some("/tmp/tmp.XXXXXXXXXX")),
            ("-d", Some("/tmp/tmp.XXXXXXXXXX")),
            ("-d -t build.XXXX", Some("build.XXXX")),
            ("-dp /var/tmp", Some("/var/tmp/tmp.XXXXXXXXXX")),
            ("-p out x.XXXX", Some("out/x.XXXX")),
            ("--tmpdir=/scratch -d y.XXX", Some("/scratch/y.XXX")),
            ("-d ~/x.XXXX", Some("~/x.XXXX")),
            ("-d ../x.XXXX", Some("../x.XXXX")),
            ("--frobnicate", None),
            ("-dz", None),
            ("a.XXX b.XXX", None),
            ("'a b.XXX'", None),
        ];
        for (args, want) in cases {
            let words: Vec<Word> = args
                .split_whitespace()
                .map(|w| Word::lit(w.trim_matches('\'')))
                .collect();
            let words = if args.contains('\'') {
                vec![Word::lit("a b.XXX")]
            } else {
                words
            };
            assert_eq!(mktemp_output(&words).as_deref(), *want, "mktemp {args}");
        }
    }
}
