//! The page's languages: every catalogue (`web/lang-XX.json`) has every key
//! of the English one with the same `{placeholders}`, the plural forms its
//! language needs, and the lessons' words in the shape of `lessons.json`;
//! every key the page's code and HTML ask for exists; no interface sentence
//! is left in the code outside the catalogue.

use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

fn read_json(name: &str) -> Value {
    let path = web().join(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every `lang-XX.json` of the web folder, English first.
fn catalogues() -> Vec<(String, Value)> {
    let mut codes: Vec<String> = fs::read_dir(web())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            Some(
                name.strip_prefix("lang-")?
                    .strip_suffix(".json")?
                    .to_string(),
            )
        })
        .collect();
    codes.sort_by_key(|c| (c != "en", c.clone()));
    codes
        .into_iter()
        .map(|c| {
            let v = read_json(&format!("lang-{c}.json"));
            (c, v)
        })
        .collect()
}

fn ui(catalogue: &Value) -> &Map<String, Value> {
    catalogue["ui"].as_object().expect("a \"ui\" object")
}

/// The `{names}` of one entry (all plural forms together).
fn placeholders(entry: &Value) -> BTreeSet<String> {
    let texts: Vec<&str> = match entry {
        Value::String(s) => vec![s.as_str()],
        Value::Object(forms) => forms.values().filter_map(Value::as_str).collect(),
        _ => panic!("an entry is a string or plural forms: {entry}"),
    };
    let mut names = BTreeSet::new();
    for text in texts {
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let Some(len) = rest[open..].find('}') else {
                break;
            };
            names.insert(rest[open + 1..open + len].to_string());
            rest = &rest[open + len..];
        }
    }
    names
}

/// The plural forms (CLDR) each language's numbers choose from.
fn plural_forms(code: &str) -> &'static [&'static str] {
    match code {
        "ru" => &["one", "few", "many", "other"],
        _ => &["one", "other"],
    }
}

/// Keys only some languages have: a variant's own words for its pieces
/// (`tavreli.role.king` = волхв), looked up before the common ones.
fn is_variant_override(key: &str) -> bool {
    movegen::Variant::ALL
        .iter()
        .any(|v| key.starts_with(&format!("{}.", v.name())))
}

#[test]
fn every_language_has_every_key_with_the_same_placeholders() {
    let all = catalogues();
    let (en_code, en) = &all[0];
    assert_eq!(en_code, "en");
    assert!(all.len() >= 3, "en, ru and kk at least");
    for (code, c) in &all {
        assert!(
            c["name"].as_str().is_some_and(|n| !n.is_empty()),
            "{code}: a name"
        );
        for (key, entry) in ui(en) {
            let theirs = ui(c)
                .get(key)
                .unwrap_or_else(|| panic!("lang-{code}.json has no \"{key}\""));
            assert_eq!(
                placeholders(theirs),
                placeholders(entry),
                "lang-{code}.json \"{key}\": other placeholders than English"
            );
            if entry.is_object() || theirs.is_object() {
                let forms = theirs
                    .as_object()
                    .unwrap_or_else(|| panic!("lang-{code}.json \"{key}\": plural forms"));
                for form in plural_forms(code) {
                    assert!(
                        forms.get(*form).and_then(Value::as_str).is_some(),
                        "lang-{code}.json \"{key}\": no \"{form}\" form"
                    );
                }
            }
        }
        for key in ui(c).keys() {
            assert!(
                ui(en).contains_key(key) || is_variant_override(key),
                "lang-{code}.json has \"{key}\", which English has not"
            );
        }
    }
}

