//! The streaming PGN reader: [`PgnReader`] reads one line at a time and
//! keeps one game, so a file of any length is read with memory for its
//! largest game. What it accepts and how it recovers from a bad game is
//! described in the [`pgn`](crate::pgn) module documentation.

use crate::fault::Fault;
use crate::pgn::PgnGame;
use std::fmt;
use std::io::{self, BufRead, Read};
use std::iter::FusedIterator;

/// The most text one game may have (16 MiB). A longer game is reported as
/// bad rather than held in memory, so that one runaway game (a comment
/// never closed, a file that is not PGN) cannot exhaust memory.
pub const MAX_GAME_BYTES: usize = 16 << 20;

/// The game termination markers.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Suffix glyphs and the NAGs they stand for; the two-character ones come
/// first so that `!!` is not read as `!` twice.
const GLYPHS: [(&str, u8); 6] = [
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
];

/// A game of a PGN input that could not be read, or the input itself
/// failing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The 1-based number of the game in the input, bad games counted.
    pub game: usize,
    /// What is wrong, with the line number where one applies.
    pub fault: Fault,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.game, self.fault)
    }
}

impl std::error::Error for PgnError {}

/// Reads the games of a PGN input one at a time.
///
/// Each item is a game or a [`PgnError`] for a game that could not be read;
/// reading goes on with the next game after an error, except when the
/// input itself fails (an I/O error or text that is not UTF-8), which is
/// the last item.
///
/// ```
/// use notation::pgn::PgnReader;
/// let text = "[Event \"a\"]\n\n1. e4 (1. d4) e5 {fine} 1-0\n\n[Event \"b\"]\n1. Nf3 *\n";
/// let games: Vec<_> = PgnReader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].moves, ["e4", "e5"]);
/// assert_eq!(games[1].tag("Event"), Some("b"));
/// ```
pub struct PgnReader<R: BufRead> {
    input: R,
    /// The bytes of the current line, kept to reuse its allocation.
    raw: Vec<u8>,
    /// The current line without its line end.
    line: String,
    /// How far into `line` the games have read; `None` once all of it is
    /// read.
    pos: Option<usize>,
    line_no: usize,
    /// Items handed out so far: the number of the last game.
    games: usize,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of the PGN text `input` (a `BufReader` of a file, a byte
    /// slice, …).
    pub fn new(input: R) -> Self {
        PgnReader {
            input,
            raw: Vec::new(),
            line: String::new(),
            pos: None,
            line_no: 0,
            games: 0,
            done: false,
        }
    }

    /// Reads the next line into `self.line`.
    fn read_line(&mut self) -> Result<Line, Fault> {
        self.raw.clear();
        // One byte more than a game may have tells a line too long for any
        // game, without holding more of it.
        let limit = MAX_GAME_BYTES as u64 + 1;
        let n = (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.raw)
            .map_err(read_fault)?;
        if n == 0 {
            return Ok(Line::End);
        }
        self.line_no += 1;
        if n as u64 == limit && self.raw.last() != Some(&b'\n') {
            self.skip_rest_of_line().map_err(read_fault)?;
            return Ok(Line::TooLong);
        }
        let mut bytes = self.raw.as_slice();
        bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        if self.line_no == 1 {
            bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|_| Fault::new("pgn.utf8", vec![("line", self.line_no.to_string())]))?;
        self.line.clear();
        self.line.push_str(text);
        Ok(Line::Text)
    }

    fn skip_rest_of_line(&mut self) -> io::Result<()> {
        loop {
            let (used, found) = match self.input.fill_buf() {
                Ok([]) => return Ok(()),
                Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                    Some(k) => (k + 1, true),
                    None => (buf.len(), false),
                },
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            self.input.consume(used);
            if found {
                return Ok(());
            }
        }
    }

    /// Gives the next item its game number.
    fn numbered(&mut self, item: Result<PgnGame, Fault>) -> Result<PgnGame, PgnError> {
        self.games += 1;
        item.map_err(|fault| PgnError {
            game: self.games,
            fault,
        })
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut game = Partial::default();
        loop {
            let from = match self.pos {
                Some(p) => p,
                None => match self.read_line() {
                    Ok(Line::Text) => 0,
                    Ok(Line::TooLong) => {
                        game.too_long(self.line_no);
                        continue;
                    }
                    Ok(Line::End) => {
                        self.done = true;
                        let last = game.finish(true)?;
                        return Some(self.numbered(last));
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(self.numbered(Err(e)));
                    }
                },
            };
            let resume = match game.feed(&self.line, from, self.line_no) {
                Fed::LineDone => {
                    self.pos = None;
                    continue;
                }
                Fed::GameOver(end) => end,
                Fed::NextGame => from,
            };
            self.pos = Some(resume);
            return game.finish(false).map(|g| self.numbered(g));
        }
    }
}

impl<R: BufRead> FusedIterator for PgnReader<R> {}

/// What [`PgnReader::read_line`] found.
enum Line {
    Text,
    /// A line longer than [`MAX_GAME_BYTES`], skipped unread.
    TooLong,
    End,
}

/// How far [`Partial::feed`] got with a line.
enum Fed {
    /// All of it belongs to the game, which goes on.
    LineDone,
    /// The game ended with a result token; the rest of the line, from this
    /// byte on, belongs to the next game.
    GameOver(usize),
    /// The line starts the next game's tags; the game ended before it.
    NextGame,
}

/// A `{` comment not yet closed.
struct OpenComment {
    text: String,
    /// Comments in variations and in bad games are read past, not kept.
    keep: bool,
    line: usize,
}

/// The game being read.
#[derive(Default)]
struct Partial {
    game: PgnGame,
    result: Option<String>,
    /// Movetext was seen after the last tag line: a tag line now starts the
    /// next game.
    in_movetext: bool,
    comment: Option<OpenComment>,
    /// How deep in `( … )` variations the text is.
    depth: usize,
    variation_line: usize,
    /// Bytes of text read for this game.
    size: usize,
    /// The first thing wrong; once set nothing more is kept, but the text is
    /// still read to find where the game ends.
    error: Option<Fault>,
}

impl Partial {
    /// Reads `line[from..]`, the start of a line or the rest of a line after
    /// a game that ended in it.
    fn feed(&mut self, line: &str, from: usize, line_no: usize) -> Fed {
        let rest = &line[from..];
        if self.starts_next_game(rest) {
            return Fed::NextGame;
        }
        let fed = if self.comment.is_none() && rest.starts_with('%') {
            // An escape line: PGN reserves it for other programs' data.
            Fed::LineDone
        } else if self.comment.is_none() && rest.trim_start().starts_with('[') {
            self.tag_line(rest.trim(), line_no);
            Fed::LineDone
        } else {
            match self.scan(line, from, line_no) {
                Some(end) => Fed::GameOver(end),
                None => Fed::LineDone,
            }
        };
        let used = match fed {
            Fed::GameOver(end) => end - from,
            _ => rest.len() + 1,
        };
        self.count(used, line_no);
        fed
    }

