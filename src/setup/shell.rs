//! The shell as `setup` meets it: the commands it prints for the user to run, with each
//! word quoted for a POSIX shell when it needs it, and the programs it finds on `PATH`
//! (programmer-hook itself, `claude`, the sandbox's `bwrap` and `socat`).

use std::fs;
use std::path::{Path, PathBuf};

/// Quotes a word for a POSIX shell when it needs it.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=@,".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A path as one word of a shell command (see [`quote`]).
pub fn quote_path(p: &Path) -> String {
    quote(&p.display().to_string())
}

/// The first executable file called `name` in `$PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

/// Whether `p` is a file this user may run.
pub fn is_executable(p: &Path) -> bool {
    match fs::metadata(p) {
        Ok(m) if m.is_file() => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                m.permissions().mode() & 0o111 != 0
            }
            #[cfg(not(unix))]
            {
                true
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quote("/usr/local/bin/x"), "/usr/local/bin/x");
        assert_eq!(quote("/a b/it's"), r"'/a b/it'\''s'");
    }
}
