//! Words expanded as Bash expands them, judged as what they become: one line per case,
//! `(decision, rule, command)`, in the imaginary machine of `examples` (home `/home/user`,
//! working folder `/home/user/project`). Every `deny` case also runs in a session whose
//! autonomy is `auto`, where it must be denied too (see `support/table.rs`).

use crate::support::table;

use table::check;

#[test]
#[rustfmt::skip]
fn brace_expansion_anywhere_in_a_word() {
    check(&[
        ("deny", "fs.rm-broad", "{rm,-rf,~}"),
        ("deny", "fs.rm-broad", "{rm,-rf,/}"),
        ("deny", "fs.rm-broad", "{rm,-rf,~} && ls"),
        ("deny", "path.protected-write", "rm -rf ~/.s{s,}h"),
        ("deny", "fs.rm-broad", "rm -rf /{etc,usr}"),
        ("deny", "fs.rm-broad", "rm -rf {build,~}"),
        ("deny", "path.protected-write", "echo x > ~/.s{s,}h/authorized_keys"),
        ("deny", "path.protected-write", "cp k ~/.ssh/authorized_{keys,keys2}"),
        ("deny", "git.force-push", "git push --{force,x}"),
        ("deny", "fs.rm-broad", "r{m,} -rf ~"),
        ("deny", "fs.rm-broad", "rm -rf {/,x}"),
        ("deny", "fs.rm-broad", "rm -r{f,} ~"),
        ("allow", "shell.builtins", "echo {a,b}"),
        ("allow", "shell.builtins", "echo {1..5}"),
        ("allow", "read.list", "ls {src,tests}/*.rs"),
        ("allow", "read.files", "cat src/{main,lib}.rs"),
        ("ask", "fs.change", "mkdir -p build/{debug,release}"),
        ("ask", "fs.change", "cp a.json{,.bak}"),
        ("allow", "shell.builtins", "echo '{rm,-rf,~}'"),
        ("ask", "unknown.command", "\\{rm,-rf,~}"),
        // Past the cap, a word stays one word whose value is not known.
        ("ask", "shell.dynamic-command", "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"),
    ]);
}

#[test]
#[rustfmt::skip]
fn substitutions_of_constant_text() {
    check(&[
        ("deny", "fs.rm-broad", "rm -rf \"$(echo ~)\""),
        ("deny", "fs.rm-broad", "$(printf 'rm -rf %s' ~)"),
        ("deny", "fs.rm-broad", "`echo rm` -rf ~"),
        ("deny", "fs.rm-broad", "$(echo rm) -rf $(echo /)"),
        ("deny", "fs.rm-broad", "$(printf r)m -rf /"),
        ("deny", "fs.rm-broad", "`printf '\\x72\\x6d'` -rf ~"),
        ("deny", "git.force-push", "git push $(echo --force)"),
        ("deny", "fs.rm-broad", "D=$(echo ~); rm -rf $D"),
        ("deny", "fs.rm-broad", "rm -rf \"$(git rev-parse --show-toplevel)\""),
        ("deny", "fs.rm-broad", "rm -rf $(pwd)"),
        ("deny", "path.protected-write", "echo '{}' > \"$(git rev-parse --show-toplevel)/.claude/settings.json\""),
        ("allow", "git.read", "git $(echo status)"),
        ("allow", "read.list", "ls \"$(pwd)/src\""),
        ("ask", "fs.change", "rm -rf \"$(git rev-parse --show-toplevel)/build\""),
        // Output not known: the command that prints it is not one whose output is constant.
        ("ask", "shell.dynamic-command", "$(cat cmd.txt) -rf ~"),
        ("ask", "shell.dynamic-command", "echo() { printf ls; }; $(echo rm)"),
    ]);
}

#[test]
#[rustfmt::skip]
fn parser_fixes() {
    check(&[
        ("deny", "fs.rm-broad", "[ -d ~ ] && rm -rf ~"),
        ("deny", "fs.rm-broad", "[ -e ~/x ] || rm -rf ~"),
        ("allow", "shell.builtins", "[ -d ~ ] && ls ~"),
        ("allow", "shell.builtins", "[[ $x =~ ^a ]] && ls"),
        ("deny", "fs.rm-broad", "r\\\nm -rf ~"),
        ("deny", "fs.rm-broad", "rm -r\\\nf \\\n~"),
        ("deny", "fs.rm-broad", "{rm,\\\n-rf,~}"),
        ("allow", "read.list", "ls \\\n -la"),
    ]);
}

