//! What a command does to the paths in its arguments (the `[commands]` tables).

use serde::{Deserialize, Serialize};

use super::List;

/// Which of a command's positional arguments an effect applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Select {
    /// Every one.
    All,
    /// All but the first (`grep PATTERN FILE…`).
    AfterFirst,
    /// All but the first, or the only one (`yq EXPR FILE…` and `yq FILE`).
    AfterFirstOrOnly,
    /// All but the last, when there are several (`cp SRC… DEST` reads).
    AllButLast,
    /// The last, when there are several (`cp SRC… DEST` writes).
    Last,
    /// The first.
    First,
}

/// What a command's first positional argument is, when it is not a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstValue {
    /// A file mode (`chmod 755 f`, `chmod u+x f`): not a file when it has a mode's shape.
    Mode,
    /// An owner or group (`chown bob:bob f`): not a file, unless `--reference` names the
    /// file to take them from.
    Owner,
}

/// What a command does to the paths in its arguments.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Effects {
    /// Which positional arguments it reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<Select>,
    /// Which positional arguments it writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<Select>,
    /// Which positional arguments it only looks up, never opening them (`ls`, `stat`):
    /// neither read nor written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<Select>,
    /// It copies or moves its other arguments into the last one, or into the folder given
    /// with a `write_flags` option, when that is a folder: `cp a b/` writes `b/a`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub into_folder: bool,
    /// The table names every option the program takes (`flags` and the option lists
    /// below), and a positional argument that `reads` and `writes` do not select is data.
    /// Without it, an option the table does not list may take any word as a file, and so
    /// may a positional argument it does not select.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub complete: bool,
    /// It reads the whole tree of a folder it reads (`rg PAT DIR`, `tar -c DIR`): a folder
    /// that holds a secret is read as that secret. Read from the built-in table too: a
    /// layer's table may add it, never take it away.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recursive: bool,
    /// Reading a tree, it leaves out names that start with a dot unless an option of
    /// `hidden_flags` is given (`rg`, `ag`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skips_hidden: bool,
    /// A downloader that saves what it fetches under the name the URL ends with, in its
    /// folder (`wget URL`): that file counts as downloaded, so running it later in the
    /// command is running remote code.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remote_name: bool,
    /// It runs its input as a shell script, later (`echo CMD | at now`): the script is
    /// judged apart, and a Forbidden one makes the call Forbidden.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub runs_input: bool,
    /// Its input is commands in its own command language (`psql <<< SQL`), read for its
    /// `shell_escapes` where the text is known (a here-document, a here-string, the
    /// printed text of the stage before in a pipeline).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub command_input: bool,
    /// Which positional arguments are commands in the program's own command language
    /// (`sqlite3 DB SQL…`), read for its `shell_escapes` as the values of `command_flags` are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_args: Option<Select>,
    /// For a wrapper, the words between its options and the command it runs: `timeout`'s
    /// duration, `taskset`'s CPU mask, `chrt`'s priority.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub operands: u8,
    /// Options that take no value (for a `complete` table).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub flags: List,
    /// `key=` arguments that name a file read (e.g. `if=` for dd).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub read_keys: List,
    /// The first positional argument is a mode or an owner, not a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_is: Option<FirstValue>,
    /// `key=` arguments that name a written file (e.g. `of=` for dd).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub write_keys: List,
    /// Options that take a value in the next word (so the value is not a positional).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub value_flags: List,
    /// Options whose value names a file that is read (`--exclude-from FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub read_flags: List,
    /// Options whose value names a written file (`-o FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub write_flags: List,
    /// Options whose value is a file that names more files the command reads (`tar -T
    /// LIST`, `rsync --files-from=LIST`): the list is read, and so are files whose names
    /// are known only at run time.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub list_flags: List,
    /// Options that give the pattern or script, so that `after-first` means `all`
    /// (`grep -e PAT FILE`, `sed -e SCRIPT FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub pattern_flags: List,
    /// Options that make the command write the files it reads (`sed -i`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub in_place_flags: List,
    /// Options with which it reads the whole tree of a folder it reads (`grep -r`, `cp -R`,
    /// `rsync -a`), as `recursive` says; read from the built-in table too.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub recursive_flags: List,
    /// Of a program that `skips_hidden`, the options with which it reads hidden names too
    /// (`rg --hidden`, `-uu`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub hidden_flags: List,
    /// Options with which a downloader saves what it fetches under the URL's last name, as
    /// `remote_name` says (`curl -O`, `--remote-name-all`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub remote_name_flags: List,
    /// Options that make the command only read: what it would write, it reads instead
    /// (`gzip -c` prints, `tar -t` lists).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub read_only_flags: List,
    /// Options that make the command only look its operands up in its own records (`dpkg
    /// -S PATH`, `dpkg -L PKG`): with one, every operand is named, neither read nor
    /// written.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub names_flags: List,
    /// What it does to git history on git's behalf, by subcommand: `"version *: commit tag"`
    /// (`npm version patch` commits and tags). The words before `:` are the leading
    /// positional words (`*` is any word), the words after it git actions, which the
    /// workflow's phase gates treat as that git command.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub git_actions: List,
    /// Options that mean it does none of its `git_actions` (`--no-git-tag-version`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub git_actions_unless: List,
    /// Options whose value names a file sent off the machine (`curl -T FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub send_flags: List,
    /// Options whose value is a command the program runs (`tar --to-command=CMD`, `rsync
    /// -e CMD`); `--opt=PREFIX` when only a value that starts with PREFIX is one, the rest
    /// of it (`--checkpoint-action=exec=`). A long one is matched abbreviated too.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub run_flags: List,
    /// Options whose value is the folder the command it runs runs in (`uv run
    /// --directory DIR`, `env -C DIR`): read by the mechanisms that peel it.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub folder_flags: List,
    /// Options whose value is a command in the program's own command language (`vim -c
    /// CMD`, `gdb -ex CMD`): the analysis reads the shell commands it runs (vim's `:!CMD`,
    /// gdb's `shell CMD`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub command_flags: List,
    /// The words of the program's command language that run the rest as a shell command
    /// (psql's `\!`, sqlite3's `.shell`, fzf's `execute(…)`), found in the values of
    /// `command_flags` and in the `command_args`: each command is judged apart, and a
    /// Forbidden one makes the call Forbidden (`exec.hidden-forbidden`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub shell_escapes: List,
    /// Options with which the positional arguments of `command_args` are shell commands
    /// whole (`gh alias set --shell NAME CMD`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub shell_flags: List,
    /// Options after which the rest of the words are a program and its arguments, which
    /// the program runs (`gdb --args PROG ARGS…`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub program_flags: List,
    /// Options whose value is the string that each word of the input replaces in the
    /// command run (`xargs -I R`, `parallel -I R`). One that `value_flags` does not name
    /// takes its value only in the same word, `{}` when there is none (`xargs -i[R]`,
    /// `--replace[=R]`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub replace_flags: List,
    /// Options with which a program that reads words from its input splits it at NUL bytes
    /// only (`xargs -0`, `--null`), or with which a file lister ends each name it prints
    /// with a NUL byte (`find -print0`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub null_flags: List,
    /// Options with which it splits its input at the ends of lines or at a delimiter they
    /// give, not at blanks (`xargs -d D`, `-L N`, `-l[N]`); `replace_flags` do too.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub line_flags: List,
    // The grammar of the programs that find files and run commands with them (`find`,
    // `fd`), and of the file listers whose output `xargs` reads (`find`, `fd`, `git
    // ls-files`, `rg --files`): read from the built-in tables only, by their analysers
    // (`src/engine/analyze/find.rs`, `fd.rs`, `listed.rs`), so that a layer cannot make a
    // command's words an option's or a lister's output plain names.
    /// Options that come before the operands, and only there (`find -L`, `-D DEBUGOPTS`,
    /// `-O3`): the words after them are the folders searched. Their value, if any, is as the
    /// other lists say (`value_flags`; `attached_flags`: only in the same word).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub leading_flags: List,
    /// Options after which the words up to the end mark (`;`, or find's `+`) are a command
    /// the program runs with the files it finds (`find -exec CMD {} ;`, `fd -x CMD`): it is
    /// judged on its own, the files found in place of `{}`.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub exec_flags: List,
    /// Of `exec_flags`, those whose command runs in the folder of each file found (`find
    /// -execdir`), which is not known, rather than in the working folder.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub exec_dir_flags: List,
    /// Options whose value is a folder searched, as an operand naming one is (`fd
    /// --search-path DIR`, `--base-directory=DIR`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub root_flags: List,
    /// Options whose value is a glob the names of the files found match (`find -name P`,
    /// `rg --files -g GLOB`): the files are `ROOT/**/P` under each folder searched.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub found_name_flags: List,
    /// Options whose value is an extension the names of the files found end with (`fd -e
    /// md`, `--extension=md`): the files are `ROOT/**/*.md`.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub extension_flags: List,
    /// Options with which the pattern operand is a glob of the names found, not a regular
    /// expression (`fd -g '*.rs'`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub glob_flags: List,
    /// Options with which the paths found no longer start with the folder searched (`fd
    /// --strip-cwd-prefix`): a command given them may take one for an option.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub bare_flags: List,
    /// Options that make the program print the names of the files it would read instead of
    /// reading them (`rg --files`): a file lister.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub lister_flags: List,
    /// Of a file lister that has such a list, the options with which it still prints only
    /// names (`git ls-files -z`, `--others`): with any other its output is not read as
    /// names (`git ls-files -s` prints modes and hashes too).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub listing_flags: List,
    /// Of a file lister, the options with which it prints more than names or does more
    /// than list (`find -ls`, `-delete`, `fd --format FMT`), as its `exec_flags` and
    /// `write_flags` do: its output is then not read as names.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub not_listing_flags: List,
    /// Options with which the program runs only what is installed, fetching nothing
    /// (`npx --no-install`, `--offline`). Read from the built-in table only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub offline_flags: List,
    /// For a shell, options with which its first operand is the script it runs (`bash -c
    /// STRING`), in a cluster of letters too (`-ec`); the options before the script are
    /// read with the table's arity (`-o NAME`, `--rcfile FILE`). Read from the built-in
    /// table only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub string_flags: List,
    /// For a shell, options with which it reads its script from its input (`bash -s`), in
    /// a cluster too. Read from the built-in table only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub stdin_flags: List,
    /// For a package manager, options with which it runs the scripts of other folders'
    /// manifests, which are not followed (`npm -w NAME`, `pnpm -r`, `--filter=X`). Read
    /// from the built-in table only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub workspace_flags: List,
    /// For a package manager, options with which an install runs none of the project's
    /// lifecycle scripts (`npm install --ignore-scripts`). Read from the built-in table
    /// only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub no_scripts_flags: List,
    /// For a git subcommand (`[commands."git commit"]`), options with which git runs only
    /// some of its hooks (`--no-verify`, commit's `-n`). Read from the built-in table only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub skip_hooks_flags: List,
    /// For a container's `run` (`[commands."docker run"]`), options whose value mounts a
    /// host path as `SRC:DST[:OPTS]` (`-v`, `--volume`), in a cluster too (`-itv`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub volume_flags: List,
    /// For a container's `run`, options whose value mounts as comma-separated fields
    /// (`--mount type=bind,source=SRC,target=DST`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub mount_flags: List,
    /// Options of `value_flags` whose value the table does not describe: a format that may
    /// name a file (`kubectl -o jsonpath-file=F`). The value is taken as the option's where
    /// arguments are read, and judged as a word whose use is not known.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub unknown_value_flags: List,
    // The grammar of an interpreter's command line, read by the language readers
    // (`src/engine/lang/argv.rs`) from the built-in tables only: where its code comes from
    // and what loads other code. An option of an interpreter that none of these lists
    // (nor `value_flags`, `in_place_flags`) names makes its code opaque.
    /// Options whose value is the code run (`python -c CODE`, `perl -e CODE`); for a
    /// wrapper, the shell code it runs (`env -S STRING`, `flock FILE -c SCRIPT`, `npx -c
    /// SCRIPT`, `script -c CMD`), read by the mechanism that peels it.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub code_flags: List,
    /// Options whose value is the script file run (`php -f FILE`, `awk -f FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub script_flags: List,
    /// Options whose value is a module run as the program (`python -m MODULE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub module_flags: List,
    /// Options whose value is a library loaded by name before the code (`ruby -r LIB`,
    /// `perl -M MODULE`): the code stays followed only for a library the language reader
    /// knows has no effect of its own.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub library_flags: List,
    /// Libraries whose loading has no effect of its own (`ruby -r json`, `require 'json'`
    /// in Ruby code): with one of them the code stays followed. Names, not options.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub inert_libraries: List,
    /// Options that load other code or change which code runs (`node --require F`, `ruby
    /// -I DIR`, `php -d KEY=VALUE`): the code is not followed. Each takes a value, but
    /// one in `attached_flags` only in the same word (`perl -d:Trace`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub load_flags: List,
    /// Options that run the code once for each line of the files after it (`perl -n`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub loop_flags: List,
    /// Options with which the interpreter runs no code of its own (`--version`, `-c` to
    /// check the syntax): the command rules judge the call.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub no_code_flags: List,
    /// Options that print the version when they are the only argument and change nothing
    /// about the code otherwise (`ruby -v`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub version_flags: List,
    /// Options without a value that change nothing about which code runs or what it
    /// opens (`python -u`, `node --no-warnings`, `--stack-size=N` with its value attached);
    /// those with a value in the next word are in `value_flags`.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub inert_flags: List,
    /// Options whose value, which may be left out, is only in their own word: the rest of
    /// it for a short one (`perl -F,`, `ruby -W0`, `perl -i.bak`, `script -tFILE`), after
    /// `=` for a long one (`script --timing=FILE`). A list that gives the value a role
    /// (`write_flags`, `code_flags`) may hold them: the value is then read so.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub attached_flags: List,
    /// Short options followed by an optional number in the same word (`perl -l015`, `perl
    /// -0777`); without one, the letters after them are options (`perl -lne`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub number_flags: List,
    // The grammar of a client with subcommands before its subcommand, read by the
    // mechanism that peels it (git's, `src/engine/analyze/git.rs`): which words before the
    // subcommand are the program's own options, and what their values are. The roles of
    // these options are read for them only there: `folder_flags` (`git -C DIR`, where the
    // subcommand runs), `load_flags` (`git --exec-path=DIR`, which programs it runs),
    // `setting_flags`, `setting_env_flags` and `global_read_flags`.
    /// The program's own options before its subcommand that take no value (`git
    /// --no-pager`, `-P`, `--bare`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub global_flags: List,
    /// The program's own options before its subcommand that take a value, in the next word
    /// or, for a long one, after `=` (`git -C DIR`, `--git-dir=DIR`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub global_value_flags: List,
    /// Of the `global_value_flags`, those whose value is a folder the program reads (`git
    /// --git-dir DIR`, `--work-tree DIR`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub global_read_flags: List,
    /// Options whose value is one of the program's settings, `KEY=VALUE`, judged as that
    /// setting (`git -c KEY=VALUE` before the subcommand, `git clone -c` in `[commands."git
    /// clone"]`). Their arity is given by the lists that hold them for it
    /// (`global_value_flags`), or the option takes the next word.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub setting_flags: List,
    /// Options whose value is a setting `KEY=VAR` whose value is the environment variable
    /// VAR's, known only at run time (`git --config-env KEY=VAR`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub setting_env_flags: List,
    /// Options with which a command that writes a file of settings changes it with no value
    /// of its own to judge (`git config --unset KEY`, `--rename-section`, `--edit`): the file
    /// is written, no setting is judged.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub edit_flags: List,
    /// Options that name the file of settings the command reads or writes: with a value,
    /// the file (`git config --file F`); written `OPT=FILE`, an option without a value that
    /// stands for that file (`--global=~/.gitconfig`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub file_flags: List,
    /// Options with which the links a command makes are symbolic (`ln -s`): a relative
    /// target is then relative to the link's folder, not to the working folder.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub symbolic_flags: List,
    /// Options that take what `first_is` names from a file instead (`chmod
    /// --reference=RFILE`, `chown --reference=RFILE`): with one, every positional argument
    /// is a file. A word that starts with one counts.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub reference_flags: List,
    /// Every long option of a git subcommand, as git itself lists them (`git push
    /// --git-completion-helper-all`): git takes a prefix of one of them for it (`--rec` is
    /// `--receive-pack`), and so is it written out before the words are read. Generated,
    /// with the next two, by `scripts/git-tables.py`; read from the built-in table only.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub long_options: List,
    /// Of `long_options`, those that take a value in the next word when not given with `=`.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub long_value_options: List,
    /// A git subcommand's one-letter options that take a value (the rest of their word, or
    /// the next one).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub short_value_options: List,
}

