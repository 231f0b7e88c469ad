//! Shell parsing: turns one Bash command string into the simple commands it would run.
//!
//! This module owns the syntax, not the meaning. It uses the tree-sitter Bash grammar and
//! walks the whole tree, so a simple command is found wherever it sits: in a list or
//! pipeline, a subshell or `{ }` group, a function body, `if`/`for`/`while`/`case`, or a
//! `$(…)`, backtick or `<(…)` substitution. For each one it records the words (with quotes
//! and escapes removed where the text is literal), the redirections, any heredoc or
//! here-string feeding its standard input, its place in a pipeline, and which command's
//! argument list it was substituted into. What those words *mean* (wrappers, `bash -c`,
//! `xargs`, paths) is the job of `analyze`.
//!
//! A line of one program and plain words (`git status`) is read without the grammar
//! ([`plain`]), with the same result.
//!
//! Parsing is bounded: the input size, the tree depth and the parse time are capped; the
//! caller checks the parser's work with [`cost::estimate`] against [`MAX_PARSE_COST`]
//! before asking for a parse; and a tree with a syntax error or one of the grammar's known
//! mis-parses (backquotes nested in odd places) is reported as [`Script::unparsed`], which
//! the classifier turns into a Confirm.

pub mod cost;
pub mod expand;
mod plain;
mod quote;
pub mod split;
mod subst;
pub mod vars;
mod walk;

use std::time::Duration;

use tree_sitter::{Node, Parser, Tree};

use crate::engine::timed_parse::{parse_within, NoTree};

/// The largest command (in bytes) we try to parse. Longer commands are not analysed.
pub const MAX_COMMAND_BYTES: usize = 512 * 1024;
/// The most parsing work one command may cost, in pieces as estimated by [`cost`]: about
/// a microsecond each, so a few milliseconds. The budget is for the whole analysis (a
/// script nested in a string is parsed too); a command over it is not analysed part by
/// part but asked about (Confirm). Everyday commands cost tens of pieces; 3,000 is some
/// 600 short chained commands or a few thousand words.
pub const MAX_PARSE_COST: usize = 3_000;
/// The deepest syntax tree we walk. Real commands stay far below this.
pub const MAX_TREE_DEPTH: usize = 400;
/// The most processor time we let the parser use (see `timed_parse`). Commands within
/// [`MAX_PARSE_COST`] parse in a few
/// milliseconds; this only stops the parser's error recovery, which on some malformed
/// input grows much faster than the input.
pub const MAX_PARSE_TIME: Duration = Duration::from_millis(100);

/// Why a command is [`Script::unparsed`] when its parse ran out of time.
pub const PARSE_TIMED_OUT: &str = "the command took too long to parse";

/// One shell word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word's value. Literal parts are unquoted and unescaped; expansions keep their
    /// source text (`$HOME`, `${x}`), and substitutions appear as `$(…)`.
    pub text: String,
    /// True when the value is fully known before the shell runs: no expansion, no
    /// substitution, no unquoted glob or brace expansion.
    pub literal: bool,
}

impl Word {
    pub fn lit(text: &str) -> Word {
        Word {
            text: text.to_string(),
            literal: true,
        }
    }
}

/// A redirection such as `> out.txt`, `2>/dev/null` or `< input`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The operator, e.g. `>`, `>>`, `<`, `&>`, `>|`, `<>`.
    pub op: String,
    pub target: Word,
}

impl Redirect {
    /// Whether this redirection opens its target for writing.
    pub fn writes(&self) -> bool {
        self.op.contains('>')
    }
    /// `>&2`, `2>&1`: duplicates a descriptor rather than naming a file.
    pub fn is_fd_dup(&self) -> bool {
        (self.op.ends_with('&') || self.op == ">&" || self.op == "<&")
            && self
                .target
                .text
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-')
    }
}

/// What feeds a command's standard input, when the command line itself says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stdin {
    /// `<<EOF … EOF`. `expanding` is false when the delimiter is quoted (`<<'EOF'`).
    Heredoc { body: String, expanding: bool },
    /// `<<< word`
    HereString(Word),
}

