//! The kernels the algorithms use, as a contract: one trait per facade
//! (`NttKernels` for `ntt.rs`, `ChallengeKernels` for `challenge.rs`, …),
//! `Backend` for all of them, the two implementations and the choice between
//! them.
//!
//! The contract of each kernel (what it computes, the input bounds it needs,
//! the output bounds callers may rely on, and whether it is constant time) is
//! stated here, once, on the trait method; a kernel's name ends in `_vartime`
//! when its time depends on its data, which it may only because that data is
//! public. The facades say which FIPS 204 step each kernel serves.
//!
//! `Portable` (`src/kernels/portable/`) is the reference and is compiled everywhere.
//! `Simd128` (`src/kernels/simd128/`) implements the same traits with four
//! coefficients (or two Keccak states) per v128, with bounds at least as tight,
//! and exists only on wasm32 with `+simd128`. Each backend file implements the
//! trait of its facade directly (`impl NttKernels for Portable` in
//! `portable/ntt.rs`), so a missing kernel or a different signature does not
//! build. `Active` is chosen here, at compile time, never from data; the
//! differential tests in `src/kernels/simd128/` run `Simd128` against `Portable`
//! through these traits.
//!
//! Static dispatch only: `Active::ntt(a)` is a direct call of the backend's
//! method, so the shipped .wasm is the code of the kernels themselves.

use crate::ring::Poly;

/// The reference backend: plain Rust, one coefficient (or state) at a time.
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
pub(crate) struct Portable;

/// The wasm simd128 backend.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) struct Simd128;

/// The backend the algorithms call: the one place it is chosen.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) type Active = Simd128;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) type Active = Portable;

/// Every kernel: what a backend is.
pub(crate) trait Backend:
    NttKernels + ChallengeKernels + PolyKernels + EncodeKernels + SampleKernels + KeccakKernels + ShaKernels
{
}
impl Backend for Portable {}
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Backend for Simd128 {}

// The chosen backend is a whole one (the facades call it through the traits
// of their kernels alone).
const _: () = {
    const fn is_backend<B: Backend>() {}
    is_backend::<Active>()
};

/// `ntt.rs`: the NTT of FIPS 204 (Algorithms 41 and 42) and the products in
/// T_q, always followed by the inverse NTT.
///
/// Products multiply in Montgomery form (scaled by 2^−32) and the inverse NTT
/// scales by 2^32, so NTT^−1(NTT(a) ∘ NTT(b)) is a·b. Both backends give
/// outputs equal mod q; products and reduced dot products are equal bit for
/// bit. The dot products keep the exact products in i64 and reduce once per
/// sum, which needs |Σ| < q·2^31; the kernels require the stronger
/// |Σ| < 256q² (256q < 2^31). All are constant time: no branch or memory index
/// depends on a coefficient.
pub(crate) trait NttKernels {
    /// Forward NTT in place (FIPS 204 Algorithm 41), output in bit-reversed
    /// order. Needs |a_i| < q; gives |a_i| < 9q (simd128: < 5.1q).
    fn ntt(a: &mut Poly);
    /// Inverse NTT in place (FIPS 204 Algorithm 42) times 2^32, alone (the
    /// algorithms use the fused forms below). Needs |a_i| < q; gives
    /// |a_i| < q (simd128: < 0.75q).
    #[cfg_attr(not(test), allow(dead_code))]
    fn inv_ntt_tomont(a: &mut Poly);
    /// c = NTT^−1(a ∘ b)·2^32 = a·b in R_q. Needs |a_i|, |b_i| < 9q (NTT
    /// outputs); the products are below q, and so is |c_i|.
    fn pointwise_inv_ntt(c: &mut Poly, a: &Poly, b: &Poly);
    /// c = NTT^−1(Σ_j a_j ∘ b_j)·2^32, a.len() = b.len(). Needs |Σ| < 256q²
    /// per coefficient; gives |c_i| < q.
    fn dot_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly]);
    /// c = NTT^−1(Σ_j a_j ∘ b_j − x ∘ y)·2^32, a.len() = b.len(). Needs
    /// |Σ| < 256q² per coefficient, the x ∘ y term included; gives |c_i| < q.
    fn dot_sub_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly], x: &Poly, y: &Poly);
}

