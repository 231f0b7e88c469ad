//! Runs one command confined: the process the hook's rewritten command starts.
//!
//! The runner stays outside the confinement and starts the command in a child that applies
//! the plan and then runs `bash`, so that before and after the command the runner can still
//! do what the confinement forbids: save the project for `undo`, put back the protected
//! paths, and tell the calling shell which folder the command ended in (the calling shell
//! then `cd`s there, so a `cd` carries to the next call as it does unconfined). Without a
//! terminal (as the client runs it) the child leads a process group of its own, and every
//! terminating signal the runner gets goes to that whole group, so stopping the call stops
//! everything it started; the child is killed if the runner dies; its exit status is the
//! runner's. If the plan cannot be applied, the command does not run.
//!
//! The command's standard error passes through the runner, which looks in it for the words
//! of a refused file access; when the command fails after one, the runner adds one line
//! saying the confinement may be why and how to go on.

use std::ffi::CString;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};

use super::profile::{Plan, Profile};

/// The descriptor the confined shell reports its last folder on.
const CWD_FD: RawFd = 9;

/// The script the confined `bash` runs: the command as the client's own shell runs it
/// (`eval`), then the folder it ended in, on [`CWD_FD`].
const SCRIPT: &str = "__ph_c=$1; shift; eval \"unset -v __ph_c\n$__ph_c\"\n__ph_s=$?; pwd -P >&9 2>/dev/null; exit $__ph_s";

/// What to run.
pub struct Run<'a> {
    pub plan: &'a Plan,
    pub command: &'a str,
    pub shell: &'a Path,
}

/// What became of a run.
#[derive(Debug)]
pub struct Ran {
    /// The exit status to give (128 + N for a command killed by signal N).
    pub status: i32,
    /// The folder the command ended in, when it reported one.
    pub cwd: Option<PathBuf>,
    /// Whether its standard error showed a refused file access.
    pub refused: bool,
}

static CHILD: AtomicI32 = AtomicI32::new(0);

/// Whether the child leads a process group of its own (then signals go to the group).
static OWN_GROUP: AtomicBool = AtomicBool::new(false);

extern "C" fn forward(sig: libc::c_int) {
    let pid = CHILD.load(Ordering::SeqCst);
    if pid > 0 {
        let to = if OWN_GROUP.load(Ordering::SeqCst) {
            -pid
        } else {
            pid
        };
        // SAFETY: kill is async-signal-safe.
        unsafe { libc::kill(to, sig) };
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        bail!("pipe: {}", std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just made and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Runs the command under the plan and waits for it.
pub fn run(r: &Run) -> Result<Ran> {
    // Everything the child needs is made before it is started: after `fork` it only
    // applies the ruleset, moves descriptors and runs the shell.
    let ruleset = super::landlock::prepare(r.plan)
        .context("the confinement could not be set up, so the command did not run")?;
    let shell = CString::new(r.shell.as_os_str().as_encoded_bytes()).context("shell path")?;
    let argv0 = CString::new("bash").context("argv")?;
    let dash_c = CString::new("-c").context("argv")?;
    let script = CString::new(SCRIPT).context("argv")?;
    let command = CString::new(r.command).context("the command holds a NUL byte")?;
    let argv = [
        argv0.as_ptr(),
        dash_c.as_ptr(),
        script.as_ptr(),
        argv0.as_ptr(),
        command.as_ptr(),
        std::ptr::null(),
    ];
    let (cwd_r, cwd_w) = pipe()?;
    let (err_r, err_w) = pipe()?;
    let parent = std::process::id() as libc::pid_t;
    // Without a terminal, the command gets a process group of its own, so that a signal
    // the runner gets reaches everything the command started; on a terminal it stays in
    // the foreground group, where it can read the terminal.
    // SAFETY: isatty only looks at a descriptor.
    let own_group = unsafe { libc::isatty(0) } == 0;
    OWN_GROUP.store(own_group, Ordering::SeqCst);
    // SAFETY: the process is single-threaded here (the relay thread starts after), so the
    // child may run any code; it ends in execv or _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        bail!("fork: {}", std::io::Error::last_os_error());
    }
    if pid == 0 {
        if own_group {
            // SAFETY: moves this new process into a group of its own.
            unsafe { libc::setpgid(0, 0) };
        }
        child(ruleset, parent, &cwd_w, &err_w, &shell, &argv);
    }
    if own_group {
        // SAFETY: the same from the parent's side, so that the group exists before any
        // signal is forwarded to it (whichever of the two runs first).
        unsafe { libc::setpgid(pid, pid) };
    }
    drop(cwd_w);
    drop(err_w);
    CHILD.store(pid, Ordering::SeqCst);
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT] {
        // SAFETY: installs a handler that only calls kill.
        unsafe { libc::signal(sig, forward as *const () as libc::sighandler_t) };
    }
    let done = Arc::new(AtomicBool::new(false));
    let relay = {
        let done = done.clone();
        std::thread::spawn(move || relay(err_r, &done))
    };
    let mut wstatus = 0;
    loop {
        // SAFETY: waits for our own child, writing its status into `wstatus`.
        let w = unsafe { libc::waitpid(pid, &mut wstatus, 0) };
        if w == pid {
            break;
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            bail!("waitpid: {}", std::io::Error::last_os_error());
        }
    }
    CHILD.store(0, Ordering::SeqCst);
    done.store(true, Ordering::SeqCst);
    let (refused, rest) = relay.join().unwrap_or((false, None));
    if let Some(fd) = rest {
        hand_off(fd);
    }
    let status = if libc::WIFEXITED(wstatus) {
        libc::WEXITSTATUS(wstatus)
    } else if libc::WIFSIGNALED(wstatus) {
        128 + libc::WTERMSIG(wstatus)
    } else {
        1
    };
    Ok(Ran {
        status,
        cwd: last_folder(cwd_r),
        refused,
    })
}

/// The child: confined, with its standard error on the relay and the folder report on
/// [`CWD_FD`], it becomes the shell. Never returns.
fn child(
    ruleset: super::landlock::Prepared,
    parent: libc::pid_t,
    cwd_w: &OwnedFd,
    err_w: &OwnedFd,
    shell: &CString,
    argv: &[*const libc::c_char],
) -> ! {
    // SAFETY: plain system calls on descriptors and settings of this process only.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != parent {
            libc::_exit(1);
        }
        for sig in [libc::SIGPIPE, libc::SIGXFSZ] {
            libc::signal(sig, libc::SIG_DFL);
        }
        let empty: libc::sigset_t = std::mem::zeroed();
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        if libc::dup2(err_w.as_raw_fd(), 2) < 0 || libc::dup2(cwd_w.as_raw_fd(), CWD_FD) < 0 {
            libc::_exit(126);
        }
    }
    if let Err(e) = ruleset.restrict() {
        let _ = writeln!(
            std::io::stderr(),
            "programmer-hook: the confinement could not be applied, so the command did not run: {e:#}"
        );
        // SAFETY: ends the child without running the parent's exit handlers.
        unsafe { libc::_exit(126) };
    }
    // SAFETY: `shell` and every argv entry are NUL-terminated and outlive the call; the
    // array ends with a null pointer.
    unsafe {
        libc::execv(shell.as_ptr(), argv.as_ptr());
    }
    let _ = writeln!(
        std::io::stderr(),
        "programmer-hook: could not start {}: {}",
        shell.to_string_lossy(),
        std::io::Error::last_os_error()
    );
    // SAFETY: as above.
    unsafe { libc::_exit(127) }
}