/// The text fields of a lessons value, each with its path.
fn texts(v: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) => out.push((path.to_string(), s.clone())),
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                texts(x, &format!("{path}/{i}"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                texts(x, &format!("{path}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// The words of `lessons.json` (titles, texts, steps' sentences), not its
/// positions, selections and results.
fn lesson_words(lessons: &Value) -> Vec<(String, String)> {
    const NOT_WORDS: [&str; 3] = ["fen", "select", "result"];
    let mut out = Vec::new();
    for (variant, v) in lessons.as_object().unwrap() {
        texts(v, &format!("/{variant}"), &mut out);
    }
    out.retain(|(path, _)| !NOT_WORDS.contains(&path.rsplit('/').next().unwrap()));
    out
}

#[test]
fn every_language_but_english_translates_every_lesson() {
    let english = lesson_words(&read_json("lessons.json"));
    assert!(english.len() > 300, "{} lesson texts", english.len());
    for (code, c) in catalogues().iter().skip(1) {
        let lessons = &c["lessons"];
        assert!(lessons.is_object(), "lang-{code}.json has no lessons");
        let mut theirs = Vec::new();
        for (variant, v) in lessons.as_object().unwrap() {
            texts(v, &format!("/{variant}"), &mut theirs);
        }
        let have: BTreeSet<&str> = theirs.iter().map(|(p, _)| p.as_str()).collect();
        let need: BTreeSet<&str> = english.iter().map(|(p, _)| p.as_str()).collect();
        let missing: Vec<_> = need.difference(&have).collect();
        let extra: Vec<_> = have.difference(&need).collect();
        assert!(
            missing.is_empty(),
            "lang-{code}.json lessons lack {missing:?}"
        );
        assert!(
            extra.is_empty(),
            "lang-{code}.json lessons have unknown {extra:?}"
        );
        for (path, text) in &theirs {
            assert!(!text.trim().is_empty(), "lang-{code}.json {path} is empty");
            let english_text = &english.iter().find(|(p, _)| p == path).unwrap().1;
            // A name (PlunderChess) or notation may stay as it is; a
            // sentence may not.
            assert!(
                text != english_text || !text.contains(' '),
                "lang-{code}.json {path} is still English: {text}"
            );
        }
    }
}

/// The keys the page asks for by name: `t("key"` in the scripts,
/// `data-i18n…="key"` in the pages, and the server's `keyed("key")` errors
/// and `words("key")` of its refusal page.
fn keys_used() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let serve = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/serve");
    let files = fs::read_dir(web())
        .unwrap()
        .chain(fs::read_dir(serve).unwrap());
    for entry in files {
        let path = entry.unwrap().path();
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if !["js", "html", "rs"].contains(&ext) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for marker in [
            "t(\"",
            "data-i18n=\"",
            "data-i18n-title=\"",
            "data-i18n-placeholder=\"",
            "data-i18n-aria-label=\"",
            "keyed(\"",
            "worded(\"",
            "Words::new(\"",
            "= words(\"",
        ] {
            for (at, _) in text.match_indices(marker) {
                // `t("` as a call, not the end of `split("`.
                let before = text[..at].chars().next_back();
                if marker == "t(\""
                    && before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                {
                    continue;
                }
                let rest = &text[at + marker.len()..];
                let key = &rest[..rest.find('"').unwrap()];
                keys.insert(key.to_string());
            }
        }
    }
    keys
}

#[test]
fn every_key_the_page_names_exists() {
    let en = read_json("lang-en.json");
    let used = keys_used();
    assert!(
        used.len() > 100,
        "{} keys found in the page's code",
        used.len()
    );
    for key in &used {
        assert!(
            ui(&en).contains_key(key),
            "the page asks for \"{key}\", which lang-en.json lacks"
        );
    }
}

/// Keys the page builds from the server's data: every value the server can
/// send has its words.
#[test]
fn every_word_the_server_sends_has_a_key() {
    let en = read_json("lang-en.json");
    let mut need: Vec<String> = Vec::new();
    for v in movegen::Variant::ALL {
        need.push(format!("variant.{}", v.name()));
    }
    for (name, _) in engine::levels::NAMED {
        need.push(format!("level.{}", name.to_lowercase().replace(' ', "_")));
    }
    for role in [
        movegen::Role::Pawn,
        movegen::Role::Knight,
        movegen::Role::Bishop,
        movegen::Role::Rook,
        movegen::Role::Queen,
        movegen::Role::King,
        movegen::Role::Helgi,
    ] {
        for form in ["role", "role_of", "role_to", "gender"] {
            need.push(format!("{form}.{}", role.name()));
        }
    }
    for o in notation::words::OUTCOMES {
        need.push(format!("outcome.{}", notation::words::outcome_key(o)));
    }
    use notation::words::Shape;
    for s in [
        Shape::CastleKingside,
        Shape::CastleQueenside,
        Shape::EnPassant,
        Shape::Capture,
        Shape::Quiet,
    ] {
        need.push(format!("move.{}", s.key()));
    }
    // The endings of a game between two seats (`session::Ending`).
    for key in [
        "white_resigned",
        "black_resigned",
        "agreed",
        "white_flagged",
        "black_flagged",
        "flag_draw",
    ] {
        need.push(format!("outcome.{key}"));
    }
    for mark in ["best", "good", "inaccuracy", "mistake", "blunder"] {
        need.push(format!("mark.{mark}"));
    }
    for side in ["white", "black"] {
        need.push(format!("color.{side}"));
        need.push(format!("to_move.{side}"));
        need.push(format!("rules.not_yours.{side}"));
        for gender in ["m", "f"] {
            need.push(format!("color_adj.{side}.{gender}"));
        }
    }
    for key in need {
        assert!(ui(&en).contains_key(&key), "lang-en.json lacks \"{key}\"");
    }
}

/// Every reason movegen refuses a FEN for and every fault of a PGN text
/// has its words, and the English catalogue says what the command line
/// says; the FEN fields have their names.
#[test]
fn every_fen_and_pgn_reason_has_its_words() {
    let en = read_json("lang-en.json");
    let reasons = movegen::fen::REASONS.iter().chain(notation::fault::REASONS);
    let mut n = 0;
    for (key, english) in reasons {
        assert_eq!(
            ui(&en).get(*key).and_then(Value::as_str),
            Some(*english),
            "lang-en.json's \"{key}\""
        );
        n += 1;
    }
    assert!(n > 60, "{n} reasons");
    use movegen::FenField;
    for field in [
        FenField::Fields,
        FenField::Board,
        FenField::Side,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Halfmove,
        FenField::Fullmove,
    ] {
        assert!(ui(&en).contains_key(field.key()), "{}", field.key());
    }
}

/// The interface's sentences live in the catalogues: a string literal in a
/// page script that reads like English words (two words or more, letters
/// and spaces) is a sentence left in the code.
#[test]
fn no_interface_sentence_is_left_in_the_code() {
    let mut found = Vec::new();
    for entry in fs::read_dir(web()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("js") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            if code.contains("console.error") || code.contains("throw new Error") {
                continue;
            }
            for quote in ['"', '`'] {
                for (i, piece) in code.split(quote).enumerate() {
                    let words: Vec<&str> = piece.split_whitespace().collect();
                    let english = i % 2 == 1
                        && words.len() >= 2
                        && words.iter().all(|w| {
                            w.chars()
                                .all(|c| c.is_ascii_alphabetic() || ",.;:!?'".contains(c))
                        });
                    if english {
                        found.push(format!(
                            "{}:{}: {piece}",
                            path.file_name().unwrap().to_string_lossy(),
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "interface words outside the catalogues:\n{}",
        found.join("\n")
    );
}
