//! The streaming PGN reader on the PGN files players have: annotations,
//! variations, damaged games, the variants' move strings, long inputs.

use movegen::Variant;
use notation::pgn::{
    import, import_game, read_pgn, write_annotated_game, write_annotated_unfinished_game,
    Annotations, GameRecord, GameResult, MoveNote, PgnError, PgnGame, PgnHeader, PgnReader,
    Termination,
};
use proptest::prelude::*;
use std::cell::Cell;
use std::io::{self, BufReader, Read};
use std::rc::Rc;

/// A reader's items with each error as its game and English text.
type Item = Result<PgnGame, (usize, String)>;

fn texts(item: Result<PgnGame, PgnError>) -> Item {
    item.map_err(|e| (e.game, e.fault.text))
}

fn read_all(text: &str) -> Vec<Item> {
    PgnReader::new(text.as_bytes()).map(texts).collect()
}

fn games(text: &str) -> Vec<PgnGame> {
    read_all(text)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e:?}")))
        .collect()
}

fn one(text: &str) -> PgnGame {
    let mut all = games(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(ToString::to_string).collect()
}

fn tags(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn err(game: usize, message: &str) -> (usize, String) {
    (game, message.to_string())
}

#[test]
fn variations_nested_three_deep_are_skipped() {
    let g = one(
        "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5 (2... Nf6 3. e5 {deepest}) 3. exd5) \
         2... d6 {in a variation} $1 1-0) 2. Nf3 $1 Nc6 (2... d6?) 1-0",
    );
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(g.nags, [(3, 1)]);
    assert!(g.comments.is_empty());
    assert_eq!(g.result, "1-0");
}

#[test]
fn brace_and_semicolon_comments() {
    let g = one(
        "[Event \"c\"]\n\n{Before the first move}\n1. e4 {A comment\n\nover lines} e5 \
         ; to the end of the line ) ( {\n2. Nf3 {} Nc6;glued\n*\n",
    );
    assert_eq!(g.tags, tags(&[("Event", "c")]));
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(
        g.comments,
        [
            "Before the first move",
            "A comment\n\nover lines",
            "to the end of the line ) ( {",
            "",
            "glued"
        ]
    );
    assert_eq!(g.result, "*");
}

#[test]
fn escape_lines_are_ignored() {
    let g = one("%engine data [not a tag\n1. e4\n% e5 (\ne5 1-0");
    assert_eq!(g.moves, ["e4", "e5"]);
    assert!(g.tags.is_empty());
}

#[test]
fn nags_and_glyphs() {
    let g = one(
        "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 Nf6 $255 $256 $x 5. O-O !? \
         b5$2 *",
    );
    assert_eq!(
        g.moves,
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "b5"]
    );
    assert_eq!(
        g.nags,
        [
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 14),
            (8, 255),
            (9, 5),
            (10, 2)
        ]
    );
}

#[test]
fn clock_and_eval_comments_are_text() {
    let g = one(
        "[Event \"Rated blitz\"]\n\n1. e4 { [%eval 0.3] [%clk 0:01:00] } 1... e5 \
         { [%clk 0:00:59] }\n2. Nf3 {\n[%clk 0:00:58]\n[%eval -0.12]\n} 1-0\n",
    );
    assert_eq!(g.moves, ["e4", "e5", "Nf3"]);
    assert_eq!(
        g.comments,
        [
            " [%eval 0.3] [%clk 0:01:00] ",
            " [%clk 0:00:59] ",
            "\n[%clk 0:00:58]\n[%eval -0.12]\n"
        ]
    );
}

#[test]
fn tags_with_escapes_and_several_on_a_line() {
    let g = one(
        "[White \"a \\\"quoted\\\" name\"] [Black \"back\\\\slash\"]\n\
         [Site \"C:\\games\"]\t[Round \"3\"]  \n1. e4 *",
    );
    assert_eq!(
        g.tags,
        tags(&[
            ("White", "a \"quoted\" name"),
            ("Black", "back\\slash"),
            ("Site", "C:\\games"),
            ("Round", "3"),
        ])
    );
}

#[test]
fn move_numbers_in_every_form() {
    let g = one("1.e4 1... e5 2.Nf3 2...Nc6 3. Bb5 ... a6 4 Ba4 *");
    assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
}

