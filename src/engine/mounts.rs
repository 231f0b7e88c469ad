//! The host paths a container command mounts: the source of every `-v SRC:DST[:OPTS]`
//! (also in a cluster, `-itv SRC:DST`, `-vSRC:DST`, `-v=SRC:DST`), `--volume SRC:DST`,
//! `--volume=SRC:DST` and `--mount …,source=SRC,…` (`src=`, `--mount=…`), as `docker`,
//! `podman` and `nerdctl` read them for `run` and `create`.
//!
//! Only the words are read here, with the subcommand's table (`[commands."docker run"]` in
//! the policy): its `volume_flags` and `mount_flags` say which options give a mount, and its
//! arity which letters of a cluster take a value (the letters after one are its value, not
//! options, so `-ev` sets the variable `v`); the classifier resolves each source
//! as a path and judges it by the rules' `mount_source`. A named volume (`myvol:/data`) and an anonymous one
//! (`-v /data`) have no host path and are left out. Every argument is read, the container's
//! own command after the image included: a mount spelled there is taken as one, which can
//! only make the verdict stricter.

use super::policy::Effects;
use super::shell::Word;

/// One host path a container command mounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// The source as written (a word of the shell, so `$HOME` and `~` are still to be
    /// resolved).
    pub source: Word,
    /// Whether the container may write there: no `ro`/`readonly` option.
    pub writable: bool,
}

/// Every mount of a host path in `args`, in order, read with the arity of the table `eff`
/// of `run` and `create`. The `ro` of `SRC:DST:ro` (or `readonly` in `--mount`) makes it
/// read-only.
pub fn mount_sources(args: &[Word], eff: &Effects) -> Vec<Mount> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let (value, consumed) = mount_option(args, i, eff);
        if let Some((kind, spec)) = value {
            out.extend(match kind {
                Kind::Volume => volume_source(&spec),
                Kind::Mount => mount_fields_source(&spec),
            });
        }
        i += consumed;
    }
    out
}

/// Which of the two spellings a mount is given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `SRC:DST[:OPTS]`
    Volume,
    /// `type=bind,source=SRC,target=DST`
    Mount,
}

/// The mount argument `i` gives, if it is one, and how many words it takes: a long option
/// of the table's `volume_flags` or `mount_flags` with its value in the next word or after
/// `=`, or in a cluster of one-letter options a letter of `volume_flags` after letters that
/// take no value, its value the rest of the word (after an optional `=`) or the next word.
fn mount_option(args: &[Word], i: usize, eff: &Effects) -> (Option<(Kind, Word)>, usize) {
    let a = &args[i];
    let next = || args.get(i + 1).cloned();
    let with = |text: &str| Word {
        text: text.to_string(),
        literal: a.literal,
    };
    let long = |o: &&str| o.starts_with("--");
    let lists = [
        (&eff.volume_flags, Kind::Volume),
        (&eff.mount_flags, Kind::Mount),
    ];
    for (list, kind) in lists {
        for name in list.iter().filter(long) {
            if a.text == name {
                return (next().map(|w| (kind, w)), 2);
            }
            if let Some(v) = a.text.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                return (Some((kind, with(v))), 1);
            }
        }
    }
    let Some(cluster) = a.text.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return (None, 1);
    };
    for (at, letter) in cluster.char_indices() {
        if !letter.is_ascii_alphabetic() {
            break;
        }
        let flag = format!("-{letter}");
        let kind = lists
            .iter()
            .find(|(list, _)| list.contains(&flag))
            .map(|&(_, kind)| kind);
        if let Some(kind) = kind {
            let rest = &cluster[at + 1..];
            let rest = rest.strip_prefix('=').unwrap_or(rest);
            return if rest.is_empty() {
                (next().map(|w| (kind, w)), 2)
            } else {
                (Some((kind, with(rest))), 1)
            };
        }
        if eff.takes_value(&flag) {
            break;
        }
    }
    (None, 1)
}

/// The host path of `SRC:DST[:OPTS]`: the text before the first `:` outside `${…}`, unless
/// it names a volume, or there is no `:` (an anonymous volume at DST). It is read-only
/// when OPTS (comma-separated) hold `ro` or `readonly`.
fn volume_source(spec: &Word) -> Option<Mount> {
    let mut depth = 0usize;
    let mut prev = '\0';
    let mut end = None;
    for (at, c) in spec.text.char_indices() {
        match c {
            '{' if prev == '$' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            ':' if depth == 0 => {
                end = Some(at);
                break;
            }
            _ => {}
        }
        prev = c;
    }
    let end = end?;
    let options = spec.text[end + 1..].split_once(':').map_or("", |(_, o)| o);
    let read_only = options.split(',').any(|o| o == "ro" || o == "readonly");
    host_path(spec, &spec.text[..end], !read_only)
}