/// One simple command found anywhere in the script.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// Leading `NAME=value` assignments.
    pub assignments: Vec<(String, Word)>,
    /// The command name and its arguments.
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    pub stdin: Option<Stdin>,
    /// `(pipeline id, stage)` when the command is a stage of a pipeline.
    pub pipe: Option<(usize, usize)>,
    /// Index of the command whose arguments (or redirections) hold the substitution this
    /// command sits in, e.g. `curl` in `bash -c "$(curl …)"` points at `bash`.
    pub substituted_into: Option<usize>,
    /// For a command in a function's body: the index of that function in
    /// [`Script::functions`] (the body runs only if the function is called).
    pub function: Option<usize>,
    /// Whether a compound statement around the command (a group, a subshell, a loop, an
    /// `if` or `case`) has redirections or a heredoc (`{ a; b; } < list`, `while …; done
    /// <<< x`): its standard input may then be other than the script's own.
    pub enclosed_input: bool,
}

impl SimpleCommand {
    pub fn name(&self) -> Option<&Word> {
        self.words.first()
    }
}

/// The result of parsing one command string.
#[derive(Debug, Clone, Default)]
pub struct Script {
    pub commands: Vec<SimpleCommand>,
    /// Redirections attached to compound statements (`{ …; } > f`, `( … ) > f`).
    pub redirects: Vec<Redirect>,
    /// Names of functions defined in the script.
    pub functions: Vec<String>,
    /// For each of [`Script::functions`]: the index in [`Script::commands`] from which the
    /// definition surely holds, when it does (a definition at the top level of the script,
    /// not in a subshell, a condition, a pipeline or the background).
    pub function_at: Vec<Option<usize>>,
    /// Names given to `unset` anywhere in the script.
    pub unset: Vec<String>,
    /// For each pipeline id: the stage of an enclosing pipeline it runs in, if any
    /// (`curl x | { cat | sh; }`); what flows into that stage reaches its first stage.
    pub pipeline_parent: Vec<Option<(usize, usize)>>,
    /// Why the script could not be fully understood, if it could not.
    pub unparsed: Option<String>,
    /// Where the first syntax error (or NUL byte) is, when there is one: what comes
    /// before may still be judged.
    pub error_at: Option<usize>,
    /// Assignment statements (`NAME=value` alone), in order.
    pub assigned: Vec<vars::Assigned>,
    /// Variables with one known value (see [`vars`]).
    pub constants: Vec<vars::Constant>,
    /// Whether `$PWD` (and `$(pwd)`) may not be the working folder: the script names
    /// `PWD` other than to read it.
    pub pwd_unknown: bool,
    /// Whether the script names `HOME` other than to read it: `cd` alone may go anywhere.
    pub home_unknown: bool,
    /// Whether the script names `CDPATH` other than to read it: `cd NAME` may go to a
    /// folder of it.
    pub cdpath_set: bool,
    /// Whether the script runs `eval`, `source` or `.`, which could assign any variable
    /// (see [`vars`]).
    pub hidden_code: bool,
    /// `for` loops whose variable is one of known values in the body (see [`vars`]).
    pub loops: Vec<vars::Loop>,
    /// Values the script's assignments and loops may give variables that are not
    /// constants, with which their uses are judged too (see [`vars::candidates`]).
    pub candidates: Vec<vars::Constant>,
    /// The characters an unquoted value splits at (`IFS`), and the command from which
    /// they hold, when known: the default blanks, or the value `IFS` is set to once.
    pub ifs: Option<(String, usize)>,
    /// `alias NAME=VALUE` definitions: the name, the value when known, and the index of
    /// the `alias` command.
    pub aliases: Vec<(String, Option<String>, usize)>,
}