#[test]
fn last_game_with_and_without_result() {
    let g = games("1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5");
    assert_eq!(g.len(), 2);
    assert_eq!(
        (g[0].moves.clone(), g[0].result.as_str()),
        (strings(&["e4", "e5"]), "1-0")
    );
    assert_eq!(
        (g[1].moves.clone(), g[1].result.as_str()),
        (strings(&["d4", "d5"]), "0-1")
    );
    assert_eq!(one("[Event \"x\"]\n\n1. d4 d5\n").result, "*");
    assert_eq!(one("[Result \"won\"]\n1. c4").result, "*");
    // A game cut off by the next game's tags.
    let g = games("[Event \"a\"]\n1. e4 e5\n\n[Event \"b\"]\n[Result \"1/2-1/2\"]\n1. d4");
    assert_eq!(g.len(), 2);
    assert_eq!((g[0].tag("Event"), g[0].result.as_str()), (Some("a"), "*"));
    assert_eq!(
        (g[1].tag("Event"), g[1].result.as_str()),
        (Some("b"), "1/2-1/2")
    );
    // Several games on one line.
    let g = games("1. e4 1-0 1. d4 0-1 *");
    assert_eq!(g.len(), 3);
    assert_eq!(g[2].moves, Vec::<String>::new());
    // Text after the last result that holds no game.
    assert_eq!(games("1. e4 1-0\n; end of file\n{bye}\n\n").len(), 1);
    for blank in ["", "  \n\r\n\t\n", "\u{feff}\n"] {
        assert!(read_all(blank).is_empty(), "{blank:?}");
    }
    assert_eq!(read_pgn(" \n"), Ok(Vec::new()));
    assert_eq!(
        import("\n\n", Variant::Chess).map_err(|f| f.text),
        Err("no game found".into())
    );
}

const THREE_GAMES: &str = "[Event \"one\"]
1. e4 e5 1-0

[Event \"two\"]
[White \"unterminated]
[Black \"b\"]

1. d4 d5 0-1

[Event \"three\"]
[White \"w\"]

1. c4 {English} c5 2. Nc3 1/2-1/2
";

#[test]
fn a_bad_tag_line_costs_only_its_game() {
    let items = read_all(THREE_GAMES);
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].as_ref().unwrap().tag("Event"), Some("one"));
    assert_eq!(
        items[1],
        Err(err(
            2,
            "line 5: bad tag line [White \"unterminated]: the value has no closing quote"
        ))
    );
    assert_eq!(
        items[2],
        Ok(PgnGame {
            tags: tags(&[("Event", "three"), ("White", "w")]),
            moves: strings(&["c4", "c5", "Nc3"]),
            comments: strings(&["English"]),
            nags: Vec::new(),
            result: "1/2-1/2".into(),
        })
    );
    assert_eq!(
        read_pgn(THREE_GAMES).map_err(|f| f.text),
        Err(
            "game 2: line 5: bad tag line [White \"unterminated]: the value has no closing quote"
                .into()
        )
    );
    // Without its result token the bad game ends at the next tag line.
    let items = read_all(&THREE_GAMES.replace("d5 0-1", "d5"));
    assert_eq!(items.len(), 3);
    assert_eq!(items[1].as_ref().unwrap_err().0, 2);
    assert_eq!(items[2].as_ref().unwrap().tag("Event"), Some("three"));
}

#[test]
fn other_bad_games_and_where_reading_resumes() {
    assert_eq!(
        read_all("1. e4 1-0\n1. d4 {never closed\n d5"),
        [
            Ok(PgnGame {
                moves: strings(&["e4"]),
                result: "1-0".into(),
                ..PgnGame::default()
            }),
            Err(err(2, "comment opened on line 2 is not closed")),
        ]
    );
    assert_eq!(
        read_all("1. e4 (1. d4 (1... d5)\n"),
        [Err(err(1, "variation opened on line 1 is not closed"))]
    );
    // A result inside an open variation is not the game's: the bad game runs
    // to the next tag line.
    let items = read_all("1. e4 (1. d4 1-0\n2. c4 *\n[Event \"next\"]\n1. Nf3 *");
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0],
        Err(err(1, "variation opened on line 1 is not closed"))
    );
    assert_eq!(items[1].as_ref().unwrap().moves, ["Nf3"]);
    // A forgotten `}`: a line of tags inside the comment starts the next game,
    // while `[%clk …]` lines stay comment text.
    let items = read_all(
        "[Event \"a\"]\n1. e4 {forgot to close\n[%clk 0:01:00]\n1-0\n\n[Event \"b\"]\n1. d4 {ok} *",
    );
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0],
        Err(err(1, "comment opened on line 2 is not closed"))
    );
    let b = items[1].as_ref().unwrap();
    assert_eq!(
        (b.tag("Event"), b.comments.clone()),
        (Some("b"), strings(&["ok"]))
    );
    assert_eq!(
        read_all("1. e4 ) e5 1-0\n1. d4 } 0-1\n[Event \"x\" junk\n1. c4 *\n1. Nf3 *"),
        [
            Err(err(1, "line 1: `)` with no `(` before it")),
            Err(err(2, "line 2: `}` with no `{` before it")),
            Err(err(
                3,
                "line 3: bad tag line [Event \"x\" junk: no `]` after the value"
            )),
            Ok(PgnGame {
                moves: strings(&["Nf3"]),
                result: "*".into(),
                ..PgnGame::default()
            }),
        ]
    );
}

