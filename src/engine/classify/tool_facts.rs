//! The facts of a call of one of Claude Code's own tools or of an MCP tool: a Bash command
//! is analysed, a file tool's path becomes a read or a write (Grep's its tree), and an MCP
//! tool's input gives the commands and paths it names. Facts only: judging them is the
//! matcher's work.

use std::path::Path;

use anyhow::{anyhow, Result};
use serde_json::Value;

use super::named::named_classes;
use super::path_class::{has_glob, PathClasses};
use crate::engine::analyze::{self, Access, Facts, Invocation, Signal, SignalName};
use crate::engine::args::Recursion;
use crate::engine::mcp;
use crate::engine::paths::{self, component_match};
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;
use crate::engine::tools::Tool;
use crate::engine::Context;

/// The facts of a tool call: Bash is analysed, file tools become accesses.
pub(super) fn tool_facts(tool: &str, input: &Value, ctx: &Context) -> Result<Facts> {
    let str_field = |k: &str| -> Result<&str> {
        input
            .get(k)
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("tool_input.{k} is missing or not a string for tool {tool}"))
    };
    let opt_str = |k: &str| input.get(k).and_then(Value::as_str);
    let mut facts = Facts::default();
    let mut access = |kind: AccessKind, p: &str, origin: &str, recursive: Recursion| {
        let path = paths::resolve(p, true, ctx.cwd, ctx.places, ctx.fs);
        facts.accesses.push(Access {
            kind,
            path,
            recursive,
            origin: origin.to_string(),
        });
    };
    match Tool::parse(tool) {
        Some(Tool::Bash) => {
            let cmd = str_field("command")?;
            return Ok(analyze::analyze_command(cmd, ctx));
        }
        Some(Tool::Read) => access(
            AccessKind::Read,
            str_field("file_path")?,
            tool,
            Recursion::No,
        ),
        Some(Tool::Write | Tool::Edit | Tool::MultiEdit) => access(
            AccessKind::Write,
            str_field("file_path")?,
            tool,
            Recursion::No,
        ),
        Some(Tool::NotebookEdit) => access(
            AccessKind::Write,
            str_field("notebook_path")?,
            tool,
            Recursion::No,
        ),
        Some(t @ (Tool::Glob | Tool::Grep | Tool::Ls)) => {
            // Grep reads the files of the whole tree but hidden names (it is ripgrep), or
            // those its glob names; Glob and LS only list names.
            let glob = opt_str("glob");
            let recursive = match (t, glob) {
                (Tool::Grep, None) => Recursion::VisibleTree,
                (Tool::Grep, Some(_)) => Recursion::GlobInTree,
                _ => Recursion::No,
            };
            let dir = opt_str("path").unwrap_or(".");
            access(AccessKind::Read, dir, tool, recursive);
            if let Some(g) = glob {
                // It matches at any depth of the tree searched (as ripgrep's `--glob`).
                let joined = format!("{}/**/{}", dir.trim_end_matches('/'), g);
                let mut path = paths::resolve(&joined, true, ctx.cwd, ctx.places, ctx.fs);
                // A glob: every file it may match (`.env*` may be `.env`).
                path.dynamic |= has_glob(g);
                facts.accesses.push(Access {
                    kind: AccessKind::Read,
                    path,
                    recursive: Recursion::No,
                    origin: tool.to_string(),
                });
            }
        }
        _ => {}
    }
    Ok(facts)
}

/// The facts of an MCP tool's call, found in what its input names (see [`mcp`]): each
/// shell command is analysed as a Bash command; each path is read (its whole tree, for
/// a folder) by a tool a Safe rule marks as `read_only`, read and written by one of the
/// `mcp_write_tools`, and otherwise named, as a word whose use is not known is (a
/// secret or a protected path there asks, never relaxed). With the facts, the signals
/// that what it names raises, whose verdicts come first.
pub(super) fn mcp_facts(
    tool: &str,
    input: &Value,
    read_only: bool,
    classes: &PathClasses,
) -> (Facts, Vec<Signal>) {
    let ctx = classes.ctx;
    let kinds = &ctx.policy.kinds;
    let mut signals = Vec::new();
    let args = mcp::arguments(input, &kinds.mcp_path_keys, &kinds.mcp_command_keys);
    let mut facts = Facts::default();
    for cmd in &args.commands {
        let f = analyze::analyze_command(cmd, ctx);
        facts.invocations.extend(f.invocations);
        facts.accesses.extend(f.accesses);
        facts.signals.extend(f.signals);
        facts.within.extend(f.within);
        facts.git_actions.extend(f.git_actions);
        facts.hidden.extend(f.hidden);
        facts.sent.extend(f.sent);
    }
    let writes = !read_only
        && kinds
            .mcp_write_tools
            .iter()
            .any(|g| component_match(g, tool));
    if read_only || writes {
        for p in &args.paths {
            let path = paths::resolve(p, true, ctx.cwd, ctx.places, ctx.fs);
            let mut access = |kind: AccessKind, recursive: Recursion| {
                facts.accesses.push(Access {
                    kind,
                    path: path.clone(),
                    recursive,
                    origin: tool.to_string(),
                });
            };
            access(AccessKind::Read, Recursion::Tree);
            if writes {
                access(AccessKind::Write, Recursion::No);
            }
        }
    } else if !args.paths.is_empty() {
        let inv = Invocation {
            name: tool.to_string(),
            args: Vec::new(),
            trusted_path: false,
            extra_args_unknown: false,
            extra_args_paths: false,
            cwd: ctx.cwd.map(Path::to_path_buf),
            display: tool.to_string(),
            code: None,
            named: args.paths.iter().map(|p| Word::lit(p)).collect(),
            maybe_named: Vec::new(),
        };
        signals.extend(named_classes(classes, &inv).signals);
    }
    if args.unread {
        signals.push(Signal {
            name: SignalName::SecretNamed,
            detail: format!(
                "{tool}: part of its input lies too deep or past the values read, and may name a file that holds secrets"
            ),
        });
    }
    (facts, signals)
}