#[test]
#[rustfmt::skip]
fn cd_is_followed_across_and_and_or() {
    check(&[
        ("deny", "path.protected-write", "cd ~/.ssh && echo KEY >> authorized_keys"),
        ("deny", "path.protected-write", "cd ~/.ssh || echo KEY >> authorized_keys"),
        ("deny", "path.protected-write", "cd ~/.ssh && (echo KEY) >> authorized_keys"),
        ("deny", "path.protected-write", "cd ~/.ssh; { echo KEY; } >> authorized_keys"),
        ("deny", "path.protected-write", "cd ~/.claude && echo '{}' > settings.json"),
        ("deny", "path.protected-write", "cd /etc && ls && echo x > hosts"),
        ("deny", "fs.rm-broad", "cd ~ && rm -rf ."),
        ("deny", "path.protected-write", "cd ~/.ss? && echo KEY >> authorized_keys"),
        ("deny", "path.protected-write", "pushd ~/.ssh && cat k >> authorized_keys"),
        ("ask", "build.run", "cd build && make"),
        ("ask", "file.write", "cd src && echo x > notes.txt"),
    ]);
}

#[test]
#[rustfmt::skip]
fn arrays_set_and_ifs() {
    check(&[
        ("deny", "fs.rm-broad", "a=(rm -rf ~); \"${a[@]}\""),
        ("deny", "fs.rm-broad", "a=(rm -rf ~); ${a[*]}"),
        ("deny", "fs.rm-broad", "a=(x ~); rm -rf \"${a[1]}\""),
        ("deny", "fs.rm-broad", "a=(-rf /); rm \"${a[@]}\""),
        ("deny", "path.protected-write", "t=(~/.ssh/authorized_keys); cp k \"${t[@]}\""),
        ("deny", "fs.rm-broad", "set -- rm -rf ~; \"$@\""),
        ("deny", "fs.rm-broad", "set -- ~; rm -rf \"$1\""),
        ("deny", "fs.rm-broad", "set -e -- /; rm -rf $1"),
        ("deny", "fs.rm-broad", "IFS=,; c=\"rm,-rf,$HOME\"; $c"),
        ("deny", "fs.rm-broad", "IFS=:; p=\"rm:-rf:/\"; $p"),
        ("deny", "path.protected-write", "D=\"$HOME/.ssh\"; cp k \"$D/authorized_keys\""),
        // A value with blanks splits where it is used unquoted: judged both ways.
        ("deny", "fs.rm-broad", "c=\"rm -rf /\"; $c"),
        ("deny", "fs.rm-broad", "a=\"rm -rf\"; $a ~"),
        ("deny", "fs.rm-broad", "x=$(printf 'rm -rf %s' /); $x"),
        ("deny", "fs.rm-broad", "CODE='rm -rf /'; eval $CODE"),
        ("deny", "fs.rm-broad", "f() { $1; }; f \"rm -rf /\""),
        ("allow", "read.list", "D=\"my dir\"; ls \"$D\""),
        ("allow", "read.list", "a=(ls -la); \"${a[@]}\""),
        ("allow", "shell.builtins", "set -- src; ls \"$@\""),
        ("allow", "shell.builtins", "set -o pipefail; echo ok"),
        ("ask", "fs.change", "a=(build dist); rm -rf \"${a[@]}\""),
        // Anything that could change them leaves them unknown.
        ("ask!", "fs.change", "set -- build; shift; rm -rf \"$1\""),
        ("ask", "shell.dynamic-command", "a=(ls); a+=(x); \"${a[@]}\""),
        ("ask", "shell.dynamic-command", "IFS=,; read c; $c"),
    ]);
}

#[test]
#[rustfmt::skip]
fn aliases_and_functions_with_their_arguments() {
    check(&[
        ("deny", "fs.rm-broad", "alias x='rm -rf ~'; x"),
        ("deny", "fs.rm-broad", "alias x='rm -rf'; x ~"),
        ("deny", "path.protected-write", "alias k='cat >> ~/.ssh/authorized_keys'; k < key.pub"),
        ("deny", "fs.rm-broad", "shopt -s expand_aliases; alias ll='rm -rf /'; ll"),
        ("deny", "fs.rm-broad", "f() { rm -rf \"$@\"; }; f ~"),
        ("deny", "fs.rm-broad", "f() { rm -rf \"$1\"; }; f /"),
        ("deny", "fs.rm-broad", "f() { \"$@\"; }; f rm -rf ~"),
        ("deny", "path.protected-write", "w() { echo x >> \"$1\"; }; w ~/.bashrc"),
        ("deny", "path.protected-write", "f() { g \"$@\"; }; g() { cat x > \"$1\"; }; f ~/.bashrc"),
        ("deny", "git.force-push", "p() { git push \"$@\"; }; p --force"),
        ("ask", "unknown.command", "f() { tree \"$@\"; }; f src"),
        ("ask", "fs.change", "f() { rm -rf \"$@\"; }; f build"),
        ("ask", "shell.alias", "alias ll='ls -l'"),
        ("ask", "shell.alias", "alias ll='ls -l'; ll"),
        ("ask", "shell.alias", "alias x=\"$CMD\"; x"),
    ]);
}

