//! A tree-sitter parse stopped at a time limit. The Bash parser and the readers of code in
//! other languages both parse text an agent wrote, and neither may run for long on it.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, Parser, Tree};

/// Why a parse gave no tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoTree {
    /// It ran past its time limit.
    TimedOut,
    /// The parser stopped for another reason.
    Failed,
}

/// Parses `bytes` with `parser`, stopped once `limit` has passed since `started`.
pub(crate) fn parse_within(
    parser: &mut Parser,
    bytes: &[u8],
    started: Instant,
    limit: Duration,
) -> Result<Tree, NoTree> {
    let mut timed_out = false;
    let mut progress = |_: &tree_sitter::ParseState| {
        if started.elapsed() > limit {
            timed_out = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    let tree = parser.parse_with_options(
        &mut |i, _| {
            if i < bytes.len() {
                &bytes[i..]
            } else {
                &[] as &[u8]
            }
        },
        None,
        Some(options),
    );
    match tree {
        Some(t) => Ok(t),
        None if timed_out => Err(NoTree::TimedOut),
        None => Err(NoTree::Failed),
    }
}
