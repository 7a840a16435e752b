//! Reading `volkhv datagen` files, text or binary (told apart by the
//! binary magic), for both tools: the positions are collected first and
//! decoded on all threads by the caller.

use movegen::Variant;
use records::binary::{self, Grammar, RECORD_BYTES};
use records::Record;
use std::path::{Path, PathBuf};

/// One position of a data file, not yet decoded.
pub enum Raw<'a> {
    /// A text line: file, line number, text.
    Line(&'a Path, usize, String),
    /// A binary record: file, record number, bytes, board grammar.
    Packed(&'a Path, usize, [u8; RECORD_BYTES], Grammar),
}

impl Raw<'_> {
    /// `why`, prefixed with where the position is.
    #[must_use]
    pub fn at(&self, why: &str) -> String {
        match self {
            Raw::Line(path, n, _) => format!("{}:{n}: {why}", path.display()),
            Raw::Packed(path, n, ..) => format!("{}: record {n}: {why}", path.display()),
        }
    }

    /// The game a binary record belongs to (its index in the run); text
    /// does not say.
    #[must_use]
    pub fn game(&self) -> Option<u32> {
        match self {
            Raw::Line(..) => None,
            Raw::Packed(_, _, bytes, _) => Some(binary::game_of(bytes)),
        }
    }

    /// The record.
    ///
    /// # Errors
    /// A bad line or record (where named).
    pub fn record(&self) -> Result<Record, String> {
        match self {
            Raw::Line(_, _, line) => Record::parse(line),
            Raw::Packed(_, _, bytes, grammar) => binary::unpack(bytes, *grammar).map(|(r, _)| r),
        }
        .map_err(|e| self.at(&e))
    }
}

/// A `# volkhv datagen --variant V ...` header must name `variant`.
fn check_header(header: &str, variant: &str) -> Result<(), String> {
    let mut words = header.split_whitespace();
    while let Some(w) = words.next() {
        if w == "--variant" {
            return match words.next() {
                Some(v) if v == variant => Ok(()),
                Some(v) => Err(format!("data of variant {v}, tuning {variant}")),
                None => Err("--variant without a name".to_string()),
            };
        }
    }
    Ok(())
}

/// The positions of `paths` (at most `limit`), which must be data of
/// `variant`.
///
/// # Errors
/// An unreadable file, a header of another variant, a binary file that is
/// not a whole number of records.
pub fn read<'a>(
    paths: &'a [PathBuf],
    variant: Variant,
    limit: Option<usize>,
) -> Result<Vec<Raw<'a>>, String> {
    let mut out = Vec::new();
    let full = |out: &Vec<Raw>| limit.is_some_and(|l| out.len() >= l);
    for path in paths {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if binary::is_binary(&bytes) {
            read_binary(path, &bytes, variant, &mut out, &full)?;
        } else {
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("{} is neither text nor binary data", path.display()))?;
            for (n, line) in text.lines().enumerate() {
                if full(&out) {
                    break;
                }
                if let Some(header) = line.strip_prefix('#') {
                    let at = |e: String| format!("{}:{}: {e}", path.display(), n + 1);
                    check_header(header, variant.name()).map_err(at)?;
                } else if !line.trim().is_empty() {
                    out.push(Raw::Line(path, n + 1, line.to_string()));
                }
            }
        }
    }
    Ok(out)
}

fn read_binary<'a>(
    path: &'a Path,
    bytes: &[u8],
    variant: Variant,
    out: &mut Vec<Raw<'a>>,
    full: &impl Fn(&Vec<Raw<'a>>) -> bool,
) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let (header, start) = binary::Header::read(bytes).map_err(at)?;
    if header.variant != variant {
        return Err(at(format!(
            "data of variant {}, tuning {variant}",
            header.variant
        )));
    }
    let body = &bytes[start..];
    if !body.len().is_multiple_of(RECORD_BYTES) {
        return Err(at(format!(
            "not a whole number of {RECORD_BYTES}-byte records"
        )));
    }
    let grammar = Grammar::of(variant);
    for (i, chunk) in body.chunks_exact(RECORD_BYTES).enumerate() {
        if full(out) {
            break;
        }
        let mut record = [0u8; RECORD_BYTES];
        record.copy_from_slice(chunk);
        out.push(Raw::Packed(path, i + 1, record, grammar));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_name_the_variant() {
        assert!(check_header(" volkhv datagen --variant chess --games 1", "chess").is_ok());
        assert!(check_header(" volkhv datagen --variant plunder", "chess")
            .unwrap_err()
            .contains("data of variant plunder"));
        assert!(check_header(" a comment", "chess").is_ok());
    }
}
