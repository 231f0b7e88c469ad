//! Every word a possible path: the words of a command whose use the policy does not know,
//! and the files a network program sends.
//!
//! The declared effects (`effects`) turn the words the policy knows into reads and writes.
//! Any other word may still name a file the program opens, reads or writes: an option's
//! value the table does not describe (`wc --files0-from=F`, `eslint --output-file F`), an
//! operand of a program with no table (`man -l F`), `@F`, `key=F`, `file://F`. Those are
//! the invocation's `named` words; the classifier resolves and classes them as it does any
//! path (a secret or a protected path there is never Safe nor relaxed, a path outside the
//! project never relaxed). For a program of the `network` kind, what it names outside a
//! known local read (`ssh -i KEY`), and what it names in `send_flags`, is sent off the
//! machine; so is what earlier stages of its pipeline and the commands in its
//! substitutions name, and what its input is redirected from (see [`Analyzer::flows`]).

use std::path::{Path, PathBuf};

use super::effects::select;
use super::flow::{substituted_within, upstream_of};
use super::{program_name, wrappers, Analyzer, Sent};
use crate::engine::args::{positionals, reads_recursively, Recursion};
use crate::engine::policy::{Effects, List};
use crate::engine::shell::{Script, Stdin, Word};

/// How many words of one command are looked at as paths: past that, the rest count as
/// one word known only at run time (the worst it could be).
const MAX_WORDS: usize = 256;

/// What the words of one invocation name.
#[derive(Debug, Default)]
pub(super) struct Named {
    /// Files named in positions the policy does not know.
    pub unknown: Vec<Word>,
    /// Files the declared effects read or write, which may instead be the value of an
    /// option before them that the table does not know.
    pub maybe: Vec<Word>,
    /// Files sent off the machine.
    pub sent: Vec<Word>,
}

