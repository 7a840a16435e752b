//! The page's files, embedded in the binary (no build step, works offline).
//! Everything under `volkhv/web/` is MIT, drawn for this project.

const JS: &str = "text/javascript; charset=utf-8";

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
    web_file!("lessons.json", "application/json; charset=utf-8"),
    web_file!("prefs.js", JS),
    web_file!("nav.js", JS),
];

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
    fn every_file_of_the_web_folder_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/web");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(find(&[name.as_str()]).is_some(), "{name} is not embedded");
        }
    }
}