/// The host path of `--mount`'s comma-separated fields: the value of `source=` or `src=`;
/// read-only with a field `readonly` or `ro` (alone, or `=true`/`=1`).
fn mount_fields_source(spec: &Word) -> Option<Mount> {
    let fields = || spec.text.split(',').map(|field| field.trim_matches('"'));
    let read_only = fields().any(|field| {
        let (name, value) = field.split_once('=').unwrap_or((field, "true"));
        (name == "readonly" || name == "ro") && (value == "true" || value == "1")
    });
    fields()
        .find_map(|field| {
            field
                .strip_prefix("source=")
                .or_else(|| field.strip_prefix("src="))
        })
        .and_then(|source| host_path(spec, source, !read_only))
}

/// `source` as a word of its own when it is a host path: anything but empty text or a
/// volume's name (a letter or digit, then letters, digits, `_`, `.` and `-`).
fn host_path(spec: &Word, source: &str, writable: bool) -> Option<Mount> {
    let mut chars = source.chars();
    let is_volume_name = chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    (!source.is_empty() && !is_volume_name).then(|| Mount {
        source: Word {
            text: source.to_string(),
            literal: spec.literal,
        },
        writable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-letter options of `docker run` that take a value, as its table has them.
    fn run_table() -> Effects {
        Effects {
            value_flags: ["-a", "-c", "-e", "-h", "-l", "-m", "-p", "-u", "-v", "-w"]
                .into_iter()
                .collect(),
            volume_flags: ["-v", "--volume"].into_iter().collect(),
            mount_flags: ["--mount"].into_iter().collect(),
            ..Effects::default()
        }
    }

    fn mount_sources(args: &[Word]) -> Vec<Mount> {
        super::mount_sources(args, &run_table())
    }

    fn words(line: &str) -> Vec<Word> {
        line.split(' ')
            .map(|t| Word {
                text: t.to_string(),
                literal: !t.contains('$'),
            })
            .collect()
    }

    #[test]
    fn reads_every_spelling_of_a_mount() {
        let cases: &[(&str, &[&str])] = &[
            ("run -v /:/h img", &["/"]),
            ("run --volume /etc:/e:ro img", &["/etc"]),
            ("run --volume=/etc:/e img", &["/etc"]),
            ("run -itv /:/h img", &["/"]),
            ("run -v/:/h img", &["/"]),
            ("run -v=/:/h img", &["/"]),
            ("run -itv=~:/h img", &["~"]),
            ("run -dv/var:/v img", &["/var"]),
            (
                "run --rm -v ~/.ssh:/k -v ./data:/d img",
                &["~/.ssh", "./data"],
            ),
            ("run -v ${HOME:-/}:/h img", &["${HOME:-/}"]),
            ("run -v $HOME/../..:/x img", &["$HOME/../.."]),
            ("run --mount type=bind,source=/,target=/h img", &["/"]),
            ("run --mount=type=bind,src=$HOME,dst=/h img", &["$HOME"]),
            ("run --mount target=/e,\"source=/etc\" img", &["/etc"]),
            ("run -v myvol:/data img", &[]),
            ("run -v my-vol_1.x:/data img", &[]),
            ("run --mount type=volume,source=data,target=/d img", &[]),
            ("run --mount type=tmpfs,target=/t img", &[]),
            ("run -v /data img", &[]),
            ("run -v", &[]),
            ("run -ev /:/h img", &[]),
            ("run -w /app img", &[]),
            ("run --volumes-from web img", &[]),
            ("run --volume-driver local img", &[]),
            ("run -v --rm img", &[]),
        ];
        for (line, want) in cases {
            let got: Vec<String> = mount_sources(&words(line))
                .into_iter()
                .map(|m| m.source.text)
                .collect();
            assert_eq!(got, *want, "{line}");
        }
    }

    #[test]
    fn a_source_keeps_the_quoting_of_its_word() {
        let spec = Word {
            text: "$HOME/.ssh:/k".to_string(),
            literal: false,
        };
        let got = mount_sources(&[
            Word {
                text: "-v".to_string(),
                literal: true,
            },
            spec,
        ]);
        assert_eq!(
            got,
            [Mount {
                source: Word {
                    text: "$HOME/.ssh".to_string(),
                    literal: false
                },
                writable: true,
            }]
        );
    }

    #[test]
    fn a_mount_is_writable_unless_an_option_says_read_only() {
        let cases: &[(&str, bool)] = &[
            ("run -v /etc:/e img", true),
            ("run -v /etc:/e:ro img", false),
            ("run -v /etc:/e:Z,ro img", false),
            ("run -v /etc:/e:readonly img", false),
            ("run -v /etc:/e:rw img", true),
            ("run -v /etc:/e:z img", true),
            ("run --mount type=bind,src=/etc,dst=/e img", true),
            ("run --mount type=bind,src=/etc,dst=/e,readonly img", false),
            ("run --mount type=bind,src=/etc,dst=/e,ro=true img", false),
            (
                "run --mount type=bind,src=/etc,dst=/e,readonly=1 img",
                false,
            ),
            (
                "run --mount type=bind,src=/etc,dst=/e,readonly=false img",
                true,
            ),
        ];
        for (line, writable) in cases {
            let got: Vec<bool> = mount_sources(&words(line))
                .iter()
                .map(|m| m.writable)
                .collect();
            assert_eq!(got, [*writable], "{line}");
        }
    }
}
