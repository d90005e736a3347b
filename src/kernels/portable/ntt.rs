//! Portable NTT: the reference every other backend is tested against.

use crate::backend::{NttKernels, Portable};
use crate::field::{mont_mul, montgomery_reduce};
use crate::params::N;
use crate::ring::Poly;
use crate::tables::ZETAS;

impl NttKernels for Portable {
    /// Lazy reduction: each of the eight layers adds a Montgomery product
    /// (|t| < q) to or from a value, and nothing is reduced in between.
    fn ntt(a: &mut Poly) {
        let a = &mut a.0;
        let mut k = 0;
        let mut len = 128;
        while len > 0 {
            let mut start = 0;
            while start < N {
                k += 1;
                let zeta = ZETAS[k];
                for j in start..start + len {
                    let t = mont_mul(zeta, a[j + len]);
                    a[j + len] = a[j] - t;
                    a[j] += t;
                }
                start += 2 * len;
            }
            len >>= 1;
        }
    }

    /// The sums double per layer: after eight layers they are below
    /// 256q < 2^31, so they fit in i32.
    fn inv_ntt_tomont(a: &mut Poly) {
        // 2^64 / 256 mod q: one 2^32 for the Montgomery factor of the last step and
        // one that this function deliberately leaves on the output.
        const F: i32 = 41_978;
        let a = &mut a.0;
        let mut k = 256;
        let mut len = 1;
        while len < N {
            let mut start = 0;
            while start < N {
                k -= 1;
                let zeta = -ZETAS[k];
                for j in start..start + len {
                    let t = a[j];
                    a[j] = t + a[j + len];
                    a[j + len] = mont_mul(zeta, t - a[j + len]);
                }
                start += 2 * len;
            }
            len <<= 1;
        }
        for x in a.iter_mut() {
            *x = mont_mul(F, *x);
        }
    }

    fn pointwise_inv_ntt(c: &mut Poly, a: &Poly, b: &Poly) {
        pointwise(c, a, b);
        Self::inv_ntt_tomont(c);
    }

    fn dot_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly]) {
        dot(c, a, b, None);
        Self::inv_ntt_tomont(c);
    }

    fn dot_sub_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly], x: &Poly, y: &Poly) {
        dot(c, a, b, Some((x, y)));
        Self::inv_ntt_tomont(c);
    }
}

/// c = a ∘ b in T_q, Montgomery-scaled: c_i = a_i·b_i·2^−32.
/// Bound: |a_i|, |b_i| < 9q (NTT outputs) gives |c_i| < q.
pub fn pointwise(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..N {
        c.0[i] = mont_mul(a.0[i], b.0[i]);
    }
}

/// c = Σ_j a_j ∘ b_j − x ∘ y (the last term only with `minus`, Montgomery-
/// scaled), summed exactly and reduced once. Needs |Σ| < 256q²
/// (`NttKernels`); gives |c_i| < q.
pub fn dot(c: &mut Poly, a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>) {
    assert_eq!(a.len(), b.len());
    for i in 0..N {
        let mut s = 0i64;
        for (x, y) in a.iter().zip(b) {
            s += x.0[i] as i64 * y.0[i] as i64;
        }
        if let Some((x, y)) = minus {
            s -= x.0[i] as i64 * y.0[i] as i64;
        }
        c.0[i] = montgomery_reduce(s);
    }
}