impl Analyzer<'_> {
    /// The words of `args` (a program's arguments) named in positions its table `eff`
    /// does not describe, and for a network program the words it sends.
    pub(super) fn named_words(&self, name: &str, args: &[Word], eff: &Effects) -> Named {
        let network = self.policy().is_network(name);
        let mut out = Named::default();
        if args.len() > MAX_WORDS {
            out.unknown.push(Word {
                text: "$(…)".into(),
                literal: false,
            });
        }
        let args = &args[..args.len().min(MAX_WORDS)];
        let pos = positionals(args, &eff.value_flags);
        let described =
            eff.complete || eff.reads.is_some() || eff.writes.is_some() || eff.names.is_some();
        let looked_up: Vec<&Word> = eff.names.map(|s| select(&pos, s)).unwrap_or_default();
        let read: Vec<&Word> = eff.reads.map(|s| select(&pos, s)).unwrap_or_default();
        let written: Vec<&Word> = eff.writes.map(|s| select(&pos, s)).unwrap_or_default();
        let is_in = |l: &[&Word], w: &Word| l.iter().any(|s| std::ptr::eq(*s, w));
        let path_flag = |f: &str| {
            in_list(&eff.read_flags, f)
                || in_list(&eff.write_flags, f)
                || in_list(&eff.send_flags, f)
        };
        let sends_here = !self.policy().is_remote_copy(name) || pos.iter().any(|w| remote(w));
        let mut i = 0;
        let mut after_dashdash = false;
        // After an option the table does not know, the next word may be its value.
        let mut value_next = false;
        while i < args.len() {
            let a = &args[i];
            let t = a.text.as_str();
            i += 1;
            let option = !after_dashdash && t.len() > 1 && t.starts_with('-');
            if !after_dashdash && t == "--" {
                after_dashdash = true;
                value_next = false;
                continue;
            }
            let keyed = |l: &List| l.iter().any(|k| t.starts_with(k));
            if !option && (keyed(&eff.read_keys) || keyed(&eff.write_keys)) {
                // `if=FILE`, `of=FILE`: the declared effects record it.
                value_next = false;
                continue;
            }
            if !option {
                let known_read = is_in(&read, a);
                if network && sends_here && known_read {
                    out.sent.extend(candidates(a));
                }
                let known = known_read || is_in(&written, a) || is_in(&looked_up, a);
                if value_next && (known || described) {
                    // It may be the value of the unknown option before it. A read is
                    // judged as one already.
                    if !known_read {
                        out.maybe.extend(candidates(a));
                    }
                } else if !(known || described) {
                    out.unknown.extend(candidates(a));
                }
                // `-d @f`, `x=@f` are files even where the program reads words as data.
                if network && sends_here && !known_read {
                    out.sent.extend(at_files(a));
                }
                value_next = false;
                continue;
            }
            value_next = false;
            let (flag, attached) = split_option(a, eff);
            if in_list(&eff.send_flags, flag) {
                let v = attached.or_else(|| take(args, &mut i));
                if let Some(v) = v {
                    out.sent.extend(candidates(&v));
                }
                continue;
            }
            if path_flag(flag) {
                // The declared effects record it; the value is not a positional.
                if attached.is_none() {
                    i += 1;
                }
                continue;
            }
            if in_list(&eff.unknown_value_flags, flag) {
                // A value the table does not describe (`-o jsonpath-file=F`).
                let v = attached.or_else(|| take(args, &mut i));
                if let Some(v) = v {
                    if network && sends_here {
                        out.sent.extend(at_files(&v));
                    }
                    out.unknown.extend(candidates(&v));
                }
                continue;
            }
            if in_list(&eff.value_flags, flag) {
                // A value the table knows is not a file (files are in the path options).
                let v = attached.or_else(|| take(args, &mut i));
                if let Some(v) = v {
                    if network && sends_here {
                        out.sent.extend(at_files(&v));
                    }
                }
                continue;
            }
            if in_list(&eff.flags, flag) && attached.is_none() {
                continue;
            }
            if let Some(v) = attached {
                // `--opt=VALUE` of an option the table does not know.
                if network && sends_here {
                    out.sent.extend(at_files(&v));
                }
                out.unknown.extend(candidates(&v));
                continue;
            }
            if t.starts_with("--") || t.len() == 2 {
                value_next = true;
                continue;
            }
            // A cluster of one-letter options (`-la`, `-n5`, `-oFILE`): the table's ones
            // without a value, then one that may take the rest or the next word.
            match cluster_value(t, eff) {
                Cluster::Known => {}
                Cluster::Rest(v, data) => {
                    let v = v.with_literal(a.literal);
                    if network && sends_here {
                        out.sent.extend(at_files(&v));
                    }
                    if !data {
                        // `-oFILE`, or `-files0-from FILE` of a program whose long
                        // options take one dash.
                        out.unknown.extend(candidates(&v));
                        value_next = true;
                    }
                }
                Cluster::Send(v) => {
                    let v = match v {
                        Some(v) => Some(v.with_literal(a.literal)),
                        None => take(args, &mut i),
                    };
                    if let Some(v) = v {
                        out.sent.extend(candidates(&v));
                    }
                }
                Cluster::Next(data) => {
                    if data {
                        i += 1;
                    } else {
                        value_next = true;
                    }
                }
            }
        }
        if network && sends_here {
            // A `file://` URL is read here, not sent (`curl file:///etc/hosts`).
            let local: Vec<&str> = args
                .iter()
                .filter_map(|a| a.text.split_once("file://").map(|(_, p)| p))
                .collect();
            let sent = out.unknown.iter().filter(|w| {
                !local
                    .iter()
                    .any(|p| *p == w.text || p.strip_prefix("localhost") == Some(&w.text))
            });
            out.sent.extend(sent.cloned().collect::<Vec<_>>());
        }
        out
    }

    /// The files whose content may reach a network program in `script` other than through
    /// its own words: what earlier stages of its pipeline and the commands in its
    /// substitutions name, and what its input is redirected from.
    pub(super) fn flows(&mut self, script: &Script, cwd: Option<&Path>) {
        let network: Vec<usize> = (0..script.commands.len())
            .filter(|&i| {
                let words = wrappers::peel_for_download(&script.commands[i].words);
                words
                    .first()
                    .is_some_and(|w| self.policy().is_network(&program_name(&w.text).0))
            })
            .collect();
        for i in network {
            let cmd = &script.commands[i];
            let by = cmd
                .words
                .first()
                .map(|w| w.text.clone())
                .unwrap_or_default();
            // Each word with whether the tree under it is sent (see `Sent::recursive`).
            let mut words: Vec<(Word, Recursion)> = Vec::new();
            for r in cmd
                .redirects
                .iter()
                .filter(|r| !r.writes() && !r.is_fd_dup())
            {
                words.push((r.target.clone(), Recursion::No));
            }
            if let Some(Stdin::HereString(w)) = &cmd.stdin {
                words.extend(candidates(w).into_iter().map(|w| (w, Recursion::No)));
            }
            for (j, other) in script.commands.iter().enumerate() {
                if j == i {
                    continue;
                }
                let feeds = match (other.pipe, cmd.pipe) {
                    (Some(a), Some(b)) => upstream_of(script, a, b),
                    _ => false,
                };
                if !(feeds || substituted_within(script, j, i)) {
                    continue;
                }
                let peeled = wrappers::peel_for_download(&other.words);
                let recursive = peeled.split_first().map_or(Recursion::No, |(first, args)| {
                    reads_recursively(self.policy(), &program_name(&first.text).0, args)
                });
                for w in other.words.iter().skip(1).take(MAX_WORDS) {
                    words.extend(candidates(w).into_iter().map(|w| (w, recursive)));
                }
                for r in other
                    .redirects
                    .iter()
                    .filter(|r| !r.writes() && !r.is_fd_dup())
                {
                    words.push((r.target.clone(), Recursion::No));
                }
            }
            for (word, recursive) in words {
                self.facts.sent.push(Sent {
                    word,
                    recursive,
                    cwd: cwd.map(Path::to_path_buf),
                    by: by.clone(),
                });
            }
        }
    }

    /// Records what an invocation's words send off the machine.
    pub(super) fn record_sent(
        &mut self,
        words: Vec<Word>,
        cwd: Option<PathBuf>,
        by: &str,
        recursive: Recursion,
    ) {
        for word in words {
            self.facts.sent.push(Sent {
                word,
                recursive,
                cwd: cwd.clone(),
                by: by.to_string(),
            });
        }
    }
}

