//! The word lists of policy files (command names, flags, globs), each stored as one string.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::schema::SEP;

/// Text in a policy: borrowed from the binary for the built-in policy, owned when read
/// from a user's or a project's file.
pub type PolicyText = Cow<'static, str>;

/// A list of words (command names, flags, globs), stored as one string.
///
/// Policy files are read on every hook call; one allocation per list instead of one per
/// word keeps that cheap. It reads and writes as an ordinary list of strings (a single
/// string is read as a list of one word). Inside, each word is preceded by [`SEP`], so an
/// empty word (as in `args_is = [""]`, "no arguments") is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct List(PolicyText);

impl List {
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        // Everything before the first separator is no word (the stored form starts with one).
        let text = self.0.as_ref();
        let start = text
            .bytes()
            .position(|b| b == SEP_BYTE)
            .unwrap_or(text.len());
        Words(&text[start..])
    }
    /// The stored form: each word preceded by [`SEP`].
    pub(super) fn stored(&self) -> &str {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.iter().count()
    }
    /// Whether `word` is one of the words: found with one substring search of the
    /// stored text for the word between separators (or at its end), cheaper than going
    /// word by word on the everyday path.
    pub fn contains(&self, word: &str) -> bool {
        if word.contains(SEP) {
            return false;
        }
        let text = self.0.as_ref();
        // A short list (an option table's list of a few options) is read word by word:
        // cheaper than setting the substring search up.
        if text.len() <= SHORT_LIST {
            return self.iter().any(|w| w == word);
        }
        // The word with a separator on each side, in a buffer on the stack for a short
        // word: `str::contains` finds or turns it away with its vectorised search, and no
        // match of it is ever part of a longer word.
        let mut buf = [0u8; 64];
        let needle = match buf.get_mut(..word.len() + 2) {
            Some(b) => {
                b[0] = SEP_BYTE;
                b[1..=word.len()].copy_from_slice(word.as_bytes());
                b[word.len() + 1] = SEP_BYTE;
                std::str::from_utf8(b).ok()
            }
            None => None,
        };
        let found = match needle {
            Some(n) => text.contains(n),
            None => text.contains(&format!("{SEP}{word}{SEP}")),
        };
        found || text.strip_suffix(word).is_some_and(|t| t.ends_with(SEP))
    }
    pub fn push(&mut self, word: &str) {
        let s = self.0.to_mut();
        s.push(SEP);
        s.push_str(word);
    }
    pub fn extend(&mut self, other: &List) {
        if self.0.is_empty() {
            self.0 = other.0.clone();
        } else if !other.0.is_empty() {
            self.0.to_mut().push_str(&other.0);
        }
    }
    /// A list from its stored form (each word preceded by [`SEP`]), for the built-in policy.
    pub const fn from_static(joined: &'static str) -> List {
        List(Cow::Borrowed(joined))
    }
}

/// The length of stored text up to which [`List::contains`] reads the words one by one.
const SHORT_LIST: usize = 64;

/// [`SEP`] as a byte: it is ASCII, so no other character's encoding holds it.
const SEP_BYTE: u8 = SEP as u8;

/// The words of a [`List`]'s stored form, each preceded by [`SEP`]. A plain byte scan: the
/// words are short, and the lists are walked on every call (a `str::split` by a character
/// cost several times as much per word).
#[derive(Clone)]
struct Words<'a>(&'a str);

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.0.strip_prefix(SEP)?;
        let end = rest
            .bytes()
            .position(|b| b == SEP_BYTE)
            .unwrap_or(rest.len());
        let (word, tail) = rest.split_at(end);
        self.0 = tail;
        Some(word)
    }
}

impl<'a> IntoIterator for &'a List {
    type Item = &'a str;
    type IntoIter = Box<dyn Iterator<Item = &'a str> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<S: AsRef<str>> FromIterator<S> for List {
    fn from_iter<I: IntoIterator<Item = S>>(it: I) -> Self {
        let mut l = List::default();
        for w in it {
            l.push(w.as_ref());
        }
        l
    }
}

impl Serialize for List {
    fn serialize<Se: serde::Serializer>(&self, ser: Se) -> Result<Se::Ok, Se::Error> {
        ser.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for List {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = List;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of strings")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<List, A::Error> {
                let mut l = List::default();
                while let Some(w) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    if w.contains(SEP) {
                        return Err(serde::de::Error::custom(
                            "list words may not contain the control character U+001F",
                        ));
                    }
                    l.push(&w);
                }
                Ok(l)
            }
            // A plain string is a list of one word.
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<List, E> {
                if v.contains(SEP) {
                    return Err(E::custom(
                        "list words may not contain the control character U+001F",
                    ));
                }
                let mut l = List::default();
                l.push(v);
                Ok(l)
            }
        }
        de.deserialize_any(V)
    }
}
