//! The binary data format: a file header, then one fixed-size
//! [`RECORD_BYTES`]-byte record per position (layout in `docs/tuning.md`,
//! "Binary data"). A record packs the board (every piece with its
//! PlunderChess vest or its place in a Tavreli tower), the other FEN
//! fields, the search's score, the game's result and the index of the game
//! in its run (which lets `volkhv datagen` resume a run).
//!
//! Packing reads the FEN text in the variant's board grammar and unpacking
//! writes it back the way the engine writes FENs, so a record of a FEN the
//! engine wrote unpacks to the same text.

use crate::Record;
use movegen::Variant;

/// A binary data file's first bytes.
pub const MAGIC: &[u8; 8] = b"VOLKDAT1";
/// Bytes per record.
pub const RECORD_BYTES: usize = 64;
/// Most pieces a record holds (the whole set).
pub const MAX_PIECES: usize = 32;
/// The game index of a record converted from text, whose games are unknown.
pub const UNKNOWN_GAME: u32 = u32::MAX;

/// How a variant's FEN writes what stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    /// One piece letter.
    Pieces,
    /// A piece letter and its vest, `N(B)` (PlunderChess).
    Vests,
    /// A tower `( … )` bottom to top, pawns `P=X`, promoted pawns `Q~`
    /// (Tavreli).
    Towers,
}

impl Grammar {
    /// The grammar of `variant`'s FENs (a new variant must say which).
    #[must_use]
    pub const fn of(variant: Variant) -> Grammar {
        match variant {
            Variant::Chess => Grammar::Pieces,
            Variant::Plunder => Grammar::Vests,
            Variant::Tavreli => Grammar::Towers,
        }
    }
}

/// Piece kinds (the low 4 bits of a piece byte): K Q R B N H, then a pawn
/// promoting to N B R Q H, then a promoted pawn moving as N B R Q H (as
/// Tavreli's towers code them). Chess and plunder pawns are kind 9.
const KIND_LETTERS: &[u8; 6] = b"KQRBNH";
const PAWN0: u8 = 6;
const PROMOTED0: u8 = 11;
/// The promotion pieces in kind order.
const PROMOS: &[u8; 5] = b"NBRQH";
/// Vest letters: vest code `v` (1..=5) is `VESTS[v - 1]`.
const VESTS: &[u8; 5] = b"PNBRQ";

/// One piece of a record: colour, kind and vest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    black: bool,
    kind: u8,
    vest: u8,
}

impl Piece {
    fn byte(self) -> u8 {
        self.kind | u8::from(self.black) << 4 | self.vest << 5
    }

    fn from_byte(b: u8) -> Piece {
        Piece {
            black: b & 16 != 0,
            kind: b & 15,
            vest: b >> 5,
        }
    }

    fn case(self, letter: u8) -> char {
        char::from(if self.black {
            letter.to_ascii_lowercase()
        } else {
            letter
        })
    }
}

/// The promotion piece of a Tavreli pawn on `file` (0 = a) when its token
/// names none: the piece that starts on that file.
fn home_piece(file: usize) -> u8 {
    b"RNBQHBNR"[file]
}

/// Reads one piece token at the start of `s` on `file`: the piece and the
/// bytes read.
fn read_piece(s: &[u8], file: usize, grammar: Grammar) -> Result<(Piece, usize), String> {
    let c = s[0];
    let black = c.is_ascii_lowercase();
    let upper = c.to_ascii_uppercase();
    let quote = || String::from_utf8_lossy(&s[..s.len().min(4)]).into_owned();
    let mut piece = Piece {
        black,
        kind: 0,
        vest: 0,
    };
    let mut used = 1;
    if upper == b'P' {
        let promo = match (grammar, s.get(1)) {
            (Grammar::Towers, Some(b'=')) => {
                used = 3;
                s.get(2).map(u8::to_ascii_uppercase)
            }
            (Grammar::Towers, _) => Some(home_piece(file)),
            _ => Some(b'Q'),
        };
        let at = promo.and_then(|p| PROMOS.iter().position(|&x| x == p));
        piece.kind = PAWN0 + at.ok_or_else(|| format!("bad pawn token \"{}\"", quote()))? as u8;
    } else {
        let at = KIND_LETTERS.iter().position(|&x| x == upper);
        piece.kind = at.ok_or_else(|| format!("bad piece letter in \"{}\"", quote()))? as u8;
        if grammar == Grammar::Towers && s.get(1) == Some(&b'~') {
            let promo = PROMOS.iter().position(|&x| x == upper);
            piece.kind =
                PROMOTED0 + promo.ok_or_else(|| format!("bad token \"{}\"", quote()))? as u8;
            used = 2;
        }
    }
    if grammar == Grammar::Vests && s.get(1) == Some(&b'(') {
        let vest = s.get(2).map(u8::to_ascii_uppercase);
        let at = vest.and_then(|v| VESTS.iter().position(|&x| x == v));
        match (at, s.get(3)) {
            (Some(v), Some(b')')) => piece.vest = v as u8 + 1,
            _ => return Err(format!("bad vest \"{}\"", quote())),
        }
        used = 4;
    }
    Ok((piece, used))
}