fn in_list(l: &List, f: &str) -> bool {
    l.contains(f)
}

/// `--opt=VALUE` as the option and its value, and `-opt=VALUE` where the table names `-opt`
/// (an option of one dash and several letters: `terraform -chdir=DIR`); any other word as
/// itself.
fn split_option<'w>(a: &'w Word, eff: &Effects) -> (&'w str, Option<Word>) {
    match a.text.split_once('=') {
        Some((f, v)) if a.text.starts_with("--") || (f.len() > 2 && eff.names_option(f)) => (
            f,
            Some(Word {
                text: v.to_string(),
                literal: a.literal,
            }),
        ),
        _ => (a.text.as_str(), None),
    }
}

/// The next word, as an option's value.
fn take(args: &[Word], i: &mut usize) -> Option<Word> {
    let v = args.get(*i).cloned();
    if v.is_some() {
        *i += 1;
    }
    v
}

/// What a cluster of one-letter options holds after the ones without a value.
enum Cluster {
    /// Only those.
    Known,
    /// The rest of the word may be a value; `true` when the table says it is data.
    Rest(Word, bool),
    /// The next word may be a value; `true` when the table says it is data.
    Next(bool),
    /// A `send_flags` letter, with the rest of the word when its value is there.
    Send(Option<Word>),
}

/// In a cluster of one-letter options (`-xvfFILE`), what follows the letters the table
/// knows as options without a value: the value of the next letter, in the rest of the word
/// or in the next word. A path option's value is recorded by the declared effects.
fn cluster_value(t: &str, eff: &Effects) -> Cluster {
    let Some(letters) = t.strip_prefix('-') else {
        return Cluster::Known;
    };
    for (k, c) in letters.char_indices() {
        let flag = format!("-{c}");
        if in_list(&eff.flags, &flag) {
            continue;
        }
        let rest = &letters[k + c.len_utf8()..];
        if in_list(&eff.send_flags, &flag) {
            return Cluster::Send((!rest.is_empty()).then(|| Word::lit(rest)));
        }
        let path = in_list(&eff.read_flags, &flag) || in_list(&eff.write_flags, &flag);
        let data =
            path || (in_list(&eff.value_flags, &flag) && !in_list(&eff.unknown_value_flags, &flag));
        return if rest.is_empty() {
            Cluster::Next(data)
        } else {
            Cluster::Rest(Word::lit(rest), data)
        };
    }
    Cluster::Known
}

