//! What the environment a call inherits changes: where Claude Code's environment sets
//! `CDPATH`, a `cd NAME` may go to any of its folders (Bash looks there first), so what
//! follows it is judged in a folder not known, as where the script sets `CDPATH` itself.
//! One line per case, `(default, auto, rule, command)`, through the real binary in a
//! default and an `auto` session, in a machine whose environment sets `CDPATH=/etc`.

use crate::autonomy_table::check_on;
use crate::support::sessions::Machine;

#[rustfmt::skip]
const WITH_CDPATH: &[(&str, &str, &str, &str)] = &[
    ("ask", "ask", "file.write-outside", "cd ssh && echo x > sshd_config"),
    ("ask", "ask", "file.write-outside", "cd src && echo x > a.txt"),
    // Paths Bash does not look up in CDPATH.
    ("ask", "allow", "file.write", "cd ./src && echo x > a.txt"),
    ("ask", "allow", "file.write", "cd ../project/src && echo x > a.txt"),
    ("allow", "allow", "read.files", "cat README.md"),
];

/// The same calls where the environment sets no `CDPATH`.
#[rustfmt::skip]
const WITHOUT: &[(&str, &str, &str, &str)] = &[
    ("ask", "allow", "file.write", "cd src && echo x > a.txt"),
];

#[test]
fn an_inherited_cdpath_leads_cd_somewhere_not_known() {
    let mut m = Machine::fresh("cdpath", false);
    std::fs::create_dir_all(m.project.join("src")).expect("scratch folder");
    check_on(&m, WITHOUT);
    m.env.push(("CDPATH".into(), "/etc".into()));
    check_on(&m, WITH_CDPATH);
}
