//! What each confinement profile lets a command do, worked out from plain values.
//!
//! A profile is a [`Plan`]: the folders and files a confined command may write, and the
//! paths it may not read. [`plan`] makes it from [`Inputs`] (the home and project folders,
//! the secret paths of the policy, the scratch folders of the programs in the call) and
//! reads nothing, so every rule of a profile is a table test. Applying a plan is the job of
//! [`super::landlock`].

use std::path::{Path, PathBuf};

/// The two profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Reads only: no file may be created, changed or deleted (but the devices a command
    /// writes to as output, its own output files, and the scratch folders its programs'
    /// tables name); the policy's secrets cannot be read.
    Read,
    /// Writes only inside the project and the temporary folders (and the tool caches the
    /// policy names); the protected paths inside the project are put back after the call;
    /// the policy's secrets outside the project cannot be read.
    Project,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Read => "read",
            Profile::Project => "project",
        }
    }

    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "read" => Some(Profile::Read),
            "project" => Some(Profile::Project),
            _ => None,
        }
    }

    /// What the profile lets a command do, in one clause for messages.
    pub fn summary(self) -> &'static str {
        match self {
            Profile::Read => "no file may be written, and secrets cannot be read",
            Profile::Project => {
                "files may be written only inside the project and the temporary folders, and secrets cannot be read"
            }
        }
    }
}

/// What a plan is made from.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// The project folder (the working folder's repository or registered project).
    pub project: Option<PathBuf>,
    /// The temporary folders a `project` call may write (`/tmp`, `$TMPDIR`); one that
    /// holds the home folder or a secret is left out.
    pub temp: Vec<PathBuf>,
    /// The home folder.
    pub home: Option<PathBuf>,
    /// A private temporary folder made for this call and removed after it (`read`).
    pub private_temp: Option<PathBuf>,
    /// Absolute paths that may not be read (the policy's secrets with a fixed place, and
    /// the secret files found in the project).
    pub secrets: Vec<PathBuf>,
    /// More folders the call may write: the scratch folders of its programs (`read`), the
    /// tool caches (`project`).
    pub scratch: Vec<PathBuf>,
    /// The files the call's standard output and error are (when they are files).
    pub outputs: Vec<PathBuf>,
}

/// The device files any call may write to (output thrown away, terminals).
pub const DEVICE_FILES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/random",
    "/dev/urandom",
];

/// The device folders any call may write in (pseudo-terminals).
pub const DEVICE_TREES: &[&str] = &["/dev/pts"];

/// Shared memory, which a `project` call may use (Python's multiprocessing, test runners).
pub const SHARED_MEMORY: &str = "/dev/shm";

/// A profile as it is applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub profile: Profile,
    /// Folders whose whole content may be read, written, created and deleted.
    pub writable_trees: Vec<PathBuf>,
    /// Files that may be written (not created or deleted).
    pub writable_files: Vec<PathBuf>,
    /// Paths that may not be read (the rest of the file system may be).
    pub hidden: Vec<PathBuf>,
    /// Secrets that are left readable because they lie in a writable tree (a new file
    /// there must be readable, and a plan can only grant a whole tree), for the docs and
    /// `doctor`.
    pub readable_secrets: Vec<PathBuf>,
}

/// The plan of `profile` for these inputs.
pub fn plan(profile: Profile, inputs: &Inputs) -> Plan {
    let mut trees: Vec<PathBuf> = DEVICE_TREES.iter().map(PathBuf::from).collect();
    match profile {
        Profile::Read => {
            trees.extend(inputs.private_temp.iter().cloned());
        }
        Profile::Project => {
            trees.extend(inputs.project.iter().cloned());
            // A temporary folder is granted whole: not one that holds the home folder or
            // a secret (a home under /tmp, as on some test machines).
            trees.extend(
                inputs
                    .temp
                    .iter()
                    .filter(|t| {
                        !inputs.home.as_ref().is_some_and(|h| is_under(h, t))
                            && !inputs.secrets.iter().any(|s| is_under(s, t))
                    })
                    .cloned(),
            );
            trees.push(PathBuf::from(SHARED_MEMORY));
        }
    }
    trees.extend(inputs.scratch.iter().cloned());
    let trees = outermost(trees);
    let mut files: Vec<PathBuf> = DEVICE_FILES.iter().map(PathBuf::from).collect();
    for o in &inputs.outputs {
        if !files.contains(o) && !under_any(o, &trees) {
            files.push(o.clone());
        }
    }
    let (readable, hidden): (Vec<PathBuf>, Vec<PathBuf>) = inputs
        .secrets
        .iter()
        .cloned()
        .partition(|s| under_any(s, &trees));
    // A writable file that is a secret stays a secret: it is not written either.
    files.retain(|f| !under_any(f, &hidden));
    Plan {
        profile,
        writable_trees: trees,
        writable_files: files,
        hidden: outermost(hidden),
        readable_secrets: readable,
    }
}