trait WithLiteral {
    fn with_literal(self, literal: bool) -> Word;
}

impl WithLiteral for Word {
    fn with_literal(mut self, literal: bool) -> Word {
        self.literal = literal;
        self
    }
}

/// The files a word may name: itself, and what follows `@`, `=`, `=@`, `=<` and
/// `file://` in it. A URL of another scheme and a number name none.
pub(super) fn candidates(w: &Word) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut add = |text: &str| {
        // A number names no file; `.` and `..` name folders.
        let number = text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        if text.is_empty() || number && !matches!(text, "." | "..") {
            return;
        }
        if let Some(path) = text.strip_prefix("file://") {
            let path = path.strip_prefix("localhost").unwrap_or(path);
            if !path.is_empty() {
                out.push(Word {
                    text: path.to_string(),
                    literal: w.literal,
                });
            }
            return;
        }
        if text.contains("://") {
            return;
        }
        if !out.iter().any(|o| o.text == text) {
            out.push(Word {
                text: text.to_string(),
                literal: w.literal,
            });
        }
    };
    let t = w.text.as_str();
    add(t);
    if let Some(rest) = t.strip_prefix('@') {
        add(rest);
    }
    // `key=FILE`, `--opt=FILE`: a key of letters, digits, `-`, `_`, `.` (not code such
    // as `l =~ /x/`).
    let key = |k: &str| {
        !k.is_empty()
            && k.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    };
    if let Some((_, v)) = t.split_once('=').filter(|(k, _)| key(k)) {
        add(v);
        if let Some(rest) = v.strip_prefix('@').or_else(|| v.strip_prefix('<')) {
            add(rest);
        }
    }
    out
}

/// The files a word names with `@` (`@f`, `x=@f`, `x=<f`): what curl, httpie and their
/// kin send.
fn at_files(w: &Word) -> Vec<Word> {
    let t = w.text.as_str();
    let file = t.strip_prefix('@').or_else(|| {
        t.split_once('=')
            .filter(|(k, _)| !k.contains(char::is_whitespace))
            .and_then(|(_, v)| v.strip_prefix('@').or_else(|| v.strip_prefix('<')))
    });
    file.filter(|f| !f.is_empty() && *f != "-")
        .map(|f| {
            vec![Word {
                text: f.to_string(),
                literal: w.literal,
            }]
        })
        .unwrap_or_default()
}

/// Whether an operand names a file on another host: `host:path`, `user@host:path`,
/// `rsync://…`, `scp://…`.
fn remote(w: &Word) -> bool {
    let t = w.text.as_str();
    if t.contains("://") {
        return true;
    }
    match t.split_once(':') {
        Some((host, _)) => !host.is_empty() && !host.contains('/'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_of_a_word() {
        let cases: &[(&str, &[&str])] = &[
            ("src", &["src"]),
            ("@f", &["@f", "f"]),
            ("if=/dev/sda", &["if=/dev/sda", "/dev/sda"]),
            ("x=@key.pem", &["x=@key.pem", "@key.pem", "key.pem"]),
            ("file:///etc/shadow", &["/etc/shadow"]),
            ("https://example.com/a", &[]),
            ("10", &[]),
        ];
        for (word, want) in cases {
            let got: Vec<String> = candidates(&Word::lit(word))
                .into_iter()
                .map(|w| w.text)
                .collect();
            assert_eq!(got, *want, "{word}");
        }
    }

    #[test]
    fn remote_operands() {
        for (w, want) in [
            ("host:x", true),
            ("u@h:/tmp", true),
            ("rsync://h/m", true),
            ("./a:b", false),
            ("a", false),
        ] {
            assert_eq!(remote(&Word::lit(w)), want, "{w}");
        }
    }
}
