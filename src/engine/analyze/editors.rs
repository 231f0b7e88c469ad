//! `sed`: the files its script writes and the commands it runs.

use std::path::PathBuf;

use super::{Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::args::positionals;
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// `sed`: what its script writes and runs, and its declared effects (`sed -i`).
    pub(super) fn sed(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        self.sed_commands(&inv, cwd, ctx);
        self.push_with_effects(inv);
    }

    /// The files a sed script writes (`w FILE`, `s/a/b/w FILE`) and reads (`r FILE`), the
    /// commands it runs (`e COMMAND`), and a script it reads from a file (`-f FILE`). The
    /// script is read command by command, as sed reads it; one that does not read so is
    /// not understood, which asks.
    fn sed_commands(&mut self, inv: &Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let options = sed_options(&inv.args);
        let mut scripts = options.scripts;
        for f in &options.files {
            self.access(AccessKind::Read, f, cwd.as_deref(), "sed");
            self.facts.signal(
                SignalName::DynamicScript,
                format!("`{}` runs a sed script from a file", inv.display),
            );
        }
        if scripts.is_empty() && options.files.is_empty() {
            let value_flags = self
                .policy()
                .effects("sed")
                .map(|e| e.value_flags.clone())
                .unwrap_or_default();
            scripts.extend(
                positionals(&inv.args, &value_flags)
                    .first()
                    .copied()
                    .cloned(),
            );
        }
        // sed joins the pieces of its script with newlines.
        let literal = scripts.iter().all(|w| w.literal);
        let text = scripts
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let Some(ops) = sed_script(&text) else {
            self.facts.signal(
                SignalName::Unparsed,
                format!("the sed script of `{}` is not understood", inv.display),
            );
            return;
        };
        for (kind, rest) in ops {
            let arg = Word {
                text: rest.trim().to_string(),
                literal,
            };
            match kind {
                // `e` alone, or the `e` flag of `s`: the text read is run.
                'e' if arg.text.is_empty() => self.facts.signal(
                    SignalName::StdinCode,
                    format!("`{}` runs the text it reads as commands", inv.display),
                ),
                _ if arg.text.is_empty() => {}
                'e' => self.code_string(&arg, cwd.clone(), ctx),
                'r' => self.access(AccessKind::Read, &arg, cwd.as_deref(), "sed"),
                _ => self.access(AccessKind::Write, &arg, cwd.as_deref(), "sed"),
            }
        }
    }
}

/// The script pieces (`-e SCRIPT`, `--expression=SCRIPT`, `-neSCRIPT`) and script files
/// (`-f FILE`) of a sed command line.
struct SedOptions {
    scripts: Vec<Word>,
    files: Vec<Word>,
}

fn sed_options(args: &[Word]) -> SedOptions {
    let mut out = SedOptions {
        scripts: Vec::new(),
        files: Vec::new(),
    };
    let value = |w: &Word, text: &str| Word {
        text: text.to_string(),
        literal: w.literal,
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let t = a.text.as_str();
        let next = args.get(i + 1);
        i += 1;
        if t == "--" {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let list = match name {
                "expression" => &mut out.scripts,
                "file" => &mut out.files,
                "line-length" => {
                    i += usize::from(attached.is_none());
                    continue;
                }
                _ => continue,
            };
            match (attached, next) {
                (Some(v), _) => list.push(value(a, v)),
                (None, Some(n)) => {
                    list.push(n.clone());
                    i += 1;
                }
                (None, None) => {}
            }
            continue;
        }
        let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) else {
            continue;
        };
        // Letters until one that takes a value: the rest of the word, or the next word.
        for (at, letter) in cluster.char_indices() {
            let list = match letter {
                'e' => &mut out.scripts,
                'f' => &mut out.files,
                'l' => {
                    i += usize::from(at + 1 == cluster.len());
                    break;
                }
                // `-i[SUFFIX]`: the rest is the suffix.
                'i' => break,
                _ => continue,
            };
            let rest = &cluster[at + letter.len_utf8()..];
            if !rest.is_empty() {
                list.push(value(a, rest));
            } else if let Some(n) = next {
                list.push(n.clone());
                i += 1;
            }
            break;
        }
    }
    out
}

