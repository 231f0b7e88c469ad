//! The declared effects of known programs: which of their words are files read and written.

use std::path::Path;

use super::{Analyzer, GitAction, Invocation};
use crate::engine::args::{
    flag_matches, positionals, reads_recursively, table_flag_value, Recursion,
};
use crate::engine::paths;
use crate::engine::policy::{AccessKind, Effects, FirstValue, List, Select};
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// Records an invocation with its declared effects and the words it names in
    /// positions the policy does not know (see `named`).
    pub(super) fn push_with_effects(&mut self, inv: Invocation) {
        let eff = self
            .policy()
            .effects(&inv.name)
            .cloned()
            .unwrap_or_default();
        self.push_with_table(inv, eff);
    }

    /// [`Self::push_with_effects`] with the table `eff` (git's with its subcommand's).
    pub(super) fn push_with_table(&mut self, mut inv: Invocation, eff: Effects) {
        (inv.named, inv.maybe_named) = self.effects(&inv, eff);
        self.push(inv);
    }

    /// Declared effects: which arguments a command reads and writes, as its table `eff`
    /// says. Gives the words that may name files in positions the effects do not describe.
    fn effects(&mut self, inv: &Invocation, mut eff: Effects) -> (Vec<Word>, Vec<Word>) {
        // `dpkg -S /usr/bin/curl`: an operand is looked up in the program's records.
        if inv
            .args
            .iter()
            .any(|a| eff.names_flags.iter().any(|f| flag_matches(f, &a.text)))
        {
            eff.names = Some(Select::All);
            eff.reads = None;
            eff.writes = None;
            eff.in_place_flags = List::default();
        }
        let named = self.named_words(&inv.name, &inv.args, &eff);
        let recursive = reads_recursively(self.policy(), &inv.name, &inv.args);
        self.record_sent(named.sent, inv.cwd.clone(), &inv.name, recursive);
        if self.policy().is_downloader(&inv.name) {
            self.remote_names(inv, &eff);
        }
        self.declared_effects(inv, eff, recursive);
        (named.unknown, named.maybe)
    }

    /// `recursive`: it reads the whole tree of a folder it reads (see
    /// [`reads_recursively`]).
    fn declared_effects(&mut self, inv: &Invocation, eff: Effects, recursive: Recursion) {
        let mut positional = positionals(&inv.args, &eff.value_flags);
        if first_is_not_a_file(&inv.args, &positional, &eff) {
            positional.remove(0);
        }
        let has_flag = |flags: &List| {
            inv.args
                .iter()
                .any(|a| flags.iter().any(|f| flag_matches(f, &a.text)))
        };
        let in_place = has_flag(&eff.in_place_flags);
        // `gzip -c f`, `tar -tf a.tar`: the files it would write are only read.
        let write = if has_flag(&eff.read_only_flags) && !in_place {
            AccessKind::Read
        } else {
            AccessKind::Write
        };
        // `cp -t DIR SRC…`: the folder is named by the option, so every positional argument
        // is a source, read and not written.
        let folder_named = eff.into_folder
            && (0..inv.args.len()).any(|i| {
                eff.write_flags
                    .iter()
                    .any(|f| table_flag_value(&inv.args, i, f, &eff).is_some())
            });
        if let Some(spec) = eff.reads {
            let spec = match spec {
                Select::AfterFirst | Select::AfterFirstOrOnly if has_flag(&eff.pattern_flags) => {
                    Select::All
                }
                Select::AllButLast if folder_named => Select::All,
                spec => spec,
            };
            let selected = select(&positional, spec);
            // `grep -r PAT`, `rg PAT`: a reader of trees given no operand to read reads the
            // folder it runs in.
            if recursive.is_tree() && selected.is_empty() {
                let here = Word::lit(".");
                self.access_tree(
                    AccessKind::Read,
                    &here,
                    inv.cwd.as_deref(),
                    &inv.name,
                    recursive,
                );
            }
            for w in selected {
                self.access_tree(
                    AccessKind::Read,
                    w,
                    inv.cwd.as_deref(),
                    &inv.name,
                    recursive,
                );
                if in_place {
                    self.access(AccessKind::Write, w, inv.cwd.as_deref(), &inv.name);
                }
            }
        }
        if let Some(spec) = eff.writes.filter(|s| !(folder_named && *s == Select::Last)) {
            for w in select(&positional, spec) {
                self.access(write, w, inv.cwd.as_deref(), &inv.name);
            }
        }
        if eff.into_folder {
            self.landing_in_folder(inv, &eff, &positional, write);
        }
        self.flag_effects(inv, &eff, write);
        self.git_actions(inv, &eff, &positional);
        if inv.name == "ln" || inv.name == "link" {
            self.record_links(inv, &eff, &positional);
        }
    }

    /// What a downloader saves under the name its URL ends with (`wget URL`, `curl -O URL`,
    /// its table's `remote_name` and `remote_name_flags`): in the folder it runs in, and in
    /// any folder an option of its `write_flags` names (`--output-dir`, `-P`), which may
    /// be one. Those files count as downloaded (see `runs_file`).
    fn remote_names(&mut self, inv: &Invocation, eff: &Effects) {
        let given = |l: &List| {
            inv.args
                .iter()
                .any(|a| l.iter().any(|f| flag_matches(f, &a.text)))
        };
        if !(eff.remote_name || given(&eff.remote_name_flags)) {
            return;
        }
        let cwd = inv.cwd.as_deref();
        let mut folders: Vec<Option<std::path::PathBuf>> = vec![cwd.map(Path::to_path_buf)];
        for i in 0..inv.args.len() {
            for f in eff.write_flags.iter() {
                if let Some(v) = table_flag_value(&inv.args, i, f, eff) {
                    folders.extend(self.resolve(&v, cwd).lexical.map(|d| Some(d.into())));
                }
            }
        }
        let positional = positionals(&inv.args, &eff.value_flags);
        // A URL unquoted may hold a glob's `?` (`…/x.sh?v=2`): its name is still known.
        for w in positional.iter().filter(|w| w.text.contains("://")) {
            let Some(name) = url_file_name(&w.text)
                .filter(|n| w.literal || !n.contains(['$', '`', '*', '[', '{']))
            else {
                continue;
            };
            for folder in &folders {
                let saved = self.resolve(&Word::lit(&name), folder.as_deref());
                self.downloaded.extend(saved.lexical);
            }
        }
    }

    /// `ln [-s] TARGET LINK`, `ln TARGET… DIR`, `ln -t DIR TARGET…`: the links made, so that
    /// what is later written through one is written to its target. Whether LINK is a
    /// folder is not known, so both readings count. A symbolic link's relative target is
    /// relative to the link's folder, a hard link's to the working folder. Its table `eff`
    /// says which options make the links symbolic (`symbolic_flags`) and which name the
    /// folder they are made in (the `write_flags` of an `into_folder` table).
    fn record_links(&mut self, inv: &Invocation, eff: &Effects, positional: &[&Word]) {
        let cwd = inv.cwd.as_deref();
        let symbolic = inv
            .args
            .iter()
            .any(|a| eff.symbolic_flags.iter().any(|f| flag_matches(f, &a.text)));
        let target_dir = inv.args.iter().enumerate().find_map(|(i, _)| {
            eff.write_flags
                .iter()
                .filter(|_| eff.into_folder)
                .find_map(|f| table_flag_value(&inv.args, i, f, eff))
        });
        let mut pairs: Vec<(Word, Word)> = Vec::new();
        let in_dir = |dir: &Word, t: &Word| Word {
            text: format!("{}/{}", dir.text.trim_end_matches('/'), base_name(&t.text)),
            literal: dir.literal,
        };
        let targets: Vec<&Word> = positional
            .iter()
            .copied()
            .filter(|w| Some(&w.text) != target_dir.as_ref().map(|d| &d.text))
            .collect();
        match (&target_dir, targets.as_slice()) {
            (Some(d), ts) => pairs.extend(ts.iter().map(|t| ((*t).clone(), in_dir(d, t)))),
            (None, [t]) => pairs.push(((*t).clone(), in_dir(&Word::lit("."), t))),
            (None, [t, l]) => {
                pairs.push(((*t).clone(), (*l).clone()));
                pairs.push(((*t).clone(), in_dir(l, t)));
            }
            (None, [ts @ .., d]) => pairs.extend(ts.iter().map(|t| ((*t).clone(), in_dir(d, t)))),
            (None, []) => {}
        }
        for (target, link) in pairs {
            if !(target.literal && link.literal) {
                continue;
            }
            let Some(link_path) = self.resolve(&link, cwd).lexical else {
                continue;
            };
            let base = if symbolic {
                Path::new(&link_path).parent().map(Path::to_path_buf)
            } else {
                cwd.map(Path::to_path_buf)
            };
            if let Some(t) = self.resolve(&target, base.as_deref()).lexical {
                if t != link_path && !self.links.contains(&(link_path.clone(), t.clone())) {
                    self.links.push((link_path, t));
                }
            }
        }
    }

    /// The git actions it performs on git's behalf (`npm version patch`: commit, tag),
    /// unless an option says it does not (`--no-git-tag-version`).
    fn git_actions(&mut self, inv: &Invocation, eff: &Effects, positional: &[&Word]) {
        if eff.git_actions.is_empty()
            || inv.args.iter().any(|a| {
                eff.git_actions_unless
                    .iter()
                    .any(|f| flag_matches(f, &a.text))
            })
        {
            return;
        }
        for entry in eff.git_actions.iter() {
            let Some((pattern, actions)) = entry.split_once(':') else {
                continue;
            };
            let want: Vec<&str> = pattern.split_whitespace().collect();
            let hit = want.len() <= positional.len()
                && want
                    .iter()
                    .zip(positional)
                    .all(|(w, p)| *w == "*" || *w == p.text);
            if !hit {
                continue;
            }
            for action in actions.split_whitespace() {
                let a = GitAction {
                    action: action.to_string(),
                    by: inv.display.clone(),
                };
                if !self.facts.git_actions.contains(&a) {
                    self.facts.git_actions.push(a);
                }
            }
        }
    }

    /// Whether a path is on the policy's protected list.
    fn is_protected(&self, w: &Word, cwd: Option<&Path>) -> bool {
        let path = self.resolve(w, cwd);
        self.policy()
            .paths
            .protected
            .iter()
            .any(|pat| paths::expand_pattern_all(pat, self.env.places).any(|p| path.matches(&p)))
    }

    /// `cp a b/`, `mv a ~/.ssh`, `cp -t DIR a`: what lands in the folder. Whether the
    /// target is a folder is not known, so both readings count.
    fn landing_in_folder(
        &mut self,
        inv: &Invocation,
        eff: &Effects,
        positional: &[&Word],
        write: AccessKind,
    ) {
        let cwd = inv.cwd.as_deref();
        let target_flag = inv.args.iter().enumerate().find_map(|(i, _)| {
            eff.write_flags
                .iter()
                .find_map(|f| table_flag_value(&inv.args, i, f, eff))
        });
        let (folder, sources) = match (&target_flag, positional.split_last()) {
            (Some(t), _) => (Some(t), positional),
            (None, Some((last, rest))) if !rest.is_empty() => (Some(*last), rest),
            _ => (None, &positional[..0]),
        };
        let Some(folder) = folder else {
            return;
        };
        for src in sources.iter().filter(|s| s.literal) {
            let name = src.text.trim_end_matches('/');
            let name = name.rsplit('/').next().unwrap_or(name);
            if name.is_empty() || name == "." || name == ".." {
                continue;
            }
            let w = Word {
                text: format!("{}/{name}", folder.text.trim_end_matches('/')),
                literal: folder.literal,
            };
            // Only where it matters: a file landing on a protected path. Elsewhere the
            // write to the target already counts.
            if self.is_protected(&w, cwd) {
                self.access(write, &w, cwd, &inv.name);
            }
        }
    }

    /// Files named by options and keys: `-o FILE`, `--exclude-from FILE`, `of=FILE`.
    fn flag_effects(&mut self, inv: &Invocation, eff: &Effects, write: AccessKind) {
        let cwd = inv.cwd.as_deref();
        for (i, a) in inv.args.iter().enumerate() {
            for k in &eff.read_keys {
                if let Some(v) = a.text.strip_prefix(k) {
                    let w = Word {
                        text: v.to_string(),
                        literal: a.literal,
                    };
                    self.access(AccessKind::Read, &w, cwd, &inv.name);
                }
            }
            for k in &eff.write_keys {
                if let Some(v) = a.text.strip_prefix(k) {
                    let w = Word {
                        text: v.to_string(),
                        literal: a.literal,
                    };
                    self.access(write, &w, cwd, &inv.name);
                }
            }
            // Only an option gives a path option's value (every option starts with `-` or
            // `+`): a plain word is not looked for in the lists.
            if !a.text.starts_with(['-', '+']) {
                continue;
            }
            // A whole option the table names (`-decode`, `-so`) is not a cluster of
            // one-letter options, whatever letters it holds.
            // Looked up once per word, not once per path option: the tables are long.
            // So is `-opt=VALUE` of such an option (`terraform -chdir=DIR`).
            let opt = a.text.split_once('=').map_or(a.text.as_str(), |(f, _)| f);
            let one_dash_long = opt.len() > 2 && !opt.starts_with("--") && opt != a.text;
            let named = (!eff.read_flags.is_empty() || !eff.write_flags.is_empty())
                && (eff.flags.contains(&a.text)
                    || eff.value_flags.contains(&a.text)
                    || (one_dash_long && eff.names_option(opt)));
            let whole = |f: &str| named && a.text != f && opt != f;
            for f in eff.read_flags.iter().filter(|f| !whole(f)) {
                if let Some(v) = table_flag_value(&inv.args, i, f, eff) {
                    self.access(AccessKind::Read, &v, cwd, &inv.name);
                }
            }
            for f in eff.list_flags.iter().filter(|f| !whole(f)) {
                if let Some(v) = table_flag_value(&inv.args, i, f, eff) {
                    self.access(AccessKind::Read, &v, cwd, &inv.name);
                    let listed = Word {
                        text: "$(…)".into(),
                        literal: false,
                    };
                    self.access(AccessKind::Read, &listed, cwd, &inv.name);
                }
            }
            for f in eff.write_flags.iter().filter(|f| !whole(f)) {
                if let Some(v) = table_flag_value(&inv.args, i, f, eff) {
                    self.access(write, &v, cwd, &inv.name);
                }
            }
        }
    }
}