#[test]
fn a_game_over_16_mib_is_an_error_and_the_next_is_read() {
    let line = format!("{}\n", "x".repeat(1023));
    let mut text = String::from("[Event \"big\"]\n1. e4 {\n");
    for _ in 0..17 * 1024 {
        text.push_str(&line);
    }
    text.push_str("} 1-0\n[Event \"after\"]\n1. d4 *\n");
    let items = read_all(&text);
    assert_eq!(items.len(), 2);
    // 22 bytes before the comment's lines, then 1024 a line.
    assert_eq!(
        items[0],
        Err(err(1, "the game is longer than 16 MiB (at line 16386)"))
    );
    assert_eq!(items[1].as_ref().unwrap().tag("Event"), Some("after"));

    let long = format!(
        "1. e4 {} 1-0\n[Event \"after\"]\n1. d4 *\n",
        "e5 ".repeat(6 << 20)
    );
    let items = read_all(&long);
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0],
        Err(err(1, "line 1 is longer than a game may be (16 MiB)"))
    );
    assert_eq!(items[1].as_ref().unwrap().moves, ["d4"]);
}

/// Gives `text`, then fails.
struct Failing {
    text: io::Cursor<Vec<u8>>,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.text.read(buf)? {
            0 => Err(io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn unreadable_input_is_the_last_item() {
    let input = Failing {
        text: io::Cursor::new(b"1. e4 1-0\n1. d4".to_vec()),
    };
    let items: Vec<_> = PgnReader::new(BufReader::new(input)).map(texts).collect();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_ref().unwrap().moves, ["e4"]);
    assert_eq!(items[1], Err(err(2, "read error: disk on fire")));

    let bytes = b"1. e4 1-0\n1. d4 \xff\n1. c4 *\n";
    let mut reader = PgnReader::new(&bytes[..]);
    assert!(reader.next().unwrap().is_ok());
    assert_eq!(
        reader.next().map(texts),
        Some(Err(err(2, "line 2: not UTF-8 text")))
    );
    assert_eq!(reader.next(), None);
    assert_eq!(reader.next(), None);
}

#[test]
fn crlf_and_byte_order_mark() {
    let g = games(
        "\u{feff}[Event \"x\"]\r\n[Site \"here\"]\r\n\r\n1. e4 {two\r\nlines} e5\r\n2. Nf3 1-0\r\n\
         \r\n[Event \"y\"]\r\n\r\n1. d4 ; note\r\n*\r\n",
    );
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].tags, tags(&[("Event", "x"), ("Site", "here")]));
    assert_eq!(g[0].moves, ["e4", "e5", "Nf3"]);
    assert_eq!(g[0].comments, ["two\nlines"]);
    assert_eq!(g[0].result, "1-0");
    assert_eq!(g[1].tags, tags(&[("Event", "y")]));
    assert_eq!(
        (g[1].comments.clone(), g[1].result.as_str()),
        (strings(&["note"]), "*")
    );
}

