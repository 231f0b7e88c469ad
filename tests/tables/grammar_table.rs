//! The option grammar the analysis of a program's own command line reads from the
//! program's table in `policy/`: where a shell's script comes from (`string_flags`,
//! `stdin_flags`, the arity of `-o`, `--rcfile`), which folder and Makefile `make` reads and
//! which of its modes run no recipe (`folder_flags`, `script_flags`, `no_code_flags`),
//! which `package.json` npm, pnpm and yarn read and when they run its scripts
//! (`folder_flags`, `workspace_flags`, `no_scripts_flags`), which git hooks a commit runs
//! (`skip_hooks_flags`), `su -c` and `watch -x`, the words before echo's text, and the
//! options that mount a host path into a container (`volume_flags`, `mount_flags`). One
//! line per case, `(default, auto, rule, command)`, through the real binary in a default
//! and an `auto` session, in a machine of its own whose project and home hold the
//! Makefiles, manifests and hooks below.

use crate::autonomy_table::{check, check_on};
use crate::support::sessions::Machine;

/// The files of the machine, relative to its home: name, content.
const FILES: &[(&str, &str)] = &[
    (
        "project/Makefile",
        "all: build\n\nbuild:\n\techo build\n\nnuke:\n\trm -rf ~\n",
    ),
    ("project/evil.mk", "all:\n\trm -rf ~\n"),
    ("other/Makefile", "all:\n\trm -rf ~\n"),
    (
        "project/package.json",
        "{\"scripts\": {\"build\": \"tsc\", \"x\": \"echo x\", \"postinstall\": \"echo ok\"}}\n",
    ),
    (
        "other/package.json",
        "{\"scripts\": {\"build\": \"rm -rf ~\", \"x\": \"rm -rf ~\", \"postinstall\": \"rm -rf ~\"}}\n",
    ),
    ("package.json", "{\"scripts\": {\"x\": \"rm -rf ~\"}}\n"),
    ("project/.git/HEAD", "ref: refs/heads/main\n"),
    ("project/.git/hooks/pre-commit", "#!/bin/sh\nrm -rf ~\n"),
    ("project/.git/hooks/pre-push", "#!/bin/sh\nrm -rf ~\n"),
    ("other/.git/HEAD", "ref: refs/heads/main\n"),
    // A folder of the project whose `.git` file names a repository elsewhere, and a
    // submodule's, which names one inside the project's `.git`.
    ("project/linked/.git", "gitdir: ../../other/.git\n"),
    ("project/vendor/lib/.git", "gitdir: ../../.git/modules/lib\n"),
    ("other/.git/hooks/pre-commit", "#!/bin/sh\nrm -rf ~\n"),
    ("clean/.git/HEAD", "ref: refs/heads/main\n"),
    ("project/sub/.git/HEAD", "ref: refs/heads/main\n"),
    (".ssh/id_ed25519", "not a key\n"),
];

/// make: `-C`/`--directory` move it (each spelling of the value), `-f`/`--file` name the
/// Makefile, `-n`, `-q`, `--version` run no recipe; `-p` prints the data base and then
/// runs as usual, so the recipe is judged.
#[rustfmt::skip]
const MAKE_CASES: &[(&str, &str, &str, &str)] = &[
    ("deny", "deny", "fs.rm-broad", "make nuke"),
    ("deny", "deny", "fs.rm-broad", "make -C ~/other"),
    ("deny", "deny", "fs.rm-broad", "make -C ../other"),
    ("deny", "deny", "fs.rm-broad", "make --directory=../other"),
    ("deny", "deny", "fs.rm-broad", "make -C../other"),
    ("deny", "deny", "fs.rm-broad", "gmake -C ~/other"),
    ("deny", "deny", "fs.rm-broad", "make -f evil.mk"),
    ("deny", "deny", "fs.rm-broad", "make --file=evil.mk"),
    ("deny", "deny", "fs.rm-broad", "make -fevil.mk"),
    ("deny", "deny", "fs.rm-broad", "make --makefile evil.mk"),
    ("deny", "deny", "fs.rm-broad", "make -p nuke"),
    ("deny", "deny", "fs.rm-broad", "make -j 4 nuke"),
    ("deny", "deny", "fs.rm-broad", "make -I inc nuke"),
    ("ask", "ask", "build.run", "make -C ~/other -n"),
    ("ask", "ask", "build.run", "make -n nuke"),
    ("ask", "ask", "build.run", "make --dry-run nuke"),
    ("ask", "ask", "build.run", "make -q nuke"),
    ("allow", "allow", "any.version-help", "make --version"),
    ("ask", "ask", "path.secret-named", "make -f ~/.ssh/id_ed25519"),
    ("ask", "ask", "path.secret-named", "make -C ~/.ssh"),
    // Benign neighbours.
    ("ask", "ask", "build.run", "make"),
    ("ask", "ask", "build.run", "make -j4 build"),
];