/// Parses a Bash command string.
pub fn parse(src: &str) -> Script {
    if src.len() > MAX_COMMAND_BYTES {
        return Script::failed(format!(
            "command is {} bytes, more than the {} bytes analysed",
            src.len(),
            MAX_COMMAND_BYTES
        ));
    }
    if let Some(nul) = src.find('\0') {
        // What a program is given ends at the NUL: the text before it is what may run.
        let mut script = Script::failed("command contains a NUL byte".into());
        script.error_at = Some(nul);
        return script;
    }
    let ifs_touched = vars::touches_ifs(src);
    let mut script = match plain::command(src) {
        Some(command) => Script {
            commands: vec![command],
            ..Script::default()
        },
        None => match walk_tree(src, ifs_touched) {
            Ok(script) => script,
            Err(failed) => return *failed,
        },
    };
    script.unset = script
        .commands
        .iter()
        .filter(|c| c.words.first().is_some_and(|w| w.text == "unset"))
        .flat_map(|c| c.words.iter().skip(1).map(|w| w.text.clone()))
        .collect();
    script.pwd_unknown = vars::may_assign(src, "PWD");
    script.home_unknown = vars::may_assign(src, "HOME");
    script.cdpath_set = vars::may_assign(src, "CDPATH");
    script.hidden_code = vars::runs_hidden_code(&script.commands);
    let found_loops = std::mem::take(&mut script.loops);
    let found_for_candidates = (!ifs_touched).then(|| found_loops.clone());
    if ifs_touched {
        // Under a changed IFS only a value set once is known; loops are not.
        script.ifs = vars::known_ifs(src, &script.assigned);
    } else {
        script.ifs = Some((vars::DEFAULT_IFS.to_string(), 0));
        script.loops = vars::loops(src, found_loops);
    }
    if !ifs_touched || script.ifs.is_some() {
        script.constants = vars::constants(src, &script.assigned);
    }
    if let Some(found) = found_for_candidates {
        script.candidates =
            vars::candidates(&script.assigned, &found, &script.constants, &script.loops);
    }
    script.aliases = aliases(&script.commands);
    script
}

/// The script the grammar reads in `src`, or the failed script saying why it could not.
fn walk_tree(src: &str, ifs_touched: bool) -> Result<Script, Box<Script>> {
    let tree = syntax_tree(src).map_err(|why| Box::new(Script::failed(why)))?;
    let root = tree.root_node();
    if root.has_error() {
        let mut script = Script::failed("the command is not valid Bash syntax".into());
        script.error_at = first_error(root);
        return Err(Box::new(script));
    }
    if tree_depth(root) > MAX_TREE_DEPTH {
        return Err(Box::new(Script::failed(format!(
            "the command nests deeper than {MAX_TREE_DEPTH} levels"
        ))));
    }
    let known = walk::Known {
        ifs_touched,
        commands_redefined: ["echo", "printf", "pwd", "git"]
            .iter()
            .any(|n| vars::may_redefine(src, n)),
    };
    Ok(walk::walk(src, root, known))
}

/// The `alias NAME=VALUE` words of every `alias` command.
fn aliases(commands: &[SimpleCommand]) -> Vec<(String, Option<String>, usize)> {
    let mut out = Vec::new();
    for (i, c) in commands.iter().enumerate() {
        if !c
            .words
            .first()
            .is_some_and(|w| w.literal && w.text == "alias")
        {
            continue;
        }
        for w in &c.words[1..] {
            if let Some((name, value)) = w.text.split_once('=') {
                let value = w.literal.then(|| value.to_string());
                out.push((name.to_string(), value, i));
            }
        }
    }
    out
}

/// The grammar's syntax tree of `src`, parsed within [`MAX_PARSE_TIME`].
fn syntax_tree(src: &str) -> Result<Tree, String> {
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .is_err()
    {
        return Err("the Bash grammar could not be loaded".into());
    }
    // The grammar parses a copy with the same offsets (see `grammar_copy`).
    let ascii = grammar_copy(src);
    parse_within(&mut parser, &ascii, MAX_PARSE_TIME).map_err(|e| match e {
        NoTree::TimedOut => PARSE_TIMED_OUT.into(),
        NoTree::Failed => "the command could not be parsed".into(),
    })
}

/// The bytes the grammar parses in place of `src`: the same length and the same structure
/// as Bash reads it, with what the grammar gets wrong spelled as plain word characters.
/// Words are still read from `src`.
///
/// - Every byte of a non-ASCII character becomes `x`: the grammar's scanner passes
///   characters to C `isdigit`, which is undefined past 255 and crashes the process on
///   some (`echo a{` followed by U+10FFFF). `x` is a word character in every context that
///   spells no keyword, and Bash splits words on ASCII only.
/// - A `{` not followed by a blank or an operator character is not the `{` of a group in
///   Bash but a word character (`{rm,-rf,~}` is a command), which the grammar takes for a
///   group; braces are expanded by [`expand`], not the grammar. `${` stays.
/// - A `~` not after `=` is a word character; in `[ -d ~ ]` the grammar reads it as an
///   operator and fails. `=~` stays.
fn grammar_copy(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut prev = b' ';
    for (i, &c) in b.iter().enumerate() {
        let next = b.get(i + 1).copied();
        let word_char = match c {
            _ if !c.is_ascii() => true,
            b'{' => prev != b'$' && next.is_some_and(|n| !b" \t\n|&;()<>".contains(&n)),
            b'~' => prev != b'=',
            _ => false,
        };
        out.push(if word_char { b'x' } else { c });
        prev = c;
    }
    out
}

