//! Hiding credentials in the text the audit log keeps, by their shapes: the credentials of
//! an `Authorization` header (or another credential header), a `Bearer` token, tokens with
//! a known issuer prefix (`ghp_…`, `sk-…`, `AKIA…`, JSON web tokens), private-key blocks,
//! the password in a URL (`https://user:pw@host`), and the value given to an option or a
//! variable whose name says it is one (`--password=…`, `API_KEY=…`, `--token X`).
//! A word is never hidden because of the word before it alone: `invalid basic string`
//! stays as it is. Runs on every logged call: plain scans, no regular expressions.

/// What replaces a credential.
const HIDDEN: &str = "***";

/// Hides the credentials in `text`.
pub fn redact(text: &str) -> String {
    // Most texts hold neither a key block nor a URL: those passes are skipped.
    let blocks = text.contains("-----BEGIN ");
    let urls = text.contains("://");
    match (blocks, urls) {
        (false, false) => words(text),
        (true, false) => words(&key_blocks(text)),
        (false, true) => words(&url_passwords(text)),
        (true, true) => words(&url_passwords(&key_blocks(text))),
    }
}

/// The shortest word a token of [`PREFIXES`] (or an AWS key id, or a JSON web token) can be.
const SHORTEST_TOKEN: usize = 14;

