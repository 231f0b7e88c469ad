//! A glob written is judged by what it matches: the names its folder holds when the call
//! is judged, which the shell expands it to. A delete of `build/*` is an ordinary change
//! where `build` holds no secret and no `.git`, Forbidden where it holds a key, and not
//! relaxed where it holds a repository. Where the folder cannot be listed (wildcards in a
//! folder's name, a bracket), any secret the glob could match counts. One line per case,
//! `(default, auto, rule, command)`, through the real binary in a default and an `auto`
//! session, in a machine of its own whose project holds the files below.

use crate::autonomy_table::check_on;
use crate::support::sessions::Machine;

/// Files of the machine, relative to the home folder.
const FILES: &[&str] = &[
    "project/build/app.o",
    "project/build/sub/x.o",
    "project/keys/server.pem",
    "project/keys/README.md",
    "project/vendor/lib/.git/HEAD",
    "project/conf/.env",
    "project/src/main.rs",
];

#[rustfmt::skip]
const CASES: &[(&str, &str, &str, &str)] = &[
    ("ask", "allow", "fs.change", "rm -rf build/*"),
    ("ask", "allow", "fs.change", "rm -f build/*.o"),
    ("ask", "allow", "fs.change", "rm -rf src/*"),
    ("ask", "allow", "fs.change", "rm -rf dist/*"),
    ("ask", "allow", "fs.change", "python3 -c 'import glob, os; [os.remove(f) for f in glob.glob(\"build/*\")]'"),
    ("deny", "deny", "path.secret-write", "rm -rf keys/*"),
    ("deny", "deny", "path.secret-write", "rm -f keys/*.pem"),
    ("deny", "deny", "path.secret-write", "rm -f conf/.e*"),
    ("deny", "deny", "path.secret-write", "python3 -c 'import glob, os; [os.remove(f) for f in glob.glob(\"conf/.env*\")]'"),
    ("deny", "deny", "path.secret-write", "rm -rf k[e]ys/*"),
    ("ask", "ask", "file.write-git-history", "rm -rf vendor/lib/*"),
    ("ask", "ask", "file.write-git-history", "rm -rf */HEAD"),
    // A read is judged by what the glob could match: an earlier part of the call may have
    // put a secret there (`git pull; cat keys/*`).
    ("ask", "ask", "file.read-secret", "cat build/*"),
    ("ask", "ask", "file.read-secret", "cat keys/*"),
];

#[test]
fn a_glob_is_judged_by_the_names_its_folder_holds() {
    let m = Machine::fresh("globs", false);
    let files: Vec<(&str, &str)> = FILES.iter().map(|f| (*f, "x\n")).collect();
    m.write_files(&files);
    check_on(&m, CASES);
}