impl Script {
    fn failed(why: String) -> Script {
        Script {
            unparsed: Some(why),
            ..Script::default()
        }
    }

    /// Whether command `index`, named `name`, surely calls a function of this script rather
    /// than the program of that name: the function is defined before it at the top level
    /// (so the definition has run) and the script never unsets that name.
    pub fn calls_function(&self, index: usize, name: &str) -> bool {
        let defined = self
            .functions
            .iter()
            .zip(&self.function_at)
            .any(|(f, at)| f == name && at.is_some_and(|at| at <= index));
        defined && !self.unset.iter().any(|u| u == name)
    }
}

/// Where the first error or missing node of the tree starts, in the order of the text.
fn first_error(root: Node) -> Option<usize> {
    let mut cursor = root.walk();
    loop {
        let n = cursor.node();
        if n.is_missing() {
            return Some(n.start_byte());
        }
        if n.is_error() {
            return Some(error_start(n));
        }
        // Only a subtree that holds an error is entered.
        if n.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}

/// Where an error node stops holding whole statements: the grammar may wrap the valid
/// statements before a syntax error in the error (`ls; rm -rf ~; if then`).
fn error_start(error: Node) -> usize {
    let mut cursor = error.walk();
    for k in error.children(&mut cursor) {
        let whole = if k.is_named() {
            !k.has_error() && !k.is_missing() && STATEMENTS.contains(&k.kind())
        } else {
            matches!(k.kind(), ";" | "&" | "\n" | "&&" | "||")
        };
        if !whole {
            return k.start_byte();
        }
    }
    error.start_byte()
}

/// The grammar's kinds of statement.
const STATEMENTS: &[&str] = &[
    "command",
    "list",
    "pipeline",
    "redirected_statement",
    "subshell",
    "compound_statement",
    "if_statement",
    "while_statement",
    "for_statement",
    "c_style_for_statement",
    "case_statement",
    "function_definition",
    "variable_assignment",
    "variable_assignments",
    "declaration_command",
    "unset_command",
    "negated_command",
    "test_command",
    "comment",
];

/// Depth of the tree, computed without recursion so a deep tree cannot overflow the stack.
/// A list nested as the first operand of a list (a chain `a && b && c`) adds no depth: it
/// is walked as one level (see `walk::split_list`).
fn tree_depth(root: Node) -> usize {
    let mut cursor = root.walk();
    // For each node on the path from the root to the cursor: its depth, and whether it
    // is a list.
    let mut path = vec![(0usize, root.kind() == "list")];
    let mut max = 0usize;
    let depth_of = |path: &[(usize, bool)], node: Node| {
        let (parent_depth, parent_is_list) = path.last().copied().unwrap_or((0, false));
        let is_list = node.kind() == "list";
        let d = if parent_is_list && is_list {
            parent_depth
        } else {
            parent_depth + 1
        };
        (d, is_list)
    };
    loop {
        if cursor.goto_first_child() {
            let entry = depth_of(&path, cursor.node());
            max = max.max(entry.0);
            path.push(entry);
            continue;
        }
        loop {
            path.pop();
            if cursor.goto_next_sibling() {
                let entry = depth_of(&path, cursor.node());
                max = max.max(entry.0);
                path.push(entry);
                break;
            }
            if !cursor.goto_parent() {
                return max;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<String> {
        let s = parse(src);
        assert!(s.unparsed.is_none(), "{src}: {:?}", s.unparsed);
        s.commands
            .iter()
            .map(|c| c.words.first().map(|w| w.text.clone()).unwrap_or_default())
            .collect()
    }

    fn argv(src: &str) -> Vec<Vec<String>> {
        parse(src)
            .commands
            .iter()
            .map(|c| c.words.iter().map(|w| w.text.clone()).collect())
            .collect()
    }

    #[test]
    fn finds_commands_in_every_construct() {
        let cases: &[(&str, &[&str])] = &[
            ("ls -la", &["ls"]),
            ("a && b || c; d & e", &["a", "b", "c", "d", "e"]),
            ("a | b | c", &["a", "b", "c"]),
            ("(a; b)", &["a", "b"]),
            ("{ a; b; }", &["a", "b"]),
            ("echo $(a) `b`", &["echo", "a", "b"]),
            ("diff <(a) <(b)", &["diff", "a", "b"]),
            ("f() { a; }; f", &["a", "f"]),
            ("if a; then b; else c; fi", &["a", "b", "c"]),
            ("for i in 1 2; do a $i; done", &["a"]),
            ("while a; do b; done", &["a", "b"]),
            ("case x in y) a;; *) b;; esac", &["a", "b"]),
            ("x=$(a)", &["a"]),
            ("export X=$(a)", &["export", "a"]),
            ("echo \"$(a \"$(b)\")\"", &["echo", "a", "b"]),
            ("( ( a ) )", &["a"]),
            ("! a", &["a"]),
            ("[[ $(a) ]]", &["[[", "a"]),
            ("a > \"$(b)\"", &["a", "b"]),
        ];
        for (src, want) in cases {
            let mut got = names(src);
            got.sort();
            let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
            want.sort();
            assert_eq!(got, want, "{src}");
        }
    }

    #[test]
    fn removes_quotes_and_escapes() {
        let cases: &[(&str, &[&str])] = &[
            ("'rm' -rf x", &["rm", "-rf", "x"]),
            ("\\rm x", &["rm", "x"]),
            ("r\\m x", &["rm", "x"]),
            ("\"r\"m x", &["rm", "x"]),
            ("$'r\\x6d' x", &["rm", "x"]),
            ("r\\\nm x", &["rm", "x"]),
            ("rm \\\n-rf \\\n\\\nx", &["rm", "-rf", "x"]),
            ("echo \"a b\" 'c d'", &["echo", "a b", "c d"]),
            ("echo \"a \\\"q\\\" b\"", &["echo", "a \"q\" b"]),
        ];
        for (src, want) in cases {
            assert_eq!(argv(src)[0], *want, "{src}");
        }
    }

    #[test]
    fn expands_words_as_bash_does() {
        let cases: &[(&str, &[&str])] = &[
            ("{rm,-rf,~}", &["rm", "-rf", "~"]),
            ("rm -rf ~/.s{s,}h", &["rm", "-rf", "~/.ssh", "~/.sh"]),
            (
                "echo \"{a,b}\" '{c,d}' \\{e,f}",
                &["echo", "{a,b}", "{c,d}", "{e,f}"],
            ),
            ("echo {1..3}", &["echo", "1", "2", "3"]),
            (
                "find . -exec rm {} +",
                &["find", ".", "-exec", "rm", "{}", "+"],
            ),
            ("$(printf 'rm -rf %s' ~)", &["rm", "-rf", "~"]),
            ("rm -rf \"$(echo ~)\"", &["rm", "-rf", "~"]),
            ("`echo rm` -rf x", &["rm", "-rf", "x"]),
            ("echo \"$(echo a  b)\" $(echo)", &["echo", "a b"]),
            (
                "rm -rf \"$(pwd)\" $(git rev-parse --show-toplevel)",
                &["rm", "-rf", "$PWD", "$PWD"],
            ),
            ("echo $(echo x; ls)", &["echo", "$(…)"]),
            ("echo() { :; }; $(echo ls)", &["$(…)"]),
        ];
        // The last command that is neither substituted nor in a function.
        let top = |src: &str| -> Vec<String> {
            let s = parse(src);
            assert!(s.unparsed.is_none(), "{src}: {:?}", s.unparsed);
            s.commands
                .iter()
                .rfind(|c| c.substituted_into.is_none() && c.function.is_none())
                .map(|c| c.words.iter().map(|w| w.text.clone()).collect())
                .unwrap_or_default()
        };
        for (src, want) in cases {
            assert_eq!(top(src), *want, "{src}");
        }
        // The grammar reads `~` in a test as an operator, and `{rm,…}` as a group.
        assert_eq!(names("[ -d ~ ] && rm -rf ~"), ["[[", "rm"]);
        assert_eq!(names("{ ls; }; {rm,-rf,~}"), ["ls", "rm"]);
        assert_eq!(names("[[ $x =~ ^a{2}$ ]] && ls"), ["[[", "ls"]);
        // What IFS does to an unquoted substitution is not known once the script sets it.
        assert_eq!(top("IFS=,; $(echo a,b)"), ["$(…)"]);
        assert_eq!(top("IFS=,; \"$(echo a,b)\""), ["a,b"]);
    }

    #[test]
    fn data_is_not_a_command() {
        let cases: &[(&str, &[&str])] = &[
            ("echo \"rm -rf /\"", &["echo"]),
            ("git commit -m 'rm -rf /'", &["git"]),
            ("ls # rm -rf /", &["ls"]),
            ("cat <<'EOF'\nrm -rf /\nEOF", &["cat"]),
            ("echo '$(rm -rf /)'", &["echo"]),
        ];
        for (src, want) in cases {
            assert_eq!(names(src), *want, "{src}");
        }
    }

    #[test]
    fn literal_flag() {
        let s = parse("rm -rf $HOME \"$X\"/a '*' * {a,b} ~");
        let lit: Vec<bool> = s.commands[0].words.iter().map(|w| w.literal).collect();
        // `{a,b}` is the two words `a` and `b`, both known.
        assert_eq!(
            lit,
            vec![true, true, false, false, true, false, true, true, true]
        );
    }

    #[test]
    fn heredocs_and_pipes() {
        let s = parse("cat <<EOF | bash\nrm -rf /\nEOF");
        assert_eq!(s.commands.len(), 2);
        assert_eq!(
            s.commands[0].stdin,
            Some(Stdin::Heredoc {
                body: "rm -rf /\n".into(),
                expanding: true
            })
        );
        assert_eq!(s.commands[0].pipe.map(|p| p.1), Some(0));
        assert_eq!(s.commands[1].pipe.map(|p| p.1), Some(1));
        let s = parse("bash <<'EOF'\nls\nEOF");
        assert!(matches!(
            s.commands[0].stdin,
            Some(Stdin::Heredoc {
                expanding: false,
                ..
            })
        ));
        let s = parse("curl x | sudo bash");
        assert_eq!(s.commands[0].pipe, Some((0, 0)));
        assert_eq!(s.commands[1].pipe, Some((0, 1)));
    }

    #[test]
    fn substitution_parent() {
        let s = parse("sh -c \"$(curl x)\"");
        assert_eq!(s.commands[1].words[0].text, "curl");
        assert_eq!(s.commands[1].substituted_into, Some(0));
    }

    #[test]
    fn redirects() {
        let s = parse("echo hi > out.txt 2>/dev/null");
        let r = &s.commands[0].redirects;
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].target.text, "out.txt");
        assert!(r[0].writes());
        // A compound's redirections go to its first command, a list's to its last
        // operand (Bash's reading of `cd x && echo k >> f`).
        let s = parse("{ a; b; } > f");
        assert_eq!(s.commands[0].redirects[0].target.text, "f");
        let s = parse("cd x && echo k >> f");
        assert!(s.commands[0].redirects.is_empty());
        assert_eq!(s.commands[1].redirects[0].target.text, "f");
        let s = parse("cd x && (a; b) >> f");
        assert_eq!(s.commands[1].redirects[0].target.text, "f");
        // With no command to own them, they belong to the script.
        let s = parse("{ x=1; } > f");
        assert_eq!(s.redirects[0].target.text, "f");
    }

    #[test]
    fn fails_closed() {
        let cases = [
            "echo $(",
            "if then",
            "echo `echo foo`\necho ` rm -rf /`",
            "cat <<EOF\n`rm -rf /`\nEOF",
        ];
        for src in cases {
            assert!(parse(src).unparsed.is_some(), "{src}");
        }
        assert_eq!(parse("rm -rf / ) (").error_at, Some(9));
        assert_eq!(parse("ls; rm -rf ~; if then").error_at, Some(14));
        let deep = "(".repeat(5000) + "ls" + &")".repeat(5000);
        assert!(parse(&deep).unparsed.is_some());
        let big = "a".repeat(MAX_COMMAND_BYTES + 1);
        assert!(parse(&big).unparsed.is_some());
    }
}
