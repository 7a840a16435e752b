//! The evaluation networks of every variant: one quantised network type
//! ([`Network`], chess's shape: one hidden layer per view, as wide as its
//! file says, squared clipped ReLU, one output, a linear term per input), read
//! from one file layout, generic over the inputs a variant's [`Features`]
//! switch on. Each feature set lives with its variant (chess in
//! `crate::nnue`, PlunderChess in `crate::plunder::features`, Tavreli in
//! `crate::tavreli::features`; tabled in `docs/networks.md`), so this
//! module knows no variant.
//!
//! A network is a **correction** added to the variant's hand-written
//! evaluation, trained by `volkhv-nnue --variant V` and embedded from
//! `eval/params/<variant>.nnue` (`embedded_network!`). An empty file
//! means no network: the correction is then 0 and the variant plays on its
//! hand-written evaluation alone, which is how a network waits for the
//! SPRT that keeps it.
//!
//! Each thread keeps the [`Accumulators`] of the last position it
//! evaluated and moves them to the next one square by square; the sums are
//! exact, so the evaluation stays a pure function of the position.

mod accumulators;
mod features;
mod file;
mod network;

pub use accumulators::Accumulators;
pub use features::{active_inputs, Features};
pub(crate) use features::{differing, oriented, theirs};
pub use file::{check_file, embedded, FileError};
pub use network::{Network, HIDDEN, MAX_HIDDEN, QA, QB, SCALE};

impl Network {
    /// The network's output in centipawns for the side to move, built from
    /// an empty board.
    #[must_use]
    pub fn evaluate<P: Features>(&self, pos: &P) -> i32 {
        let mut acc = Accumulators::<P>::empty(self);
        acc.update(self, pos);
        acc.output(self, pos.turn())
    }
}

/// The variants that carry a network of their own: the embedded file and
/// the thread's last accumulators (made by `embedded_network!`).
pub trait Embedded: Features + Sized {
    /// The embedded network, `None` while the file is empty.
    fn network() -> Option<&'static Network>;

    /// Runs `f` on this thread's accumulators of the last position.
    fn with_last<R>(f: impl FnOnce(&mut Option<Accumulators<Self>>) -> R) -> R;
}

/// `Embedded` for a position type, from its network file's bytes
/// (`include_bytes!` where the variant's module names its file): the
/// network read once, and a thread-local for its accumulators.
macro_rules! embedded_network {
    ($pos:ty, $bytes:expr) => {
        impl $crate::nets::Embedded for $pos {
            fn network() -> Option<&'static $crate::nets::Network> {
                static NETWORK: std::sync::LazyLock<Option<$crate::nets::Network>> =
                    std::sync::LazyLock::new(|| {
                        $crate::nets::embedded(
                            $bytes,
                            <$pos as $crate::nets::Features>::MAGIC,
                            <$pos as $crate::nets::Features>::INPUTS,
                        )
                    });
                NETWORK.as_ref()
            }

            fn with_last<R>(
                f: impl FnOnce(&mut Option<$crate::nets::Accumulators<$pos>>) -> R,
            ) -> R {
                thread_local! {
                    static LAST: std::cell::RefCell<Option<$crate::nets::Accumulators<$pos>>> =
                        const { std::cell::RefCell::new(None) };
                }
                LAST.with_borrow_mut(f)
            }
        }
    };
}
pub(crate) use embedded_network;

/// The embedded network's correction for `pos` (side to move's view), 0
/// when the variant has no network.
#[must_use]
#[inline]
pub fn correction<P: Embedded>(pos: &P) -> i32 {
    match P::network() {
        Some(net) => evaluate_with(net, pos),
        None => 0,
    }
}

/// `net`'s output for `pos` through this thread's accumulators.
fn evaluate_with<P: Embedded>(net: &Network, pos: &P) -> i32 {
    P::with_last(|last| {
        let acc = last.get_or_insert_with(|| Accumulators::empty(net));
        acc.update(net, pos);
        acc.output(net, pos.turn())
    })
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
