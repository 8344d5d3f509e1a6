//! Hub's line syntax: `command arg=value arg="quoted value" flag ...`.
//! Values with a space, `=` or nothing in them are quoted; a flag has no
//! value. Unknown commands and arguments are ignored by both sides (the
//! protocol's rule), so a reader only looks up what it knows.

use std::fmt::Write as _;

/// One Hub line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    /// Arguments in order; a flag's value is None.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    pub fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// Adds `name=value`.
    pub fn arg(mut self, name: &str, value: impl ToString) -> Line {
        self.args.push((name.to_string(), Some(value.to_string())));
        self
    }

    /// Adds a flag.
    pub fn flag(mut self, name: &str) -> Line {
        self.args.push((name.to_string(), None));
        self
    }

    /// The value of `name` (None if absent; a flag's value is "").
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(k, _)| k == name)
    }

    /// Reads a line; the error says what is malformed.
    pub fn parse(text: &str) -> Result<Line, String> {
        let mut words = Words {
            chars: text.trim().chars().collect(),
            at: 0,
        };
        let command = words.token(false)?.unwrap_or_default();
        if command.is_empty() {
            return Err("an empty line".into());
        }
        let mut line = Line::new(&command);
        while let Some(name) = words.token(true)? {
            if name.is_empty() {
                return Err(format!("{text:?}: an argument without a name"));
            }
            let value = if words.peek() == Some('=') {
                words.at += 1;
                Some(words.value()?)
            } else {
                None
            };
            line.args.push((name, value));
        }
        Ok(line)
    }
}

/// Quotes a value when the syntax needs it.
fn quoted(v: &str) -> String {
    if v.is_empty() || v.contains(['=', '"']) || v.contains(char::is_whitespace) {
        format!("\"{}\"", v.replace('"', "'"))
    } else {
        v.to_string()
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = self.command.clone();
        for (k, v) in &self.args {
            let _ = write!(s, " {k}");
            if let Some(v) = v {
                let _ = write!(s, "={}", quoted(v));
            }
        }
        f.write_str(&s)
    }
}

struct Words {
    chars: Vec<char>,
    at: usize,
}

impl Words {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// The next bare word (up to a space, or `=` for an argument name).
    fn token(&mut self, name: bool) -> Result<Option<String>, String> {
        self.skip_space();
        if self.peek().is_none() {
            return Ok(None);
        }
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || (name && c == '=') {
                break;
            }
            if c == '"' {
                return Err(format!("a quote inside the word at column {}", self.at + 1));
            }
            self.at += 1;
        }
        Ok(Some(self.chars[start..self.at].iter().collect()))
    }

    /// A value after `=`: a quoted string or a bare word.
    fn value(&mut self) -> Result<String, String> {
        if self.peek() == Some('"') {
            self.at += 1;
            let start = self.at;
            while let Some(c) = self.peek() {
                if c == '"' {
                    let v = self.chars[start..self.at].iter().collect();
                    self.at += 1;
                    return Ok(v);
                }
                self.at += 1;
            }
            return Err("a quoted value without its closing quote".into());
        }
        let start = self.at;
        while let Some(c) = self.peek().filter(|c| !c.is_whitespace()) {
            // A value that reads back as it prints: quotes only around it.
            if c == '"' {
                return Err(format!(
                    "a quote inside the value at column {}",
                    self.at + 1
                ));
            }
            self.at += 1;
        }
        Ok(self.chars[start..self.at].iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_and_print() {
        let l = Line::parse(r#"id name=Scan version=3.1 author="Fabien Letouzey" country=France"#)
            .unwrap();
        assert_eq!(l.command, "id");
        assert_eq!(l.get("name"), Some("Scan"));
        assert_eq!(l.get("author"), Some("Fabien Letouzey"));
        assert_eq!(l.get("missing"), None);
        let l = Line::parse(r#"info depth=21 score=-0.01 pv="32-28 17-22 28x17x22""#).unwrap();
        assert_eq!(l.get("pv"), Some("32-28 17-22 28x17x22"));
        let l = Line::parse("level infinite").unwrap();
        assert!(l.has("infinite"));
        assert_eq!(l.get("infinite"), Some(""));
        let l = Line::parse("go   think  ").unwrap();
        assert_eq!((l.command.as_str(), l.has("think")), ("go", true));
        let out = Line::new("param")
            .arg("name", "player")
            .arg("value", "alphabeta:d=4,t=1s")
            .arg("type", "string")
            .arg("empty", "")
            .arg("spaced", "a b");
        let text = out.to_string();
        assert_eq!(
            text,
            r#"param name=player value="alphabeta:d=4,t=1s" type=string empty="" spaced="a b""#
        );
        assert_eq!(Line::parse(&text).unwrap(), out);
        assert_eq!(
            Line::parse(r#"pos pos="" moves="""#).unwrap().get("pos"),
            Some("")
        );
    }

    #[test]
    fn malformed_lines_are_errors() {
        for bad in [
            "",
            "   ",
            r#"pos pos="Wbbb"#,
            "x =3",
            r#"x a"b=3"#,
            r#"x a=b"c"#,
        ] {
            assert!(Line::parse(bad).is_err(), "{bad:?}");
        }
    }
}
