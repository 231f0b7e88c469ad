//! Whether a command rule's conditions on the words of an invocation hold: its subcommand,
//! the options it wants or refuses (`flags_any`, `flags_none`), the arguments it names
//! (`args_any`, `args_none`, `args_is`, `args_only`, `max_positional`) and which of the
//! words name paths. Also what a rule narrows by (its exclusions) and whether arguments are
//! known only at run time, which a Safe rule that excludes some cannot vouch for. Each is
//! read from the rule and the program's table alone: no path is resolved here.

use crate::engine::analyze::Invocation;
use crate::engine::args::{flag_matches, flag_words};
use crate::engine::paths::component_match;
use crate::engine::policy::{FirstValue, List, Policy, Rule, Tier};
use crate::engine::shell::Word;

/// The positional words that name paths: all of them, but for a command whose table says
/// its first names an owner or group (`chown "$USER" f`: `first_is = "owner"`), that one,
/// unless an option of its `reference_flags` (`--reference`) takes it from a file and every
/// word is a path.
pub(super) fn path_operands<'p, 'w>(
    policy: &Policy,
    inv: &Invocation,
    pos: &'p [&'w Word],
) -> &'p [&'w Word] {
    let owner_first = !pos.is_empty()
        && policy.effects(&inv.name).is_some_and(|eff| {
            eff.first_is == Some(FirstValue::Owner)
                && !inv
                    .args
                    .iter()
                    .any(|a| eff.reference_flags.iter().any(|f| a.text.starts_with(f)))
        });
    match pos.split_first() {
        Some((_, rest)) if owner_first => rest,
        _ => pos,
    }
}

/// The leading positional words are one of the rule's subcommands (when it names any).
pub(super) fn subcommand_matches(r: &Rule, pos: &[&Word]) -> bool {
    r.subcommand.is_empty()
        || r.subcommand.iter().any(|s| {
            // Each word of the subcommand is the positional word in its place.
            s.split_whitespace()
                .enumerate()
                .all(|(i, w)| pos.get(i).is_some_and(|p| p.text == w))
        })
}

/// Some option matches `flags_any` (when given) and none matches `flags_none`.
pub(super) fn flags_match(r: &Rule, inv: &Invocation) -> bool {
    if r.flags_any.is_empty() && r.flags_none.is_empty() {
        return true;
    }
    let flags = flag_words(&inv.args);
    let any = |list: &List| {
        flags
            .iter()
            .any(|a| list.iter().any(|f| flag_matches(f, a)))
    };
    (r.flags_any.is_empty() || any(&r.flags_any)) && !any(&r.flags_none)
}

/// `args_any`, `args_none`, `args_is` and `max_positional` hold for the arguments; the last
/// two never hold when arguments are added at run time.
pub(super) fn args_match(r: &Rule, inv: &Invocation, positional: usize) -> bool {
    let any = |list: &List| {
        inv.args
            .iter()
            .any(|a| list.iter().any(|g| component_match(g, &a.text)))
    };
    if (!r.args_any.is_empty() && !any(&r.args_any)) || any(&r.args_none) {
        return false;
    }
    if !r.args_is.is_empty() {
        let joined = inv
            .args
            .iter()
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if inv.extra_args_unknown || !r.args_is.contains(&joined) {
            return false;
        }
    }
    r.max_positional
        .is_none_or(|max| positional <= max && !inv.extra_args_unknown)
}

