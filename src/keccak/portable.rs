//! Portable Keccak-f[1600]: the reference for `simd128.rs`, which has the same
//! functions in the same order.

use super::{PI_SRC, RC, RHO, ROUNDS};

/// One round Rnd(A, i_r) = ι(χ(π(ρ(θ(A)))), i_r) (FIPS 202 §3.3).
#[inline(always)]
fn round(a: &mut [u64; 25], rc: u64) {
    // θ (Algorithm 1).
    let mut c = [0u64; 5];
    for x in 0..5 {
        c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    }
    for x in 0..5 {
        let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        for y in 0..5 {
            a[x + 5 * y] ^= d;
        }
    }
    // ρ and π (Algorithms 2 and 3) in one pass.
    let mut b = [0u64; 25];
    for i in 0..25 {
        b[i] = a[PI_SRC[i]].rotate_left(RHO[PI_SRC[i]]);
    }
    // χ (Algorithm 4), then ι (Algorithm 6).
    for y in 0..5 {
        for x in 0..5 {
            a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
        }
    }
    a[0] ^= rc;
}

/// Keccak-p[1600, 24] = Keccak-f[1600] (FIPS 202 Algorithm 7).
pub fn f1600(a: &mut [u64; 25]) {
    for ir in 0..ROUNDS {
        round(a, RC[ir]);
    }
}

/// Two independent states; without simd128 they are simply two arrays.
#[derive(Clone, Default)]
#[cfg_attr(target_feature = "simd128", allow(dead_code))]
pub struct StateX2([[u64; 25]; 2]);

#[cfg_attr(target_feature = "simd128", allow(dead_code))]
impl StateX2 {
    /// Lane i of state 0 and of state 1.
    #[inline(always)]
    pub fn lane(&self, i: usize) -> (u64, u64) {
        (self.0[0][i], self.0[1][i])
    }
    #[inline(always)]
    pub fn xor_lane(&mut self, i: usize, v0: u64, v1: u64) {
        self.0[0][i] ^= v0;
        self.0[1][i] ^= v1;
    }
    pub fn clear(&mut self) {
        self.0 = [[0; 25]; 2];
    }
}

/// Keccak-f[1600] on both states.
#[cfg_attr(target_feature = "simd128", allow(dead_code))]
pub fn f1600_x2(s: &mut StateX2) {
    f1600(&mut s.0[0]);
    f1600(&mut s.0[1]);
}
