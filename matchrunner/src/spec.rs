//! `--engine "cmd=... name=... proto=uci|xboard option.Hash=64"` and the
//! shell-like word splitting it needs.

use std::fmt;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (with `UCI_Variant` for plunder and tavreli).
    Uci,
    /// XBoard / CECP v2.
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        })
    }
}

/// One `--engine` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program and arguments.
    pub cmd: Vec<String>,
    /// Name in the PGN and the summary.
    pub name: String,
    /// UCI or XBoard.
    pub protocol: Protocol,
    /// Working directory, if given (`dir=`).
    pub dir: Option<String>,
    /// `option.NAME=VALUE` pairs, in the given order.
    pub options: Vec<(String, String)>,
}

/// Splits `s` into words like a POSIX shell: whitespace separates, single
/// quotes keep everything, double quotes keep everything but `\"` and `\\`,
/// a backslash outside quotes escapes the next character.
///
/// # Errors
/// A message if a quote is not closed or the string ends in a backslash.
pub fn shell_split(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in {s:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in {s:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in {s:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing backslash in {s:?}")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Quotes a word for [`shell_split`] if it needs it.
#[must_use]
pub fn shell_quote(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

fn is_key(word: &str) -> bool {
    ["cmd=", "name=", "proto=", "dir=", "option."]
        .iter()
        .any(|k| word.starts_with(k))
}

impl EngineSpec {
    /// Parses one `--engine` value. Words that follow `cmd=...` and start
    /// with none of the keys are further arguments of the command, so
    /// `cmd=sh engine.sh name=x` works as well as `cmd="sh engine.sh"`.
    ///
    /// # Errors
    /// A one-line reason naming the bad word.
    pub fn parse(s: &str) -> Result<EngineSpec, String> {
        let words = shell_split(s)?;
        let mut cmd: Option<Vec<String>> = None;
        let mut name = None;
        let mut protocol = Protocol::Uci;
        let mut dir = None;
        let mut options = Vec::new();
        let mut after_cmd = false;
        for w in &words {
            if let Some(v) = w.strip_prefix("cmd=") {
                if cmd.is_some() {
                    return Err(format!("cmd= given twice in {s:?}"));
                }
                let parts = shell_split(v)?;
                if parts.is_empty() {
                    return Err("empty cmd=".into());
                }
                cmd = Some(parts);
                after_cmd = true;
            } else if after_cmd && !is_key(w) {
                if let Some(c) = cmd.as_mut() {
                    c.push(w.clone());
                }
            } else {
                after_cmd = false;
                if let Some(v) = w.strip_prefix("name=") {
                    if v.is_empty() {
                        return Err("empty name=".into());
                    }
                    name = Some(v.to_string());
                } else if let Some(v) = w.strip_prefix("proto=") {
                    protocol = match v {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" => Protocol::Xboard,
                        _ => return Err(format!("proto={v}: expected uci or xboard")),
                    };
                } else if let Some(v) = w.strip_prefix("dir=") {
                    dir = Some(v.to_string());
                } else if let Some(v) = w.strip_prefix("option.") {
                    let Some((k, val)) = v.split_once('=') else {
                        return Err(format!("{w:?}: expected option.NAME=VALUE"));
                    };
                    if k.is_empty() {
                        return Err(format!("{w:?}: empty option name"));
                    }
                    options.push((k.to_string(), val.to_string()));
                } else {
                    return Err(format!(
                        "unknown engine key {w:?} (expected cmd=, name=, proto=, dir=, option.X=)"
                    ));
                }
            }
        }
        let Some(cmd) = cmd else {
            return Err(format!("no cmd= in engine {s:?}"));
        };
        let name = name.unwrap_or_else(|| default_name(&cmd));
        Ok(EngineSpec {
            cmd,
            name,
            protocol,
            dir,
            options,
        })
    }
}

/// The program's file name, or the script's when the program is an
/// interpreter (`sh engine.sh` is "engine.sh").
fn default_name(cmd: &[String]) -> String {
    let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    let prog = cmd
        .first()
        .map_or_else(|| "engine".to_string(), |p| base(p));
    let interpreters = [
        "sh", "bash", "dash", "python", "python3", "perl", "node", "wine",
    ];
    match cmd.get(1) {
        Some(script) if interpreters.contains(&prog.as_str()) && !script.starts_with('-') => {
            base(script)
        }
        _ => prog,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_like_a_shell() {
        assert_eq!(
            shell_split(r#"a 'b c' "d \"e\"" f\ g  "#).unwrap(),
            vec!["a", "b c", r#"d "e""#, "f g"]
        );
        assert_eq!(shell_split("cmd=\"x y\"").unwrap(), vec!["cmd=x y"]);
        assert_eq!(shell_split("''").unwrap(), vec![""]);
        assert!(shell_split("'open").is_err());
        assert!(shell_split("\"open").is_err());
        assert!(shell_split("end\\").is_err());
        assert!(shell_split("").unwrap().is_empty());
    }

    #[test]
    fn quote_round_trips() {
        for w in ["plain", "with space", "it's", ""] {
            assert_eq!(shell_split(&shell_quote(w)).unwrap(), vec![w]);
        }
    }

    #[test]
    fn engine_specs() {
        let e = EngineSpec::parse(
            "cmd='./volkhv --threads 2' name=new proto=uci option.Hash=64 option.Move\\ Overhead=10",
        )
        .unwrap();
        assert_eq!(e.cmd, vec!["./volkhv", "--threads", "2"]);
        assert_eq!(e.name, "new");
        assert_eq!(e.protocol, Protocol::Uci);
        assert_eq!(
            e.options,
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Move Overhead".to_string(), "10".to_string())
            ]
        );
        let e = EngineSpec::parse("cmd=sh tests/engines/hang.sh proto=xboard").unwrap();
        assert_eq!(e.cmd, vec!["sh", "tests/engines/hang.sh"]);
        assert_eq!(e.name, "hang.sh");
        assert_eq!(e.protocol, Protocol::Xboard);
        let e = EngineSpec::parse("cmd='/opt/bin/volkhv --threads 2'").unwrap();
        assert_eq!(e.name, "volkhv");
        assert!(EngineSpec::parse("name=x").unwrap_err().contains("no cmd="));
        assert!(EngineSpec::parse("cmd=x proto=ucci")
            .unwrap_err()
            .contains("proto=ucci"));
        assert!(EngineSpec::parse("cmd=x name=y bogus")
            .unwrap_err()
            .contains("bogus"));
        assert!(EngineSpec::parse("cmd=x option.Hash")
            .unwrap_err()
            .contains("option.NAME=VALUE"));
    }
}