/// npm, pnpm, yarn: the `package.json` of the folder their `folder_flags` name (each
/// tool's own: yarn has no `--prefix`, so it reads the project's), not followed into
/// workspaces, an install's lifecycle scripts unless `--ignore-scripts`.
#[rustfmt::skip]
const SCRIPT_CASES: &[(&str, &str, &str, &str)] = &[
    ("deny", "deny", "fs.rm-broad", "npm --prefix ~ run x"),
    ("deny", "deny", "fs.rm-broad", "npm --prefix ../other run build"),
    ("deny", "deny", "fs.rm-broad", "npm --prefix=../other run build"),
    ("deny", "deny", "fs.rm-broad", "npm -C ../other run build"),
    ("deny", "deny", "fs.rm-broad", "npm -C ../other install"),
    ("deny", "deny", "fs.rm-broad", "pnpm -C ../other build"),
    ("deny", "deny", "fs.rm-broad", "pnpm --dir=../other build"),
    ("deny", "deny", "fs.rm-broad", "yarn --cwd ../other build"),
    ("deny", "deny", "fs.rm-broad", "yarn --cwd=../other build"),
    ("deny", "deny", "fs.rm-broad", "yarn -r --cwd ../other build"),
    ("ask", "ask", "build.run", "yarn --prefix ../other build"),
    ("ask", "ask", "build.run", "npm -w app --prefix ../other run build"),
    ("ask", "ask", "build.run", "npm --workspace=app --prefix ../other run build"),
    ("ask", "ask", "build.run", "pnpm -r -C ../other build"),
    ("ask", "ask", "build.run", "pnpm --filter=app -C ../other build"),
    ("ask", "ask", "pkg.install-outside", "npm --prefix ../other install --ignore-scripts"),
    // Benign neighbours.
    ("ask", "ask", "build.run", "npm run build"),
    ("ask", "allow", "pkg.install", "npm install --ignore-scripts"),
];

/// git: a commit runs the repository's hooks unless `--no-verify` (`-n`) skips them; a
/// push only with `--no-verify` (its `-n` is a dry run).
#[rustfmt::skip]
const HOOK_CASES: &[(&str, &str, &str, &str)] = &[
    ("deny", "deny", "fs.rm-broad", "git commit -m x"),
    ("deny", "deny", "fs.rm-broad", "git push -n origin main"),
    ("ask", "allow", "git.write", "git commit -n -m x"),
    ("ask", "allow", "git.write", "git commit --no-verify -m x"),
    // Past git's global options: the subcommand, and the repository `-C` moves it to.
    ("deny", "deny", "fs.rm-broad", "git --no-pager -c user.name=x commit -m x"),
    ("deny", "deny", "fs.rm-broad", "git -C ../other commit -m x"),
    ("deny", "deny", "fs.rm-broad", "git -C ../clean -C ../other commit -m x"),
    // A repository named elsewhere: its hooks are not read, and the call is not relaxed;
    // those of the working folder's repository are judged too (here they delete ~).
    ("ask", "ask", "code.opaque", "git -C sub --git-dir=../../other/.git commit -m x"),
    ("ask", "ask", "code.opaque", "git -C sub --work-tree=. commit -m x"),
    ("ask", "allow", "git.write", "git -C sub commit -m x"),
    ("deny", "deny", "fs.rm-broad", "git --git-dir=../clean/.git commit -m x"),
    ("deny", "deny", "fs.rm-broad", "git --work-tree ../clean commit -m x"),
    ("ask", "allow", "git.write", "git --no-pager --git-dir=sub/.git log -1 --stat && git commit -n -m x"),
    // A repository outside the project: its settings (`core.fsmonitor`, pagers) are not
    // read, so even a read there is judged as code the hook cannot follow.
    ("ask", "ask", "code.opaque", "git --no-pager --git-dir=../clean/.git log -1 --stat && git commit -n -m x"),
    ("ask", "ask", "code.opaque", "git -C /tmp/x status"),
    ("ask", "ask", "code.opaque", "cd /tmp/x && git diff"),
    ("ask", "ask", "code.opaque", "git --git-dir=/tmp/x/.git --work-tree=. status"),
    ("ask", "ask", "code.opaque", "cd \"$D\" && git status"),
    ("allow", "allow", "git.read", "git -C sub status"),
    ("ask", "ask", "code.opaque", "git -C linked status"),
    ("ask", "ask", "code.opaque", "cd linked/src && git log -1"),
    ("allow", "allow", "git.read", "git -C vendor/lib status"),
    ("ask", "ask", "code.opaque", "git -C via-link status"),
    ("ask", "allow", "git.write", "cd /tmp && git clone https://github.com/a/b"),
];