/// Whether the first positional word is the mode or owner a `first_is` command takes, not
/// a file. Only where that is certain: another file follows it, no option of its table's
/// `reference_flags` (`--reference`) names a file to copy from, and for a mode, it has a
/// mode's shape and no option is a mode itself (`chmod -x 755 f` changes the files `755`
/// and `f`).
fn first_is_not_a_file(args: &[Word], positional: &[&Word], eff: &Effects) -> bool {
    let Some(first) = eff.first_is else {
        return false;
    };
    let Some(word) = positional.first().filter(|_| positional.len() > 1) else {
        return false;
    };
    let options: Vec<&str> = args
        .iter()
        .map(|a| a.text.as_str())
        .take_while(|t| *t != "--")
        .filter(|t| t.starts_with('-'))
        .collect();
    if references(&options, eff) || !word.literal {
        return false;
    }
    match first {
        FirstValue::Owner => true,
        FirstValue::Mode => is_mode(&word.text) && !options.iter().any(|o| is_mode(o)),
    }
}

/// Whether one of `options` is one of the table's `reference_flags`, which take what
/// `first_is` names from a file: a word that starts with one (`--reference=RFILE`).
fn references(options: &[&str], eff: &Effects) -> bool {
    options
        .iter()
        .any(|o| eff.reference_flags.iter().any(|f| o.starts_with(f)))
}

