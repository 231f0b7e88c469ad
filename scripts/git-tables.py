#!/usr/bin/env python3
"""Writes git's tables, src/engine/analyze/git_tables.rs, from the git on PATH.

    scripts/git-tables.py > src/engine/analyze/git_tables.rs

Git's commands are `git --list-cmds=main` and the common `lfs` and `filter-repo`. For each
subcommand the policy reads, its long options are the words of
`git SUBCOMMAND --git-completion-helper-all` (for `config` and `stash`, those of their
subcommands, see NESTED, and the older forms the helper does not list, NOT_LISTED); of
them, those that take a value in the next word, and its one-letter options that take one,
are the option lines of `git SUBCOMMAND -h` that show a value (`--format <fmt>`,
`-m <message>`, `--empty (stop|drop|keep)`). A test in src/engine/analyze/git_args.rs
checks that the file in the repository is this script's output where git is the version
the file names.
"""

import re
import subprocess
import sys
import tempfile

SUBCOMMANDS = [
    "add", "am", "apply", "archive", "branch", "checkout", "cherry-pick", "clean", "clone",
    "commit", "config", "difftool", "fetch", "format-patch", "gc", "grep", "hash-object",
    "init", "ls-remote", "merge", "mv", "pull", "push", "rebase", "replace", "reset",
    "restore", "revert", "rm", "stash", "switch", "symbolic-ref", "tag",
]
NOT_SHIPPED = ["filter-repo", "lfs"]
# The subcommands whose options a command of subcommands holds (all of them unless named):
# `git stash` with no subcommand is `git stash push`, whose options `save` shares.
NESTED = {"stash": ["push", "save"]}
# Options the completion helper does not list: `git config`'s actions of its older form
# (`git config --get NAME`), which it still takes.
NOT_LISTED = {
    "config": [
        "add", "edit", "get", "get-all", "get-color", "get-colorbool", "get-regexp",
        "get-urlmatch", "list", "remove-section", "rename-section", "replace-all", "unset",
        "unset-all",
    ],
}
WIDTH = 99

HEAD = """//! Git's own tables: its commands, and the long options of the subcommands the policy
//! reads, with the options that take a value. Generated from git {version} (`git --list-cmds=main`,
//! `git SUBCOMMAND --git-completion-helper-all` and `git SUBCOMMAND -h`).
//! Written by `scripts/git-tables.py` (its test is in `git_args.rs`): run it again rather
//! than edit this file.

/// The long options of one subcommand (without `--`), the ones of them that take a value in
/// the next word when not given with `=`, and its one-letter options that take a value.
pub(super) struct GitOptions {
    pub sub: &'static str,
    pub long: &'static [&'static str],
    pub long_values: &'static [&'static str],
    pub short_values: &'static str,
}

/// Git's commands (built in or shipped with it, and the common `lfs` and `filter-repo`): an
/// alias of one of these names is never used, git runs the command.
#[rustfmt::skip]
pub(super) const GIT_COMMANDS: &[&str] = &[
"""

OPTIONS_HEAD = """
/// Long options by subcommand, sorted by name (`config` and `stash` hold the options of
/// their subcommands too).
#[rustfmt::skip]
pub(super) const GIT_OPTIONS: &[GitOptions] = &[
"""


def git(repo, *args):
    r = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
    return r.stdout + r.stderr


def wrapped(words, indent):
    lines, line = [], ""
    for w in words:
        item = f'"{w}",'
        if line and len(indent) + len(line) + 1 + len(item) > WIDTH:
            lines.append(indent + line)
            line = ""
        line = f"{line} {item}" if line else item
    if line:
        lines.append(indent + line)
    return "".join(l + "\n" for l in lines)


def options(repo, sub):
    words = git(repo, sub, "--git-completion-helper-all").split()
    helps = git(repo, sub, "-h")
    # A command of subcommands lists them instead of options.
    if not all(w.startswith("-") for w in words):
        nested, words = NESTED.get(sub, words), []
        for n in nested:
            words += git(repo, sub, n, "--git-completion-helper-all").split()
            helps += git(repo, sub, n, "-h")
    long = {w[2:].rstrip("=") for w in words if w.startswith("--") and w != "--"}
    long = sorted(long | set(NOT_LISTED.get(sub, [])))
    shown = re.findall(
        r"^\s+(?:-[A-Za-z0-9], )?--(?:\[no-\])?([a-z0-9][a-z0-9-]*) [<(]", helps, re.M
    )
    long_values = sorted(set(shown) & set(long))
    short = sorted(set(re.findall(r"^\s+-([A-Za-z0-9])(?:, --\S+)? <", helps, re.M)))
    return "".join(short), long_values, long


def main():
    version = git(".", "--version").split()[2]
    major_minor = ".".join(version.split(".")[:2])
    out = [HEAD.replace("{version}", major_minor)]
    with tempfile.TemporaryDirectory() as repo:
        git(repo, "init", "-q")
        commands = sorted(set(git(repo, "--list-cmds=main").split()) | set(NOT_SHIPPED))
        out.append(wrapped(commands, "    "))
        out.append("];\n")
        out.append(OPTIONS_HEAD)
        for sub in SUBCOMMANDS:
            short, long_values, long = options(repo, sub)
            values = ", ".join(f'"{v}"' for v in long_values)
            out.append(f'    GitOptions {{ sub: "{sub}", short_values: "{short}",\n')
            out.append(f"        long_values: &[{values}],\n")
            out.append("        long: &[\n")
            out.append(wrapped(long, "            "))
            out.append("        ] },\n")
        out.append("];\n")
    sys.stdout.write("".join(out))


main()
