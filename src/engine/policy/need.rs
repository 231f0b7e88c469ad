//! What a path must hold to match a path pattern: a necessary condition, read from the
//! pattern as the policy writes it.
//!
//! Pure and self-contained: `build.rs` includes this file to work out the needs of the
//! built-in lists once, at build time, so that a call reads them instead of each pattern.

/// What a path must hold for one pattern to match it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Nothing known: the pattern is walked for every path.
    Anything,
    /// The path's last name is this range of the pattern (a name without wildcards).
    Last(usize, usize),
    /// The path's last name matches this range of the pattern (a name with wildcards).
    LastLike(usize, usize),
    /// One of the path's names is a name of the pattern: its bit (see [`name_bit`]).
    Name(u64),
}

/// What a path must hold to match `pattern` (as the policy writes it), following the cases
/// of `glob_match`: a pattern whose last name is not `**` must match the path's last
/// name; every other name of a pattern without wildcards must be one of the path's names.
/// Names that hold a place are not relied on, as they change when it is filled in. One
/// pass over the pattern's bytes from its end: this runs for every pattern of the lists a
/// call uses.
pub fn need_of(pattern: &str) -> Need {
    let b = pattern.as_bytes();
    let mut end = b.len();
    let mut wild = false;
    let mut place = false;
    let mut last = true;
    for i in (0..=b.len()).rev() {
        let at_start = i == 0;
        if !at_start && b[i - 1] != b'/' {
            match b[i - 1] {
                b'*' | b'?' => wild = true,
                b'{' => place = true,
                _ => {}
            }
            continue;
        }
        // `pattern[i..end]` is one name.
        let name = &pattern[i..end];
        let home = at_start && name.starts_with('~');
        if last {
            if name == "**" {
                last = false;
            } else if name.is_empty() || place || home {
                return Need::Anything;
            } else if wild {
                return Need::LastLike(i, end);
            } else {
                return Need::Last(i, end);
            }
        } else if !name.is_empty() && !wild && !place && !home {
            // `~/.ssh/**`, `.git/modules/**/hooks/**`: the path holds the last plain name.
            return Need::Name(name_bit(name));
        }
        end = i.saturating_sub(1);
        wild = false;
        place = false;
    }
    Need::Anything
}

/// A bit standing for a name: equal names have equal bits.
pub fn name_bit(name: &str) -> u64 {
    let b = name.as_bytes();
    let (first, last) = (
        b.first().copied().unwrap_or(0),
        b.last().copied().unwrap_or(0),
    );
    let h = (b.len() as u64)
        .wrapping_mul(31)
        .wrapping_add(u64::from(first).wrapping_mul(7))
        .wrapping_add(u64::from(last));
    1 << (h % 64)
}
