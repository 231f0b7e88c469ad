//! Judgements of large snippets kept between calls, so that a big script run again and
//! again (`python3 tool.py` in a loop of edits and runs) is read once.
//!
//! Claude Code starts one hook process per tool call, so nothing survives in memory: a
//! 100 KB Python script costs tens of milliseconds to parse and walk on every call. What
//! a snippet does depends on its text and language alone (the policy and the working
//! folder are applied afterwards), so the effects found can be kept under a key made of
//! both, and read back the next time the same text comes. The key is a SHA-256 of the
//! text, so a different text cannot be made to find another's judgement; the store (see
//! [`Fs::recall`]) keeps its entries per build of the binary, so a newer walker never
//! trusts an older one's findings. Only judgements that understood the whole snippet are
//! kept: an opaque one may have been cut short by the parsing time limit on a busy machine.
//!
//! The store is the file system's business ([`Fs`]): this module is pure.

use sha2::{Digest, Sha256};

use super::{Effect, Judged, Lang};
use crate::engine::paths::Fs;

/// Snippets shorter than this are judged afresh: reading them is about as cheap as
/// reading a stored judgement.
pub const MIN_BYTES: usize = 8 * 1024;
/// The format of stored judgements; a change of [`Effect`] must change it.
const FORMAT: &str = "programmer-hook code judgement 1";

/// The key a snippet's judgement is stored under: 64 hex digits.
pub fn key(lang: Lang, src: &str) -> String {
    let mut h = Sha256::new();
    h.update(FORMAT.as_bytes());
    h.update([0]);
    h.update(lang.name().as_bytes());
    h.update([0]);
    h.update(src.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// What `src` does: recalled from `fs` when the same text was judged before, otherwise
/// judged and, when it is large and understood, kept in `fs`.
pub fn analyze(fs: &dyn Fs, lang: Lang, src: &str) -> Judged {
    if src.len() < MIN_BYTES {
        return super::analyze(lang, src);
    }
    let key = key(lang, src);
    if let Some(effects) = fs
        .recall(&key)
        .and_then(|text| serde_json::from_str::<Vec<Effect>>(&text).ok())
    {
        // A stored judgement is never opaque; one that is was not written here.
        if !effects.iter().any(|e| matches!(e, Effect::Opaque(_))) {
            return Judged::recalled(effects);
        }
    }
    let judged = super::analyze(lang, src);
    if !judged.is_opaque() {
        if let Ok(text) = serde_json::to_string(&judged.effects) {
            fs.keep(&key, &text);
        }
    }
    judged
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};

    use super::*;

    /// A store in memory that counts what it is asked.
    #[derive(Default)]
    struct Store {
        kept: RefCell<HashMap<String, String>>,
        recalls: RefCell<usize>,
    }

    impl Fs for Store {
        fn canonicalize(&self, _: &Path) -> Option<PathBuf> {
            None
        }
        fn recall(&self, key: &str) -> Option<String> {
            *self.recalls.borrow_mut() += 1;
            self.kept.borrow().get(key).cloned()
        }
        fn keep(&self, key: &str, value: &str) {
            self.kept.borrow_mut().insert(key.into(), value.into());
        }
    }

    /// A Python script of at least `n` bytes that reads a file and runs `git`.
    fn script(n: usize) -> String {
        let mut s = String::from("import json, subprocess\n");
        let mut i = 0;
        while s.len() < n {
            s.push_str(&format!(
                "def f{i}(x):\n    return x * {i} + len(str(x))\n\n"
            ));
            i += 1;
        }
        s.push_str("print(json.load(open('package.json')))\nsubprocess.run(['git', 'status'])\n");
        s
    }

    #[test]
    fn a_large_snippet_is_judged_once_and_recalled_the_same() {
        let store = Store::default();
        let src = script(20_000);
        let first = analyze(&store, Lang::Python, &src);
        assert!(!first.is_opaque(), "{:?}", first.effects);
        assert_eq!(store.kept.borrow().len(), 1);
        let again = analyze(&store, Lang::Python, &src);
        assert_eq!(again.effects, first.effects);
        assert_eq!(
            again.effects,
            super::super::analyze(Lang::Python, &src).effects
        );
    }

    #[test]
    fn a_small_snippet_is_never_stored() {
        let store = Store::default();
        analyze(&store, Lang::Python, "print(1)");
        assert_eq!(*store.recalls.borrow(), 0);
        assert!(store.kept.borrow().is_empty());
    }

    #[test]
    fn an_opaque_judgement_is_not_kept_and_a_stored_opaque_one_is_not_trusted() {
        let store = Store::default();
        let src = format!("{}\nexec(input())\n", script(10_000));
        assert!(analyze(&store, Lang::Python, &src).is_opaque());
        assert!(store.kept.borrow().is_empty());
        // An entry that claims the code is opaque (or anything not a list of effects)
        // is judged afresh.
        let clean = script(10_000);
        let k = key(Lang::Python, &clean);
        store.keep(&k, r#"[{"Opaque":"x"}]"#);
        let fresh = analyze(&store, Lang::Python, &clean);
        assert!(!fresh.is_opaque());
        store.keep(&k, "not json");
        assert_eq!(analyze(&store, Lang::Python, &clean).effects, fresh.effects);
    }

    #[test]
    fn the_key_depends_on_the_language_and_every_byte() {
        let a = key(Lang::Python, "print(1)");
        assert_eq!(a.len(), 64);
        assert_ne!(a, key(Lang::Ruby, "print(1)"));
        assert_ne!(a, key(Lang::Python, "print(2)"));
        assert_eq!(a, key(Lang::Python, "print(1)"));
    }
}
