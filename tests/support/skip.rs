//! A test that needs what the machine may lack (the Claude Code client, a browser, the
//! peer cases, a sandbox) passes without it, but says so loudly; under CI, which installs
//! all of them, it fails instead.

use std::io::Write as _;
use std::process::Command;

/// Whether the tests run under CI: `$CI` set to anything but nothing, `0` or `false`.
pub fn in_ci() -> bool {
    match std::env::var("CI") {
        Ok(v) => !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"),
        Err(_) => false,
    }
}

/// A loud SKIPPED line saying `what`, and `detail` on a line of its own, straight to the
/// process's stderr (libtest captures `eprintln!`; this must be seen on a passing run too).
pub fn skipped(what: &str, detail: Option<&str>) {
    let mut text = format!("\n!!!!! SKIPPED: {what} !!!!!\n");
    if let Some(detail) = detail {
        text.push_str(&format!("!!!!! ({detail}) !!!!!\n"));
    }
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// Fails the test under CI, where `missing` is an error; elsewhere nothing.
pub fn fail_under_ci(missing: &str) {
    if in_ci() {
        panic!("\n\n!!!!! FAILURE: {missing} (CI is set, so this is an error) !!!!!\n");
    }
}

/// Why Claude Code's sandbox cannot run here, if it cannot (the machine is Linux).
pub fn sandbox_unavailable() -> Option<String> {
    for tool in ["bwrap", "socat"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            return Some(format!(
                "`{tool}` is not installed (apt-get install -y bubblewrap socat)"
            ));
        }
    }
    match Command::new("bwrap")
        .args([
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "true",
        ])
        .output()
    {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!(
            "`bwrap --ro-bind / / --dev /dev --proc /proc true` failed ({}): {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Some(format!("bwrap could not be started: {e}")),
    }
}