#[test]
fn variant_move_tokens_pass_through() {
    let g = one("1. O-O-O+ exd8=Q# 2. Nbd7 0-0-0 3. d4d8:2 b1d2 4. c3d5p e7d8qn?! *");
    assert_eq!(
        g.moves,
        ["O-O-O+", "exd8=Q#", "Nbd7", "0-0-0", "d4d8:2", "b1d2", "c3d5p", "e7d8qn"]
    );
    assert_eq!(g.nags, [(8, 6)]);

    let tavreli = one("[Variant \"tavreli\"]\n\n1. b1d2 e7e5 2. d2f3:1 *");
    let t = import_game(&tavreli, Variant::Chess).unwrap();
    assert_eq!((t.variant, t.fen.as_deref()), (Variant::Tavreli, None));
    assert_eq!(t.moves, ["b1d2", "e7e5", "d2f3:1"]);
    // A start FEN with towers: parentheses in a tag are no variation.
    let split =
        one("[FEN \"7k/8/8/8/3(NBR)4/8/8/7K w - - 0 1\"]\n[SetUp \"1\"]\n\n1. d4d8:2 h8h7 0-1");
    let t = import_game(&split, Variant::Tavreli).unwrap();
    assert_eq!(t.fen.as_deref(), Some("7k/8/8/8/3(NBR)4/8/8/7K w - - 0 1"));
    assert_eq!(
        (t.moves.clone(), t.result.as_str()),
        (strings(&["d4d8:2", "h8h7"]), "0-1")
    );
    let wrong = one("[Variant \"tavreli\"]\n\n1. b1d2 e7e5 2. d2f3:3 *");
    assert_eq!(
        import_game(&wrong, Variant::Chess).map_err(|f| f.text),
        Err("ply 3: \"d2f3:3\" is not legal".into())
    );

    let plunder = one("[FEN \"4k3/8/8/3p(b)4/8/2N5/8/4K3 w - - 0 1\"]\n\n1. c3d5p e8d7 *");
    let p = import_game(&plunder, Variant::Plunder).unwrap();
    assert_eq!(
        (p.variant, p.moves.clone()),
        (Variant::Plunder, strings(&["c3d5p", "e8d7"]))
    );
    let promotion = one("[FEN \"3n(r)k3/4P3/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. e7d8qn! e8d8q *");
    assert_eq!(promotion.nags, [(1, 1)]);
    let p = import_game(&promotion, Variant::Plunder).unwrap();
    assert_eq!(p.moves, ["e7d8qn", "e8d8q"]);
}

/// A PGN input made as it is read: game `n` of `total`, the last without
/// its result token.
struct Generated {
    total: usize,
    /// Games made so far, seen by the test to check that reading is lazy.
    made: Rc<Cell<usize>>,
    text: Vec<u8>,
    at: usize,
}

fn generated_game(n: usize, last: bool) -> String {
    let result = if last { "" } else { " 1-0" };
    format!(
        "[Event \"stream\"]\n[Round \"{n}\"]\n[Result \"1-0\"]\n\n\
         1. e4 {{ [%clk 0:01:00] }} 1... e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 $1 Nc6\r\n\
         3. Bb5 a6?!{result}\n\n"
    )
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.text.len() {
            let n = self.made.get();
            if n == self.total {
                return Ok(0);
            }
            self.made.set(n + 1);
            self.text = generated_game(n + 1, n + 1 == self.total).into_bytes();
            self.at = 0;
        }
        let len = buf.len().min(self.text.len() - self.at);
        buf[..len].copy_from_slice(&self.text[self.at..self.at + len]);
        self.at += len;
        Ok(len)
    }
}

