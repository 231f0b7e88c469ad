//! The marked blocks the installers add to files of the Claude config dir that the user
//! owns (`CLAUDE.md`, `agents/master-orchestrator.md`): their text, and the edit that adds,
//! replaces or removes one (the same edit as `edit_block` in `install.sh`).
//!
//! The edit is pure: it takes the file's text and returns the new one, or says why it left
//! the file alone. A block sits between [`BEGIN`] and [`END`], each a line of its own; a
//! file whose markers do not pair up (two blocks, a begin without an end) is never changed.

/// The line that opens a block.
pub const BEGIN: &str = "<!-- programmer-hook:begin -->";
/// The line that closes a block.
pub const END: &str = "<!-- programmer-hook:end -->";

/// The block of `CLAUDE.md`.
pub const CLAUDE_MD: &str = "<!-- programmer-hook:begin -->
## programmer-orchestrator (added by programmer-hook)

The code-development branch of the hierarchy:

    Master Orchestrator (Opus)
    └── programmer-orchestrator (Opus) - code development
        ├── code-planner (Sonnet) - design and planning
        ├── code-implementer (Sonnet) - writes code
        └── code-reviewer (Sonnet) - review and quality

Start it with `/programmer <request>` (also `/code`, `/dev`) or
`claude --agent programmer-orchestrator`. It runs as the main session because it starts
its own subagents; programmer-hook enforces its gates (plan, your `approve`, implement,
review, commit). Register a project first with the programmer-add-project skill.
<!-- programmer-hook:end -->
";

/// The block of `agents/master-orchestrator.md`.
pub const MASTER: &str = "<!-- programmer-hook:begin -->
## Supervised: programmer-orchestrator (added by programmer-hook)

- **programmer-orchestrator** (opus): code changes in the user's projects, through plan,
  user approval, implementation, review and commit, with code-planner, code-implementer
  and code-reviewer under it. It must run as the main session, since it starts those
  subagents itself: route a programming request to the user as `/programmer <request>`
  instead of starting it as a subagent.
<!-- programmer-hook:end -->
";

/// What an edit comes to.
#[derive(Debug, PartialEq, Eq)]
pub enum Edit {
    /// The markers do not pair up: the file is left alone.
    Unpaired,
    /// Removing, and there is no block.
    NoBlock,
    /// The text would not change.
    Unchanged,
    /// The new text; `replaced` when a block was there before.
    Changed { text: String, replaced: bool },
}

/// Adds `block` (or replaces the block in place) when it is `Some`; removes the block and
/// the blank line before it when it is `None`.
pub fn edit(text: &str, block: Option<&str>) -> Edit {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') || text.is_empty() {
        lines.pop();
    }
    let begins = lines.iter().filter(|l| **l == BEGIN).count();
    let ends = lines.iter().filter(|l| **l == END).count();
    if begins > 1 || begins != ends {
        return Edit::Unpaired;
    }
    if block.is_none() && begins == 0 {
        return Edit::NoBlock;
    }
    let mut out = String::with_capacity(text.len() + block.map_or(0, str::len));
    let (mut skip, mut held) = (false, false);
    for line in lines {
        if skip {
            skip = line != END;
            continue;
        }
        if line == BEGIN {
            if let Some(b) = block {
                if held {
                    out.push('\n');
                }
                out.push_str(b);
            }
            held = false;
            skip = true;
            continue;
        }
        if held {
            out.push('\n');
            held = false;
        }
        if line.is_empty() {
            held = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if held {
        out.push('\n');
    }
    if let (Some(b), 0) = (block, begins) {
        out.push('\n');
        out.push_str(b);
    }
    if out == text {
        Edit::Unchanged
    } else {
        Edit::Changed {
            text: out,
            replaced: begins == 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: &str = "<!-- programmer-hook:begin -->\nours\n<!-- programmer-hook:end -->\n";

    fn changed(e: Edit) -> String {
        match e {
            Edit::Changed { text, .. } => text,
            other => panic!("expected a change, got {other:?}"),
        }
    }

    #[test]
    fn adds_replaces_and_removes() {
        // (file, after adding B, after removing the block)
        let cases: &[(&str, &str, &str)] = &[
            ("# Mine\n", "# Mine\n\n<!-- programmer-hook:begin -->\nours\n<!-- programmer-hook:end -->\n", "# Mine\n"),
            ("# Mine\n\n", "# Mine\n\n\n<!-- programmer-hook:begin -->\nours\n<!-- programmer-hook:end -->\n", "# Mine\n\n"),
            ("a\n\n<!-- programmer-hook:begin -->\nold\n<!-- programmer-hook:end -->\nb\n", "a\n\n<!-- programmer-hook:begin -->\nours\n<!-- programmer-hook:end -->\nb\n", "a\nb\n"),
            ("no newline", "no newline\n\n<!-- programmer-hook:begin -->\nours\n<!-- programmer-hook:end -->\n", "no newline"),
        ];
        for (file, added, removed) in cases {
            let with = match edit(file, Some(B)) {
                Edit::Changed { text, .. } => text,
                Edit::Unchanged => file.to_string(),
                other => panic!("{file:?}: {other:?}"),
            };
            assert_eq!(with, *added, "{file:?}");
            assert_eq!(edit(&with, Some(B)), Edit::Unchanged, "{file:?}: again");
            let without = changed(edit(&with, None));
            if file.contains(BEGIN) {
                assert_eq!(without, *removed, "{file:?}");
            } else {
                assert_eq!(without.trim_end(), file.trim_end(), "{file:?}");
            }
        }
    }

    #[test]
    fn leaves_unpaired_markers_alone() {
        let two = format!("{B}{B}");
        assert_eq!(edit(&two, Some(B)), Edit::Unpaired);
        assert_eq!(edit(&format!("x\n{BEGIN}\n"), None), Edit::Unpaired);
        assert_eq!(edit("x\n", None), Edit::NoBlock);
        assert!(matches!(edit(&format!("x\n{B}"), Some(B)), Edit::Unchanged));
        assert!(matches!(
            edit(&format!("x\n{BEGIN}\nold\n{END}\n"), Some(B)),
            Edit::Changed { replaced: true, .. }
        ));
    }

    #[test]
    fn the_blocks_are_blocks() {
        for b in [CLAUDE_MD, MASTER] {
            assert!(b.starts_with(&format!("{BEGIN}\n")) && b.ends_with(&format!("{END}\n")));
        }
    }
}
