//! What flows between the commands of one script: which pipeline stage feeds which, the
//! stage before a reader, which commands sit in another's substitutions, what a command
//! sends into its process substitutions, and the output a command writes when the text
//! says it exactly. Shells (`shells`) and interpreters (`langs`) both read their input
//! through these.

use super::program_name;
use crate::engine::policy::Policy;
use crate::engine::shell::{Script, SimpleCommand, Stdin, Word};

/// Whether stage `at` feeds stage `of`: it comes before it in the same pipeline, or before
/// a stage of an enclosing pipeline that `of` runs in (`curl x | { cat | sh; }`).
pub(super) fn upstream_of(script: &Script, at: (usize, usize), of: (usize, usize)) -> bool {
    let mut cur = Some(of);
    let mut steps = 0;
    while let Some((p, s)) = cur {
        if at.0 == p && at.1 < s {
            return true;
        }
        steps += 1;
        if steps > script.pipeline_parent.len() {
            return false;
        }
        cur = script.pipeline_parent.get(p).copied().flatten();
    }
    false
}

/// The simple command whose output is the input of stage `stage` of pipeline `pid`; none
/// when the stage before is a group of several (`{ echo a; echo b; } | sh`: the input is
/// all their output, not one command's).
pub(super) fn stage_before(
    script: &Script,
    mut pid: usize,
    mut stage: usize,
) -> Option<&SimpleCommand> {
    let mut steps = 0;
    while stage == 0 {
        (pid, stage) = script.pipeline_parent.get(pid).copied().flatten()?;
        steps += 1;
        if steps > script.pipeline_parent.len() {
            return None;
        }
    }
    let mut before = script
        .commands
        .iter()
        .filter(|c| c.pipe == Some((pid, stage - 1)));
    match (before.next(), before.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether command `j` sits (directly or through nesting) in a substitution of command `i`.
pub(super) fn substituted_within(script: &Script, j: usize, i: usize) -> bool {
    let mut cur = script.commands.get(j).and_then(|c| c.substituted_into);
    let mut steps = 0;
    while let Some(k) = cur {
        if k == i {
            return true;
        }
        steps += 1;
        if steps > script.commands.len() {
            return false;
        }
        cur = script.commands.get(k).and_then(|c| c.substituted_into);
    }
    false
}

/// What command `i` of a script sends into its output process substitutions (`>(…)`), when
/// every substitution it holds is one and what goes there is known: its own output
/// redirected there, the input of `tee >(…)`, or after `exec N> >(…)` the output of every
/// later command. None when any of it is not known.
pub(super) fn fed_through_substitution(script: &Script, i: usize) -> Option<Vec<String>> {
    let outer = script.commands.get(i)?;
    let out = |w: &Word| !w.literal && w.text == ">(…)";
    let substitution = |w: &Word| {
        !w.literal
            && ["$(…)", "<(…)", ">(…)", "`"]
                .iter()
                .any(|s| w.text.contains(s))
    };
    let words = outer
        .words
        .iter()
        .chain(outer.redirects.iter().map(|r| &r.target))
        .chain(outer.assignments.iter().map(|(_, v)| v));
    if words.clone().any(|w| substitution(w) && !out(w)) || !words.clone().any(out) {
        return None;
    }
    let name = outer.words.first().map(|w| program_name(&w.text).0);
    let mut texts = Vec::new();
    if outer.redirects.iter().any(|r| r.writes() && out(&r.target)) {
        if name.as_deref() == Some("exec") && outer.words.len() == 1 {
            let later =
                (i + 1..script.commands.len()).filter(|&j| !substituted_within(script, j, i));
            for j in later {
                texts.push(literal_output(script.commands.get(j)?)?);
            }
        } else {
            texts.push(literal_output(outer)?);
        }
    }
    if outer.words.iter().skip(1).any(out) {
        if name.as_deref() != Some("tee") {
            return None;
        }
        let input = match (outer.pipe, &outer.stdin) {
            (Some((p, s)), _) => stage_before(script, p, s).and_then(literal_output)?,
            (None, Some(Stdin::Heredoc { body, .. })) => body.clone(),
            (None, Some(Stdin::HereString(w))) if w.literal => w.text.clone(),
            _ => return None,
        };
        texts.push(input);
    }
    (!texts.is_empty()).then_some(texts)
}

/// What a command writes to standard output, when the text says so exactly:
/// `echo`/`printf` of literal words, or `cat` of a heredoc.
pub(super) fn literal_output(c: &SimpleCommand) -> Option<String> {
    let first = c.words.first()?;
    if !first.literal {
        return None;
    }
    let (name, _) = program_name(&first.text);
    match name.as_str() {
        "echo" | "printf" => {
            let args: Vec<&Word> = c
                .words
                .iter()
                .skip(1)
                .skip_while(|w| name == "echo" && echo_option(&w.text))
                .collect();
            // `printf %q` quotes its arguments: read back by a shell, each is one word,
            // not the words it holds; what that runs is left unknown.
            let quotes = name == "printf" && args.first().is_some_and(|f| f.text.contains("%q"));
            if args.iter().all(|w| w.literal) && !quotes {
                Some(
                    args.iter()
                        .map(|w| w.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                        .replace("\\n", "\n"),
                )
            } else {
                None
            }
        }
        "cat" if c.words.len() == 1 => match &c.stdin {
            Some(Stdin::Heredoc { body, .. }) => Some(body.clone()),
            Some(Stdin::HereString(w)) if w.literal => Some(w.text.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a word before echo's text is an option, as the shell's `echo` reads one: a dash
/// and letters, each an option of echo's built-in table (`-n`, `-e`, `-neE`); any other
/// word, and every word after it, is printed.
fn echo_option(word: &str) -> bool {
    let Some(letters) = word.strip_prefix('-').filter(|l| !l.is_empty()) else {
        return false;
    };
    let Some(echo) = Policy::builtin_effects("echo") else {
        return false;
    };
    let mut flag = String::from("-");
    letters.chars().all(|c| {
        flag.truncate(1);
        flag.push(c);
        echo.flags.contains(&flag)
    })
}