impl Effects {
    /// The table with the options of `sub`, a table named for one of its subcommands
    /// (`"git format-patch"`), added: its `flags`, `value_flags` and the lists of options
    /// whose value is a path, each option once.
    pub fn with_subcommand(mut self, sub: &Effects) -> Effects {
        for (to, from) in [
            (&mut self.flags, &sub.flags),
            (&mut self.value_flags, &sub.value_flags),
            (&mut self.read_flags, &sub.read_flags),
            (&mut self.write_flags, &sub.write_flags),
            (&mut self.list_flags, &sub.list_flags),
            (&mut self.send_flags, &sub.send_flags),
            (&mut self.unknown_value_flags, &sub.unknown_value_flags),
        ] {
            for w in from.iter() {
                if !to.contains(w) {
                    to.push(w);
                }
            }
        }
        self
    }

    /// Whether option `flag` takes a value in the next word, as the table says: one of
    /// `attached_flags` takes its value only in its own word.
    pub fn takes_value(&self, flag: &str) -> bool {
        ([
            &self.value_flags,
            &self.read_flags,
            &self.list_flags,
            &self.write_flags,
            &self.send_flags,
            &self.pattern_flags,
            &self.folder_flags,
            &self.unknown_value_flags,
            &self.command_flags,
            &self.code_flags,
            &self.script_flags,
            &self.module_flags,
            &self.library_flags,
        ]
        .iter()
        .any(|l| l.contains(flag))
            || self.run_flags.iter().any(|r| run_flag_name(r) == flag)
            || self.volume_flags.contains(flag)
            || self.mount_flags.contains(flag)
            || self.load_flags.contains(flag)
            || self.file_flags.contains(flag))
            && !self.attached_flags.contains(flag)
    }

