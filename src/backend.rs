//! The kernels the algorithms use, written down once: the trait `Backend`,
//! its two implementations and the choice between them.
//!
//! `Portable` (`src/portable/`) is the reference and is compiled everywhere.
//! `Simd128` (`src/simd128/`) implements the same functions with four
//! coefficients (or two Keccak states) per v128, with bounds at least as tight,
//! and exists only on wasm32 with `+simd128`. `Active` is chosen here, at
//! compile time, never from data; the differential tests in `src/simd128/`
//! run `Simd128` against `Portable` through this trait.
//!
//! Static dispatch only: `Active::ntt(a)` is a direct call of the backend's
//! function (the methods below are `#[inline(always)]` forwarders), so the
//! shipped .wasm is the code of the kernels themselves.
//!
//! The contracts (input and output bounds, what may leak) are stated once, on
//! the facades that call these: `ntt.rs`, `challenge.rs`, `poly.rs`, `encode.rs`, `sample.rs`
//! and `keccak.rs`.

use crate::portable;
use crate::ring::Poly;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use crate::simd128;

/// The kernels, grouped by facade.
pub(crate) trait Backend {
    // ---- ntt.rs: FIPS 204 Algorithms 41 and 42, products in T_q ----
    fn ntt(a: &mut Poly);
    #[cfg_attr(not(test), allow(dead_code))] // the fused forms below are used
    fn inv_ntt_tomont(a: &mut Poly);
    fn pointwise_inv_ntt(c: &mut Poly, a: &Poly, b: &Poly);
    fn dot_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly]);
    fn dot_sub_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly], x: &Poly, y: &Poly);

    // ---- challenge.rs: products by SampleInBall's c as sums of runs ----
    fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly);
    fn challenge_times_pair(cs1: &mut Poly, cs2: &mut Poly, offsets: &[u16], s: &Poly, eta: i32);

    // ---- poly.rs: the coefficient-wise operations of FIPS 204 §7.4 ----
    /// S = 1: a + b; S = −1: a − b; S = 0: a alone.
    fn center_exceeds<const S: i32>(a: &mut Poly, b: &Poly, bound: i32) -> bool;
    fn exceeds(a: &Poly, bound: i32) -> bool;
    fn power2round_all(a: &Poly, b: &Poly, t1: &mut Poly, t0: &mut Poly);
    fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32);
    fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize;
    fn use_hints(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32);

    // ---- encode.rs: bit packing of width B, FIPS 204 Algorithms 16–19 ----
    /// Stores (c ⊕ x) + y of each coefficient c in B bits.
    fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]);
    /// Returns (field ⊕ x) + y of each B-bit field.
    fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly);

    // ---- sample.rs: the parsers of RejNTTPoly and RejBoundedPoly ----
    fn rej_ntt_parse(buf: &[u8], a: &mut Poly, n: &mut usize);
    fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize);

    // ---- keccak.rs: Keccak-f[1600], FIPS 202 Algorithm 7 ----
    fn f1600(a: &mut [u64; 25]);
    /// Two independent states, in the layout the backend permutes fastest.
    type StateX2: StatePair;
    fn f1600_x2(s: &mut Self::StateX2);

    // ---- prehash/sha.rs: SHA-2's big-endian words (FIPS 180-4 §3.1) ----
    /// `b` with the bytes of each W-byte word reversed (W = 4 or 8, N a multiple of 16).
    fn swap_words<const N: usize, const W: usize>(b: &[u8; N]) -> [u8; N];
}

/// What the two-state sponges of `xof.rs` need of a backend's `StateX2`; defined
/// beside the reference implementation, so that both backends implement it
/// without depending on this module.
pub(crate) use crate::portable::keccak::StatePair;

