//! Juror's random numbers (the plans' orders, positions and labels, the statistics' bootstrap
//! and simulations): a specified, portable stream that will not change between releases of
//! Juror or of its dependencies, so that a plan or a bootstrap interval is the same everywhere.
//!
//! # Specification
//! A stream is named by the study seed, a purpose string and up to two numbers. Its key is
//! `SHA-256("juror/plan/v1" ‖ 0x00 ‖ seed as 8 bytes little-endian ‖ purpose ‖ 0x00 ‖ a as 8
//! bytes LE ‖ b as 8 bytes LE)`, used as the 32-byte seed of ChaCha20 (`rand_chacha`'s
//! `ChaCha20Rng::from_seed`, whose output is value-stable by that crate's policy). Draws take
//! 64-bit words in order:
//! - `below(n)`: rejection sampling: draw `x`; if `x >= 2^64 - (2^64 mod n)` draw again; return
//!   `x mod n`;
//! - `unit()`: the top 53 bits `k` of a draw, as (k + ½) / 2⁵³ (never 0 or 1);
//! - `shuffle`: Fisher–Yates from the end: for `i` from `len-1` down to 1, swap `i` with
//!   `below(i + 1)`.
//!
//! Nothing here uses `rand`'s distributions or `SliceRandom`, whose streams may change.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A named, reproducible stream of random numbers.
pub struct Stream(ChaCha20Rng);

impl Stream {
    /// The stream for `purpose` and the numbers `a`, `b` under the study's `seed`.
    pub fn new(seed: u64, purpose: &str, a: u64, b: u64) -> Stream {
        let mut hash = Sha256::new();
        hash.update(b"juror/plan/v1\0");
        hash.update(seed.to_le_bytes());
        hash.update(purpose.as_bytes());
        hash.update([0]);
        hash.update(a.to_le_bytes());
        hash.update(b.to_le_bytes());
        Stream(ChaCha20Rng::from_seed(hash.finalize().into()))
    }

    /// A uniform integer in `0..n` (`n` > 0; returns 0 for `n` = 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        let zone = u64::MAX - (u64::MAX % n + 1) % n;
        loop {
            let x = self.0.next_u64();
            if x <= zone {
                return (x % n) as usize;
            }
        }
    }

    /// A uniform number in the open interval (0, 1): the draw's top 53 bits `k`, as
    /// (k + ½) / 2⁵³.
    pub fn unit(&mut self) -> f64 {
        let k = self.0.next_u64() >> 11;
        (k as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Shuffles `items` in place (Fisher–Yates, see the module's specification).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }

    /// A random permutation of `0..n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

/// A stable 64-bit hash of an annotator id, for mapping ids to slots: the first 8 bytes of
/// `SHA-256("juror/annotator/v1" ‖ 0x00 ‖ id)`, little-endian.
pub fn hash_id(id: &str) -> u64 {
    let mut hash = Sha256::new();
    hash.update(b"juror/annotator/v1\0");
    hash.update(id.as_bytes());
    let digest = hash.finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_frozen() {
        // These values underlie every plan format: if they change, every published plan changes.
        let mut s = Stream::new(42, "order", 1, 0);
        let draws: Vec<usize> = (0..8).map(|_| s.below(1000)).collect();
        assert_eq!(draws, FROZEN_DRAWS, "the plan's random stream changed");
        assert_eq!(
            hash_id("PROLIFIC-123"),
            FROZEN_HASH,
            "{:#x}",
            hash_id("PROLIFIC-123")
        );
    }

    const FROZEN_DRAWS: [usize; 8] = [911, 778, 83, 49, 151, 454, 303, 917];
    // Cross-checked with Python: int.from_bytes(sha256(b"juror/annotator/v1\0PROLIFIC-123").digest()[:8], "little").
    const FROZEN_HASH: u64 = 0x7a65_16af_5ca8_0ead;

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut s = Stream::new(1, "test", 0, 0);
        let mut counts = [0usize; 6];
        for _ in 0..60_000 {
            counts[s.below(6)] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(s.below(0), 0);
        assert_eq!(s.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut s = Stream::new(3, "test", 0, 0);
        let mut p = s.permutation(50);
        p.sort_unstable();
        assert_eq!(p, (0..50).collect::<Vec<_>>());
    }
}
