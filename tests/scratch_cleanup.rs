//! The scratch machine a test binary makes once (`support/sessions.rs`: a home, a project
//! and the binary under the target folder) is removed when the binary exits, after failed
//! tests too, and a machine left by a binary that was killed is removed by the next run.
//! The test runs this same test binary again, as a child, with one failing test.

mod support;

use support::sessions;

use std::path::PathBuf;
use std::process::Command;

use sessions::Machine;

/// Makes the machine, prints where it is, and fails; run only by the test below.
#[test]
#[ignore = "run as a child process by the_scratch_machine_is_removed_when_the_tests_end"]
fn a_failing_test_with_a_machine() {
    let m = Machine::get();
    println!("MACHINE {}", m.home.display());
    assert!(m.bin.exists() && m.state_dir().exists());
    panic!("failing on purpose");
}

#[test]
fn the_scratch_machine_is_removed_when_the_tests_end() {
    let root = sessions::scratch_root();
    std::fs::create_dir_all(&root).expect("scratch root");
    // A machine of a process that is gone: pids never reach this value.
    let stale = root.join("sessions-2147483600");
    std::fs::create_dir_all(stale.join("home/user")).expect("stale machine");
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--ignored", "--exact", "a_failing_test_with_a_machine"])
        .args(["--nocapture", "--test-threads", "1"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "the child test fails:\n{stdout}");
    let home: PathBuf = stdout
        .lines()
        .find_map(|l| l.split_once("MACHINE ").map(|(_, p)| p))
        .expect("the child made its machine")
        .into();
    // home is …/sessions-PID/home/user.
    let machine = home.ancestors().nth(2).expect("the machine folder");
    assert!(
        machine
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("sessions-")),
        "{}",
        machine.display()
    );
    assert!(!machine.exists(), "{} is left behind", machine.display());
    assert!(!stale.exists(), "{} is left behind", stale.display());
}
