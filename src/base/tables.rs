//! Constant tables that both backends read: the NTT's twiddles (FIPS 204
//! §7.5) and Keccak's round constants and step tables (FIPS 202 §3.2). A leaf:
//! `portable/`, `simd128/` and the facades import it, and it imports only
//! `params`.

// ---- NTT (FIPS 204 §7.5, Appendix B) ----

/// ζ^brv8(i) · 2^32 mod q, centred in (−q/2, q/2]; index 0 is unused.
/// ζ = 1753 is the 512th root of unity of FIPS 204 §7.5.
pub(crate) static ZETAS: [i32; 256] = zetas_mont();

pub(crate) const fn pow_mod(mut b: i64, mut e: u32, m: i64) -> i64 {
    let mut r = 1;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

pub(crate) const fn brv8(x: usize) -> u32 {
    (x as u8).reverse_bits() as u32
}

const fn zetas_mont() -> [i32; 256] {
    let q = crate::params::Q as i64;
    let mut z = [0i32; 256];
    let mut i = 1;
    while i < 256 {
        let plain = pow_mod(1753, brv8(i), q);
        let mont = (plain << 32) % q;
        z[i] = if mont > q / 2 { (mont - q) as i32 } else { mont as i32 };
        i += 1;
    }
    z
}

// ---- Keccak-f[1600] (FIPS 202 §3.2) ----

/// Number of rounds of Keccak-f[1600] (FIPS 202 §3.4: 12 + 2ℓ with ℓ = 6).
pub(crate) const ROUNDS: usize = 24;

/// ι round constants RC[i_r] (FIPS 202 Algorithm 6), built from rc(t)
/// (Algorithm 5): bit 2^j − 1 of RC[i_r] is rc(j + 7·i_r), j = 0..6.
pub(crate) static RC: [u64; ROUNDS] = round_constants();

// The ρ and π tables below are what the written-out rounds of
// `portable/keccak.rs` and `simd128/keccak.rs` were derived from; the tests in
// `keccak.rs` check the rounds against them.

/// ρ offsets (FIPS 202 Algorithm 2) by lane index x + 5·y, reduced mod 64.
#[cfg(test)]
pub(crate) const RHO: [u32; 25] = rho_offsets();

/// π (FIPS 202 Algorithm 3): lane x + 5·y of the output is lane
/// PI_SRC[x + 5·y] = ((x + 3y) mod 5) + 5·x of the input.
#[cfg(test)]
pub(crate) const PI_SRC: [usize; 25] = pi_sources();

/// rc(t) of FIPS 202 Algorithm 5: the output bit of an 8-bit LFSR.
const fn rc_bit(t: usize) -> u64 {
    if t % 255 == 0 {
        return 1;
    }
    // R = 10000000 with R[0] first; held as bit i = R[i].
    let mut r: u32 = 1;
    let mut i = 1;
    while i <= t % 255 {
        // R ← 0 ‖ R, then R[0], R[4], R[5], R[6] ^= R[8]; R ← Trunc8(R).
        r <<= 1;
        let r8 = (r >> 8) & 1;
        r ^= r8 | r8 << 4 | r8 << 5 | r8 << 6;
        r &= 0xff;
        i += 1;
    }
    (r & 1) as u64
}

const fn round_constants() -> [u64; ROUNDS] {
    let mut rc = [0u64; ROUNDS];
    let mut ir = 0;
    while ir < ROUNDS {
        let mut j = 0;
        while j <= 6 {
            rc[ir] |= rc_bit(j + 7 * ir) << ((1u32 << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    rc
}

#[cfg(test)]
const fn rho_offsets() -> [u32; 25] {
    let mut rho = [0u32; 25];
    let (mut x, mut y) = (1, 0);
    let mut t = 0;
    while t < 24 {
        rho[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
        t += 1;
    }
    rho
}

#[cfg(test)]
const fn pi_sources() -> [usize; 25] {
    let mut src = [0usize; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        src[i] = (x + 3 * y) % 5 + 5 * x;
        i += 1;
    }
    src
}