/// The FEN token of `piece` on `file`.
fn write_piece(piece: Piece, file: usize, grammar: Grammar, out: &mut String) {
    let k = piece.kind;
    if (PAWN0..PROMOTED0).contains(&k) {
        out.push(piece.case(b'P'));
        let promo = PROMOS[usize::from(k - PAWN0)];
        if grammar == Grammar::Towers && promo != home_piece(file) {
            out.push('=');
            out.push(piece.case(promo));
        }
    } else if k >= PROMOTED0 {
        out.push(piece.case(PROMOS[usize::from(k - PROMOTED0)]));
        out.push('~');
    } else {
        out.push(piece.case(KIND_LETTERS[usize::from(k)]));
    }
    if piece.vest > 0 {
        out.push('(');
        out.push(piece.case(VESTS[usize::from(piece.vest - 1)]));
        out.push(')');
    }
}

/// The stacks of a FEN board field by square (a1 = 0), bottom to top.
fn read_board(field: &str, grammar: Grammar) -> Result<Vec<Vec<Piece>>, String> {
    let mut squares = vec![Vec::new(); 64];
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("{} ranks in the board field", ranks.len()));
    }
    for (row, rank) in ranks.iter().enumerate() {
        let (bytes, mut i, mut file) = (rank.as_bytes(), 0, 0);
        while i < bytes.len() {
            if file >= 8 {
                return Err(format!("rank {} is longer than 8 squares", 8 - row));
            }
            let sq = (7 - row) * 8 + file;
            match bytes[i] {
                d @ b'1'..=b'8' => {
                    file += usize::from(d - b'0');
                    i += 1;
                    continue;
                }
                b'(' if grammar == Grammar::Towers => {
                    let end = bytes[i..].iter().position(|&b| b == b')');
                    let end = i + end.ok_or("a tower without its \")\"")?;
                    let mut j = i + 1;
                    while j < end {
                        let (piece, used) = read_piece(&bytes[j..end], file, grammar)?;
                        squares[sq].push(piece);
                        j += used;
                    }
                    i = end + 1;
                }
                _ => {
                    let (piece, used) = read_piece(&bytes[i..], file, grammar)?;
                    squares[sq].push(piece);
                    i += used;
                }
            }
            file += 1;
        }
        if file != 8 {
            return Err(format!("rank {} has {file} squares", 8 - row));
        }
    }
    Ok(squares)
}