    /// Whether a line starting with `rest` begins the next game: a tag line
    /// after this game's movetext, or a line of well-formed tags while a
    /// comment is open (the `}` was forgotten, and taking the tags as
    /// comment text would swallow the games after it).
    fn starts_next_game(&self, rest: &str) -> bool {
        let tags = rest.trim();
        if !tags.starts_with('[') {
            return false;
        }
        if self.comment.is_some() {
            return parse_tags(tags).is_ok();
        }
        self.in_movetext
            && (self.error.is_some()
                || self.depth > 0
                || !self.game.tags.is_empty()
                || !self.game.moves.is_empty())
    }

    fn tag_line(&mut self, text: &str, line_no: usize) {
        self.in_movetext = false;
        if self.error.is_some() {
            return;
        }
        match parse_tags(text) {
            Ok(tags) => self.game.tags.extend(tags),
            Err(why) => self.fail(Fault::new(
                "pgn.tag_line",
                vec![
                    ("line", line_no.to_string()),
                    ("text", excerpt(text)),
                    ("why_key", why.to_string()),
                ],
            )),
        }
    }

    /// Reads movetext from `line[from..]`; `Some(end)` when a result token
    /// ending before byte `end` ended the game.
    fn scan(&mut self, line: &str, from: usize, line_no: usize) -> Option<usize> {
        let mut token: Option<usize> = None;
        let mut i = from;
        while i < line.len() {
            if self.comment.is_some() {
                i = self.comment_text(line, i);
                continue;
            }
            let Some(c) = line[i..].chars().next() else {
                break;
            };
            let next = i + c.len_utf8();
            if !c.is_whitespace() {
                self.in_movetext = true;
            }
            if is_token_char(c) {
                token.get_or_insert(i);
                i = next;
                continue;
            }
            if let Some(start) = token.take() {
                if self.token(&line[start..i]) {
                    return Some(i);
                }
            }
            match c {
                '{' => self.open_comment(line_no),
                '}' => self.fail(Fault::new("pgn.brace", vec![("line", line_no.to_string())])),
                '(' => self.open_variation(line_no),
                ')' => self.close_variation(line_no),
                ';' => {
                    self.line_comment(&line[next..]);
                    return None;
                }
                '$' => token = Some(i),
                _ => {}
            }
            i = next;
        }
        if let Some(start) = token {
            if self.token(&line[start..]) {
                return Some(line.len());
            }
        }
        if let Some(open) = &mut self.comment {
            if open.keep {
                open.text.push('\n');
            }
        }
        None
    }

