//! The transposition table shared by all search threads: lock-free,
//! `Relaxed` atomics, racy by design. Each slot stores `key ^ data` beside
//! `data`, so a torn write (two threads storing at once) reads as a miss
//! rather than as another position's entry.
//!
//! Slots come in clusters of four (one 64-byte cache line); a key picks its
//! cluster by multiply-high and may live in any of the four slots.

use bytemuck::Zeroable;
use movegen::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (fail high).
    Lower,
    /// The true value is at most the score (fail low).
    Upper,
    /// The score is exact (PV node).
    Exact,
}

/// An entry as the search uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Best or refutation move (unverified: check it is legal before use).
    pub mv: Option<Move>,
    /// Score, with mate scores relative to this node (see `search::score`).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// Search generation (6 bits) that wrote the entry.
    pub age: u8,
}

/// Packing of `data`:
///
/// ```text
/// bits  0..28  move bits (0 = none; Move uses 28 bits)
/// bits 28..44  score + 32768 (u16)
/// bits 44..52  depth + 16 (u8; qsearch stores depth 0 or below)
/// bits 52..54  bound (1 upper, 2 lower, 3 exact; 0 = empty slot)
/// bits 54..60  age
/// ```
impl Entry {
    /// The packed form; never zero (the bound field is non-zero).
    #[must_use]
    pub fn pack(self) -> u64 {
        let mv = u64::from(self.mv.map_or(0, Move::bits) & 0x0FFF_FFFF);
        let score = u64::from((self.score.clamp(-32767, 32767) + 32768) as u16);
        let depth = u64::from((self.depth.clamp(-16, 239) + 16) as u8);
        let bound = match self.bound {
            Bound::Upper => 1u64,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        mv | score << 28 | depth << 44 | bound << 52 | u64::from(self.age & 63) << 54
    }

    /// Reads a packed entry; `None` for an empty slot.
    #[must_use]
    pub fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 52) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_bits((data & 0x0FFF_FFFF) as u32),
            score: ((data >> 28) & 0xFFFF) as i32 - 32768,
            depth: ((data >> 44) & 0xFF) as i32 - 16,
            bound,
            age: ((data >> 54) & 63) as u8,
        })
    }
}

#[derive(Default, Zeroable)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Slots per cluster: four 16-byte slots fill one 64-byte cache line.
const CLUSTER: usize = 4;
/// Bytes of a cluster.
const CLUSTER_BYTES: usize = CLUSTER * std::mem::size_of::<Slot>();
const _: () = assert!(CLUSTER_BYTES == 64);

