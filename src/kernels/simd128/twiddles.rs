//! The NTT's twiddle tables (ζ^brv8(k) and their Shoup companions, FIPS 204
//! §7.5), in the layouts the passes of `ntt.rs` read them in, and the one
//! instance of them, filled on first use.

use super::once::FilledOnce;
use crate::params::{N, Q};
use crate::tables::{brv8, pow_mod};
use core::arch::wasm32::v128;

/// 16-byte aligned table, so groups of 4 entries load as one v128.
#[repr(C, align(16))]
pub(super) struct Table<const M: usize>(pub(super) [i32; M]);

impl<const M: usize> Table<M> {
    /// Entries i..i + 4 as one vector, for i a multiple of 4 and i + 4 ≤ M.
    #[inline(always)]
    pub(super) fn v(&self, i: usize) -> &v128 {
        // Checked always: a safe function must not read out of bounds. The
        // callers' indices are loop counters with constant bounds, so the
        // check folds away (the shipped code has no branch for it).
        assert!(i % 4 == 0 && i + 4 <= M);
        // SAFETY: in bounds (i + 4 ≤ M), and 16-byte aligned: the table is,
        // and i is a multiple of 4 entries of 4 bytes.
        unsafe { &*(self.0.as_ptr().add(i) as *const v128) }
    }
}

/// ζ^brv8(k) mod± q (plain, not Montgomery).
pub(super) const fn zeta(k: usize) -> i32 {
    let q = Q as i64;
    let z = pow_mod(1753, brv8(k), q);
    if z > q / 2 {
        (z - q) as i32
    } else {
        z as i32
    }
}

/// z mod± q for any z.
const fn centre(z: i64) -> i32 {
    let q = Q as i64;
    let r = z.rem_euclid(q);
    if r > q / 2 {
        (r - q) as i32
    } else {
        r as i32
    }
}

/// z′ = round(z·2^32 / q); |z| < q/2 gives |z′| < 2^31.
const fn shoup(z: i32) -> i32 {
    let q = Q as i64;
    ((((z as i64) << 33) + q).div_euclid(2 * q)) as i32
}

/// 2^32/256 = 2^24 mod± q: the factor of the inverse NTT (1/256, times the
/// 2^32 it leaves on its output), and that factor times the last twiddle −ζ(1).
pub(super) const F: i32 = centre(1 << 24);
pub(super) const F_LAST: i32 = centre(-(zeta(1) as i64) * (1 << 24));

/// The twiddle tables, in the layouts the passes read them in. They are built
/// at run time (`Twiddles::fill`, once, by `twiddles()`), not at compile time,
/// so that they take no space in the .wasm: zero-initialised statics live in
/// .bss, which wasm-ld does not emit into the data section (PERF.md). Every
/// field is a `Table`, so 16-byte aligned.
#[repr(C)]
pub(super) struct Twiddles {
    /// ζ(k) by k (index 0 unused); layers 1–6 read k < 64 one lane at a
    /// time, layer 8 reads 128..255 as vectors.
    pub(super) fwd: Table<N>,
    /// Shoup companions of `fwd[0..64]`, each in four lanes (see the pitfall
    /// in `ntt.rs`).
    pub(super) fwd_ps: Table<256>,
    /// Shoup companions of layer 8's twiddles ζ(128 + i), the only ones read
    /// lane-wise.
    pub(super) fwd8_p: Table<128>,
    /// Layer 7 (distance 2) in the lane order of `fwd78`, [a0 a4 a1 a5]: for
    /// the pair of vectors p, ζ(64 + 2p) and ζ(65 + 2p) alternate.
    pub(super) fwd7: Table<128>,
    pub(super) fwd7_p: Table<128>,
    /// −ζ(k) by k < 64 (index 0 unused).
    pub(super) inv: Table<64>,
    /// Shoup companions of `inv`, each in four lanes.
    pub(super) inv_ps: Table<256>,
    /// Inverse layer 1 (distance 1): block m uses k = 255 − m, so entry m is
    /// −ζ(255 − m).
    pub(super) inv1: Table<128>,
    pub(super) inv1_p: Table<128>,
    /// Inverse layer 2 (distance 2) in the lane order of `inv12`,
    /// [a0 a4 a1 a5]: for the pair of vectors p, blocks 2p and 2p + 1
    /// (k = 127 − m) alternate.
    pub(super) inv2: Table<128>,
    pub(super) inv2_p: Table<128>,
    /// Shoup companions of the final factors `F` and `F_LAST`, four lanes each.
    pub(super) scale_p: Table<8>,
}

impl Twiddles {
    const ZERO: Twiddles = Twiddles {
        fwd: Table([0; N]),
        fwd_ps: Table([0; 256]),
        fwd8_p: Table([0; 128]),
        fwd7: Table([0; 128]),
        fwd7_p: Table([0; 128]),
        inv: Table([0; 64]),
        inv_ps: Table([0; 256]),
        inv1: Table([0; 128]),
        inv1_p: Table([0; 128]),
        inv2: Table([0; 128]),
        inv2_p: Table([0; 128]),
        scale_p: Table([0; 8]),
    };

    /// Builds every table from the 255 values ζ(k) (Shoup companions from
    /// their values). Public constants only: secret-independent. Runs once per
    /// wasm instance (its cost: PERF.md).
    fn fill(&mut self) {
        for k in 1..N {
            self.fwd.0[k] = zeta(k);
        }
        let z = &self.fwd.0;
        for i in 0..256 {
            self.fwd_ps.0[i] = companion(z[i / 4]);
            self.inv_ps.0[i] = companion(-z[i / 4]);
        }
        for (v, z) in self.inv.0.iter_mut().zip(z) {
            *v = -z;
        }
        for i in 0..128 {
            let (p, odd) = (i / 4, i % 2);
            self.fwd8_p.0[i] = companion(z[128 + i]);
            self.fwd7.0[i] = z[64 + 2 * p + odd];
            self.fwd7_p.0[i] = companion(self.fwd7.0[i]);
            self.inv1.0[i] = -z[255 - i];
            self.inv1_p.0[i] = companion(self.inv1.0[i]);
            self.inv2.0[i] = -z[127 - 2 * p - odd];
            self.inv2_p.0[i] = companion(self.inv2.0[i]);
        }
        for i in 0..8 {
            self.scale_p.0[i] = companion(if i < 4 { F } else { F_LAST });
        }
    }
}

/// `shoup`, not inlined: inlined, LLVM vectorises the loops of `fill`, which
/// run once, into much more code (PERF.md).
#[inline(never)]
fn companion(z: i32) -> i32 {
    shoup(z)
}

/// The one instance, all zero (so it lives in .bss, which wasm-ld does not
/// emit into the data section) until the first `twiddles()` fills it.
static TWIDDLES: FilledOnce<Twiddles> = FilledOnce::new(Twiddles::ZERO);

/// The filled tables. Called once at the top of each transform: one load and
/// one branch, taken once per wasm instance.
#[inline(always)]
pub(super) fn twiddles() -> &'static Twiddles {
    // SAFETY: `fill` fills this cell, through `fill_in`.
    unsafe { TWIDDLES.get(fill) }
}

#[cold]
#[inline(never)]
fn fill() {
    // SAFETY: called only by `TWIDDLES.get`, before the tables are ready.
    unsafe { TWIDDLES.fill_in(Twiddles::fill) };
}