    /// Reads comment text from `line[i..]` up to its `}`; returns where the
    /// movetext goes on.
    fn comment_text(&mut self, line: &str, i: usize) -> usize {
        let Some(open) = &mut self.comment else {
            return i;
        };
        let rest = &line[i..];
        let close = rest.find('}');
        if open.keep {
            open.text.push_str(&rest[..close.unwrap_or(rest.len())]);
        }
        match close {
            Some(k) => {
                if let Some(done) = self.comment.take().filter(|c| c.keep) {
                    self.game.comments.push(done.text);
                }
                i + k + 1
            }
            None => line.len(),
        }
    }

    fn open_comment(&mut self, line_no: usize) {
        self.comment = Some(OpenComment {
            text: String::new(),
            keep: self.depth == 0 && self.error.is_none(),
            line: line_no,
        });
    }

    /// A `;` comment: kept as a comment of the game, as `{ }` ones are.
    fn line_comment(&mut self, text: &str) {
        let text = text.trim();
        if self.depth == 0 && self.error.is_none() && !text.is_empty() {
            self.game.comments.push(text.to_string());
        }
    }

    fn open_variation(&mut self, line_no: usize) {
        if self.depth == 0 {
            self.variation_line = line_no;
        }
        self.depth += 1;
    }

    fn close_variation(&mut self, line_no: usize) {
        match self.depth.checked_sub(1) {
            Some(d) => self.depth = d,
            None => self.fail(Fault::new("pgn.paren", vec![("line", line_no.to_string())])),
        }
    }

    /// Takes a token of the main line; true when it is the result.
    fn token(&mut self, t: &str) -> bool {
        if self.depth > 0 {
            return false;
        }
        if RESULTS.contains(&t) {
            self.result = Some(t.to_string());
            return true;
        }
        if self.error.is_some() {
            return false;
        }
        if let Some(n) = t.strip_prefix('$') {
            // A NAG that is not a number from 0 to 255 says nothing a
            // reader could use, and is dropped rather than failing the game.
            if n.bytes().all(|b| b.is_ascii_digit()) {
                if let Ok(nag) = n.parse() {
                    self.game.nags.push((self.game.moves.len(), nag));
                }
            }
            return false;
        }
        let (mv, glyph) = split_glyph(strip_move_number(t));
        if !mv.is_empty() {
            self.game.moves.push(mv.to_string());
        }
        if let Some(nag) = glyph {
            self.game.nags.push((self.game.moves.len(), nag));
        }
        false
    }

    fn too_long(&mut self, line_no: usize) {
        // Whatever the line held, it was not tags: a tag line after it
        // starts the next game.
        self.in_movetext = true;
        self.size = self.size.saturating_add(MAX_GAME_BYTES);
        self.fail(Fault::new(
            "pgn.line_long",
            vec![
                ("line", line_no.to_string()),
                ("mib", (MAX_GAME_BYTES >> 20).to_string()),
            ],
        ));
    }

