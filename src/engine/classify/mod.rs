//! Classification: one tool call against the policy, giving a tier, a rule and a reason.
//!
//! This is the pure core. A tool call is turned into facts (for Bash, through `analyze`):
//! programs run, files read and written, signals. Every fact is matched against the rules
//! of its kind; when no ordinary rule of a kind matches, that kind's fallback rules apply
//! (an unknown command is Confirm). The call takes the most restrictive verdict of all its
//! facts, so a compound command is never safer than its most dangerous part.
//!
//! The two entries are here; the work stands in floors, each file using only those below
//! it. `tool_facts` reads a tool's call into facts. `judge` judges each fact against the
//! rules of its kind, reading a rule's conditions with `options` (the words: subcommand,
//! options, arguments) and `path_class` (the classes of the paths the words name), and the
//! words whose use is not known with `named`; `tree_secrets` says whether a folder read
//! whole holds a secret. `verdict` chooses among the rules that matched, and decides the
//! call from the verdicts of its parts.

use anyhow::Result;
use serde_json::Value;

use crate::engine::analyze;
use crate::engine::mcp;
use crate::engine::policy::Tier;
use crate::engine::tools::Tool;
use crate::engine::Context;

mod judge;
mod named;
mod options;
mod path_class;
mod tool_facts;
mod tree_secrets;
mod verdict;

use judge::Matcher;
pub use verdict::{Decision, Verdict};

/// Classifies a tool call by name and input.
pub fn classify(tool: &str, input: &Value, ctx: &Context) -> Result<Decision> {
    let m = Matcher::new(ctx);
    let mut parts = Vec::new();
    let facts = if mcp::is_mcp_tool(tool) {
        let own = m.tool_verdict(tool, None);
        // A rule that makes the tool Safe says it only reads.
        let read_only = own.as_ref().is_some_and(|v| v.tier == Tier::Safe);
        // What its input names comes first: it names the call better than the tool's rule.
        let (facts, signals) = tool_facts::mcp_facts(tool, input, read_only, m.classes());
        parts.extend(signals.iter().filter_map(|s| m.signal_verdict(s)));
        parts.extend(own);
        facts
    } else {
        let facts = tool_facts::tool_facts(tool, input, ctx)?;
        if !Tool::Bash.is(tool) {
            let line = input.get("command").and_then(Value::as_str);
            parts.extend(m.tool_verdict(tool, line));
        }
        facts
    };
    m.judge_facts(&facts, &mut parts);
    Ok(verdict::decide(parts, tool, m.into_matched(), facts))
}

/// Classifies a Bash command (what `policy check -- CMD` runs).
pub fn classify_command(command: &str, ctx: &Context) -> Decision {
    let m = Matcher::new(ctx);
    let facts = analyze::analyze_command(command, ctx);
    let mut parts = Vec::new();
    m.judge_facts(&facts, &mut parts);
    verdict::decide(parts, Tool::Bash.as_str(), m.into_matched(), facts)
}
