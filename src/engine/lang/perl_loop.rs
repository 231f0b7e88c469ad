//! Perl one-liners that only print or edit the line they read: `perl -ne 'print if /x/'`.
//!
//! Perl has no grammar here (see [`super::lexical`]), so its code is opaque, except for the
//! bodies of the `-n`/`-p` loop that this reader takes in full: statements that print,
//! match, substitute or transliterate `$_`, skip a line or stop, under conditions made of
//! regexes and line numbers. Anything else — a name it does not know, a variable other
//! than the match and line ones, `@` interpolation, code inside a regex (`(?{…})`), the
//! `e` flag that runs a replacement as code — makes the whole snippet opaque again.

/// Whether `src` is such a loop body: it then reads its input and prints, nothing more.
pub fn is_print_loop(src: &str) -> bool {
    let mut p = Parser {
        s: src.as_bytes(),
        at: 0,
    };
    let mut any = false;
    loop {
        p.ws();
        if p.done() {
            return any;
        }
        if p.eat(b";") {
            continue;
        }
        if !p.statement() {
            return false;
        }
        any = true;
        p.ws();
        if !(p.done() || p.eat(b";")) {
            return false;
        }
    }
}

struct Parser<'s> {
    s: &'s [u8],
    at: usize,
}

impl Parser<'_> {
    fn done(&self) -> bool {
        self.at >= self.s.len()
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, t: &[u8]) -> bool {
        if self.s[self.at..].starts_with(t) {
            self.at += t.len();
            true
        } else {
            false
        }
    }

    /// A keyword: `t` not followed by a letter, digit or `_`.
    fn keyword(&mut self, t: &str) -> bool {
        let end = self.at + t.len();
        let follows = self
            .s
            .get(end)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
        if self.s[self.at..].starts_with(t.as_bytes()) && !follows {
            self.at = end;
            true
        } else {
            false
        }
    }

    /// `print …`, `COND and print …`, `next|last if COND`, `s///`, `tr///`, `chomp`, each
    /// with an optional `if`/`unless` modifier.
    fn statement(&mut self) -> bool {
        let start = self.at;
        let simple = self.action();
        if !simple {
            // `COND and ACTION`, `COND && ACTION`, `COND or ACTION`.
            self.at = start;
            if !self.condition() {
                return false;
            }
            self.ws();
            if !(self.keyword("and") || self.eat(b"&&") || self.keyword("or") || self.eat(b"||")) {
                return false;
            }
            self.ws();
            return self.action();
        }
        self.ws();
        if self.keyword("if") || self.keyword("unless") {
            self.ws();
            return self.condition();
        }
        true
    }

    fn action(&mut self) -> bool {
        if self.keyword("print") || self.keyword("say") {
            self.ws();
            return self.print_args();
        }
        if self.keyword("next") || self.keyword("last") || self.keyword("chomp") {
            return true;
        }
        if self.substitution() || self.transliteration() {
            return true;
        }
        false
    }

    /// Nothing, or a comma list of printable values.
    fn print_args(&mut self) -> bool {
        let start = self.at;
        if !self.value() {
            self.at = start;
            return true;
        }
        loop {
            self.ws();
            let before = self.at;
            if !self.eat(b",") && !self.eat(b".") {
                self.at = before;
                return true;
            }
            self.ws();
            if !self.value() {
                return false;
            }
        }
    }

    /// `$_`, `$1`…, `$&`, `$.`, `$F[N]`, a number, or a quoted string.
    fn value(&mut self) -> bool {
        match self.peek() {
            Some(b'$') => self.variable(),
            Some(b'"') => self.quoted(Sigils::Interpolated),
            Some(b'\'') => self.quoted(Sigils::Plain),
            Some(c) if c.is_ascii_digit() => self.number(),
            _ => false,
        }
    }

    fn number(&mut self) -> bool {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.at > start
    }

    /// A variable that holds the line, a match or the line number.
    fn variable(&mut self) -> bool {
        if !self.eat(b"$") {
            return false;
        }
        if self.eat(b"_") || self.eat(b"&") || self.eat(b".") {
            return true;
        }
        if self.eat(b"F[") {
            self.eat(b"-");
            return self.number() && self.eat(b"]");
        }
        if self.eat(b"{") {
            return self.number() && self.eat(b"}");
        }
        self.number()
    }

    /// A string in the quotes it starts with: `"…"`, whose `$` must be a variable of
    /// [`Parser::variable`] and which may hold no `@`, or `'…'`.
    fn quoted(&mut self, sigils: Sigils) -> bool {
        let Some(quote) = self.peek() else {
            return false;
        };
        self.at += 1;
        self.until(quote, sigils)
    }

    /// Terms joined by `&&`, `||`, `and`, `or`.
    fn condition(&mut self) -> bool {
        loop {
            self.ws();
            if !self.term() {
                return false;
            }
            self.ws();
            let before = self.at;
            let joined = self.eat(b"&&") || self.eat(b"||") || {
                let start = self.at;
                let k = self.keyword("and") || self.keyword("or");
                // `COND and print`: the action, not another term.
                self.ws();
                if k && (self.s[self.at..].starts_with(b"print")
                    || self.s[self.at..].starts_with(b"say"))
                {
                    self.at = start;
                    false
                } else {
                    k
                }
            };
            if !joined {
                self.at = before;
                return true;
            }
        }
    }

    /// `!TERM`, a regex (`/…/`, `m…`), `$_ =~ REGEX`, or `VALUE OP VALUE` (line numbers).
    fn term(&mut self) -> bool {
        if self.eat(b"!") {
            self.ws();
            return self.term();
        }
        if self.regex() {
            return true;
        }
        if !self.value() {
            return false;
        }
        self.ws();
        if self.eat(b"=~") || self.eat(b"!~") {
            self.ws();
            return self.regex();
        }
        const OPS: &[&[u8]] = &[b"==", b"!=", b"<=", b">=", b"<", b">"];
        if OPS.iter().any(|op| self.eat(op)) {
            self.ws();
            return self.value();
        }
        for op in ["eq", "ne", "lt", "gt", "le", "ge"] {
            if self.keyword(op) {
                self.ws();
                return self.value();
            }
        }
        false
    }

    /// `/RE/flags` or `m<d>RE<d>flags`.
    fn regex(&mut self) -> bool {
        let start = self.at;
        let delim = if self.eat(b"/") {
            b'/'
        } else if self.keyword_delim(b"m") {
            self.s[self.at - 1]
        } else {
            return false;
        };
        if !self.until(closing(delim), Sigils::Regex) || !self.flags(b"imsxgcn") {
            self.at = start;
            return false;
        }
        true
    }

    /// `s<d>RE<d>REPLACEMENT<d>flags` (no `e`: the replacement stays text).
    fn substitution(&mut self) -> bool {
        let start = self.at;
        if !self.keyword_delim(b"s") {
            return false;
        }
        let open = self.s[self.at - 1];
        let close = closing(open);
        let ok = self.until(close, Sigils::Regex)
            && {
                if close != open {
                    // `s{a}{b}`
                    self.ws();
                    self.peek() == Some(open) && {
                        self.at += 1;
                        true
                    }
                } else {
                    true
                }
            }
            && self.until(close, Sigils::Interpolated)
            && self.flags(b"imsxgr");
        if !ok {
            self.at = start;
        }
        ok
    }

    /// `tr<d>A<d>B<d>flags`, `y<d>A<d>B<d>flags`.
    fn transliteration(&mut self) -> bool {
        let start = self.at;
        if !(self.keyword_delim(b"tr") || self.keyword_delim(b"y")) {
            return false;
        }
        let d = self.s[self.at - 1];
        if d != b'/' {
            self.at = start;
            return false;
        }
        let ok = self.until(b'/', Sigils::Refused)
            && self.until(b'/', Sigils::Refused)
            && self.flags(b"cdsr");
        if !ok {
            self.at = start;
        }
        ok
    }

    /// The word `k` followed by a delimiter (which is consumed).
    fn keyword_delim(&mut self, k: &[u8]) -> bool {
        if self.s[self.at..].starts_with(k)
            && self
                .s
                .get(self.at + k.len())
                .is_some_and(|c| b"/{!#|".contains(c))
        {
            self.at += k.len() + 1;
            true
        } else {
            false
        }
    }

    /// Text up to `close` (which is consumed), its `$` and `@` read as `sigils` says.
    fn until(&mut self, close: u8, sigils: Sigils) -> bool {
        while let Some(c) = self.peek() {
            match c {
                _ if c == close => {
                    self.at += 1;
                    return true;
                }
                b'\\' => self.at += 2,
                b'$' | b'@' if sigils == Sigils::Plain => self.at += 1,
                b'@' => return false,
                b'$' => match sigils {
                    Sigils::Interpolated => {
                        if !self.variable() {
                            return false;
                        }
                    }
                    Sigils::Regex => {
                        let next = self.s.get(self.at + 1).copied();
                        if !next.is_none_or(|n| n == close || b")|".contains(&n)) {
                            return false;
                        }
                        self.at += 1;
                    }
                    Sigils::Plain | Sigils::Refused => return false,
                },
                b'(' if sigils == Sigils::Regex
                    && (self.s[self.at..].starts_with(b"(?{")
                        || self.s[self.at..].starts_with(b"(??{")
                        || self.s[self.at..].starts_with(b"(*{")) =>
                {
                    return false
                }
                _ => self.at += 1,
            }
        }
        false
    }

    fn flags(&mut self, allowed: &[u8]) -> bool {
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            if !allowed.contains(&self.s[self.at]) {
                return false;
            }
            self.at += 1;
        }
        true
    }
}