    fn count(&mut self, bytes: usize, line_no: usize) {
        self.size = self.size.saturating_add(bytes);
        if self.size > MAX_GAME_BYTES {
            self.fail(Fault::new(
                "pgn.game_long",
                vec![
                    ("mib", (MAX_GAME_BYTES >> 20).to_string()),
                    ("line", line_no.to_string()),
                ],
            ));
        }
    }

    /// Marks the game bad with its first fault and lets go of what was kept.
    fn fail(&mut self, why: Fault) {
        if self.error.is_some() {
            return;
        }
        self.error = Some(why);
        self.game = PgnGame::default();
        if let Some(open) = &mut self.comment {
            open.keep = false;
            open.text = String::new();
        }
    }

    /// The game, its fault, or `None` for text at the end of the input that
    /// holds no game (blank lines, a stray comment).
    fn finish(mut self, at_end: bool) -> Option<Result<PgnGame, Fault>> {
        if let Some(open) = self.comment.take() {
            self.fail(Fault::new(
                "pgn.comment_open",
                vec![("line", open.line.to_string())],
            ));
        }
        if self.depth > 0 {
            let line = self.variation_line;
            self.fail(Fault::new(
                "pgn.variation_open",
                vec![("line", line.to_string())],
            ));
        }
        if let Some(e) = self.error {
            return Some(Err(e));
        }
        let mut game = self.game;
        if at_end && self.result.is_none() && game.tags.is_empty() && game.moves.is_empty() {
            return None;
        }
        game.result = self.result.unwrap_or_else(|| {
            // A game cut off before its result token keeps the result its
            // tags give.
            game.tag("Result")
                .filter(|r| RESULTS.contains(r))
                .unwrap_or("*")
                .to_string()
        });
        Some(Ok(game))
    }
}

/// Characters of move tokens: all but white space and the characters that
/// start or end comments, variations and NAGs.
fn is_token_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '{' | '}' | '(' | ')' | ';' | '$')
}

/// `12.e4` → `e4`, `12...` → ``, `12` → ``; `0-0` is a move, not a number.
fn strip_move_number(t: &str) -> &str {
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.is_empty() {
        rest
    } else if rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        t
    }
}

/// `e4!?` → (`e4`, Some(5)); a lone glyph gives an empty move.
fn split_glyph(t: &str) -> (&str, Option<u8>) {
    GLYPHS
        .iter()
        .find_map(|&(g, nag)| t.strip_suffix(g).map(|mv| (mv, Some(nag))))
        .unwrap_or((t, None))
}

/// The tag pairs of a tag line: one or more `[Name "value"]`.
fn parse_tags(line: &str) -> Result<Vec<(String, String)>, &'static str> {
    let mut rest = line.trim();
    let mut tags = Vec::new();
    while !rest.is_empty() {
        let (tag, after) = parse_tag(rest)?;
        tags.push(tag);
        rest = after.trim_start();
    }
    Ok(tags)
}

/// One `[Name "value"]` at the start of `s`, and the text after it.
fn parse_tag(s: &str) -> Result<((String, String), &str), &'static str> {
    let s = s.strip_prefix('[').ok_or("pgn.tag.after")?.trim_start();
    let name_len = s
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(s.len());
    let name = &s[..name_len];
    if name.is_empty() || name.contains(['[', ']']) {
        return Err("pgn.tag.name");
    }
    let s = s[name_len..]
        .trim_start()
        .strip_prefix('"')
        .ok_or("pgn.tag.quotes")?;
    let end = closing_quote(s).ok_or("pgn.tag.unclosed")?;
    let after = s[end + 1..]
        .trim_start()
        .strip_prefix(']')
        .ok_or("pgn.tag.bracket")?;
    Ok(((name.to_string(), unescape(&s[..end])), after))
}

/// Where the first `"` not escaped by `\` is.
fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' if !escaped => return Some(i),
            '\\' => escaped = !escaped,
            _ => escaped = false,
        }
    }
    None
}

/// `\"` → `"` and `\\` → `\`; any other backslash stays, as in a Windows
/// path in a `Site` tag.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e @ ('"' | '\\')) => out.push(e),
            Some(e) => {
                out.push('\\');
                out.push(e);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// An input that failed to read.
fn read_fault(e: io::Error) -> Fault {
    Fault::new("pgn.read", vec![("error", e.to_string())])
}

/// The start of a long line, for an error message.
fn excerpt(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
