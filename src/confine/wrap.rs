//! The rewritten command of a confined call.
//!
//! The hook answers `allow` with `updatedInput` whose `command` is what [`wrap`] writes:
//! the runner with the profile and the original command as one argument, then a `cd` to
//! the folder the command ended in (the client runs the rewritten command in its own shell
//! and keeps that shell's folder for the next call), then the command's exit status.

use std::path::Path;

use super::Profile;

/// What a confined call is made of.
#[derive(Debug, Clone)]
pub struct Wrap<'a> {
    /// The `programmer-hook` binary to run.
    pub binary: &'a Path,
    pub profile: Profile,
    /// The session, for `undo` (`project` calls).
    pub session: &'a str,
    /// The project folder the call may write (`project` calls).
    pub project: Option<&'a Path>,
    /// Where the runner writes the folder the command ended in.
    pub cwd_file: &'a Path,
    /// Folders a `read` call may still write (its programs' scratch folders).
    pub scratch: &'a [String],
    /// Secrets the call may still read (those its programs use themselves).
    pub readable: &'a [String],
    /// The command as the agent wrote it.
    pub command: &'a str,
}

/// A word quoted for the shell.
pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The rewritten command.
pub fn wrap(w: &Wrap) -> String {
    let bin = quote(&w.binary.to_string_lossy());
    let file = quote(&w.cwd_file.to_string_lossy());
    let mut s = format!("{bin} confine {} --cwd-file {file}", w.profile.name());
    if !w.session.is_empty() {
        s.push_str(&format!(" --session {}", quote(w.session)));
    }
    if let Some(p) = w.project {
        s.push_str(&format!(" --project {}", quote(&p.to_string_lossy())));
    }
    for d in w.scratch {
        s.push_str(&format!(" --scratch {}", quote(d)));
    }
    for d in w.readable {
        s.push_str(&format!(" --readable {}", quote(d)));
    }
    s.push_str(&format!(" -- {}", quote(w.command)));
    s.push_str(&format!(
        "\n__ph_s=$?; if [ -s {file} ]; then IFS= read -r __ph_d < {file} && cd -- \"$__ph_d\"; fi; rm -f -- {file}; __ph_r() {{ return \"$1\"; }}; __ph_r \"$__ph_s\""
    ));
    s
}

/// Whether a command is a rewritten one.
pub fn is_wrapped(command: &str) -> bool {
    unwrap(command).is_some()
}

/// The original command of a rewritten one: only when the whole text is exactly what
/// [`wrap`] writes for it (a look-alike with another tail is not unwrapped).
pub fn unwrap(command: &str) -> Option<String> {
    let mut rest = command;
    let binary = quoted(&mut rest)?;
    rest = rest.strip_prefix(" confine ")?;
    let (profile, after) = rest.split_once(' ')?;
    let profile = Profile::parse(profile)?;
    rest = after.strip_prefix("--cwd-file ")?;
    let cwd_file = quoted(&mut rest)?;
    let mut session = String::new();
    let mut project = None;
    let mut scratch = Vec::new();
    let mut readable = Vec::new();
    loop {
        if let Some(r) = rest.strip_prefix(" --session ") {
            rest = r;
            session = quoted(&mut rest)?;
        } else if let Some(r) = rest.strip_prefix(" --project ") {
            rest = r;
            project = Some(quoted(&mut rest)?);
        } else if let Some(r) = rest.strip_prefix(" --scratch ") {
            rest = r;
            scratch.push(quoted(&mut rest)?);
        } else if let Some(r) = rest.strip_prefix(" --readable ") {
            rest = r;
            readable.push(quoted(&mut rest)?);
        } else {
            break;
        }
    }
    rest = rest.strip_prefix(" -- ")?;
    let original = quoted(&mut rest)?;
    let again = wrap(&Wrap {
        binary: Path::new(&binary),
        profile,
        session: &session,
        project: project.as_deref().map(Path::new),
        cwd_file: Path::new(&cwd_file),
        scratch: &scratch,
        readable: &readable,
        command: &original,
    });
    (again == command).then_some(original)
}

/// Takes one word quoted as [`quote`] quotes it off the front of `s`.
fn quoted(s: &mut &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = s.strip_prefix('\'')?;
    loop {
        let end = rest.find('\'')?;
        out.push_str(&rest[..end]);
        rest = &rest[end + 1..];
        match rest.strip_prefix("\\''") {
            Some(r) => {
                out.push('\'');
                rest = r;
            }
            None => break,
        }
    }
    *s = rest;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_every_part() {
        let w = Wrap {
            binary: Path::new("/opt/my bin/programmer-hook"),
            profile: Profile::Read,
            session: "s1",
            project: None,
            cwd_file: Path::new("/st/cwd-1"),
            scratch: &["/p/target".to_string()],
            readable: &[],
            command: "echo 'a' && cd sub",
        };
        let s = wrap(&w);
        assert!(s.starts_with("'/opt/my bin/programmer-hook' confine read --cwd-file '/st/cwd-1' --session 's1' --scratch '/p/target' -- 'echo '\\''a'\\'' && cd sub'\n"), "{s}");
        assert!(is_wrapped(&s));
        assert_eq!(unwrap(&s).as_deref(), Some("echo 'a' && cd sub"));
    }

    #[test]
    fn a_look_alike_is_not_unwrapped() {
        let w = Wrap {
            binary: Path::new("/b/programmer-hook"),
            profile: Profile::Project,
            session: "s",
            project: Some(Path::new("/p")),
            cwd_file: Path::new("/st/c"),
            scratch: &[],
            readable: &["/h/.ssh".to_string()],
            command: "cargo test\nexit 0",
        };
        let s = wrap(&w);
        assert_eq!(unwrap(&s).as_deref(), Some("cargo test\nexit 0"));
        let forged = s.replace("__ph_r \"$__ph_s\"", "__ph_r 0");
        assert_eq!(unwrap(&forged), None);
        assert_eq!(unwrap(&format!("{s}; true")), None);
        assert_eq!(unwrap("cargo test"), None);
    }

    #[test]
    fn the_shell_reads_back_the_same_command() {
        for cmd in [
            "ls",
            "echo 'x' \"y\" $HOME",
            "a\nb",
            "it's",
            "printf '%s\\n' \\'",
        ] {
            let out = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("printf %s {}", quote(cmd)))
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), cmd);
        }
    }
}
