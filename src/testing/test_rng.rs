//! A small deterministic generator for tests (xorshift64): repeatable inputs,
//! no dependency, the same in native and wasm test runs.

use crate::ring::Poly;

pub struct Rng(pub u64);

impl Rng {
    // Not an Iterator: an endless generator, and `next` is what its callers read.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Fills `out` with random bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next() as u8;
        }
    }
    /// Uniform in [lo, hi].
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        (lo as i64 + (self.next() % ((hi as i64 - lo as i64 + 1) as u64)) as i64) as i32
    }
    /// Coefficients uniform in [lo, hi].
    pub fn poly_in(&mut self, lo: i32, hi: i32) -> Poly {
        let mut p = Poly::zero();
        for c in p.0.iter_mut() {
            *c = self.range(lo, hi);
        }
        p
    }
    /// Coefficients uniform in [−bound, bound].
    pub fn poly(&mut self, bound: i32) -> Poly {
        self.poly_in(-bound, bound)
    }
}
