//! What an MCP tool's input names: the values of its keys that name files or folders and
//! those that are shell commands (the `mcp_path_keys` and `mcp_command_keys` kinds of the
//! policy), found at any depth of the input, in objects and in lists.

use serde_json::Value;

use super::policy::List;

/// How deep into an input the keys are looked for.
const MAX_DEPTH: usize = 8;
/// How many values are taken, at most, of each sort.
const MAX_VALUES: usize = 64;

/// The values an MCP tool's input gives its path and command keys.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct McpArguments {
    /// Files and folders named (`file://` taken off a URL of that scheme).
    pub paths: Vec<String>,
    /// Shell commands.
    pub commands: Vec<String>,
    /// A value given too deep, or past the limit of values: what it names is not known.
    pub unread: bool,
}

/// Whether a tool name is an MCP tool's (`mcp__SERVER__TOOL`).
pub fn is_mcp_tool(name: &str) -> bool {
    name.starts_with("mcp__")
}

/// The values of `input` under the keys of `path_keys` and `command_keys`. Keys are
/// compared without case, `_` and `-` (`file_path`, `filePath`, `file-path` are one).
pub fn arguments(input: &Value, path_keys: &List, command_keys: &List) -> McpArguments {
    let mut out = McpArguments::default();
    let norm = |k: &str| -> String {
        k.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let paths: Vec<String> = path_keys.iter().map(norm).collect();
    let commands: Vec<String> = command_keys.iter().map(norm).collect();
    walk(input, None, 0, &paths, &commands, &norm, &mut out);
    out
}

fn walk(
    v: &Value,
    key: Option<&str>,
    depth: usize,
    paths: &[String],
    commands: &[String],
    norm: &dyn Fn(&str) -> String,
    out: &mut McpArguments,
) {
    if depth > MAX_DEPTH {
        out.unread = true;
        return;
    }
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                walk(v, Some(&norm(k)), depth + 1, paths, commands, norm, out);
            }
        }
        Value::Array(items) => {
            for v in items {
                walk(v, key, depth + 1, paths, commands, norm, out);
            }
        }
        Value::String(s) => {
            let Some(key) = key else { return };
            if commands.iter().any(|c| c == key) {
                push(&mut out.commands, s.clone(), &mut out.unread);
            } else if paths.iter().any(|p| p == key) {
                let s = s.trim();
                let path = match s.strip_prefix("file://") {
                    Some(p) => p.strip_prefix("localhost").unwrap_or(p),
                    None if s.contains("://") => return,
                    None => s,
                };
                if !path.is_empty() {
                    push(&mut out.paths, path.to_string(), &mut out.unread);
                }
            }
        }
        _ => {}
    }
}

fn push(to: &mut Vec<String>, v: String, unread: &mut bool) {
    if to.len() >= MAX_VALUES {
        *unread = true;
    } else if !to.contains(&v) {
        to.push(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_at_any_depth_and_in_lists() {
        let keys = List::from_iter(["path", "file_path", "paths", "destination", "uri"]);
        let cmds = List::from_iter(["command", "cmd"]);
        let input = json!({
            "filePath": "src/a.rs",
            "options": {"destination": "/tmp/x", "Paths": ["a", "b"]},
            "uri": "file:///etc/hosts",
            "url": "https://example.com",
            "other": {"uri": "https://example.com/x"},
            "steps": [{"cmd": "rm -rf ~"}],
            "text": "path",
        });
        let a = arguments(&input, &keys, &cmds);
        assert_eq!(a.paths, ["src/a.rs", "/tmp/x", "a", "b", "/etc/hosts"]);
        assert_eq!(a.commands, ["rm -rf ~"]);
        assert!(!a.unread);
    }

    #[test]
    fn too_deep_is_unread() {
        let mut v = json!({"path": "x"});
        for _ in 0..12 {
            v = json!({"a": v});
        }
        let a = arguments(&v, &List::from_iter(["path"]), &List::default());
        assert!(a.paths.is_empty() && a.unread);
    }
}
