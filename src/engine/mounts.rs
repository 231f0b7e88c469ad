//! The host paths a container command mounts: the source of every `-v SRC:DST[:OPTS]`
//! (also in a cluster, `-itv SRC:DST`, `-vSRC:DST`, `-v=SRC:DST`), `--volume SRC:DST`,
//! `--volume=SRC:DST` and `--mount …,source=SRC,…` (`src=`, `--mount=…`), as `docker`,
//! `podman` and `nerdctl` read them for `run` and `create`.
//!
//! Only the words are read here; the classifier resolves each source as a path and judges
//! it by the rules' `mount_source`. A named volume (`myvol:/data`) and an anonymous one
//! (`-v /data`) have no host path and are left out. Every argument is read, the container's
//! own command after the image included: a mount spelled there is taken as one, which can
//! only make the verdict stricter.

use super::shell::Word;

/// The one-letter options of `run` and `create` that take a value: in a cluster, the
/// letters after one of them are its value, not options (`-ev` sets the variable `v`).
const SHORT_VALUE_OPTIONS: &[u8] = b"acehlmpuvw";

/// The source of every mount in `args`, as written (a word of the shell, so `$HOME` and
/// `~` are still to be resolved), in order.
pub fn mount_sources(args: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let (value, consumed) = mount_option(args, i);
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

/// The mount argument `i` gives, if it is one, and how many words it takes.
fn mount_option(args: &[Word], i: usize) -> (Option<(Kind, Word)>, usize) {
    let a = &args[i];
    let next = || args.get(i + 1).cloned();
    let with = |text: &str| Word {
        text: text.to_string(),
        literal: a.literal,
    };
    for (name, kind) in [("--volume", Kind::Volume), ("--mount", Kind::Mount)] {
        if a.text == name {
            return (next().map(|w| (kind, w)), 2);
        }
        if let Some(v) = a.text.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
            return (Some((kind, with(v))), 1);
        }
    }
    let Some(cluster) = a.text.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return (None, 1);
    };
    for (at, letter) in cluster.bytes().enumerate() {
        if !letter.is_ascii_alphabetic() {
            break;
        }
        if letter == b'v' {
            let rest = &cluster[at + 1..];
            let rest = rest.strip_prefix('=').unwrap_or(rest);
            return if rest.is_empty() {
                (next().map(|w| (Kind::Volume, w)), 2)
            } else {
                (Some((Kind::Volume, with(rest))), 1)
            };
        }
        if SHORT_VALUE_OPTIONS.contains(&letter) {
            break;
        }
    }
    (None, 1)
}

/// The host path of `SRC:DST[:OPTS]`: the text before the first `:` outside `${…}`, unless
/// it names a volume, or there is no `:` (an anonymous volume at DST).
fn volume_source(spec: &Word) -> Option<Word> {
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
    host_path(spec, &spec.text[..end?])
}

/// The host path of `--mount`'s comma-separated fields: the value of `source=` or `src=`.
fn mount_fields_source(spec: &Word) -> Option<Word> {
    spec.text
        .split(',')
        .map(|field| field.trim_matches('"'))
        .find_map(|field| {
            field
                .strip_prefix("source=")
                .or_else(|| field.strip_prefix("src="))
        })
        .and_then(|source| host_path(spec, source))
}

/// `source` as a word of its own when it is a host path: anything but empty text or a
/// volume's name (a letter or digit, then letters, digits, `_`, `.` and `-`).
fn host_path(spec: &Word, source: &str) -> Option<Word> {
    let mut chars = source.chars();
    let is_volume_name = chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    (!source.is_empty() && !is_volume_name).then(|| Word {
        text: source.to_string(),
        literal: spec.literal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
                .map(|w| w.text)
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
            [Word {
                text: "$HOME/.ssh".to_string(),
                literal: false
            }]
        );
    }
}