/// `-----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----`: the key between, up to
/// the end of the text when the end line is not in it.
fn key_blocks(text: &str) -> String {
    const BEGIN: &str = "-----BEGIN ";
    const TAIL: &str = "PRIVATE KEY-----";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(b) = rest.find(BEGIN) {
        let after = &rest[b..];
        let Some(head_end) = after
            .find(TAIL)
            .filter(|&t| !after[..t].contains('\n') && t < 80)
            .map(|t| t + TAIL.len())
        else {
            out.push_str(&rest[..b + BEGIN.len()]);
            rest = &rest[b + BEGIN.len()..];
            continue;
        };
        out.push_str(&rest[..b + head_end]);
        let body = &after[head_end..];
        match body.find("-----END ") {
            Some(e) => {
                out.push(' ');
                out.push_str(HIDDEN);
                out.push(' ');
                rest = &body[e..];
                // The end line itself is kept.
                let end = rest.find(TAIL).map_or(rest.len(), |t| t + TAIL.len());
                out.push_str(&rest[..end]);
                rest = &rest[end..];
            }
            None => {
                out.push(' ');
                out.push_str(HIDDEN);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// `scheme://user:password@host`: the password.
fn url_passwords(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let start = i + 3;
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let auth_end = after
            .find(|c: char| {
                c == '/' || c == '?' || c == '#' || c.is_whitespace() || "\"'`".contains(c)
            })
            .unwrap_or(after.len());
        let authority = &after[..auth_end];
        match (authority.rfind('@'), authority.find(':')) {
            (Some(at), Some(colon)) if colon < at && colon + 1 < at => {
                out.push_str(&authority[..=colon]);
                out.push_str(HIDDEN);
                out.push_str(&authority[at..]);
            }
            _ => out.push_str(authority),
        }
        rest = &after[auth_end..];
    }
    out.push_str(rest);
    out
}

/// The names (or parts of names) of options, variables and headers whose value is a
/// credential.
const SECRET_NAMES: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "token",
    "secret",
    "apikey",
    "credential",
    "credentials",
    "auth",
    "authorization",
    "bearer",
];

/// Parts that make a credential with a following `key`: `api_key`, `access-key`.
const KEY_QUALIFIERS: &[&str] = &["api", "access", "private", "secret", "signing", "master"];

/// Whether a name (`--api-key`, `GITHUB_TOKEN`, `Authorization`, `x-auth-token`) names a
/// credential: one of its parts is a credential's name.
fn secret_name(name: &str) -> bool {
    let name = name.trim_start_matches('-');
    if ["authorization", "proxy-authorization", "cookie"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
    {
        return true;
    }
    let parts = || {
        name.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|p| !p.is_empty())
    };
    let is = |p: &str, names: &[&str]| names.iter().any(|n| p.eq_ignore_ascii_case(n));
    if parts().any(|p| is(p, SECRET_NAMES)) {
        return true;
    }
    // A qualifier right before `key`: `api_key`, `access-key`.
    parts()
        .zip(parts().skip(1))
        .any(|(q, k)| is(q, KEY_QUALIFIERS) && k.eq_ignore_ascii_case("key"))
}

/// Token prefixes of credential issuers: the prefix, how many token characters must
/// follow it, and whether they must hold a digit.
const PREFIXES: &[(&str, usize, bool)] = &[
    ("ghp_", 16, false),
    ("gho_", 16, false),
    ("ghs_", 16, false),
    ("ghu_", 16, false),
    ("ghr_", 16, false),
    ("github_pat_", 16, false),
    ("glpat-", 16, false),
    ("xoxb-", 10, false),
    ("xoxp-", 10, false),
    ("xoxa-", 10, false),
    ("xoxs-", 10, false),
    ("npm_", 30, false),
    ("AIza", 30, false),
    ("ya29.", 20, false),
    ("sk-", 16, true),
    ("sk_live_", 16, false),
    ("rk_live_", 16, false),
];

fn token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_.+/=~".contains(c)
}

/// A word with the tokens of known issuers in it hidden (also inside `X=ghp_…` or a URL).
fn hide_tokens(word: &str, out_all: &mut String) {
    if word.len() < SHORTEST_TOKEN {
        out_all.push_str(word);
        return;
    }
    out_all.push_str(&tokens_hidden(word));
}

fn tokens_hidden(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let bytes = word.as_bytes();
    // `word[..copied]` is in `out`; the text between tokens is copied as it is.
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Only a word's start can begin a token, with the first letter of one (an ASCII
        // byte, so `i` is where a character starts).
        let boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if boundary && b"gxnAysreG".contains(&bytes[i]) {
            if let Some(len) = token_at(&word[i..]) {
                out.push_str(&word[copied..i]);
                out.push_str(HIDDEN);
                i += len;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&word[copied..]);
    out
}

/// The length of the token of a known issuer that `rest` starts with, if it does.
fn token_at(rest: &str) -> Option<usize> {
    let run = |from: usize| -> &str {
        let r = &rest[from..];
        &r[..r.find(|c: char| !token_char(c)).unwrap_or(r.len())]
    };
    PREFIXES
        .iter()
        .find_map(|(p, min, digit)| {
            if !rest.starts_with(p) {
                return None;
            }
            let t = run(p.len());
            (t.len() >= *min && (!digit || t.bytes().any(|b| b.is_ascii_digit())))
                .then_some(p.len() + t.len())
        })
        .or_else(|| {
            // AWS access key ids: AKIA or ASIA and 16 upper-case letters or digits.
            let aws = (rest.starts_with("AKIA") || rest.starts_with("ASIA"))
                && rest.len() >= 20
                && rest.as_bytes()[4..20]
                    .iter()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
            aws.then_some(20)
        })
        .or_else(|| {
            // JSON web tokens: base64url JSON header, payload and signature.
            if !rest.starts_with("eyJ") {
                return None;
            }
            let t = run(0);
            (t.len() >= 20 && t.matches('.').count() >= 2).then_some(t.len())
        })
}

/// Whether a word looks like a credential's value: long enough, of token characters, and
/// not a plain word (it has a digit or a symbol, or is long).
fn token_like(word: &str) -> bool {
    word.len() >= 6
        && word.chars().all(token_char)
        && (word.len() >= 24
            || word
                .bytes()
                .any(|b| b.is_ascii_digit() || b"-_.+/=~".contains(&b)))
}

/// The words of `text` (split at white space, kept as it was), each hidden where its shape
/// or the option or header it is the value of says it is a credential.
fn words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // What the previous words make of the next one.
    #[derive(PartialEq)]
    enum Next {
        Plain,
        /// The value of a credential header or option: hidden whatever it is.
        Value,
        /// After `Authorization:`: a scheme (`Bearer`, `Basic`), then the value.
        SchemeOrValue,
        /// After `Bearer`: hidden when it has a token's shape.
        Token,
        /// After `-u` / `--user` (curl, wget): the password after `user:`.
        UserPassword,
    }
    let mut next = Next::Plain;
    let mut start = 0;
    let pieces = text
        .char_indices()
        .filter(|(_, c)| c.is_whitespace())
        .map(|(i, c)| (i, i + c.len_utf8()))
        .chain(std::iter::once((text.len(), text.len())));
    for (ws, ws_end) in pieces {
        let tok = &text[start..ws];
        let sep = &text[ws..ws_end];
        start = ws_end;
        if tok.is_empty() {
            out.push_str(sep);
            continue;
        }
        // Quotes around a word (or a header in quotes: `'Authorization: Bearer x'`).
        let lead = tok.len() - tok.trim_start_matches(['"', '\'']).len();
        let bare = tok.trim_matches(|c| c == '"' || c == '\'');
        let tail = &tok[lead + bare.len()..];
        let state = std::mem::replace(&mut next, Next::Plain);
        match state {
            Next::Value if !bare.is_empty() => {
                out.push_str(&tok[..lead]);
                out.push_str(HIDDEN);
                out.push_str(tail);
                out.push_str(sep);
                continue;
            }
            Next::SchemeOrValue
                if ["bearer", "basic", "token", "digest", "bot"]
                    .iter()
                    .any(|s| bare.eq_ignore_ascii_case(s)) =>
            {
                next = Next::Value;
                out.push_str(tok);
                out.push_str(sep);
                continue;
            }
            Next::SchemeOrValue => {
                out.push_str(&tok[..lead]);
                out.push_str(HIDDEN);
                out.push_str(tail);
                out.push_str(sep);
                continue;
            }
            Next::Token if token_like(bare) => {
                out.push_str(&tok[..lead]);
                out.push_str(HIDDEN);
                out.push_str(tail);
                out.push_str(sep);
                continue;
            }
            Next::UserPassword => {
                if let Some((user, _)) = bare.split_once(':').filter(|(_, p)| !p.is_empty()) {
                    out.push_str(&tok[..lead]);
                    out.push_str(user);
                    out.push(':');
                    out.push_str(HIDDEN);
                    out.push_str(tail);
                    out.push_str(sep);
                    continue;
                }
            }
            _ => {}
        }
        // A header `Name:` whose value follows as the next word.
        if let Some(name) = bare.strip_suffix(':') {
            if secret_name(name) {
                let auth = "authorization:";
                let ends_auth = bare.len() >= auth.len()
                    && bare.as_bytes()[bare.len() - auth.len()..]
                        .eq_ignore_ascii_case(auth.as_bytes());
                next = if ends_auth {
                    Next::SchemeOrValue
                } else {
                    Next::Value
                };
            }
            out.push_str(tok);
            out.push_str(sep);
            continue;
        }
        if bare.starts_with('-') && !bare.contains('=') {
            if secret_name(bare) {
                next = Next::Value;
            } else if bare == "-u" || bare == "--user" || bare == "--proxy-user" {
                next = Next::UserPassword;
            }
            out.push_str(tok);
            out.push_str(sep);
            continue;
        }
        if bare
            .rsplit(|c: char| !c.is_ascii_alphanumeric())
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("bearer"))
        {
            next = Next::Token;
            out.push_str(tok);
            out.push_str(sep);
            continue;
        }
        // `NAME=value`, `--name=value`, `"name":"value"`.
        if let Some((k, v)) = bare.split_once('=').or_else(|| {
            bare.split_once("\":")
                .or_else(|| bare.split_once(':').filter(|(k, _)| !k.contains('/')))
        }) {
            let k = k.trim_matches(|c| c == '"' || c == '{' || c == ',');
            let quotes = |c| c == '"' || c == '\'' || c == '}' || c == ',';
            let v_trim = v.trim_matches(quotes);
            if !v_trim.is_empty() && secret_name(k) {
                // The value's own quotes and closing brackets stay.
                let v_lead = v.len() - v.trim_start_matches(quotes).len();
                let v_tail = &v[v.trim_end_matches(quotes).len()..];
                out.push_str(&tok[..lead + bare.len() - v.len() + v_lead]);
                out.push_str(HIDDEN);
                out.push_str(v_tail);
                out.push_str(tail);
                out.push_str(sep);
                continue;
            }
        }
        hide_tokens(tok, &mut out);
        out.push_str(sep);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::redact;

    /// Credentials are hidden by their shapes. One case per line: `(text, logged as)`.
    #[test]
    #[rustfmt::skip]
    fn credentials_are_hidden() {
        let cases: &[(&str, &str)] = &[
            ("curl -H 'Authorization: Bearer abc123' x", "curl -H 'Authorization: Bearer ***' x"),
            ("curl -H \"Authorization: Basic dXNlcjpwdw==\" x", "curl -H \"Authorization: Basic ***\" x"),
            ("curl -H 'Authorization: abcdef' x", "curl -H 'Authorization: ***' x"),
            ("curl -H 'X-Api-Key: k1k2k3' x", "curl -H 'X-Api-Key: ***' x"),
            ("curl -H 'PRIVATE-TOKEN: glp' x", "curl -H 'PRIVATE-TOKEN: ***' x"),
            ("curl --oauth2-bearer tok3n x", "curl --oauth2-bearer *** x"),
            ("wget --header='Bearer eyJ0eXAi.x1' x", "wget --header='Bearer ***' x"),
            ("export API_KEY=abcdef", "export API_KEY=***"),
            ("export GITHUB_TOKEN=whatever", "export GITHUB_TOKEN=***"),
            ("mysql --password=hunter2 db", "mysql --password=*** db"),
            ("mysql --password hunter2 db", "mysql --password *** db"),
            ("vault login -token s.abc", "vault login -token ***"),
            ("curl -u bob:hunter2 x", "curl -u bob:*** x"),
            ("echo ghp_abcdefghijklmnop1234", "echo ***"),
            // The shortest token a prefix takes: a word of 15 characters.
            ("echo xoxb-1234567890", "echo ***"),
            ("git clone https://ghp_abcdefghijklmnop1234@github.com/o/r", "git clone https://***@github.com/o/r"),
            ("git clone https://bob:hunter2@example.com/r.git", "git clone https://bob:***@example.com/r.git"),
            ("psql postgres://app:s3cr3t@db:5432/x", "psql postgres://app:***@db:5432/x"),
            ("OPENAI=sk-proj-abcdef123456ghijkl run", "OPENAI=*** run"),
            ("aws AKIAIOSFODNN7EXAMPLE x", "aws *** x"),
            ("x eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature", "x ***"),
            ("printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----' > k",
             "printf '-----BEGIN RSA PRIVATE KEY----- *** -----END RSA PRIVATE KEY-----' > k"),
            ("echo '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk", "echo '-----BEGIN OPENSSH PRIVATE KEY----- ***"),
            ("{\"password\":\"hunter2\"}", "{\"password\":\"***\"}"),
        ];
        for (input, want) in cases {
            assert_eq!(redact(input), *want, "{input}");
        }
    }

    /// Ordinary words stay, also next to the words credentials come with.
    #[test]
    #[rustfmt::skip]
    fn ordinary_words_survive() {
        let cases: &[&str] = &[
            "ls -la",
            "invalid basic string",
            "a reason containing invalid basic string",
            "basic auth is disabled",
            "the token was rejected",
            "Bearer tokens expire",
            "git log --author=bob",
            "git log --session=abc",
            "cat /etc/passwd",
            "cat passwords.txt",
            "pip install sk-learn scikit-learn",
            "npm install sk-dashboard-components",
            "echo AKIA is a prefix",
            "grep -r token src/",
            "export PWD_DIR=/x",
            "cargo test --test auth_flow",
            "git clone https://github.com/o/r.git",
            "curl http://localhost:8080/x",
            "echo keyboard=qwerty",
            "task-runner --skip-checks",
            "-----BEGIN CERTIFICATE-----",
        ];
        for input in cases {
            assert_eq!(redact(input), *input);
        }
    }

    /// Every start and every end of a text of credentials (cut at each character)
    /// redacts without a panic.
    #[test]
    fn any_cut_of_the_cases_redacts() {
        let text = "curl -H 'Authorization: Bearer abc123' -u bob:pw https://a:b@h/x ghp_abcdefghijklmnop1234 AKIAIOSFODNN7EXAMPLE eyJa.eyJb.cccccccccccccccc sk-proj-abcdef123456ghijkl \"password\":\"x\" -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- é∂ --token";
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        for &i in &bounds {
            let _ = redact(&text[..i]);
            let _ = redact(&text[i..]);
        }
    }
}