    /// Whether the table names option `flag` at all (with or without a value).
    pub fn names_option(&self, flag: &str) -> bool {
        self.flags.contains(flag)
            || self.takes_value(flag)
            || [
                &self.in_place_flags,
                &self.read_only_flags,
                &self.recursive_flags,
                &self.hidden_flags,
                &self.remote_name_flags,
                &self.names_flags,
                &self.shell_flags,
                &self.load_flags,
                &self.loop_flags,
                &self.no_code_flags,
                &self.version_flags,
                &self.inert_flags,
                &self.attached_flags,
                &self.number_flags,
                &self.program_flags,
                &self.replace_flags,
                &self.null_flags,
                &self.line_flags,
                &self.offline_flags,
                &self.string_flags,
                &self.stdin_flags,
                &self.workspace_flags,
                &self.no_scripts_flags,
                &self.skip_hooks_flags,
                &self.leading_flags,
                &self.exec_flags,
                &self.exec_dir_flags,
                &self.root_flags,
                &self.found_name_flags,
                &self.extension_flags,
                &self.glob_flags,
                &self.bare_flags,
                &self.lister_flags,
                &self.listing_flags,
                &self.not_listing_flags,
                &self.edit_flags,
                &self.symbolic_flags,
                &self.reference_flags,
            ]
            .iter()
            .any(|l| l.contains(flag))
            || self.file_flags.iter().any(|f| run_flag_name(f) == flag)
    }