/// `challenge.rs`: products by SampleInBall's c as sums of runs of
/// ext ‖ −ext, ext = (−x ‖ x). `offsets` (at most τ ≤ 60 of them, each at
/// most 3N) are where the runs start and must be public: they are read as
/// memory indices. What is summed may be secret: nothing branches on it or
/// indexes by it.
pub(crate) trait ChallengeKernels {
    /// w ← reduce32(w − 2^13·(c·t1)). Needs t1_i ∈ [0, 2^10) and |w_i| < q;
    /// then |c·t1| ≤ τ·1023 < 2^16, the exact difference is below 2^30 in
    /// size, and the result is |w_i| < q.
    fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly);
    /// cs1 = c·s1 and cs2 = c·s2, exactly, for s = s1 + 2^PAIR_SHIFT·s2 with
    /// |s1_i|, |s2_i| ≤ η (η = `eta`, 2 or 4): both at most τ·η = β in size.
    /// Constant time in s.
    fn challenge_times_pair(cs1: &mut Poly, cs2: &mut Poly, offsets: &[u16], s: &Poly, eta: i32);
}

/// `poly.rs`: the coefficient-wise operations of FIPS 204 §7.4 on whole
/// polynomials. `gamma2` is (q−1)/88 or (q−1)/32. Constant time unless the
/// name ends in `_vartime`: only the returned verdicts and counts leak.
pub(crate) trait PolyKernels {
    /// a ← center(freeze(a + S·b)) (S = 1: a + b; S = −1: a − b; S = 0: a
    /// alone), then ‖a‖∞ ≥ bound?, in one pass. Needs |a_i + S·b_i| ≤
    /// 2^31 − 2^22 − 1 and bound ≤ (q−1)/8; the result is centred,
    /// |a_i| ≤ (q−1)/2. Only the verdict leaks (FIPS 204 rejects on it).
    fn center_exceeds<const S: i32>(a: &mut Poly, b: &Poly, bound: i32) -> bool;
    /// ‖a‖∞ ≥ bound? Needs centred a (|a_i| ≤ (q−1)/2) and bound ≤ (q−1)/8.
    /// Scans every coefficient; only the verdict leaks.
    fn exceeds(a: &Poly, bound: i32) -> bool;
    /// Power2Round (FIPS 204 Algorithm 35) of each freeze(a_i + b_i). Needs
    /// |a_i + b_i| ≤ 2^31 − 2^22 − 1; gives t1 ∈ [0, 2^10) and
    /// t0 ∈ (−2^12, 2^12].
    fn power2round_all(a: &Poly, b: &Poly, t1: &mut Poly, t0: &mut Poly);
    /// Decompose (FIPS 204 Algorithm 36) of each caddq(a_i). Needs
    /// a_i ∈ (−q, q); gives w1 ∈ [0, (q−1)/(2γ2)) and |w0| ≤ γ2.
    fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32);
    /// MakeHint (FIPS 204 Algorithm 39) in the signer's form: h_i =
    /// make_hint(r0_i + ct0_i, r1_i) ∈ {0, 1}. Needs r0, r1 from
    /// `decompose_all` and |ct0_i| < γ2. Returns the number of ones, which is
    /// public (it is part of the signature).
    fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize;
    /// UseHint (FIPS 204 Algorithm 40): w1_i = use_hint_vartime(h_i,
    /// caddq(r_i)). Needs h_i ∈ {0, 1} and r_i ∈ (−q, q). Variable time (the
    /// portable form branches on h and r): verification is its only caller,
    /// and everything it computes there is public (pk, message, signature).
    fn use_hints_vartime(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32);
}

/// `encode.rs`: bit packing of width B (FIPS 204 Algorithms 16–19). Coefficient
/// i occupies bits [i·B, (i+1)·B), least significant first. B is one of the
/// widths of FIPS 204 (3, 4, 6, 10, 13, 18, 20); x ∈ {0, −1} and |y| ≤ 2^20
/// (≤ 2^14 for B ≤ 10, whose simd128 unpacking adds y in 16-bit lanes):
/// x = y = 0 is SimpleBitPack/SimpleBitUnpack, x = −1, y = b + 1 gives
/// b − c, BitPack/BitUnpack with bound b. Constant time: the code depends on
/// B only, never on the values.
pub(crate) trait EncodeKernels {
    /// Stores the low B bits of (c ⊕ x) + y of each coefficient c in `out`
    /// (at least 32·B bytes; only the first 32·B are written).
    fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]);
    /// Reads 256 fields of B bits from `inp` (at least 32·B bytes) and returns
    /// (field ⊕ x) + y of each: with x = y = 0 every coefficient is in
    /// [0, 2^B).
    fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly);
}