#[test]
fn ten_thousand_and_one_games_are_read_as_a_stream() {
    let made = Rc::new(Cell::new(0));
    let input = Generated {
        total: 10_001,
        made: Rc::clone(&made),
        text: Vec::new(),
        at: 0,
    };
    let mut reader = PgnReader::new(BufReader::new(input));
    let first = reader.next().unwrap().unwrap();
    assert_eq!(first.tag("Round"), Some("1"));
    // One buffer's worth of games is made, not the input.
    assert!(made.get() < 100, "{}", made.get());
    let mut count = 1;
    for (i, item) in reader.enumerate() {
        let g = item.unwrap();
        let n = i + 2;
        assert_eq!(g.tag("Round"), Some(n.to_string().as_str()));
        assert_eq!(g.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(g.nags, [(3, 1), (6, 6)]);
        assert_eq!(g.comments, [" [%clk 0:01:00] "]);
        assert_eq!(g.result, "1-0");
        count += 1;
    }
    assert_eq!(count, 10_001);
    assert_eq!(made.get(), 10_001);
}

#[test]
fn what_the_writer_writes_is_read_back() {
    let h = PgnHeader {
        event: "e".into(),
        site: "s".into(),
        date: "2026.12.06".into(),
        time_control: "-".into(),
        variant: Variant::Chess,
    };
    let g = GameRecord {
        round: 1,
        white: "w \"q\"".into(),
        black: "b\\".into(),
        fen: None,
        moves: strings(&["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"]),
        notation: strings(&["e4", "e5", "Nf3", "Qg5", "Nxg5"]),
        result: GameResult::WhiteWins,
        termination: Termination::Normal,
        reason: "Black resigns".into(),
    };
    let notes = Annotations {
        tags: vec![("Hints".into(), "White 1, Black 0".into())],
        moves: vec![
            MoveNote::default(),
            MoveNote {
                nags: vec![2],
                comment: Some("hint: Nf3 (or d4)".into()),
            },
            MoveNote::default(),
            MoveNote {
                nags: vec![4, 18],
                comment: Some("best: Nc6 {x}".into()),
            },
        ],
    };
    let text =
        write_annotated_game(&h, &g, &notes) + &write_annotated_unfinished_game(&h, &g, &notes);
    // A tiny buffer splits lines across reads.
    let back: Vec<_> = PgnReader::new(BufReader::with_capacity(7, text.as_bytes()))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back.len(), 2);
    for (r, result) in back.iter().zip(["1-0", "*"]) {
        assert_eq!(r.tag("White"), Some("w \"q\""));
        assert_eq!(r.tag("Black"), Some("b\\"));
        assert_eq!(r.tag("Hints"), Some("White 1, Black 0"));
        assert_eq!(r.moves, g.notation);
        assert_eq!(r.nags, [(2, 2), (4, 4), (4, 18)]);
        assert_eq!(
            r.comments,
            ["hint: Nf3 (or d4)", "best: Nc6 {x)", "Black resigns"]
        );
        assert_eq!(r.result, result);
    }
    assert_eq!(read_pgn(&text).unwrap(), back);
}

/// Pieces of PGN and of things that break it.
const PIECES: &[&[u8]] = &[
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"(",
    b")",
    b";",
    b"%",
    b"$",
    b"$1",
    b"$300",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b"\n",
    b"\r\n",
    b"\r",
    b" ",
    b"\t",
    b"e4",
    b"Nf3",
    b"O-O",
    b"0-0",
    b"d4d8:2",
    b"c3d5p",
    b"12.",
    b"12...",
    b"!?",
    b"??",
    b"!",
    b"[Event \"x\"]",
    b"[Result \"1-0\"]\n",
    b"[Variant \"tavreli\"]\n",
    b"[FEN \"7k/8/8/8/3(NBR)4/8/8/7K w - - 0 1\"]\n",
    b"[%clk 0:01:00]",
    b"\xef\xbb\xbf",
    "é".as_bytes(),
    "\u{a0}".as_bytes(),
    b"\xff",
    b"\xc3",
];

/// Reading never panics, numbers every item, keeps variation and comment
/// brackets out of moves, and does not depend on how the input is split.
fn check(bytes: &[u8], buffer: usize) {
    let whole: Vec<_> = PgnReader::new(bytes).collect();
    for (i, item) in whole.iter().enumerate() {
        match item {
            Ok(g) => {
                for m in &g.moves {
                    assert!(!m.is_empty() && !m.contains(['(', ')', '{', '}']), "{m:?}");
                    assert!(!m.contains(char::is_whitespace), "{m:?}");
                }
            }
            Err(e) => assert_eq!(e.game, i + 1),
        }
    }
    let split: Vec<_> = PgnReader::new(BufReader::with_capacity(buffer, bytes)).collect();
    assert_eq!(whole, split);
    if let Ok(text) = std::str::from_utf8(bytes) {
        let _ = read_pgn(text);
        let _ = import(text, Variant::Chess);
    }
}

proptest! {
    #[test]
    fn any_text_is_read_without_panic(text in any::<String>(), buffer in 1usize..32) {
        check(text.as_bytes(), buffer);
    }

    #[test]
    fn pgn_soup_is_read_without_panic(
        pieces in prop::collection::vec(prop::sample::select(PIECES), 0..300),
        buffer in 1usize..32,
    ) {
        check(&pieces.concat(), buffer);
    }
}
