//! The network file (`docs/networks.md`): an 8-byte magic naming the
//! feature set, the hidden width as a little-endian `u32`, then
//! little-endian `i16`s (one row of that width per input, the hidden
//! biases, the two output halves) and `i32`s (the output bias, one linear
//! value per input). Every variant's file has this layout; the checks are
//! a `const fn` so that chess's file, which a build may take from
//! `EVALFILE`, is refused while compiling.

use super::network::{Network, MAX_HIDDEN};

/// Why a network file is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileError {
    /// It does not begin with the expected magic.
    Magic,
    /// It ends inside the hidden width.
    Header,
    /// Its hidden width, 0 or above [`MAX_HIDDEN`].
    Width(usize),
    /// Its bytes of weights, not the layout's.
    Length {
        /// Bytes after the header.
        found: usize,
        /// What the layout has.
        expected: usize,
    },
    /// An output weight outside −127…127: the output layer multiplies it
    /// by activations up to 255 in 16 bits.
    OutputWeight,
}

impl FileError {
    /// The refusal in words, for a file meant to start with `magic`.
    #[must_use]
    pub fn describe(self, magic: &[u8; 8]) -> String {
        match self {
            FileError::Magic => format!(
                "not a {} network file (bad magic)",
                String::from_utf8_lossy(magic)
            ),
            FileError::Header => "truncated header".to_string(),
            FileError::Width(width) => {
                format!("hidden width {width}, outside 1..={MAX_HIDDEN}")
            }
            FileError::Length { found, expected } => {
                format!("{found} bytes of weights, the layout has {expected}")
            }
            FileError::OutputWeight => "an output weight outside -127..=127".to_string(),
        }
    }
}

/// Bytes of the magic and the width.
const HEADER: usize = 12;

/// The `i16`s of a network of `inputs` inputs and `width` hidden units:
/// input rows, biases, two output halves.
const fn shorts(inputs: usize, width: usize) -> usize {
    (inputs + 1 + 2) * width
}

/// The hidden width a file's header gives (0 when it has none).
fn width_of(bytes: &[u8]) -> usize {
    bytes
        .get(8..HEADER)
        .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize)
}

/// Checks `bytes` as a network file of `magic` with `inputs` inputs.
///
/// # Errors
/// The first check it fails, in the order of [`FileError`].
pub const fn check_file(bytes: &[u8], magic: &[u8; 8], inputs: usize) -> Result<(), FileError> {
    let Some((head, rest)) = bytes.split_first_chunk::<8>() else {
        return Err(FileError::Magic);
    };
    if u64::from_le_bytes(*head) != u64::from_le_bytes(*magic) {
        return Err(FileError::Magic);
    }
    let Some((width, body)) = rest.split_first_chunk::<4>() else {
        return Err(FileError::Header);
    };
    let width = u32::from_le_bytes(*width) as usize;
    if width == 0 || width > MAX_HIDDEN {
        return Err(FileError::Width(width));
    }
    let expected = shorts(inputs, width) * 2 + 4 + inputs * 4;
    if body.len() != expected {
        return Err(FileError::Length {
            found: body.len(),
            expected,
        });
    }
    let mut at = (inputs + 1) * width * 2;
    while at < shorts(inputs, width) * 2 {
        let w = i16::from_le_bytes([body[at], body[at + 1]]);
        if w < -127 || w > 127 {
            return Err(FileError::OutputWeight);
        }
        at += 2;
    }
    Ok(())
}

impl Network {
    /// Reads a network file of `magic` with `inputs` inputs.
    ///
    /// # Errors
    /// The refusal of [`check_file`], in words.
    pub fn from_bytes(bytes: &[u8], magic: &[u8; 8], inputs: usize) -> Result<Network, String> {
        check_file(bytes, magic, inputs).map_err(|e| e.describe(magic))?;
        let width = width_of(bytes);
        let (shorts, ints) = bytes[HEADER..].split_at(shorts(inputs, width) * 2);
        let mut values = shorts
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
        let input = take(inputs * width);
        let bias = take(width);
        let output = [take(width), take(width)];
        let mut ints = ints
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let output_bias = ints.next().unwrap_or(0);
        Ok(Network {
            width,
            input,
            bias,
            output,
            output_bias,
            psqt: ints.collect(),
        })
    }
}

/// An embedded network file: `None` when empty (no network yet).
///
/// # Panics
/// A malformed non-empty file (a test reads every embedded file).
#[must_use]
pub fn embedded(bytes: &[u8], magic: &[u8; 8], inputs: usize) -> Option<Network> {
    if bytes.is_empty() {
        return None;
    }
    match Network::from_bytes(bytes, magic, inputs) {
        Ok(net) => Some(net),
        Err(e) => panic!("the embedded network is malformed: {e}"),
    }
}
