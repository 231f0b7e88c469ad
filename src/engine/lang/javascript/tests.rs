//! Unit tests of the JavaScript reader.

use super::*;
use crate::engine::lang::test_support::{assert_has, deleted, lit};
use crate::engine::lang::Effect;

fn effects(src: &str) -> Vec<Effect> {
    analyze(src).effects
}

#[test]
fn reads_are_known() {
    assert_eq!(
        effects("require('./package.json').version"),
        vec![Effect::Read(lit("./package.json"))]
    );
    let e = effects("const fs = require('fs'); console.log(JSON.parse(fs.readFileSync('package.json', 'utf8')).name)");
    assert_eq!(e, vec![Effect::Read(lit("package.json"))]);
    assert_eq!(effects("console.log([1,2].map(x => x * 2))"), vec![]);
}

#[test]
fn deletes_resolve_home() {
    let e = effects("function o() { return {recursive: true} }; require('fs').rmSync(require('os').homedir(), o())");
    assert_has(&e, deleted("~", true));
    let e = effects("require('fs').rmSync(require('os').homedir(), {recursive: true})");
    assert_has(&e, deleted("~", true));
    let e = effects("import { rmSync } from 'node:fs'; import os from 'os'; rmSync(`${os.homedir()}/.ssh`, {recursive: true, force: true})");
    assert_has(&e, deleted("~/.ssh", true));
    let e = effects(
        "const p = require('path'); require('fs').unlinkSync(p.join(process.env.HOME, '.bashrc'))",
    );
    assert_has(&e, deleted("~/.bashrc", false));
}

#[test]
fn processes_are_commands() {
    let e = effects("require('child_process').execSync('rm -rf ~')");
    assert_has(&e, Effect::Shell(lit("rm -rf ~")));
    let e = effects(
        "const { spawnSync } = require('child_process'); spawnSync('git', ['push', '--force'])",
    );
    assert_has(
        &e,
        Effect::Exec(vec![lit("git"), lit("push"), lit("--force")]),
    );
}

#[test]
fn dynamic_code_is_opaque() {
    for src in [
        "eval('1')",
        "new Function('return 1')()",
        "require(process.argv[2])",
        "require('./lib')",
        "import('fs')",
        "const cp = require('child_process'); const f = cp.execSync; f('ls')",
        "require('vm').runInNewContext('1')",
        "globalThis['ev' + 'al']('1')",
        "foo()",
        "x = (",
        "require('child_process')['exec' + 'Sync']('ls')",
        "module.require('child_process').execSync('rm -rf /')",
        "require.main.require('child_process').execSync('ls')",
        "process.mainModule.require('child_process').execSync('ls')",
    ] {
        assert!(analyze(src).is_opaque(), "{src}");
    }
}

#[test]
fn environment_and_network() {
    assert!(effects("console.log(process.env)")
        .iter()
        .any(|x| matches!(x, Effect::EnvDump(_))));
    assert!(!analyze("console.log(process.env.PATH)").is_opaque());
    assert!(effects("console.log(process.env.GITHUB_TOKEN)")
        .iter()
        .any(|x| matches!(x, Effect::SecretEnv(_))));
    assert!(effects("fetch('https://x', {method: 'POST'})")
        .iter()
        .any(|x| matches!(x, Effect::Network(_))));
    assert!(effects("require('https').get('https://x')")
        .iter()
        .any(|x| matches!(x, Effect::Network(_))));
}