/// The FEN board field of `squares`.
fn write_board(squares: &[Vec<Piece>], grammar: Grammar) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let stack = &squares[rank * 8 + file];
            if stack.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            let tower = stack.len() > 1;
            if tower {
                s.push('(');
            }
            for &p in stack {
                write_piece(p, file, grammar, &mut s);
            }
            if tower {
                s.push(')');
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Castling rights in `KQkq` order, one bit each.
const CASTLING: &[u8; 4] = b"KQkq";

fn read_castling(field: &str) -> Result<u8, String> {
    if field == "-" {
        return Ok(0);
    }
    let mut bits = 0u8;
    for c in field.bytes() {
        let at = CASTLING.iter().position(|&x| x == c);
        bits |= 1 << at.ok_or_else(|| format!("castling field \"{field}\" is not KQkq"))?;
    }
    Ok(bits)
}

fn write_castling(bits: u8) -> String {
    let s: String = (0..4)
        .filter(|i| bits & 1 << i != 0)
        .map(|i| char::from(CASTLING[i]))
        .collect();
    if s.is_empty() {
        "-".to_string()
    } else {
        s
    }
}

fn read_square(field: &str) -> Result<u8, String> {
    match field.as_bytes() {
        b"-" => Ok(0),
        &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(1 + (r - b'1') * 8 + (f - b'a')),
        _ => Err(format!("en-passant field \"{field}\" is not a square")),
    }
}

fn write_square(code: u8) -> String {
    match code {
        0 => "-".to_string(),
        c => format!(
            "{}{}",
            char::from(b'a' + (c - 1) % 8),
            char::from(b'1' + (c - 1) / 8)
        ),
    }
}

/// Packs `record` of game `game` (in its run) into its bytes.
///
/// # Errors
/// A FEN that does not read in `grammar`, more than [`MAX_PIECES`]
/// pieces, or a clock beyond 65535.
pub fn pack(record: &Record, game: u32, grammar: Grammar) -> Result<[u8; RECORD_BYTES], String> {
    let fields: Vec<&str> = record.fen.split_whitespace().collect();
    let [board, side, castling, ep, half, full] = fields[..] else {
        return Err(format!("\"{}\" does not have six FEN fields", record.fen));
    };
    let squares = read_board(board, grammar)?;
    let mut out = [0u8; RECORD_BYTES];
    let (mut occupied, mut starts, mut n) = (0u64, 0u32, 0usize);
    for (sq, stack) in squares.iter().enumerate() {
        if stack.is_empty() {
            continue;
        }
        occupied |= 1 << sq;
        if n + stack.len() > MAX_PIECES {
            return Err(format!("more than {MAX_PIECES} pieces"));
        }
        starts |= 1 << n;
        for p in stack {
            out[12 + n] = p.byte();
            n += 1;
        }
    }
    out[..8].copy_from_slice(&occupied.to_le_bytes());
    out[8..12].copy_from_slice(&starts.to_le_bytes());
    let black = match side {
        "w" => 0,
        "b" => 1,
        s => return Err(format!("side to move \"{s}\" is not w or b")),
    };
    out[44] = black | read_castling(castling)? << 1;
    out[45] = read_square(ep)?;
    let clock = |s: &str| {
        s.parse::<u16>()
            .map_err(|_| format!("clock \"{s}\" is not 0..65535"))
    };
    out[46..48].copy_from_slice(&clock(half)?.to_le_bytes());
    out[48..50].copy_from_slice(&clock(full)?.to_le_bytes());
    out[50..54].copy_from_slice(&record.score.to_le_bytes());
    out[54] = match record.result {
        0.0 => 0,
        0.5 => 1,
        1.0 => 2,
        r => return Err(format!("result {r} is not 0, 0.5 or 1")),
    };
    out[55] = n as u8;
    out[56..60].copy_from_slice(&game.to_le_bytes());
    Ok(out)
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Marks a packed record as the last of its game (byte 60, bit 0), which
/// tells a resumed run that the game is whole.
pub fn mark_last(bytes: &mut [u8; RECORD_BYTES]) {
    bytes[60] |= 1;
}

/// `true` if a packed record is the last of its game.
#[must_use]
pub fn is_last(bytes: &[u8; RECORD_BYTES]) -> bool {
    bytes[60] & 1 != 0
}

/// The game index of a packed record.
#[must_use]
pub fn game_of(bytes: &[u8; RECORD_BYTES]) -> u32 {
    le_u32(&bytes[56..60])
}

/// The record packed in `bytes`, with its game index.
///
/// # Errors
/// Bytes that are not a record (piece count, stacks or fields out of range).
pub fn unpack(bytes: &[u8; RECORD_BYTES], grammar: Grammar) -> Result<(Record, u32), String> {
    let occupied = u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default());
    let starts = le_u32(&bytes[8..12]);
    let n = usize::from(bytes[55]);
    let stray_starts = n < 32 && starts >> n != 0;
    if n > MAX_PIECES
        || stray_starts
        || (n > 0) != (starts & 1 == 1)
        || occupied.count_ones() != starts.count_ones()
    {
        return Err("a record whose pieces and squares disagree".to_string());
    }
    if bytes[12..12 + n].iter().any(|&b| b >> 5 > 5) {
        return Err("a record with a vest out of range".to_string());
    }
    let mut squares = vec![Vec::new(); 64];
    let mut piece = 0;
    for sq in (0..64).filter(|sq| occupied >> sq & 1 != 0) {
        loop {
            squares[sq].push(Piece::from_byte(bytes[12 + piece]));
            piece += 1;
            if piece >= n || starts >> piece & 1 != 0 {
                break;
            }
        }
    }
    if bytes[45] > 64 || bytes[44] >> 5 != 0 || bytes[54] > 2 {
        return Err("a record with a field out of range".to_string());
    }
    let clock = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let fen = format!(
        "{} {} {} {} {} {}",
        write_board(&squares, grammar),
        if bytes[44] & 1 == 0 { 'w' } else { 'b' },
        write_castling(bytes[44] >> 1),
        write_square(bytes[45]),
        clock(46),
        clock(48)
    );
    let record = Record {
        fen,
        score: i32::from_le_bytes([bytes[50], bytes[51], bytes[52], bytes[53]]),
        result: f64::from(bytes[54]) / 2.0,
    };
    Ok((record, game_of(bytes)))
}

/// A binary file's header: its variant and the text of the run that wrote
/// it (the `# volkhv datagen ...` line(s)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant of every record.
    pub variant: Variant,
    /// Comment lines, `\n`-separated, each starting with `#`.
    pub text: String,
}

