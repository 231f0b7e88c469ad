//! Unit tests of the Ruby reader.

use super::*;
use crate::engine::lang::{Effect, Text};

fn effects(src: &str) -> Vec<Effect> {
    analyze(src).effects
}

fn lit(s: &str) -> Text {
    Text::lit(s)
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
    assert!(effects("%x(rm -rf ~)").contains(&Effect::Shell(lit("rm -rf ~"))));
    assert!(effects("`rm -rf /`").contains(&Effect::Shell(lit("rm -rf /"))));
    assert!(
        effects("system('rm', '-rf', '/')").contains(&Effect::Exec(vec![
            lit("rm"),
            lit("-rf"),
            lit("/")
        ]))
    );
    let e = effects("require 'fileutils'; FileUtils.rm_rf(Dir.home)");
    assert!(
        e.contains(&Effect::Delete {
            path: lit("~"),
            recursive: true
        }),
        "{e:?}"
    );
    let e = effects("File.write(File.join(ENV['HOME'], '.bashrc'), 'x')");
    assert!(e.contains(&Effect::Write(lit("~/.bashrc"))), "{e:?}");
    let e = effects("File.open(\"#{Dir.home}/.ssh/authorized_keys\", 'a') { |f| f.puts 'k' }");
    assert!(
        e.contains(&Effect::Write(lit("~/.ssh/authorized_keys"))),
        "{e:?}"
    );
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
