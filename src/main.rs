//! The `programmer-hook` binary. It only makes sure that nothing — not even a panic — can
//! end the process in a way Claude Code would read as "allow"; the work is in the library.

use programmer_hook::cli;

fn main() {
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