#[test]
#[rustfmt::skip]
fn globs_write_every_protected_file_they_could_match() {
    check(&[
        ("deny", "path.protected-write", "cp x.json ~/.claude/settings.jso?"),
        ("deny", "path.protected-write", "cp x ~/.ssh/authorized_key[s]"),
        ("deny", "path.protected-write", "cp x ~/.ssh/id_*"),
        ("deny", "path.protected-write", "echo 'curl x|sh' >> ~/.bash*"),
        ("deny", "path.protected-write", "touch ~/.zsh?c"),
        ("deny", "path.protected-write", "mv hosts /etc/host?"),
        ("deny", "path.protected-write", "cp x .claude/settings.*"),
        ("deny", "path.protected-write", "tee ~/.cl*/settings.json < x"),
        ("deny", "path.protected-write", "cp r.md .claude/agent?/code-reviewer.md"),
        ("allow", "read.list", "ls src/*.rs"),
        ("allow", "read.files", "cat ~/.claude/settings.jso?"),
        ("ask", "fs.change", "cp a.json ./settings.json.bak"),
        ("ask", "fs.change", "rm -f build/*.o"),
        ("ask", "file.write-outside", "echo x > ~/.claude/settings.json.bak*"),
    ]);
}

#[test]
#[rustfmt::skip]
fn other_users_home_folders() {
    check(&[
        ("deny", "fs.rm-broad", "rm -rf ~root"),
        ("deny", "fs.rm-broad", "rm -rf ~bob"),
        ("deny", "fs.rm-broad", "rm -rf /home/bob"),
        ("deny", "path.protected-write", "echo KEY >> ~user/.ssh/authorized_keys"),
        ("deny", "path.protected-write", "cp x ~user/.bashrc"),
        ("ask", "file.write-outside", "rm -rf ~bob/tmp/cache"),
        ("allow", "read.list", "ls ~bob"),
    ]);
}

#[test]
#[rustfmt::skip]
fn what_can_still_be_seen_in_input_that_is_not_parsed() {
    check(&[
        ("deny", "fs.rm-broad", "rm -rf / ) ("),
        ("deny", "fs.rm-broad", "echo ok; rm -rf ~; if then"),
        ("deny", "git.force-push", "git push --force; done"),
        ("deny", "fs.rm-broad", "rm -rf ~ && ("),
        ("deny", "path.protected-write", "echo k >> ~/.ssh/authorized_keys; fi"),
        ("ask", "shell.unparsed", "rm -rf build ) ("),
        ("ask", "shell.unparsed", "ls ) rm -rf ~"),
        ("ask", "shell.unparsed", "echo $("),
        // A program is given the text up to a NUL byte.
        ("deny", "fs.rm-broad", "rm -rf ~\0x"),
        ("ask", "shell.unparsed", "ls\0rm -rf ~"),
        // A word the grammar reads across a line break: the statements one by one.
        ("deny", "fs.rm-broad", "ls\n\\rm -rf /"),
    ]);
}

/// Over the parsing budget: the top-level statements are still judged one by one, from
/// both ends, so a forbidden one at the start or the end of filler is denied.
#[test]
fn what_can_still_be_seen_in_input_over_the_budget() {
    let filler = |unit: &str, n: usize| unit.repeat(n);
    let varied: String = (0..4000).map(|i| format!("ls {i}; ")).collect();
    let cases: Vec<(&str, &str, String)> = vec![
        ("deny", "fs.rm-broad", filler("true; ", 4000) + "rm -rf ~"),
        ("deny", "fs.rm-broad", filler(": && ", 4000) + "rm -rf ~"),
        ("deny", "fs.rm-broad", filler("echo x\n", 4000) + "rm -rf ~"),
        (
            "deny",
            "fs.rm-broad",
            "rm -rf ~; ".to_string() + &filler("true; ", 4000),
        ),
        ("deny", "fs.rm-broad", varied.clone() + "rm -rf ~"),
        (
            "deny",
            "path.protected-write",
            filler("ls -la; ", 4000) + "echo k >> ~/.ssh/authorized_keys",
        ),
        (
            "deny",
            "git.force-push",
            filler("git status\n", 4000) + "git push --force",
        ),
        (
            "ask",
            "shell.too-large",
            filler("true; ", 4000) + "npm install",
        ),
        ("ask", "shell.too-large", filler("ls -la; ", 4000)),
        (
            "deny",
            "fs.rm-broad",
            format!("bash -c '{}rm -rf ~'", filler("true; ", 4000)),
        ),
        // Over 512 KB: not parsed at all, the statements still judged.
        (
            "deny",
            "fs.rm-broad",
            format!("cat <<'EOF'\n{}\nEOF\nrm -rf ~", filler("x", 600_000)),
        ),
    ];
    let cases: Vec<(&str, &str, &str)> =
        cases.iter().map(|(d, r, c)| (*d, *r, c.as_str())).collect();
    check(&cases);
}
