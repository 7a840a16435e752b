//! docs/architecture.md's "what a new variant touches" is a promise: outside
//! the rules (`movegen`), the evaluation (`eval`) and test code, no crate
//! names a variant, so a fourth variant is its rules module, its evaluation
//! module and one registry entry. The compiler checks the other half (the
//! registry requires `Position + Describe`, `AnyGame` requires `Evaluate`);
//! this test checks that nobody branches on a variant by name.

use std::path::{Path, PathBuf};

/// The crates whose non-test code must not name a variant.
const FRONT_ENDS: [&str; 6] = [
    "engine/src",
    "volkhv/src",
    "matchrunner/src",
    "notation/src",
    "perft/src",
    "tuner/src",
];

/// Names that single out one variant.
const NAMES: [&str; 6] = [
    "Variant::Chess",
    "Variant::Plunder",
    "Variant::Tavreli",
    "Chess::",
    "Plunder",
    "Tavreli",
];

/// Files that may name a variant, and why.
const ALLOWED: [(&str, &str); 1] = [
    // A test-only module (`#[cfg(test)] mod shim_props;`).
    ("volkhv/src/shim_props.rs", "property tests"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` before its test module, without comments.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
}

/// `true` where `name` stands as a word of its own in `line`, so a
/// `PlunderWeights` or a `"tavreli"` string does not count.
fn names(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + name.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !word(before) && (name.ends_with("::") || !word(after))
    })
}

#[test]
fn no_front_end_names_a_variant() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut files = Vec::new();
    for dir in FRONT_ENDS {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 40, "found only {} source files", files.len());
    for file in &files {
        if ALLOWED.iter().any(|(f, _)| file.ends_with(f)) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("source is UTF-8");
        for (n, line) in code_lines(&text) {
            for name in NAMES {
                if names(line, name) {
                    found.push(format!("{}:{n}: {}", file.display(), line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "variants named outside movegen/eval (use the registry):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_name_and_skips_lookalikes() {
    assert!(names("if v == Variant::Plunder {", "Variant::Plunder"));
    assert!(names("let p = Tavreli::startpos();", "Tavreli"));
    assert!(!names("PlunderWeights", "Plunder"));
    assert!(!names("fn plunder_rules()", "Plunder"));
    assert!(code_lines("a\n#[cfg(test)]\nVariant::Chess").all(|(_, l)| l == "a"));
}