/// A chmod mode: octal (`755`), or symbolic clauses (`u+x`, `go-w`, `a=r,u+w`, `-x`).
fn is_mode(text: &str) -> bool {
    if !text.is_empty() && text.len() <= 4 && text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return true;
    }
    !text.is_empty()
        && text.split(',').all(|clause| {
            let ops = clause.trim_start_matches(['u', 'g', 'o', 'a']);
            ops.starts_with(['+', '-', '='])
                && ops
                    .split(['+', '-', '='])
                    .skip(1)
                    .all(|perms| perms.bytes().all(|b| b"rwxXstugo".contains(&b)))
        })
}

fn base_name(p: &str) -> &str {
    let p = p.trim_end_matches('/');
    p.rsplit('/').next().unwrap_or(p)
}

pub(super) fn select<'w>(pos: &[&'w Word], spec: Select) -> Vec<&'w Word> {
    match spec {
        Select::All => pos.to_vec(),
        Select::AfterFirst => pos.iter().skip(1).copied().collect(),
        Select::AfterFirstOrOnly if pos.len() == 1 => pos.to_vec(),
        Select::AfterFirstOrOnly => pos.iter().skip(1).copied().collect(),
        Select::AllButLast if pos.len() > 1 => pos[..pos.len() - 1].to_vec(),
        Select::Last if pos.len() > 1 => pos.last().copied().into_iter().collect(),
        Select::AllButLast | Select::Last => Vec::new(),
        Select::First => pos.first().copied().into_iter().collect(),
    }
}

/// The name a downloader saves a URL under: its path's last name, without the query and
/// the fragment (`https://x.example/a/i.sh?v=1` → `i.sh`); `index.html` for a folder.
fn url_file_name(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let path = rest.split(['?', '#']).next().unwrap_or("");
    let path = path.split_once('/').map_or("", |(_, p)| p);
    match path.rsplit('/').next().filter(|n| !n.is_empty()) {
        Some(n) if n != "." && n != ".." => Some(n.to_string()),
        Some(_) => None,
        None => Some("index.html".into()),
    }
}