/// Every argument is one that `args_only` allows: an option it names (a cluster letter
/// by letter; the value of an option of the program's `value_flags` is not checked
/// here), or a positional word matching one of its other globs. Arguments added at run
/// time are not known, so never allowed.
pub(super) fn args_only_match(policy: &Policy, r: &Rule, inv: &Invocation) -> bool {
    if inv.extra_args_unknown {
        return false;
    }
    // Read in place: the program's `value_flags` may list hundreds of options, and a
    // program has many rules.
    let allowed = &r.args_only;
    let empty = List::default();
    let values = policy.effects(&inv.name).map_or(&empty, |e| &e.value_flags);
    let positional = |w: &str| {
        allowed
            .iter()
            .any(|p| !p.starts_with('-') && component_match(p, w))
    };
    let long = |list: &List, name: &str| {
        list.iter()
            .any(|o| o.strip_prefix("--").is_some_and(|n| n == name))
    };
    let short = |list: &List, c: char| {
        list.iter().any(|o| {
            let mut ch = o.chars();
            ch.next() == Some('-') && ch.next() == Some(c) && ch.next().is_none()
        })
    };
    let mut args = inv.args.iter();
    while let Some(a) = args.next() {
        let t = a.text.as_str();
        if t == "--" {
            return args.all(|w| positional(&w.text));
        }
        if t.len() < 2 || !t.starts_with('-') {
            if !positional(t) {
                return false;
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("--") {
            let (name, attached) = match rest.split_once('=') {
                Some((n, _)) => (n, true),
                None => (rest, false),
            };
            if !long(allowed, name) {
                return false;
            }
            if !attached && values.contains(&format!("--{name}")) {
                args.next();
            }
            continue;
        }
        if allowed.contains(t) {
            if values.contains(t) {
                args.next();
            }
            continue;
        }
        // A cluster: each letter an option named here; one that takes a value ends it
        // (`-m5`), or takes the next word when it is the last (`-sH 'X: y'`).
        let letters = &t[1..];
        for (i, c) in letters.char_indices() {
            if !short(allowed, c) {
                return false;
            }
            if values.contains(&format!("-{c}")) {
                if i + c.len_utf8() == letters.len() {
                    args.next();
                }
                break;
            }
        }
    }
    true
}

/// Whether a Forbidden rule for this program could match once its unknown arguments
/// are known: one whose subcommand the known words do not already rule out.
/// `pos` are the command's positional words.
pub(super) fn forbidden_could_apply(policy: &Policy, inv: &Invocation, pos: &[&Word]) -> bool {
    let unknown = |w: &Word| !w.literal;
    policy
        .command_rules(&inv.name)
        .filter(|r| r.tier == Tier::Forbidden)
        .any(|r| {
            r.subcommand.is_empty()
                || r.subcommand.iter().any(|s| {
                    let want: Vec<&str> = s.split_whitespace().collect();
                    // A subcommand longer than the known words may come from the
                    // unknown ones; a known word that differs rules it out.
                    want.iter().enumerate().all(|(i, w)| match pos.get(i) {
                        Some(p) => unknown(p) || p.text == *w,
                        None => true,
                    })
                })
        })
}

/// Whether a command rule names programs and nothing else about the call.
pub(super) fn names_only(r: &Rule) -> bool {
    !r.command.is_empty()
        && r.subcommand.is_empty()
        && r.flags_any.is_empty()
        && r.flags_none.is_empty()
        && r.args_any.is_empty()
        && r.args_none.is_empty()
        && r.line_regex.is_none()
        && r.line_not_regex.is_none()
        && r.args_is.is_empty()
        && r.max_positional.is_none()
        && r.path_class.is_empty()
        && r.mount_source.is_empty()
}

/// Whether a rule narrows what it matches by excluding arguments.
pub(super) fn has_exclusions(r: &Rule) -> bool {
    !r.flags_none.is_empty()
        || !r.args_none.is_empty()
        || r.line_not_regex.is_some()
        || r.max_positional.is_some()
        || !r.args_is.is_empty()
        || !r.args_only.is_empty()
}

/// Whether a rule's only exclusions are options (`flags_none`).
pub(super) fn excludes_only_options(r: &Rule) -> bool {
    r.args_none.is_empty()
        && r.args_only.is_empty()
        && r.line_not_regex.is_none()
        && r.max_positional.is_none()
        && r.args_is.is_empty()
}

/// Whether some argument is not known from the text: added at run time, or holding a
/// variable or substitution other than the home folder.
pub(super) fn args_unknown(inv: &Invocation) -> bool {
    inv.extra_args_unknown || written_args_unknown(inv)
}

/// Whether some argument written in the command holds a variable or substitution other
/// than the home folder.
pub(super) fn written_args_unknown(inv: &Invocation) -> bool {
    inv.args.iter().any(|a| {
        !a.literal && {
            let t = a
                .text
                .trim_start_matches("${HOME}")
                .trim_start_matches("$HOME");
            t.contains('$') || t.contains('`') || t.contains("(…)")
        }
    })
}