#[test]
fn build_tools_read_their_options_from_their_tables() {
    let m = Machine::fresh("grammar", false);
    m.write_files(FILES);
    // A folder of the project whose `.git` is a link to another repository's.
    let via_link = m.home.join("project/via-link");
    std::fs::create_dir_all(&via_link).expect("scratch folder");
    std::os::unix::fs::symlink(m.home.join("other/.git"), via_link.join(".git")).expect("link");
    check_on(&m, MAKE_CASES);
    check_on(&m, SCRIPT_CASES);
    check_on(&m, HOOK_CASES);
}

/// Shells: `-c` (also in a cluster, after options that take a value), `-s`, `--rcfile`;
/// `sh` is read with bash's options that take a value, and so is a shell without a table
/// of its own. `su -c`, `watch -x`, and the words before the text echo prints into a shell.
#[rustfmt::skip]
const SHELL_CASES: &[(&str, &str, &str, &str)] = &[
    ("deny", "deny", "fs.rm-broad", "bash -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "bash -ec 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "bash -o pipefail -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "bash +O extglob -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "bash --init-file x.sh -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "sh -O extglob -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "dash -O extglob -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "ksh -T x -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "yash --profile x -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "fish -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "rbash -O x -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "echo 'rm -rf ~' | bash -s"),
    ("ask", "ask", "file.read-secret", "bash --rcfile ~/.ssh/id_ed25519"),
    ("ask", "ask", "file.read-secret", "sh --rcfile ~/.ssh/id_ed25519 -c ls"),
    ("deny", "deny", "fs.rm-broad", "su -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "su --command 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "runuser --session-command 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "watch -x sh -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "watch --exec sh -c 'rm -rf ~'"),
    ("deny", "deny", "fs.rm-broad", "echo -n 'rm -rf ~' | sh"),
    ("deny", "deny", "fs.rm-broad", "echo -ne 'rm -rf ~' | sh"),
    ("deny", "deny", "fs.rm-broad", "echo -nE 'rm -rf ~' | sh"),
    // Benign neighbours.
    ("allow", "allow", "shell.inline-script", "bash -o pipefail -c 'ls -la'"),
    ("allow", "allow", "shell.wrapper", "watch -tx ls -la"),
];

/// The host paths a container mounts, found by the options of `[commands."docker run"]`'s
/// `volume_flags` and `mount_flags`.
#[rustfmt::skip]
const MOUNT_CASES: &[(&str, &str, &str, &str)] = &[
    ("deny", "deny", "container.mount-host", "docker run --mount type=bind,src=$HOME/.ssh,dst=/k img"),
    ("deny", "deny", "container.mount-host", "docker run --mount=type=bind,source=/,target=/h img"),
    ("deny", "deny", "container.mount-host", "docker run -itv ~:/h img"),
    ("deny", "deny", "container.mount-host", "docker run -v=/:/h img"),
    ("deny", "deny", "container.mount-host", "podman run --volume=/etc:/e img"),
    ("deny", "deny", "container.mount-host", "nerdctl run -v ~/.ssh:/k:ro img"),
    // Benign neighbours: `-e` takes the rest of the cluster, a named volume has no host path.
    ("ask", "ask", "run.container", "docker run -ev /:/h img"),
    ("ask", "ask", "run.container", "docker run -v data:/d img"),
];

#[test]
fn shells_and_mounts_read_their_options_from_their_tables() {
    check(SHELL_CASES);
    check(MOUNT_CASES);
}
