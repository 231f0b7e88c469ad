//! The `programmer-hook` binary. It only makes sure that nothing — not even a panic — can
//! end the process in a way Claude Code would read as "allow"; the work is in the library.

use programmer_hook::cli;

fn main() {
    set_signals();
    // A panic must never reach Claude Code as a crash (which it would let through):
    // report it in one line and exit 2, which blocks the call.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("programmer-hook: blocked because of an internal error: {msg}{at}");
    }));
    let code = std::panic::catch_unwind(cli::run).unwrap_or(2);
    std::process::exit(code);
}

/// Signal dispositions the process needs before it does anything.
///
/// - `SIGXFSZ` is ignored: under a file size limit (`ulimit -f`) a write past it would
///   otherwise kill the process before it answers; ignored, the write fails with an error
///   the hook reports (and the decision stands).
/// - `SIGPIPE` is set back to the default for the commands people run by hand, so
///   `programmer-hook policy show | head` ends quietly like any Unix tool instead of
///   reporting a broken pipe. The hook itself keeps it ignored: a write error there is
///   reported, never silent.
#[cfg(unix)]
fn set_signals() {
    let hook = std::env::args_os().nth(1).is_some_and(|a| a == "hook");
    // SAFETY: called first thing in `main`, before any other thread exists; it only sets
    // the disposition of two signals to SIG_IGN or SIG_DFL, which install no handler code.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        if !hook {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
}

#[cfg(not(unix))]
fn set_signals() {}
