//! Arithmetic in Z_q, q = 8380417: Montgomery multiplication (R = 2^32) and
//! the partial and full reductions. Everything here is branch-free and
//! division-free, so it is safe on secret values.

use crate::params::Q;

/// q^−1 mod 2^32.
pub const QINV: i32 = 58_728_449;

/// Montgomery reduction. For |a| < q·2^31 returns r ≡ a·2^−32 (mod q) with |r| < q.
#[inline(always)]
pub fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - t as i64 * Q as i64) >> 32) as i32
}

/// Montgomery product a·b·2^−32 mod q; needs |a·b| < q·2^31, result |r| < q.
#[inline(always)]
pub fn mont_mul(a: i32, b: i32) -> i32 {
    montgomery_reduce(a as i64 * b as i64)
}

/// Partial reduction. For a ≤ 2^31 − 2^22 − 1 returns r ≡ a (mod q) with
/// −6283009 ≤ r ≤ 6283008 (so |r| < q). Values a = z + m·q with small |z| and
/// |m| come back as exactly z.
#[inline(always)]
pub fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Adds q when a is negative: maps (−q, q) to [0, q).
#[inline(always)]
pub fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// The standard representative in [0, q) of any a ≤ 2^31 − 2^22 − 1.
#[inline(always)]
pub fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

/// Maps a ∈ [0, q) to the centred representative a mod± q ∈ [−(q−1)/2, (q−1)/2].
#[inline(always)]
pub fn center(a: i32) -> i32 {
    a - ((((Q - 1) / 2 - a) >> 31) & Q)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn modq(a: i64) -> i64 {
        a.rem_euclid(Q as i64)
    }

    #[test]
    fn qinv_is_inverse() {
        assert_eq!(Q.wrapping_mul(QINV), 1);
    }

    #[test]
    fn montgomery_matches_definition_and_bound() {
        let r_inv = {
            // 2^−32 mod q via Fermat: (2^32)^(q−2).
            let mut base = (1i64 << 32) % Q as i64;
            let (mut e, mut acc) = (Q as i64 - 2, 1i64);
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc * base % Q as i64;
                }
                base = base * base % Q as i64;
                e >>= 1;
            }
            acc
        };
        let lim = (Q as i64) << 31;
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        let mut samples = vec![lim - 1, -(lim - 1), 0, 1, -1, Q as i64, (Q as i64) * (Q as i64)];
        for _ in 0..20000 {
            samples.push((rng.next() as i64) % lim);
        }
        for a in samples {
            let r = montgomery_reduce(a);
            assert!(r.abs() < Q, "bound for {a}");
            assert_eq!(modq(r as i64), modq(modq(a) * r_inv), "value for {a}");
        }
    }

    #[test]
    fn reduce32_bound_and_value() {
        let top = i32::MAX - (1 << 22);
        let mut a = i32::MIN;
        loop {
            let r = reduce32(a);
            assert!((-6_283_009..=6_283_008).contains(&r), "bound for {a}");
            assert_eq!(modq(r as i64), modq(a as i64));
            let f = freeze(a);
            assert!((0..Q).contains(&f) && modq(f as i64) == modq(a as i64));
            match a.checked_add(65_521) {
                Some(n) if n <= top => a = n,
                _ => break,
            }
        }
        for z in -600_000..600_000 {
            for m in -2..=2 {
                assert_eq!(reduce32(z + m * Q), z);
            }
        }
    }

    #[test]
    fn center_is_mod_pm() {
        for a in [0, 1, (Q - 1) / 2, (Q + 1) / 2, Q - 1] {
            let c = center(a);
            assert!((-(Q - 1) / 2..=(Q - 1) / 2).contains(&c));
            assert_eq!(modq(c as i64), a as i64);
        }
        assert_eq!(center(Q - 1), -1);
        assert_eq!(center((Q - 1) / 2), (Q - 1) / 2);
    }
}