    /// What is wrong with the option lists: each word must be an option.
    pub fn problems(&self, name: &str) -> Vec<String> {
        let lists: [(&str, &List); 65] = [
            ("flags", &self.flags),
            ("value_flags", &self.value_flags),
            ("read_flags", &self.read_flags),
            ("list_flags", &self.list_flags),
            ("write_flags", &self.write_flags),
            ("send_flags", &self.send_flags),
            ("pattern_flags", &self.pattern_flags),
            ("in_place_flags", &self.in_place_flags),
            ("read_only_flags", &self.read_only_flags),
            ("recursive_flags", &self.recursive_flags),
            ("hidden_flags", &self.hidden_flags),
            ("remote_name_flags", &self.remote_name_flags),
            ("names_flags", &self.names_flags),
            ("git_actions_unless", &self.git_actions_unless),
            ("run_flags", &self.run_flags),
            ("folder_flags", &self.folder_flags),
            ("unknown_value_flags", &self.unknown_value_flags),
            ("command_flags", &self.command_flags),
            ("shell_flags", &self.shell_flags),
            ("program_flags", &self.program_flags),
            ("replace_flags", &self.replace_flags),
            ("null_flags", &self.null_flags),
            ("line_flags", &self.line_flags),
            ("leading_flags", &self.leading_flags),
            ("exec_flags", &self.exec_flags),
            ("exec_dir_flags", &self.exec_dir_flags),
            ("root_flags", &self.root_flags),
            ("found_name_flags", &self.found_name_flags),
            ("extension_flags", &self.extension_flags),
            ("glob_flags", &self.glob_flags),
            ("bare_flags", &self.bare_flags),
            ("lister_flags", &self.lister_flags),
            ("listing_flags", &self.listing_flags),
            ("not_listing_flags", &self.not_listing_flags),
            ("offline_flags", &self.offline_flags),
            ("string_flags", &self.string_flags),
            ("stdin_flags", &self.stdin_flags),
            ("workspace_flags", &self.workspace_flags),
            ("no_scripts_flags", &self.no_scripts_flags),
            ("skip_hooks_flags", &self.skip_hooks_flags),
            ("volume_flags", &self.volume_flags),
            ("mount_flags", &self.mount_flags),
            ("code_flags", &self.code_flags),
            ("script_flags", &self.script_flags),
            ("module_flags", &self.module_flags),
            ("library_flags", &self.library_flags),
            ("load_flags", &self.load_flags),
            ("loop_flags", &self.loop_flags),
            ("no_code_flags", &self.no_code_flags),
            ("version_flags", &self.version_flags),
            ("inert_flags", &self.inert_flags),
            ("attached_flags", &self.attached_flags),
            ("number_flags", &self.number_flags),
            ("global_flags", &self.global_flags),
            ("global_value_flags", &self.global_value_flags),
            ("global_read_flags", &self.global_read_flags),
            ("setting_flags", &self.setting_flags),
            ("setting_env_flags", &self.setting_env_flags),
            ("edit_flags", &self.edit_flags),
            ("file_flags", &self.file_flags),
            ("symbolic_flags", &self.symbolic_flags),
            ("reference_flags", &self.reference_flags),
            ("long_options", &self.long_options),
            ("long_value_options", &self.long_value_options),
            ("short_value_options", &self.short_value_options),
        ];
        let mut out = Vec::new();
        for (key, list) in lists {
            for w in list.iter() {
                let opt = if key == "run_flags" || key == "file_flags" {
                    run_flag_name(w)
                } else {
                    w
                };
                let option = opt.len() > 1
                    && (opt.starts_with('-') || opt.starts_with('+'))
                    && !opt.contains(char::is_whitespace);
                if !option {
                    out.push(format!("`{key}` of {name:?} holds {w:?}, which is not an option (options start with `-` or `+` and hold no blank)"));
                }
            }
        }
        out
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The option of a `run_flags` entry: `--checkpoint-action` of `--checkpoint-action=exec=`.
pub fn run_flag_name(entry: &str) -> &str {
    entry.split_once('=').map_or(entry, |(o, _)| o)
}
