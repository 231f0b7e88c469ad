//! Unit tests of the Ruby reader.

use super::*;
use crate::engine::lang::test_support::{assert_has, deleted, lit};
use crate::engine::lang::Effect;

fn effects(src: &str) -> Vec<Effect> {
    analyze(src).effects
}

#[test]
fn reads_and_prints() {
    assert_eq!(effects("puts RUBY_VERSION"), vec![]);
    assert_eq!(
        effects("require 'json'; puts JSON.parse(File.read('package.json'))['version']"),
        vec![Effect::Read(lit("package.json"))]
    );
    assert_eq!(effects("puts [1,2,3].map { |x| x * 2 }.sum"), vec![]);
}

#[test]
fn commands_and_deletes() {
    assert_has(&effects("%x(rm -rf ~)"), Effect::Shell(lit("rm -rf ~")));
    assert_has(&effects("`rm -rf /`"), Effect::Shell(lit("rm -rf /")));
    assert_has(
        &effects("system('rm', '-rf', '/')"),
        Effect::Exec(vec![lit("rm"), lit("-rf"), lit("/")]),
    );
    let e = effects("require 'fileutils'; FileUtils.rm_rf(Dir.home)");
    assert_has(&e, deleted("~", true));
    let e = effects("File.write(File.join(ENV['HOME'], '.bashrc'), 'x')");
    assert_has(&e, Effect::Write(lit("~/.bashrc")));
    let e = effects("File.open(\"#{Dir.home}/.ssh/authorized_keys\", 'a') { |f| f.puts 'k' }");
    assert_has(&e, Effect::Write(lit("~/.ssh/authorized_keys")));
}

#[test]
fn dynamic_is_opaque() {
    for src in [
        "eval('1')",
        "send(:system, 'ls')",
        "Object.const_get('File')",
        "require 'mylib'",
        "foo",
        "x = (",
    ] {
        assert!(analyze(src).is_opaque(), "{src}");
    }
    assert!(effects("p ENV.to_h")
        .iter()
        .any(|e| matches!(e, Effect::EnvDump(_))));
}