/// Whether `p` is `dir` or lies under it (by components, as written).
pub fn is_under(p: &Path, dir: &Path) -> bool {
    p.starts_with(dir)
}

fn under_any(p: &Path, dirs: &[PathBuf]) -> bool {
    dirs.iter().any(|d| is_under(p, d))
}

/// The paths of a list that lie under no other path of it, without repeats, in order.
fn outermost(mut v: Vec<PathBuf>) -> Vec<PathBuf> {
    let all = v.clone();
    v.retain(|p| !all.iter().any(|q| q != p && is_under(p, q)));
    let mut out: Vec<PathBuf> = Vec::new();
    for p in v {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Inputs {
        Inputs {
            project: Some("/home/u/proj".into()),
            temp: vec!["/tmp".into(), "/var/tmp".into()],
            home: Some("/home/u".into()),
            private_temp: Some("/tmp/ph-1".into()),
            secrets: vec![
                "/home/u/.ssh".into(),
                "/home/u/.aws".into(),
                "/home/u/proj/.env".into(),
                "/tmp/key.pem".into(),
            ],
            scratch: vec![],
            outputs: vec!["/home/u/out.log".into()],
        }
    }

    fn has(v: &[PathBuf], p: &str) -> bool {
        v.iter().any(|x| x == Path::new(p))
    }

    // (profile, path, writable tree?, hidden?) — one case a line.
    const CASES: &[(Profile, &str, bool, bool)] = &[
        (Profile::Read, "/home/u/proj", false, false),
        (Profile::Read, "/tmp", false, false),
        (Profile::Read, "/tmp/ph-1", true, false),
        (Profile::Read, "/dev/pts", true, false),
        (Profile::Read, "/dev/shm", false, false),
        (Profile::Read, "/home/u/.ssh", false, true),
        (Profile::Read, "/home/u/proj/.env", false, true),
        (Profile::Read, "/tmp/key.pem", false, true),
        (Profile::Project, "/home/u/proj", true, false),
        (Profile::Project, "/tmp", false, false),
        (Profile::Project, "/var/tmp", true, false),
        (Profile::Project, "/tmp/ph-1", false, false),
        (Profile::Project, "/dev/shm", true, false),
        (Profile::Project, "/home/u/.ssh", false, true),
        (Profile::Project, "/home/u/.aws", false, true),
        (Profile::Project, "/home/u/proj/.env", false, false),
        (Profile::Project, "/tmp/key.pem", false, true),
    ];

    #[test]
    fn profiles_table() {
        for &(profile, path, writable, hidden) in CASES {
            let p = plan(profile, &inputs());
            assert_eq!(
                has(&p.writable_trees, path),
                writable,
                "{profile:?} {path} writable"
            );
            assert_eq!(has(&p.hidden, path), hidden, "{profile:?} {path} hidden");
        }
    }

    #[test]
    fn devices_and_outputs_are_writable_files_in_both() {
        for profile in [Profile::Read, Profile::Project] {
            let p = plan(profile, &inputs());
            for f in ["/dev/null", "/dev/tty", "/home/u/out.log"] {
                assert!(has(&p.writable_files, f), "{profile:?} {f}");
            }
        }
    }

    #[test]
    fn a_secret_in_a_writable_tree_is_named_as_left_readable() {
        let p = plan(Profile::Project, &inputs());
        assert!(has(&p.readable_secrets, "/home/u/proj/.env"));
        assert!(!has(&p.readable_secrets, "/home/u/.ssh"));
    }

    #[test]
    fn an_output_file_that_is_a_secret_is_not_writable() {
        let mut i = inputs();
        i.outputs = vec!["/home/u/.ssh/authorized_keys".into()];
        let p = plan(Profile::Read, &i);
        assert!(!has(&p.writable_files, "/home/u/.ssh/authorized_keys"));
    }

    #[test]
    fn a_temporary_folder_holding_the_home_folder_is_not_granted() {
        let mut i = inputs();
        i.secrets.clear();
        assert!(has(&plan(Profile::Project, &i).writable_trees, "/tmp"));
        i.home = Some("/tmp/home-1".into());
        assert!(!has(&plan(Profile::Project, &i).writable_trees, "/tmp"));
    }

    #[test]
    fn nested_trees_collapse_to_the_outer_one() {
        let mut i = inputs();
        i.scratch = vec!["/home/u/proj/target".into(), "/tmp/cache".into()];
        i.secrets.clear();
        let p = plan(Profile::Project, &i);
        assert!(!has(&p.writable_trees, "/home/u/proj/target"));
        assert!(!has(&p.writable_trees, "/tmp/cache"));
        let p = plan(Profile::Read, &i);
        assert!(has(&p.writable_trees, "/home/u/proj/target"));
    }
}
