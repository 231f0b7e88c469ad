#!/usr/bin/env python3
"""Writes git's option tables, policy/17-options-git.toml, from the git on PATH, and its
command names, src/engine/analyze/git_tables.rs.

    scripts/git-tables.py

For each subcommand the policy reads, its long options (`long_options`) are the words of
`git SUBCOMMAND --git-completion-helper-all` (for `config` and `stash`, those of their
subcommands, see NESTED, and the older forms the helper does not list, NOT_LISTED); of
them, those that take a value in the next word (`long_value_options`), and its one-letter
options that take one (`short_value_options`), are the option lines of `git SUBCOMMAND -h`
that show a value (`--format <fmt>`, `-m <message>`, `--empty (stop|drop|keep)`).
The `[commands."git SUB"]` tables of the TOML file hold hand-written keys too: the script
keeps every line of a table but the three keys it writes, and adds tables for the
subcommands that have none. Git's commands are `git --list-cmds=main` and the common `lfs`
and `filter-repo`. With `--print`, the script writes both files to standard output
instead (the TOML first, then a line `#@@` and the Rust), which a test in
src/engine/analyze/git_args.rs compares with the files where git is the version they name.
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOML = os.path.join(ROOT, "policy", "17-options-git.toml")
RUST = os.path.join(ROOT, "src", "engine", "analyze", "git_tables.rs")
GENERATED = ("long_options", "long_value_options", "short_value_options")

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

RUST_HEAD = """//! Git's commands. Generated from git {version} (`git --list-cmds=main`).
//! Written by `scripts/git-tables.py` (its test is in `git_args.rs`): run it again rather
//! than edit this file. The options of git's subcommands are in
//! `policy/17-options-git.toml`, written by the same script.

/// Git's commands (built in or shipped with it, and the common `lfs` and `filter-repo`): an
/// alias of one of these names is never used, git runs the command.
#[rustfmt::skip]
pub(super) const GIT_COMMANDS: &[&str] = &[
"""

TOML_HEAD = """# Git's subcommands: their grammar as git itself gives it, and the hand-written keys the
# analysers read for some of them. Generated from git {version}: the keys `long_options`
# (every long option of the subcommand; `git push --rec=x` is `--receive-pack=x`, as git
# writes out a prefix of one option), `long_value_options` (those of them that take a
# value in the next word when not given with `=`) and `short_value_options` (its
# one-letter options that take a value) are written by `scripts/git-tables.py`, which
# keeps every other line: run it again rather than edit those three keys. They are read
# from these built-in tables only, so that a user's or project's table cannot take an
# expansion away.
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


def toml_list(key, words):
    line = f"{key} = [" + ", ".join(f'"{w}"' for w in words) + "]"
    if len(line) <= WIDTH:
        return line + "\n"
    return f"{key} = [\n" + wrapped(words, "  ") + "]\n"


def blocks(text):
    """The tables of the TOML file: (subcommand, comment above it, its lines)."""
    out, header, lines, lead = [], None, [], []
    for line in text.splitlines(keepends=True):
        m = re.match(r'^\[commands\."git ([^"]+)"\]$', line.rstrip("\n"))
        if m:
            # The comment lines just above a table are its own.
            above = []
            while lines and lines[-1].startswith("#"):
                above.insert(0, lines.pop())
            if header is not None:
                out.append((header, lead, lines))
            header, lines, lead = m.group(1), [], above
        else:
            lines.append(line)
    if header is not None:
        out.append((header, lead, lines))
    return out


def hand_lines(lines):
    """A table's lines without the generated keys and the blank lines at its end."""
    kept, skipping = [], False
    for line in lines:
        if skipping:
            skipping = not line.startswith("]")
            continue
        key = line.split("=", 1)[0].strip()
        if key in GENERATED:
            skipping = line.rstrip().endswith("[")
            continue
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return kept


def main():
    version = git(".", "--version").split()[2]
    major_minor = ".".join(version.split(".")[:2])
    try:
        with open(TOML) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    tables = {sub: (lead, hand_lines(lines)) for sub, lead, lines in blocks(old)}
    order = [sub for sub, _, _ in blocks(old)]
    order += [s for s in SUBCOMMANDS if s not in order]
    rust = [RUST_HEAD.replace("{version}", major_minor)]
    toml = [TOML_HEAD.replace("{version}", major_minor)]
    with tempfile.TemporaryDirectory() as repo:
        git(repo, "init", "-q")
        commands = sorted(set(git(repo, "--list-cmds=main").split()) | set(NOT_SHIPPED))
        rust.append(wrapped(commands, "    "))
        rust.append("];\n")
        generated = {sub: options(repo, sub) for sub in SUBCOMMANDS}
    for sub in order:
        lead, lines = tables.get(sub, ([], []))
        toml.append("\n")
        toml.extend(lead)
        toml.append(f'[commands."git {sub}"]\n')
        toml.extend(lines)
        if sub in generated:
            short, long_values, long = generated[sub]
            toml.append(toml_list("long_options", [f"--{o}" for o in long]))
            toml.append(toml_list("long_value_options", [f"--{o}" for o in long_values]))
            toml.append(toml_list("short_value_options", [f"-{c}" for c in short]))
    toml_text, rust_text = "".join(toml), "".join(rust)
    if sys.argv[1:] == ["--print"]:
        sys.stdout.write(toml_text + "#@@\n" + rust_text)
        return
    with open(TOML, "w") as f:
        f.write(toml_text)
    with open(RUST, "w") as f:
        f.write(rust_text)


main()
