//! The names of Claude Code's tools, as `tool_name` and the agents' `tools:` lists spell
//! them: the one source every layer names them from.
//!
//! A tool the product treats in its own way is a [`Tool`]; any other tool (an MCP tool, a
//! tool of a newer client) is only a name and [`Tool::parse`] gives `None` for it. What a
//! tool is told apart by (whether it writes files, whether it starts a subagent) is said
//! here once, so the classifier, the workflow and the hook agree on it.

/// A tool of Claude Code's the product knows by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    Bash,
    Read,
    Write,
    Edit,
    MultiEdit,
    NotebookEdit,
    Glob,
    Grep,
    Ls,
    /// Starts a subagent.
    Agent,
    /// The old name of [`Tool::Agent`].
    Task,
    /// Runs a skill in the calling agent.
    Skill,
    TodoWrite,
    WebSearch,
    WebFetch,
}

impl Tool {
    /// Every tool known by name.
    pub const ALL: [Tool; 15] = [
        Tool::Bash,
        Tool::Read,
        Tool::Write,
        Tool::Edit,
        Tool::MultiEdit,
        Tool::NotebookEdit,
        Tool::Glob,
        Tool::Grep,
        Tool::Ls,
        Tool::Agent,
        Tool::Task,
        Tool::Skill,
        Tool::TodoWrite,
        Tool::WebSearch,
        Tool::WebFetch,
    ];

    /// The name as Claude Code spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Tool::Bash => "Bash",
            Tool::Read => "Read",
            Tool::Write => "Write",
            Tool::Edit => "Edit",
            Tool::MultiEdit => "MultiEdit",
            Tool::NotebookEdit => "NotebookEdit",
            Tool::Glob => "Glob",
            Tool::Grep => "Grep",
            Tool::Ls => "LS",
            Tool::Agent => "Agent",
            Tool::Task => "Task",
            Tool::Skill => "Skill",
            Tool::TodoWrite => "TodoWrite",
            Tool::WebSearch => "WebSearch",
            Tool::WebFetch => "WebFetch",
        }
    }

    /// The tool a name names, when it is one known by name (exact spelling).
    pub fn parse(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Whether the tool writes a file (named by its input's `file_path` or `notebook_path`).
    pub const fn writes_files(self) -> bool {
        matches!(
            self,
            Tool::Write | Tool::Edit | Tool::MultiEdit | Tool::NotebookEdit
        )
    }

    /// Whether the tool starts a subagent (its input's `subagent_type` names which).
    pub const fn spawns_agent(self) -> bool {
        matches!(self, Tool::Agent | Tool::Task)
    }

    /// Whether `name` is this tool's name.
    pub fn is(self, name: &str) -> bool {
        self.as_str() == name
    }
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_others_are_no_tool() {
        for t in Tool::ALL {
            assert_eq!(Tool::parse(t.as_str()), Some(t), "{t}");
            assert!(t.is(&t.to_string()));
        }
        for other in ["", "bash", "BASH", "mcp__x__y", "Bash ", "skill"] {
            assert_eq!(Tool::parse(other), None, "{other:?}");
        }
    }

    #[test]
    fn what_tools_do() {
        let cases: &[(Tool, bool, bool)] = &[
            (Tool::Bash, false, false),
            (Tool::Read, false, false),
            (Tool::Write, true, false),
            (Tool::Edit, true, false),
            (Tool::MultiEdit, true, false),
            (Tool::NotebookEdit, true, false),
            (Tool::Glob, false, false),
            (Tool::Agent, false, true),
            (Tool::Task, false, true),
        ];
        for (t, writes, spawns) in cases {
            assert_eq!(
                (t.writes_files(), t.spawns_agent()),
                (*writes, *spawns),
                "{t}"
            );
        }
    }
}