/// Forwards each `Backend` method to the function of the same name in the
/// backend's module for its facade (`$m::ntt::ntt`, …): so both backends must
/// have every function, with the same signature, or the crate does not build.
macro_rules! forward {
    ($m:ident) => {
        #[inline(always)]
        fn ntt(a: &mut Poly) {
            $m::ntt::ntt(a)
        }
        #[inline(always)]
        fn inv_ntt_tomont(a: &mut Poly) {
            $m::ntt::inv_ntt_tomont(a)
        }
        #[inline(always)]
        fn pointwise_inv_ntt(c: &mut Poly, a: &Poly, b: &Poly) {
            $m::ntt::pointwise_inv_ntt(c, a, b)
        }
        #[inline(always)]
        fn dot_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly]) {
            $m::ntt::dot_inv_ntt(c, a, b)
        }
        #[inline(always)]
        fn dot_sub_inv_ntt(c: &mut Poly, a: &[Poly], b: &[Poly], x: &Poly, y: &Poly) {
            $m::ntt::dot_sub_inv_ntt(c, a, b, x, y)
        }
        #[inline(always)]
        fn sub_challenge_t1(w: &mut Poly, offsets: &[u16], t1: &Poly) {
            $m::challenge::sub_challenge_t1(w, offsets, t1)
        }
        #[inline(always)]
        fn challenge_times_pair(cs1: &mut Poly, cs2: &mut Poly, offsets: &[u16], s: &Poly, eta: i32) {
            $m::challenge::challenge_times_pair(cs1, cs2, offsets, s, eta)
        }
        #[inline(always)]
        fn center_exceeds<const S: i32>(a: &mut Poly, b: &Poly, bound: i32) -> bool {
            $m::poly::center_exceeds::<S>(a, b, bound)
        }
        #[inline(always)]
        fn exceeds(a: &Poly, bound: i32) -> bool {
            $m::poly::exceeds(a, bound)
        }
        #[inline(always)]
        fn power2round_all(a: &Poly, b: &Poly, t1: &mut Poly, t0: &mut Poly) {
            $m::poly::power2round_all(a, b, t1, t0)
        }
        #[inline(always)]
        fn decompose_all(a: &Poly, w1: &mut Poly, w0: &mut Poly, gamma2: i32) {
            $m::poly::decompose_all(a, w1, w0, gamma2)
        }
        #[inline(always)]
        fn make_hints(h: &mut Poly, r0: &Poly, ct0: &Poly, r1: &Poly, gamma2: i32) -> usize {
            $m::poly::make_hints(h, r0, ct0, r1, gamma2)
        }
        #[inline(always)]
        fn use_hints(w1: &mut Poly, h: &Poly, r: &Poly, gamma2: i32) {
            $m::poly::use_hints(w1, h, r, gamma2)
        }
        #[inline(always)]
        fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]) {
            $m::encode::pack::<B>(p, x, y, out)
        }
        #[inline(always)]
        fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly) {
            $m::encode::unpack::<B>(inp, x, y, p)
        }
        #[inline(always)]
        fn rej_ntt_parse(buf: &[u8], a: &mut Poly, n: &mut usize) {
            $m::sample::rej_ntt_parse(buf, a, n)
        }
        #[inline(always)]
        fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
            $m::sample::rej_bounded_parse(buf, eta, a, n)
        }
        #[inline(always)]
        fn f1600(a: &mut [u64; 25]) {
            $m::keccak::f1600(a)
        }
        type StateX2 = $m::keccak::StateX2;
        #[inline(always)]
        fn f1600_x2(s: &mut Self::StateX2) {
            $m::keccak::f1600_x2(s)
        }
        #[inline(always)]
        fn swap_words<const N: usize, const W: usize>(b: &[u8; N]) -> [u8; N] {
            $m::sha::swap_words::<N, W>(b)
        }
    };
}

/// The reference backend: plain Rust, one coefficient (or state) at a time.
#[cfg_attr(all(target_arch = "wasm32", target_feature = "simd128"), allow(dead_code))]
pub(crate) struct Portable;
impl Backend for Portable {
    forward!(portable);
}

/// The wasm simd128 backend.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) struct Simd128;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Backend for Simd128 {
    forward!(simd128);
}

/// The backend the algorithms call: the one place it is chosen.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) type Active = Simd128;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) type Active = Portable;
