//! Unit tests of the PHP reader.

use super::*;
use crate::engine::lang::{Effect, Text};

fn effects(src: &str) -> Vec<Effect> {
    analyze(src).effects
}

fn lit(s: &str) -> Text {
    Text::lit(s)
}

#[test]
fn php_effects() {
    assert_eq!(effects("echo PHP_VERSION;"), vec![]);
    assert_eq!(
        effects("echo json_decode(file_get_contents('composer.json'))->name;"),
        vec![Effect::Read(lit("composer.json"))]
    );
    assert!(effects("system('rm -rf ~');").contains(&Effect::Shell(lit("rm -rf ~"))));
    assert!(effects("echo `rm -rf /`;").contains(&Effect::Shell(lit("rm -rf /"))));
    let e =
        effects("file_put_contents(getenv('HOME') . '/.ssh/authorized_keys', 'k', FILE_APPEND);");
    assert!(
        e.contains(&Effect::Write(lit("~/.ssh/authorized_keys"))),
        "{e:?}"
    );
    let e = effects("unlink($_SERVER['HOME'] . '/.bashrc');");
    assert!(
        e.contains(&Effect::Delete {
            path: lit("~/.bashrc"),
            recursive: false
        }),
        "{e:?}"
    );
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
