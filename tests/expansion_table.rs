//! Words expanded as Bash expands them, judged as what they become: one line per case,
//! `(decision, rule, command)`, in the imaginary machine of `examples` (home `/home/user`,
//! working folder `/home/user/project`). Every `deny` case also runs in a session whose
//! autonomy is `auto`, where it must be denied too (see `support/table.rs`).

#[path = "support/sessions.rs"]
mod sessions;
#[path = "support/table.rs"]
mod table;

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
        ("ask", "build.run", "cd build && make"),
        ("ask", "file.write", "cd src && echo x > notes.txt"),
    ]);
}
