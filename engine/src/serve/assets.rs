//! The page's files, embedded in the binary (no build step, works offline).
//! Everything under `engine/web/` is MIT, drawn for this project.

/// `(path, content type, bytes)`; `index.html` also answers `/`.
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../web/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../web/style.css"),
    ),
    (
        "main.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/main.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/api.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/board.js"),
    ),
    (
        "pieces.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/pieces.js"),
    ),
    (
        "panel.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/panel.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../../web/favicon.svg"),
    ),
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
}
