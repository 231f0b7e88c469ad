//! The `programmer-hook` binary. It only makes sure that nothing — not even a panic — can
//! end the process in a way Claude Code would read as "allow"; the work is in the library.
//!
//! The binary brings its own C `main` instead of Rust's start-up (`#![no_main]`). Claude
//! Code starts one process per tool call, so start-up is paid on every call, and Rust's
//! start-up spends about a fifth of a short call's instructions on the main thread's stack
//! guard (it reads and parses `/proc/self/maps`). What that start-up does that the hook
//! needs is done here: standard file descriptors that are closed are opened on `/dev/null`
//! (so no file the hook opens can become its standard output), and `SIGPIPE` is ignored
//! for the hook. A stack overflow still ends the process on the guard page the kernel
//! keeps below the stack (the walkers bound their depth, so it is not expected).

#![no_main]

use programmer_hook::cli;

/// The process entry point the C runtime calls.
///
/// The arguments are read through `std::env::args`, which the Rust standard library fills
/// from the C runtime's start-up on Linux whether or not Rust's `main` runs.
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    start_up();
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

/// What the process needs before it does anything.
///
/// - Standard input, output and error that are closed are opened on `/dev/null`, as
///   Rust's own start-up does: otherwise the first file the hook opens (the audit log)
///   would take descriptor 1 and receive the answer meant for Claude Code.
/// - `SIGXFSZ` is ignored: under a file size limit (`ulimit -f`) a write past it would
///   otherwise kill the process before it answers; ignored, the write fails with an error
///   the hook reports (and the decision stands).
/// - `SIGPIPE` is ignored by the hook, so a write to a closed pipe is an error it reports,
///   never a silent death; the commands people run by hand keep the default, so
///   `programmer-hook policy show | head` ends quietly like any Unix tool.
#[cfg(unix)]
fn start_up() {
    let hook = std::env::args_os().nth(1).is_some_and(|a| a == "hook");
    // SAFETY: called first thing in `main`, before any other thread exists. `poll` reads
    // three descriptors it is given by value; `open` gets a NUL-terminated constant path;
    // `signal` sets two dispositions to SIG_IGN or SIG_DFL, which install no handler code.
    unsafe {
        let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        });
        if libc::poll(fds.as_mut_ptr(), 3, 0) >= 0 {
            for p in fds {
                if p.revents & libc::POLLNVAL != 0 {
                    let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                    if null != p.fd {
                        // Descriptors are handed out lowest first, so this is only reached
                        // when `/dev/null` cannot be opened: nothing safe is left to do.
                        libc::_exit(2);
                    }
                }
            }
        }
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        libc::signal(
            libc::SIGPIPE,
            if hook { libc::SIG_IGN } else { libc::SIG_DFL },
        );
    }
}

#[cfg(not(unix))]
fn start_up() {}
