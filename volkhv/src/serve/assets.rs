//! The page's files, embedded in the binary (no build step, works offline).
//! Everything under `volkhv/web/` is MIT, drawn for this project.

const JS: &str = "text/javascript; charset=utf-8";
const JSON: &str = "application/json; charset=utf-8";

/// One embedded file of `volkhv/web/`: `(name, content type, bytes)`.
macro_rules! web_file {
    ($name:literal, $ctype:expr) => {
        ($name, $ctype, include_bytes!(concat!("../../web/", $name)))
    };
}

/// Every file the page needs; `index.html` also answers `/`.
const FILES: &[(&str, &str, &[u8])] = &[
    web_file!("index.html", "text/html; charset=utf-8"),
    web_file!("style.css", "text/css; charset=utf-8"),
    web_file!("main.js", JS),
    web_file!("api.js", JS),
    web_file!("board.js", JS),
    web_file!("input.js", JS),
    web_file!("pieces.js", JS),
    web_file!("panel.js", JS),
    web_file!("favicon.svg", "image/svg+xml"),
    web_file!("library.html", "text/html; charset=utf-8"),
    web_file!("library.js", JS),
    web_file!("library-link.js", JS),
    web_file!("rules.html", "text/html; charset=utf-8"),
    web_file!("rules.js", JS),
    web_file!("lessons.json", JSON),
    web_file!("prefs.js", JS),
    web_file!("nav.js", JS),
    web_file!("i18n.js", JS),
    web_file!("words.js", JS),
    web_file!("seat.js", JS),
    // One catalogue per language: adding `lang-XX.json` here adds a language.
    web_file!("lang-en.json", JSON),
    web_file!("lang-ru.json", JSON),
    web_file!("lang-kk.json", JSON),
];

/// Every catalogue, parsed once: `(code, catalogue)`.
fn catalogues() -> &'static [(&'static str, serde_json::Value)] {
    static PARSED: std::sync::OnceLock<Vec<(&'static str, serde_json::Value)>> =
        std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|(name, _, bytes)| {
                let code = name.strip_prefix("lang-")?.strip_suffix(".json")?;
                Some((code, serde_json::from_slice(bytes).ok()?))
            })
            .collect()
    })
}

/// The page's languages, `(code, name)`: every embedded `lang-XX.json`,
/// each naming itself in its `name`.
pub fn languages() -> Vec<(&'static str, String)> {
    catalogues()
        .iter()
        .filter_map(|(code, c)| Some((*code, c["name"].as_str()?.to_string())))
        .collect()
}

/// The language a browser asks for (`Accept-Language`: the first of its
/// tags, in its order, that has a catalogue), else English.
pub fn language_for(accept_language: Option<&str>) -> &'static str {
    let have = catalogues();
    accept_language
        .unwrap_or_default()
        .split(',')
        .filter_map(|tag| {
            let primary = tag.split(';').next()?.trim().split('-').next()?;
            have.iter()
                .find(|(code, _)| code.eq_ignore_ascii_case(primary))
                .map(|(code, _)| *code)
        })
        .next()
        .unwrap_or("en")
}

/// The words of `key` in `lang`'s catalogue (English where it has none).
pub fn words(lang: &str, key: &str) -> String {
    let find = |code: &str| {
        catalogues()
            .iter()
            .find(|(c, _)| *c == code)
            .and_then(|(_, cat)| cat["ui"][key].as_str())
            .map(str::to_string)
    };
    find(lang)
        .or_else(|| find("en"))
        .unwrap_or_else(|| key.to_string())
}

/// The file for a request path (`[]` is the page itself).
pub fn find(path: &[&str]) -> Option<(&'static str, &'static [u8])> {
    let name = match path {
        [] => "index.html",
        [one] => one,
        _ => return None,
    };
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, ctype, bytes)| (ctype, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_and_files_are_found() {
        let (ctype, page) = find(&[]).unwrap();
        assert!(ctype.starts_with("text/html"));
        assert!(std::str::from_utf8(page).unwrap().contains("id=\"board\""));
        assert!(find(&["main.js"]).is_some());
        assert!(find(&["..", "Cargo.toml"]).is_none());
        assert!(find(&["nope.js"]).is_none());
    }

    #[test]
    fn every_catalogue_names_its_language() {
        let codes: Vec<_> = languages().into_iter().map(|(code, _)| code).collect();
        assert_eq!(codes, ["en", "ru", "kk"]);
    }

    #[test]
    fn the_browser_s_first_language_with_a_catalogue_is_chosen() {
        assert_eq!(language_for(Some("kk-KZ,ru;q=0.9,en;q=0.8")), "kk");
        assert_eq!(language_for(Some("de-DE,ru-RU;q=0.9")), "ru");
        assert_eq!(language_for(Some("de, fr")), "en");
        assert_eq!(language_for(Some(";;,")), "en");
        assert_eq!(language_for(None), "en");
        assert_eq!(words("ru", "nav.new_game"), "Новая партия");
        assert_eq!(words("xx", "nav.new_game"), "New game");
    }

    #[test]
    fn every_file_of_the_web_folder_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/web");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            // The glossary is for translators, not for the page.
            if name.ends_with(".md") {
                continue;
            }
            assert!(find(&[name.as_str()]).is_some(), "{name} is not embedded");
        }
    }
}