impl Header {
    /// The header's bytes: [`MAGIC`], the variant's name NUL-padded to 16
    /// bytes, the text's length as a little-endian `u32`, the text.
    #[must_use]
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let mut name = [0u8; 16];
        let v = self.variant.name().as_bytes();
        name[..v.len().min(16)].copy_from_slice(&v[..v.len().min(16)]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&(self.text.len() as u32).to_le_bytes());
        out.extend_from_slice(self.text.as_bytes());
        out
    }

    /// Reads the header at the start of `bytes`: the header and its length.
    ///
    /// # Errors
    /// Not a binary data file, an unknown variant or a truncated header.
    pub fn read(bytes: &[u8]) -> Result<(Header, usize), String> {
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or("not a binary data file (bad magic)")?;
        if body.len() < 20 {
            return Err("truncated header".to_string());
        }
        let name = String::from_utf8_lossy(&body[..16]);
        let name = name.trim_end_matches('\0');
        let variant =
            Variant::from_name(name).ok_or_else(|| format!("unknown variant \"{name}\""))?;
        let len = le_u32(&body[16..20]) as usize;
        let text = body.get(20..20 + len).ok_or("truncated header")?;
        let text = String::from_utf8(text.to_vec()).map_err(|_| "header text is not UTF-8")?;
        Ok((Header { variant, text }, MAGIC.len() + 20 + len))
    }
}

/// `true` if `bytes` start as a binary data file.
#[must_use]
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// A whole binary file's records (with their game indices).
///
/// # Errors
/// A bad header, a length that is not a whole number of records, or a bad
/// record (its number named).
pub fn read_all(bytes: &[u8]) -> Result<(Header, Vec<(Record, u32)>), String> {
    let (header, start) = Header::read(bytes)?;
    let body = &bytes[start..];
    if !body.len().is_multiple_of(RECORD_BYTES) {
        return Err(format!(
            "{} bytes after the header, not a whole number of {RECORD_BYTES}-byte records",
            body.len()
        ));
    }
    let grammar = Grammar::of(header.variant);
    let records = body
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            let bytes: &[u8; RECORD_BYTES] = chunk.try_into().unwrap_or(&[0; RECORD_BYTES]);
            unpack(bytes, grammar).map_err(|e| format!("record {}: {e}", i + 1))
        })
        .collect::<Result<_, _>>()?;
    Ok((header, records))
}