/// Asks the kernel to back the table with 2 MiB pages where it can: a
/// probe lands on a random cache line of a table far bigger than the TLB
/// covers with 4 KiB pages, so most probes would also miss the TLB. Only
/// a hint (Linux with transparent huge pages in `madvise` or `always`
/// mode); elsewhere, or when refused, the table keeps ordinary pages.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(slots: &[Slot]) {
    const PAGE: usize = 4096;
    const HUGE_PAGE: usize = 2 << 20;
    let start = slots.as_ptr() as usize;
    let end = start + std::mem::size_of_val(slots);
    let aligned = start.next_multiple_of(PAGE);
    // A range shorter than one huge page cannot be given one.
    if end.saturating_sub(aligned) < HUGE_PAGE {
        return;
    }
    // SAFETY: `[aligned, end)` lies inside the live allocation behind
    // `slots` (aligned up, never past `end`), and MADV_HUGEPAGE changes
    // neither the contents nor the validity of that memory, only the page
    // size the kernel maps it with; no Rust reference is invalidated. A
    // failure (an old kernel, THP off) is harmless and ignored.
    unsafe {
        libc::madvise(
            aligned as *mut libc::c_void,
            end - aligned,
            libc::MADV_HUGEPAGE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_slots: &[Slot]) {}

/// The shared hash table.
///
/// The slots are one flat allocation of 16-byte-aligned `Slot`s: with that
/// alignment the allocator can hand out fresh zeroed pages (`calloc`), where
/// a 64-byte-aligned type would be zeroed by writing every page up front.
/// The clusters start at the first cache-line boundary inside it.
pub struct Tt {
    slots: Box<[Slot]>,
    /// Index of the first slot of cluster 0 (cache-line aligned).
    first: usize,
    /// Number of clusters.
    clusters: usize,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mb` MiB (at least one cluster). The memory comes
    /// zeroed from the allocator (fresh pages the OS maps on first use), so a
    /// big table costs nothing until the search fills it. If it cannot be
    /// had, the size is halved until it can (an absurd `Hash` setting must
    /// not abort the engine); see [`Tt::size_mb`].
    #[must_use]
    pub fn new(mb: usize) -> Tt {
        let mut n = (mb.clamp(1, 1 << 30).saturating_mul(1 << 20)) / CLUSTER_BYTES;
        loop {
            let n_slots = n.max(1) * CLUSTER + CLUSTER - 1;
            match bytemuck::try_zeroed_slice_box::<Slot>(n_slots) {
                Ok(slots) => {
                    advise_huge_pages(&slots);
                    let misalign = (slots.as_ptr() as usize) % CLUSTER_BYTES;
                    let first =
                        (CLUSTER_BYTES - misalign) % CLUSTER_BYTES / std::mem::size_of::<Slot>();
                    return Tt {
                        slots,
                        first,
                        clusters: n.max(1),
                        age: AtomicU8::new(0),
                    };
                }
                Err(()) if n > 1 => n /= 2,
                Err(()) => {
                    let slots: Box<[Slot]> = (0..2 * CLUSTER).map(|_| Slot::default()).collect();
                    return Tt {
                        slots,
                        first: 0,
                        clusters: 1,
                        age: AtomicU8::new(0),
                    };
                }
            }
        }
    }

    /// The slots of cluster `i`.
    fn slots_of(&self, i: usize) -> &[Slot] {
        let start = self.first + i * CLUSTER;
        &self.slots[start..start + CLUSTER]
    }

    /// Every slot of every cluster.
    fn all_slots(&self) -> &[Slot] {
        &self.slots[self.first..self.first + self.clusters * CLUSTER]
    }

    /// The machine's physical memory in MiB, where the OS tells it
    /// (Linux `/proc/meminfo`); a `Hash` above it is refused.
    #[must_use]
    pub fn physical_memory_mb() -> Option<usize> {
        let info = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024)
    }

    /// The size actually allocated, in MiB (rounded down).
    #[must_use]
    pub fn size_mb(&self) -> usize {
        (self.clusters * CLUSTER_BYTES) >> 20
    }

    /// Empties the table (new game), in parallel for big tables.
    pub fn clear(&self) {
        const CHUNK: usize = 1 << 18;
        let clear = |part: &[Slot]| {
            for s in part {
                s.data.store(0, Relaxed);
                s.check.store(0, Relaxed);
            }
        };
        let all = self.all_slots();
        if all.len() <= CHUNK * 2 {
            clear(all);
        } else {
            let threads = std::thread::available_parallelism().map_or(1, usize::from);
            let per = all.len().div_ceil(threads);
            std::thread::scope(|s| {
                for part in all.chunks(per) {
                    s.spawn(move || clear(part));
                }
            });
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search generation (older entries are replaced first).
    pub fn new_search(&self) {
        let a = self.age.load(Relaxed);
        self.age.store((a + 1) & 63, Relaxed);
    }

    fn cluster(&self, key: u64) -> &[Slot] {
        let i = ((u128::from(key) * self.clusters as u128) >> 64) as usize;
        self.slots_of(i)
    }

    /// The entry stored for `key`, if any (key-verified).
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.cluster(key) {
            let d = s.data.load(Relaxed);
            if d != 0 && s.check.load(Relaxed) ^ d == key {
                return Entry::unpack(d);
            }
        }
        None
    }

    /// Stores an entry for `key`: over the same position (keeping its move
    /// if the new one has none), else over the slot least worth keeping
    /// (empty, then old, then shallow).
    pub fn store(&self, key: u64, mut entry: Entry) {
        let age = self.age.load(Relaxed);
        entry.age = age;
        let cluster = self.cluster(key);
        let mut victim = &cluster[0];
        let mut worst = i32::MAX;
        for s in cluster {
            let d = s.data.load(Relaxed);
            if d == 0 {
                victim = s;
                break;
            }
            let Some(old) = Entry::unpack(d) else {
                victim = s;
                break;
            };
            if s.check.load(Relaxed) ^ d == key {
                // Keep a deeper exact result of this search unless the new
                // one is exact too.
                if old.age == age && old.depth > entry.depth + 3 && entry.bound != Bound::Exact {
                    return;
                }
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                victim = s;
                break;
            }
            let stale = i32::from((age.wrapping_sub(old.age)) & 63);
            let worth = old.depth - 8 * stale;
            if worth < worst {
                worst = worth;
                victim = s;
            }
        }
        let d = entry.pack();
        victim.data.store(d, Relaxed);
        victim.check.store(key ^ d, Relaxed);
    }

    /// Fill in per mille, counting entries of the current generation in the
    /// first thousand slots.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let mut used = 0u32;
        let mut seen = 0;
        for c in self.all_slots().chunks(CLUSTER).take(250) {
            for s in c {
                seen += 1;
                if Entry::unpack(s.data.load(Relaxed)).is_some_and(|e| e.age == age) {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{MoveKind, Role, Square};

    fn sample_move() -> Move {
        Move::new(Square::E1, Square::H8, MoveKind::Normal)
            .with_capture()
            .with_promotion(Role::Queen)
    }

    #[test]
    fn pack_unpack_round_trip() {
        for (mv, score, depth, bound, age) in [
            (Some(sample_move()), -31_999, 0, Bound::Upper, 0),
            (None, 31_999, 127, Bound::Lower, 63),
            (Some(sample_move()), 0, -5, Bound::Exact, 17),
            (
                Some(Move::quiet(Square::A8, Square::A1)),
                123,
                64,
                Bound::Exact,
                1,
            ),
        ] {
            let e = Entry {
                mv,
                score,
                depth,
                bound,
                age,
            };
            assert_ne!(e.pack(), 0);
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn store_probe_and_key_verification() {
        let tt = Tt::new(1);
        let e = Entry {
            mv: Some(sample_move()),
            score: 42,
            depth: 7,
            bound: Bound::Exact,
            age: 0,
        };
        tt.store(0xDEAD_BEEF_0000_0001, e);
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_0001), Some(e));
        // Same cluster (the high bits pick it), different key: a miss.
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_0002), None);
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF_0000_0001), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(Tt::new(1).size_mb(), 1);
        assert_eq!(Tt::new(0).size_mb(), 1);
        let tt = Tt::new(3);
        assert_eq!(tt.clusters, 3 * (1 << 20) / 64);
        // Clusters sit on cache lines.
        assert_eq!(tt.all_slots().as_ptr() as usize % CLUSTER_BYTES, 0);
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = Tt::new(1);
        assert_eq!(tt.hashfull(), 0);
        let n = tt.clusters as u128;
        for i in 0..250u128 {
            // A key landing in cluster i: the smallest k with k*n >> 64 == i.
            let key = ((i << 64).div_ceil(n)) as u64;
            tt.store(
                key,
                Entry {
                    mv: None,
                    score: 0,
                    depth: 1,
                    bound: Bound::Lower,
                    age: 0,
                },
            );
        }
        assert_eq!(tt.hashfull(), 250);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
