//! Unit tests of the PHP reader.

use super::*;
use crate::engine::lang::test_support::{assert_has, deleted, lit};
use crate::engine::lang::Effect;

fn effects(src: &str) -> Vec<Effect> {
    analyze(src).effects
}

#[test]
fn php_effects() {
    assert_eq!(effects("echo PHP_VERSION;"), vec![]);
    assert_eq!(
        effects("echo json_decode(file_get_contents('composer.json'))->name;"),
        vec![Effect::Read(lit("composer.json"))]
    );
    assert_has(
        &effects("system('rm -rf ~');"),
        Effect::Shell(lit("rm -rf ~")),
    );
    assert_has(&effects("echo `rm -rf /`;"), Effect::Shell(lit("rm -rf /")));
    let e =
        effects("file_put_contents(getenv('HOME') . '/.ssh/authorized_keys', 'k', FILE_APPEND);");
    assert_has(&e, Effect::Write(lit("~/.ssh/authorized_keys")));
    let e = effects("unlink($_SERVER['HOME'] . '/.bashrc');");
    assert_has(&e, deleted("~/.bashrc", false));
    for src in [
        "eval($argv[1]);",
        "$f = 'system'; $f('ls');",
        "include 'x.php';",
        "foo();",
        "echo (",
    ] {
        assert!(analyze(src).is_opaque(), "{src}");
    }
}
