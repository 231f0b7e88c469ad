//! Unit tests of the Python reader.

use super::*;
use crate::engine::lang::test_support::{assert_has, deleted, lit};
use crate::engine::lang::Effect;

fn effects(src: &str) -> Vec<Effect> {
    analyze(src).effects
}

#[test]
fn reads_and_prints_are_known() {
    let e = effects("import json; print(json.load(open('package.json'))['version'])");
    assert_eq!(
        e,
        vec![
            Effect::Import("json".into()),
            Effect::Read(lit("package.json"))
        ]
    );
    assert_eq!(effects("print(1+2)"), vec![]);
}

#[test]
fn deletes_resolve_home() {
    let e = effects("import shutil,os; shutil.rmtree(os.path.expanduser('~'))");
    assert_has(&e, deleted("~", true));
    let e = effects("import shutil, pathlib; shutil.rmtree(pathlib.Path.home())");
    assert_has(&e, deleted("~", true));
    let e = effects("from pathlib import Path\n(Path.home() / '.ssh' / 'id_rsa').unlink()");
    assert_has(&e, deleted("~/.ssh/id_rsa", false));
    let e = effects("import os\nd = os.environ['HOME']\nos.remove(os.path.join(d, '.bashrc'))");
    assert_has(&e, deleted("~/.bashrc", false));
}

#[test]
fn writes_by_mode() {
    let e = effects("import os; open(os.path.expanduser('~/.ssh/authorized_keys'),'a').write('k')");
    assert_has(&e, Effect::Write(lit("~/.ssh/authorized_keys")));
    let e = effects("with open('out.txt', 'w') as f: f.write('x')");
    assert_eq!(e, vec![Effect::Write(lit("out.txt"))]);
}

#[test]
fn processes_are_commands() {
    let e = effects("import os; os.system('rm -rf ~')");
    assert_has(&e, Effect::Shell(lit("rm -rf ~")));
    let e = effects("import subprocess; subprocess.run(['rm', '-rf', '/'])");
    assert_has(&e, Effect::Exec(vec![lit("rm"), lit("-rf"), lit("/")]));
    let e = effects("from subprocess import check_output as co\nco('ls -l', shell=True)");
    assert_has(&e, Effect::Shell(lit("ls -l")));
}

#[test]
fn dynamic_code_is_opaque() {
    for src in [
        "import shlex; shlex.os.system('rm -rf /')",
        "from shlex import os; os.system('ls')",
        "import os.path as p; p.os.system('ls')",
        "import json; json.codecs.open('x', 'w')",
        "exec('print(1)')",
        "import base64; exec(base64.b64decode('cHJpbnQoMSk='))",
        "__import__('os').system('ls')",
        "import os; f = os.system; f('ls')",
        "import os; getattr(os, 'system')('ls')",
        "import numpy",
        "from . import x",
        "from os import *",
        "foo()",
        "print(().__class__.__bases__)",
        "import os; os.chdir('/')",
        "x = [1,",
    ] {
        assert!(analyze(src).is_opaque(), "{src}");
    }
}

#[test]
fn environment() {
    let e = effects("import os; print(os.environ)");
    assert!(e.iter().any(|x| matches!(x, Effect::EnvDump(_))), "{e:?}");
    let e = effects("import os; print(os.environ.get('PATH'))");
    assert!(
        !e.iter()
            .any(|x| matches!(x, Effect::EnvDump(_) | Effect::Opaque(_))),
        "{e:?}"
    );
    let e = effects("import os; print(os.environ['GITHUB_TOKEN'])");
    assert!(e.iter().any(|x| matches!(x, Effect::SecretEnv(_))), "{e:?}");
}

#[test]
fn globs_in_loops() {
    let e =
        effects("import glob, json\nfor f in glob.glob('*.json'):\n    print(json.load(open(f)))");
    assert_has(&e, Effect::Read(lit("*.json")));
}

#[test]
fn network() {
    let e = effects("import urllib.request; urllib.request.urlopen('https://x', data=b'1')");
    assert!(e.iter().any(|x| matches!(x, Effect::Network(_))), "{e:?}");
}