/// `sample.rs`: the parsers of RejNTTPoly and RejBoundedPoly. Each writes the
/// coefficients it accepts from `buf` into `a` from index *n on, stops at N,
/// and leaves *n at the count accepted so far (so a stream may be parsed in
/// pieces); a candidate is written at *n and kept by advancing *n only if it
/// is accepted.
pub(crate) trait SampleKernels {
    /// CoeffFromThreeBytes (FIPS 204 Algorithm 14) over whole 3-byte groups:
    /// RejNTTPoly (Algorithm 30) steps 4–10. Coefficients are in [0, q).
    /// Variable time (simd128 compacts by a table indexed by the rejection
    /// pattern): its stream is SHAKE128 of ρ, which is public, and so is the
    /// matrix Â it samples.
    fn rej_ntt_parse_vartime(buf: &[u8], a: &mut Poly, n: &mut usize);
    /// CoeffFromHalfByte (FIPS 204 Algorithm 15), low half-byte first:
    /// RejBoundedPoly (Algorithm 31) steps 4–12, `eta` 2 or 4; coefficients
    /// in [−η, η]. The stream is secret: which half-bytes are rejected may
    /// leak, and only that does. The pattern is independent of s1, s2: each
    /// half-byte is uniform and independent, and a kept one is uniform on
    /// [0, 15) (η = 2) or [0, 9) (η = 4) whatever the pattern (Dilithium
    /// round-3 specification v3.1, §5.5); `scripts/ct.sh` checks that nothing
    /// else leaks.
    fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize);
}

/// `keccak.rs`: Keccak-f[1600] (FIPS 202 Algorithm 7, 24 rounds), on one
/// state or on two at once. Lane (x, y) of FIPS 202's state is `a[x + 5·y]`.
/// Constant time: the states may be secret.
pub(crate) trait KeccakKernels {
    /// Keccak-f[1600] on one state.
    fn f1600(a: &mut [u64; 25]);
    /// Two independent states, in the layout the backend permutes fastest.
    type StateX2: StatePair;
    /// Keccak-f[1600] on both states.
    fn f1600_x2(s: &mut Self::StateX2);
}

/// `prehash/sha.rs`: SHA-2's big-endian words (FIPS 180-4 §3.1).
pub(crate) trait ShaKernels {
    /// `b` with the bytes of each W-byte word reversed (W = 4 or 8, N a
    /// multiple of 16): big-endian words to little-endian ones and back, so
    /// that words are read and written with plain loads and stores (wasm and
    /// x86 are little-endian). Constant time (fixed shuffles).
    fn swap_words<const N: usize, const W: usize>(b: &[u8; N]) -> [u8; N];
}

/// What the two-state sponges of `xof.rs` need of a backend's `StateX2`.
pub(crate) trait StatePair: Clone + Default {
    /// The pair of states a[0] and a[1].
    fn from_lanes(a: &[[u64; 25]; 2]) -> Self;
    /// Lane i of state 0 and of state 1.
    fn lane(&self, i: usize) -> (u64, u64);
    /// Writes lanes first.. of state 0 to out0 and of state 1 to out1, eight
    /// little-endian bytes a lane; both outputs the same length, a multiple of
    /// 8, and first + out0.len() / 8 ≤ 25.
    fn read_lanes(&self, first: usize, out0: &mut [u8], out1: &mut [u8]);
    /// XORs `bytes` (a multiple of 8 long, eight little-endian bytes a lane)
    /// into lanes first.. of state `which` (0 or 1) alone; first + bytes.len() / 8 ≤ 25.
    fn xor_lanes(&mut self, which: usize, first: usize, bytes: &[u8]);
    /// Replaces state `which` (0 or 1) by `a`, leaving the other as it is.
    fn set_state(&mut self, which: usize, a: &[u64; 25]);
    /// Wipes both states.
    fn clear(&mut self);
}
