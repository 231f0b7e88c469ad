//! A tree-sitter parse stopped at a limit of work. The Bash parser and the readers of code in
//! other languages both parse text an agent wrote, and neither may run for long on it.
//!
//! The limit is the processor time the parsing thread has used, not the time on the clock:
//! on a busy machine a parse waits for the processor, and a wall-clock limit would then stop
//! parses that are cheap, so that the same command got another verdict under load (asked as
//! unreadable instead of judged). The clock still bounds it, at many times the limit, so that
//! a machine starved of processor time answers before Claude Code's hook timeout (which lets
//! the call through).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, Parser, Tree};

/// How many times the processor-time limit the clock may run before a parse is stopped.
const WALL_FACTOR: u32 = 20;

/// Why a parse gave no tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoTree {
    /// It ran past its limit.
    TimedOut,
    /// The parser stopped for another reason.
    Failed,
}

/// Parses `bytes` with `parser`, stopped once the thread has used `limit` of processor time
/// for it (or the clock has run `WALL_FACTOR` times that).
pub(crate) fn parse_within(
    parser: &mut Parser,
    bytes: &[u8],
    limit: Duration,
) -> Result<Tree, NoTree> {
    let wall = Instant::now();
    let cpu = thread_time();
    let mut timed_out = false;
    let mut progress = |_: &tree_sitter::ParseState| {
        let used = match (cpu, thread_time()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => wall.elapsed(),
        };
        if used > limit || wall.elapsed() > limit * WALL_FACTOR {
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

/// The processor time this thread has used, where the system tells it.
#[cfg(unix)]
fn thread_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    Some(Duration::new(secs, nanos))
}

#[cfg(not(unix))]
fn thread_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parse_stops_at_its_limit_and_a_cheap_one_does_not() {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .expect("grammar");
        // Error recovery on this input costs tens of milliseconds.
        let hard = "a=( ( ( ( [[ ".repeat(800);
        let stopped = parse_within(&mut parser, hard.as_bytes(), Duration::from_micros(1));
        assert_eq!(stopped.err(), Some(NoTree::TimedOut));
        let easy = parse_within(&mut parser, b"ls -la src", Duration::from_millis(100));
        assert!(easy.is_ok());
    }

    #[test]
    fn the_thread_time_moves() {
        let a = thread_time().expect("a thread clock on this system");
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let b = thread_time().expect("a thread clock on this system");
        assert!(b > a);
    }
}