/// The variant a text file's `# volkhv datagen --variant V` line names.
#[must_use]
pub fn variant_of_text(text: &str) -> Option<Variant> {
    text.lines().filter(|l| l.starts_with('#')).find_map(|l| {
        let mut words = l.split_whitespace();
        words.find(|&w| w == "--variant")?;
        Variant::from_name(words.next()?)
    })
}

/// Text data (`FEN | score | result` lines) as a binary file: the comment
/// lines before the first record become the header; `variant` where no
/// `--variant` line names it. Returns the bytes and how many later
/// comment lines were left out.
///
/// # Errors
/// No variant, a bad line or a position that does not pack (line named).
pub fn text_to_binary(text: &str, variant: Option<Variant>) -> Result<(Vec<u8>, usize), String> {
    let variant = variant
        .or_else(|| variant_of_text(text))
        .ok_or("no \"# volkhv datagen --variant V\" line: name the variant")?;
    let grammar = Grammar::of(variant);
    let (mut head, mut records, mut dropped) = (Vec::new(), Vec::new(), 0);
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            if records.is_empty() {
                head.push(line);
            } else {
                dropped += 1;
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: String| format!("line {}: {e}", n + 1);
        let record = Record::parse(line).map_err(at)?;
        records.push(pack(&record, UNKNOWN_GAME, grammar).map_err(at)?);
    }
    let mut out = Header {
        variant,
        text: head.join("\n"),
    }
    .bytes();
    records.iter().for_each(|r| out.extend_from_slice(r));
    Ok((out, dropped))
}