/// What a `$` or an `@` may be in the text of a string, a regex or a replacement.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sigils {
    /// Plain characters (`'…'`).
    Plain,
    /// `$` a variable of [`Parser::variable`], no `@` (`"…"`, a replacement).
    Interpolated,
    /// `$` only as an anchor, no `@`, and no code (`(?{…})`, `(??{…})`, `(*{…})`): a regex.
    Regex,
    /// Neither (the two lists of `tr///`).
    Refused,
}

/// The closing delimiter of a bracketing one.
fn closing(open: u8) -> u8 {
    match open {
        b'{' => b'}',
        b'(' => b')',
        b'[' => b']',
        b'<' => b'>',
        d => d,
    }
}

#[cfg(test)]
mod tests {
    use super::is_print_loop;

    #[test]
    #[rustfmt::skip]
    fn print_loops_are_read_and_the_rest_is_not() {
        for ok in [
            "print if /x/", "print unless /^#/", "print if /foo/i", "/x/ and print",
            "print $1 if /name=(\\w+)/", "print \"$.: $_\" if /TODO/", "s/foo/bar/g",
            "s{a}{b}g", "tr/a-z/A-Z/", "print if $. <= 10", "next unless /x/; print",
            "print $F[0]", "print $F[-1] if $F[2] > 100", "print if m{^src/}", "chomp; print",
            "print if /a/ && !/b/", "print if $_ =~ /x/", "y/ab/cd/", "last if /END/; print",
            "s/(\\d+)/<$1>/g", "print \"hi\"", "print $1 . \"\\n\" if /(x)/",
        ] {
            assert!(is_print_loop(ok), "{ok}");
        }
        for bad in [
            "", "system 'ls'", "print `ls`", "s/x/`ls`/e", "s/x/y/e", "print if /(?{ system 1 })/",
            "print if /(??{ x })/", "print @ARGV", "print \"@ENV\"", "print $ENV{HOME}",
            "print if /$ENV{X}/", "open F, '>x'; print F 1", "unlink 'a'", "print STDERR $_",
            "print if /x/; system 'ls'", "$x = 1", "print for glob '*'", "s/x/$ENV{HOME}/",
            "print if /x/ or die", "exec 'ls'", "print qx(ls)", "print <STDIN>", "tr/a/$x/",
            "print \"${\\ `id`}\"", "print \"@{[ `id` ]}\"", "print \"$1\\n\" while /x/",
            "print \"\\", "print if /\\", "s/x/\\", "tr/a/\\", "print 'x", "s{a}{b",
        ] {
            assert!(!is_print_loop(bad), "{bad}");
        }
    }
}
