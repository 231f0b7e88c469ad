//! PHP (`php -r`): the effects of a snippet, read with tree-sitter-php (the grammar for
//! code without `<?php` tags).
//!
//! Function calls are looked up by name: the ones that run commands (`system`, `exec`,
//! `shell_exec`, `passthru`, `popen`, `proc_open`, backticks), read, write or delete files,
//! talk to the network, and the many that only compute. `eval`, `include`, `require`,
//! calls of a name held in a variable, methods and static calls of classes not known, and
//! any function not listed are opaque.

use tree_sitter::Node;

use super::calls::Args;
use super::walker::{self, judge};

mod calls;
mod values;
mod walk;

use super::path_calls::{delete, write, PathCall, POSIX_PAIRS};
use super::{Judged, Lang, SyntaxWalk};

/// Functions that act on the paths they are given, besides the [`POSIX_PAIRS`].
const PATH_CALLS: &[PathCall<&str>] = &[
    PathCall {
        names: &[
            "file_put_contents",
            "mkdir",
            "touch",
            "chmod",
            "chown",
            "chgrp",
            "tempnam",
            "lchown",
            "lchgrp",
        ],
        paths: &[write(0, "")],
    },
    PathCall {
        names: &["unlink", "rmdir"],
        paths: &[delete(0, "")],
    },
];

/// Functions that compute or print.
const PURE: &[&str] = &[
    "echo",
    "print",
    "printf",
    "sprintf",
    "vsprintf",
    "print_r",
    "var_dump",
    "var_export",
    "json_encode",
    "json_decode",
    "strlen",
    "strtolower",
    "strtoupper",
    "str_replace",
    "str_repeat",
    "substr",
    "strpos",
    "explode",
    "implode",
    "join",
    "trim",
    "rtrim",
    "ltrim",
    "count",
    "array_map",
    "array_filter",
    "array_keys",
    "array_values",
    "array_merge",
    "in_array",
    "array_sum",
    "sort",
    "ksort",
    "usort",
    "range",
    "max",
    "min",
    "abs",
    "round",
    "floor",
    "ceil",
    "intval",
    "floatval",
    "strval",
    "is_array",
    "is_string",
    "isset",
    "empty",
    "date",
    "time",
    "microtime",
    "phpversion",
    "php_uname",
    "php_sapi_name",
    "md5",
    "sha1",
    "hash",
    "base64_encode",
    "base64_decode",
    "bin2hex",
    "hex2bin",
    "ucfirst",
    "lcfirst",
    "ucwords",
    "number_format",
    "str_pad",
    "str_split",
    "preg_match",
    "preg_match_all",
    "preg_replace",
    "preg_split",
    "preg_quote",
    "sprintf",
    "array_slice",
    "array_reverse",
    "array_unique",
    "array_search",
    "array_key_exists",
    "array_flip",
    "array_combine",
    "array_fill",
    "array_push",
    "array_pop",
    "array_shift",
    "array_unshift",
    "uniqid",
    "rand",
    "mt_rand",
    "random_int",
    "str_contains",
    "str_starts_with",
    "str_ends_with",
    "sleep",
    "usleep",
    "exit",
    "die",
    "memory_get_usage",
    "gettype",
    "get_debug_type",
    "is_int",
    "is_numeric",
    "is_null",
    "is_bool",
    "array_key_first",
    "array_key_last",
    "iterator_to_array",
    "compact",
    "list",
    "unset",
    "defined",
    "version_compare",
    "extension_loaded",
    "function_exists",
    "class_exists",
    "ini_get",
    "getcwd",
    "pathinfo",
    "basename",
    "dirname",
    "realpath",
    "file_exists",
    "is_file",
    "is_dir",
    "is_readable",
    "is_writable",
    "filesize",
    "filemtime",
    "stat",
    "fnmatch",
    "nl2br",
    "htmlspecialchars",
    "strip_tags",
    "wordwrap",
    "chr",
    "ord",
    "serialize",
    "array_column",
    "array_walk",
    "mb_strlen",
    "mb_substr",
    "mb_strtolower",
    "mb_strtoupper",
    "PHP_EOL",
    "fclose",
    "fgets",
    "fread",
    "feof",
    "fwrite",
    "fputs",
    "fflush",
    "array_diff",
    "array_intersect",
    "str_word_count",
    "similar_text",
    "levenshtein",
    "crc32",
    "sha256",
    "password_hash",
    "password_verify",
    "strcmp",
    "strcasecmp",
    "sprintf",
    "array_chunk",
    "array_pad",
    "call_user_func_array_is_not_here",
];

/// Functions that run code given as a string or by name.
const DYNAMIC: &[&str] = &[
    "eval",
    "assert",
    "create_function",
    "call_user_func",
    "call_user_func_array",
    "forward_static_call",
    "forward_static_call_array",
    "array_walk_recursive",
    "register_shutdown_function",
    "set_error_handler",
    "set_exception_handler",
    "unserialize",
    "extract",
    "parse_str",
    "dl",
    "putenv",
    "ini_set",
    "chdir",
    "preg_replace_callback",
    "func_get_args",
    "constant",
    "ob_start",
    "spl_autoload_register",
    "mail",
    "header",
];

/// What `src` does.
pub fn analyze(src: &str) -> Judged {
    let grammar = tree_sitter_php::LANGUAGE_PHP_ONLY.into();
    super::read(grammar, src, Lang::Php, |syntax| judge(syntax, Php))
}

/// The PHP reader, which keeps nothing of its own beyond what every reader holds (the
/// functions the snippet defines are in `local`, in lower case).
struct Php;

type Walker<'t> = walker::Walker<'t, Php>;

impl<'t> Walker<'t> {
    /// A call's arguments (PHP's named arguments are taken by position).
    fn args(&self, call: Node<'t>) -> Args<'t> {
        let mut args = Args::default();
        if let Some(a) = self.field(call, "arguments") {
            for arg in self.kids(a) {
                if arg.kind() != "argument" {
                    continue;
                }
                let kids = self.kids(arg);
                if kids.iter().any(|k| k.kind() == "variadic_unpacking") {
                    args.splat = true;
                }
                if let Some(e) = kids.into_iter().rfind(|k| k.kind() != "name") {
                    args.pos.push(e);
                }
            }
        }
        args
    }
}

#[cfg(test)]
mod tests;