/// A binary file as text: its header's lines, then one line per record.
///
/// # Errors
/// As [`read_all`].
pub fn binary_to_text(bytes: &[u8]) -> Result<String, String> {
    let (header, records) = read_all(bytes)?;
    let mut out = String::new();
    for line in header.text.lines() {
        out.push_str(line);
        out.push('\n');
    }
    for (r, _) in records {
        out.push_str(&r.line());
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str, variant: Variant) {
        let r = Record {
            fen: fen.to_string(),
            score: -1234,
            result: 0.5,
        };
        let bytes = pack(&r, 7, Grammar::of(variant)).unwrap();
        assert_eq!(unpack(&bytes, Grammar::of(variant)), Ok((r, 7)), "{fen}");
    }

    #[test]
    fn positions_of_each_variant_round_trip() {
        round_trip(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            Variant::Chess,
        );
        round_trip("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 12 40", Variant::Chess);
        round_trip("k7/8/8/8/3N(B)4/8/8/7K w - - 0 1", Variant::Plunder);
        round_trip(
            "rn(p)bqkb1r/8/8/8/8/8/8/RNBQK(Q)BNR b KQkq - 3 9",
            Variant::Plunder,
        );
        round_trip("4k3/8/8/3(P=RP=Hr)4/8/8/8/4K3 w - - 0 1", Variant::Tavreli);
        round_trip("4k3/8/8/3(PPr)Q~3/8/8/8/4K3 b - - 5 77", Variant::Tavreli);
        round_trip(
            "rnbqhbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQHBNR w KQkq - 0 1",
            Variant::Tavreli,
        );
    }

    #[test]
    fn a_tower_of_all_thirty_two_pieces_packs() {
        let tower = "(".to_string() + &"PNBRQHBN".repeat(2) + &"pnbrqhbn".repeat(2) + ")";
        let fen = format!("8/8/8/3{tower}4/8/8/8/8 w - - 0 1");
        round_trip(&fen, Variant::Tavreli);
        let too_many = format!("8/8/8/3{tower}P3/8/8/8/8 w - - 0 1");
        let r = Record {
            fen: too_many,
            score: 0,
            result: 0.0,
        };
        assert!(pack(&r, 0, Grammar::Towers)
            .unwrap_err()
            .contains("more than 32"));
    }

    #[test]
    fn bad_input_is_an_error() {
        let bad = |fen: &str, g: Grammar| {
            let r = Record {
                fen: fen.to_string(),
                score: 0,
                result: 1.0,
            };
            pack(&r, 0, g).unwrap_err()
        };
        assert!(bad("8/8/8 w - - 0 1", Grammar::Pieces).contains("ranks"));
        assert!(bad("18/8/8/8/8/8/8/8 w - - 0 1", Grammar::Pieces).contains("rank 8"));
        assert!(bad("x7/8/8/8/8/8/8/8 w - - 0 1", Grammar::Pieces).contains("piece letter"));
        assert!(bad("N(x)7/8/8/8/8/8/8/8 w - - 0 1", Grammar::Vests).contains("vest"));
        assert!(bad("(PP7/8/8/8/8/8/8/8 w - - 0 1", Grammar::Towers).contains("tower"));
        assert!(bad("8/8/8/8/8/8/8/8 x - - 0 1", Grammar::Pieces).contains("side"));
        assert!(bad("8/8/8/8/8/8/8/8 w - - 0 99999", Grammar::Pieces).contains("clock"));
        assert!(bad("8/8/8/8/8/8/8/8 w - - 0", Grammar::Pieces).contains("six FEN fields"));
        let mut garbage = [0xffu8; RECORD_BYTES];
        assert!(unpack(&garbage, Grammar::Pieces).is_err());
        garbage[55] = 0;
        assert!(unpack(&garbage, Grammar::Pieces).is_err());
        assert!(read_all(b"VOLKDAT1").is_err());
        assert!(read_all(b"nonsense").is_err());
    }

    #[test]
    fn files_round_trip_text_binary_text() {
        let text =
            "# volkhv datagen --variant plunder --games 1 --nodes 5 --random-plies 8 --seed 0\n\
                    k7/8/8/8/3N(B)4/8/8/7K w - - 0 1 | 31 | 1.0\n\
                    k7/8/8/8/8/8/8/6NK b - - 1 1 | -2 | 0.0\n";
        let (bytes, dropped) = text_to_binary(text, None).unwrap();
        assert_eq!(dropped, 0);
        assert_eq!(
            bytes.len(),
            Header::read(&bytes).unwrap().1 + 2 * RECORD_BYTES
        );
        assert_eq!(binary_to_text(&bytes).unwrap(), text);
        assert!(
            text_to_binary("k7/8/8/8/8/8/8/7K w - - 0 1 | 1 | 0.5\n", None)
                .unwrap_err()
                .contains("name the variant")
        );
        assert!(binary_to_text(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("whole number"));
    }

    /// The FENs along seeded random games of `variant`.
    fn random_fens(variant: Variant, games: usize) -> Vec<String> {
        use movegen::{with_variant, MoveList, Position, SplitMix};
        let mut rng = SplitMix::new(5);
        let mut fens = Vec::new();
        with_variant!(variant, P => {
            for _ in 0..games {
                let mut pos = P::startpos();
                for _ in 0..200 {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[rng.below(moves.len())]);
                    fens.push(pos.fen());
                }
            }
        });
        fens
    }

    #[test]
    fn the_engines_fens_round_trip_in_every_variant() {
        for variant in Variant::ALL {
            let fens = random_fens(variant, 20);
            assert!(fens.len() > 1000);
            for (i, fen) in fens.iter().enumerate() {
                let r = Record {
                    fen: fen.clone(),
                    score: i as i32 - 500,
                    result: (i % 3) as f64 / 2.0,
                };
                let bytes = pack(&r, i as u32, Grammar::of(variant)).unwrap();
                assert_eq!(unpack(&bytes, Grammar::of(variant)), Ok((r, i as u32)));
            }
        }
    }

    #[test]
    fn damaged_records_never_panic() {
        let mut rng = movegen::SplitMix::new(3);
        let fen = "4k3/8/8/3(P=RP=Hr)4/8/8/8/4K3 w - - 0 1".to_string();
        let r = Record {
            fen,
            score: 1,
            result: 1.0,
        };
        let good = pack(&r, 0, Grammar::Towers).unwrap();
        for _ in 0..20_000 {
            let mut bytes = good;
            for _ in 0..1 + rng.below(4) {
                bytes[rng.below(RECORD_BYTES)] = rng.next_u64() as u8;
            }
            for g in [Grammar::Pieces, Grammar::Vests, Grammar::Towers] {
                let _ = unpack(&bytes, g);
            }
        }
    }
}