/// The `w`/`W` (write a file), `r`/`R` (read a file) and `e` (run a command, or alone the
/// text read) commands of a sed script, with their argument (empty for `e` alone and for
/// the `e` flag of `s`), read as GNU sed reads a script: addresses, `!`, the command
/// letter, and what each command takes (a label, text, a file name to the end of the
/// line, the parts and flags of `s` and `y`). `None` when the script does not read so.
pub(super) fn sed_script(script: &str) -> Option<Vec<(char, &str)>> {
    let b = script.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let line_end = |from: usize| {
        b[from..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |p| from + p)
    };
    let skip_blank = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    while i < b.len() {
        if matches!(b[i], b' ' | b'\t' | b'\n' | b';' | b'{' | b'}') {
            i += 1;
            continue;
        }
        if b[i] == b'#' {
            i = line_end(i);
            continue;
        }
        i = sed_address(b, i)?;
        i = skip_blank(i);
        if b.get(i) == Some(&b',') {
            i = skip_blank(i + 1);
            i = match b.get(i) {
                Some(b'+' | b'~') => digits(b, i + 1),
                _ => sed_address(b, i)?,
            };
            i = skip_blank(i);
        }
        while matches!(b.get(i), Some(b'!' | b' ' | b'\t')) {
            i += 1;
        }
        let &cmd = b.get(i)?;
        i += 1;
        match cmd {
            // A block's commands follow at once (`/x/{p;q}`).
            b'{' => continue,
            b'}' | b'=' | b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'x' | b'n' | b'N' | b'p'
            | b'P' | b'z' | b'F' => {}
            b'l' | b'L' | b'q' | b'Q' => i = digits(b, skip_blank(i)),
            b':' | b'b' | b't' | b'T' | b'v' => {
                while i < b.len() && !matches!(b[i], b';' | b'\n') {
                    i += 1;
                }
            }
            b'a' | b'i' | b'c' => loop {
                let end = line_end(i);
                let continued = end > i && b[end - 1] == b'\\' && end < b.len();
                i = end;
                if !continued {
                    break;
                }
                i += 1;
            },
            b'r' | b'R' | b'w' | b'W' | b'e' => {
                let from = skip_blank(i);
                i = line_end(from);
                let kind = match cmd {
                    b'e' => 'e',
                    b'r' | b'R' => 'r',
                    _ => 'w',
                };
                out.push((kind, &script[from..i]));
            }
            b's' => {
                let delim = *b.get(i)?;
                if matches!(delim, b'\n' | b'\\') {
                    return None;
                }
                i = sed_part(b, i + 1, delim, true)?;
                i = sed_part(b, i, delim, false)?;
                loop {
                    match b.get(i) {
                        Some(b'g' | b'p' | b'i' | b'I' | b'm' | b'M' | b'0'..=b'9') => i += 1,
                        Some(b'e') => {
                            out.push(('e', ""));
                            i += 1;
                        }
                        Some(b'w') => {
                            let from = skip_blank(i + 1);
                            i = line_end(from);
                            out.push(('w', &script[from..i]));
                        }
                        _ => break,
                    }
                }
            }
            b'y' => {
                let delim = *b.get(i)?;
                if matches!(delim, b'\n' | b'\\') {
                    return None;
                }
                i = sed_part(b, i + 1, delim, false)?;
                i = sed_part(b, i, delim, false)?;
            }
            _ => return None,
        }
        // After a command: blanks, then the end of the command or of the line.
        i = skip_blank(i);
        if !matches!(b.get(i), None | Some(b';' | b'\n' | b'}' | b'#')) {
            return None;
        }
    }
    Some(out)
}

/// The end of an address at `i` (a number, `first~step`, `$`, `/REGEX/` or `\cREGEXc` with
/// its `I` and `M` flags), or `i` itself when there is none.
fn sed_address(b: &[u8], i: usize) -> Option<usize> {
    let end = match b.get(i) {
        Some(b'0'..=b'9') => {
            let j = digits(b, i);
            if b.get(j) == Some(&b'~') {
                digits(b, j + 1)
            } else {
                j
            }
        }
        Some(b'$') => i + 1,
        Some(b'/') => sed_part(b, i + 1, b'/', true)?,
        Some(b'\\') => {
            let delim = *b.get(i + 1)?;
            if delim == b'\n' {
                return None;
            }
            sed_part(b, i + 2, delim, true)?
        }
        _ => return Some(i),
    };
    let mut j = end;
    while matches!(b.get(j), Some(b'I' | b'M')) {
        j += 1;
    }
    Some(j)
}

fn digits(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The position after the closing `delim` of a regex (with its bracket expressions, where
/// `delim` does not close it) or a replacement starting at `i`; a backslash escapes the
/// next byte.
fn sed_part(b: &[u8], mut i: usize, delim: u8, regex: bool) -> Option<usize> {
    loop {
        let c = *b.get(i)?;
        if c == b'\\' {
            i += 2;
        } else if c == delim {
            return Some(i + 1);
        } else if c == b'\n' && regex {
            return None;
        } else if c == b'[' && regex {
            i = bracket_end(b, i)?;
        } else {
            i += 1;
        }
    }
}

/// The position after the `]` that closes the bracket expression opening at `i`.
fn bracket_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    if b.get(j) == Some(&b'^') {
        j += 1;
    }
    if b.get(j) == Some(&b']') {
        j += 1;
    }
    loop {
        match *b.get(j)? {
            b']' => return Some(j + 1),
            b'\n' => return None,
            b'[' if matches!(b.get(j + 1), Some(b':' | b'.' | b'=')) => {
                let close = b[j + 1];
                let from = j + 2;
                let at = b[from..]
                    .windows(2)
                    .position(|w| w[0] == close && w[1] == b']')?;
                j = from + at + 2;
            }
            _ => j += 1,
        }
    }
}
