//! What the words of a command name where the policy does not know what the program does
//! with them (see `analyze::named`), and what a network program may send: the signals they
//! raise (`secret-named`, `protected-named`, `secret-sent`) and why a verdict on the
//! command may not be relaxed. Signals only: the rules for them give the verdicts.

use super::path_class::{has_glob, PathClasses};
use crate::engine::analyze::{Invocation, Sent, Signal, SignalName};
use crate::engine::args::{reads_recursively, Recursion};
use crate::engine::paths;
use crate::engine::policy::PathClass;

/// What an invocation's words in unknown positions name.
#[derive(Default)]
pub(super) struct NamedClasses {
    /// `secret-named`, `protected-named`.
    pub(super) signals: Vec<Signal>,
    /// Why its verdict may not be relaxed, if it may not.
    pub(super) unrelaxable: Option<String>,
}

/// What the words of an invocation in positions the policy does not know name (see
/// `analyze::named`): a secret or a protected path is a signal of its own; a path
/// outside the project, or one known only at run time, makes its verdict opaque.
pub(super) fn named_classes(classes: &PathClasses, inv: &Invocation) -> NamedClasses {
    let mut out = NamedClasses::default();
    let cwd = inv.cwd.as_deref();
    let recursion = if inv.named.is_empty() {
        Recursion::No
    } else {
        reads_recursively(classes.ctx.policy, &inv.name, &inv.args)
    };
    let maybe = inv.maybe_named.iter().map(|w| (w, true));
    for (w, only_secret_or_protected) in inv.named.iter().map(|w| (w, false)).chain(maybe) {
        if w.literal && is_harmless_device(&w.text) || classes.plain_name(w, cwd) {
            continue;
        }
        let res = paths::resolve(&w.text, w.literal, cwd, classes.ctx.places, classes.ctx.fs);
        let shown = res.lexical.as_deref().unwrap_or(&res.raw);
        if res.lexical.is_none() {
            // A literal word Bash leaves as it is (`~50%`) names no known place.
            if only_secret_or_protected || w.literal {
                if !only_secret_or_protected && out.unrelaxable.is_none() {
                    out.unrelaxable = Some(format!("`{}`", res.raw));
                }
                continue;
            }
            out.signals.push(Signal {
                name: SignalName::SecretNamed,
                detail: format!(
                    "{}: `{}`, known only at run time, may name a file that holds secrets",
                    inv.display, res.raw
                ),
            });
            continue;
        }
        let secret = classes.in_class(&res, PathClass::Sensitive, cwd)
            || !only_secret_or_protected && classes.holds_a_secret(&res, recursion);
        if secret {
            out.signals.push(Signal {
                name: SignalName::SecretNamed,
                detail: format!("{}: names {shown}, which may hold secrets", inv.display),
            });
        }
        if classes.in_class(&res, PathClass::Protected, cwd) {
            out.signals.push(Signal {
                name: SignalName::ProtectedNamed,
                detail: format!("{}: names {shown}, a protected path", inv.display),
            });
        } else if !secret
            && !only_secret_or_protected
            && out.unrelaxable.is_none()
            && classes.in_class(&res, PathClass::Outside, cwd)
        {
            out.unrelaxable = Some(format!("{shown}, outside the working folder"));
        }
    }
    out
}

/// A file a network program may send: a secret is a signal of its own, and so is a
/// name known only at run time (it may be one).
pub(super) fn sent_signal(classes: &PathClasses, s: &Sent) -> Option<Signal> {
    let w = &s.word;
    if w.literal && (is_harmless_device(&w.text) || w.text.starts_with("/dev/")) {
        return None;
    }
    if !w.literal && matches!(w.text.as_str(), "<(…)" | ">(…)" | "$(…)")
        || classes.plain_name(w, s.cwd.as_deref())
    {
        return None;
    }
    let res = paths::resolve(
        &w.text,
        w.literal,
        s.cwd.as_deref(),
        classes.ctx.places,
        classes.ctx.fs,
    );
    let signal = if res.lexical.is_none() {
        Signal {
            name: SignalName::SecretNamed,
            detail: format!(
                "{} may send `{}`, known only at run time, off the machine",
                s.by, res.raw
            ),
        }
    } else if res.dynamic
        && has_glob(&res.raw)
        && (classes.in_class(&res, PathClass::Sensitive, s.cwd.as_deref())
            || classes.holds_a_secret(&res, s.recursive))
    {
        // A glob that could match a secret (`aws … SELECT * FROM t`): it may name one.
        Signal {
            name: SignalName::SecretNamed,
            detail: format!(
                "{} may send what `{}` matches, which could hold secrets, off the machine",
                s.by, res.raw
            ),
        }
    } else if classes.in_class(&res, PathClass::Sensitive, s.cwd.as_deref())
        || classes.holds_a_secret(&res, s.recursive)
    {
        Signal {
            name: SignalName::SecretSent,
            detail: format!(
                "{} may send {}, which may hold secrets, off the machine",
                s.by,
                res.lexical.as_deref().unwrap_or(&res.raw)
            ),
        }
    } else {
        return None;
    };
    Some(signal)
}

/// Devices a word may name that hold nothing: `/dev/null`, `-` (standard input).
fn is_harmless_device(t: &str) -> bool {
    matches!(
        t,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/stdin" | "/dev/tty" | "-"
    ) || t.starts_with("/dev/fd/")
}