/// Words a program prints when the kernel refused it a file.
const REFUSALS: &[&[u8]] = &[
    b"Permission denied",
    b"Operation not permitted",
    b"Read-only file system",
    b"EACCES",
    b"EPERM",
    b"PermissionError",
    b"AccessDenied",
];

/// Copies the command's standard error to ours, noting a refused access, until the pipe
/// ends, or the command has ended and the pipe stays quiet (a process the command left
/// running still holds it): then gives the pipe back.
fn relay(fd: OwnedFd, done: &AtomicBool) -> (bool, Option<OwnedFd>) {
    let mut refused = false;
    let mut carry: Vec<u8> = Vec::new();
    let mut buf = [0u8; 8192];
    let mut quiet_after_done = 0;
    loop {
        let mut pfd = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: polls one descriptor we own.
        let n = unsafe { libc::poll(&mut pfd, 1, 50) };
        if n == 0 {
            if done.load(Ordering::SeqCst) {
                quiet_after_done += 1;
                if quiet_after_done >= 2 {
                    return (refused, Some(fd));
                }
            }
            continue;
        }
        if n < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return (refused, None);
        }
        // SAFETY: reads into a buffer of the given size.
        let got = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if got <= 0 {
            if got < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return (refused, None);
        }
        let chunk = &buf[..got as usize];
        write_all(2, chunk);
        carry.extend_from_slice(chunk);
        if !refused {
            refused = REFUSALS
                .iter()
                .any(|w| carry.windows(w.len()).any(|x| x == *w));
        }
        let keep = carry.len().saturating_sub(32);
        carry.drain(..keep);
    }
}

fn write_all(fd: RawFd, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writes from a live buffer of the given length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// A process the command left running still writes to its standard error: a process of
/// our own goes on copying it, so that it reaches where it would have gone unconfined.
fn hand_off(fd: OwnedFd) {
    // SAFETY: the relay thread has ended, so the process is single-threaded; the new
    // process only reads, writes and exits.
    let pid = unsafe { libc::fork() };
    if pid != 0 {
        return;
    }
    // SAFETY: see above; setsid keeps the copier out of the call's process group's signals
    // only for as long as it has something to copy.
    let mut buf = [0u8; 8192];
    loop {
        let got = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if got <= 0 {
            if got < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            unsafe { libc::_exit(0) };
        }
        write_all(2, &buf[..got as usize]);
    }
}

/// The last folder the shell reported, if it is one.
fn last_folder(fd: OwnedFd) -> Option<PathBuf> {
    // SAFETY: sets O_NONBLOCK on our own descriptor: a process the command left running
    // may hold the pipe open, and the report is written before the shell exits.
    unsafe {
        let fl = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, fl | libc::O_NONBLOCK);
    }
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: reads into a buffer of the given size.
        let got = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if got <= 0 || all.len() > 1 << 16 {
            break;
        }
        all.extend_from_slice(&buf[..got as usize]);
    }
    let text = String::from_utf8(all).ok()?;
    let line = text.lines().rev().find(|l| !l.is_empty())?;
    let p = PathBuf::from(line);
    (p.is_absolute() && p.is_dir()).then_some(p)
}

/// The line added at the end of a failed command's standard error when it showed a
/// refused access.
pub fn refusal_note(profile: Profile) -> String {
    format!(
        "programmer-hook: this command ran confined (profile {}: {}) and failed after an access was refused (see `Permission denied` or `Operation not permitted` above); if that refusal is the failure, running it again will fail the same way: run it again with `dangerouslyDisableSandbox: true`, which asks the user to let it run unconfined",
        profile.name(),
        profile.summary()
    )
}
