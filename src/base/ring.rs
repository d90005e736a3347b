//! The elements every layer passes around: `Poly`, a polynomial of
//! R_q = Z_q[X]/(X^256 + 1) (256 i32 coefficients), and `NttPoly`, an element
//! of T_q (its NTT form). A leaf, so that the kernels (`portable/`, `simd128/`) and
//! the algorithms above them share the type without a cycle; the operations
//! live in `poly.rs` (coefficient-wise), `ntt.rs` (products) and `encode.rs`.

use crate::params::N;
use zeroize::DefaultIsZeroes;

/// A polynomial of R_q in its normal (coefficient) form: 256 coefficients,
/// each an i32 whose range the caller states. Its NTT form is [`NttPoly`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poly(pub [i32; N]);

impl Default for Poly {
    fn default() -> Self {
        Poly::zero()
    }
}
impl DefaultIsZeroes for Poly {}

impl Poly {
    pub const fn zero() -> Self {
        Poly([0; N])
    }
}

/// An element of T_q: a polynomial in NTT form (FIPS 204 §7.5), the values of
/// a ∈ R_q at the 256 roots ζ^(2·brv8(i)+1), i = 0…255 (Go's `nttElement`
/// beside its `ringElement`). Not scaled by the Montgomery factor: the NTT's
/// Montgomery products take ζ·2^32, so the factor cancels, and RejNTTPoly
/// samples T_q itself.
///
/// Made only by the forward NTT (`ntt::ntt_in_place`, `ntt::ntt_all_in_place`)
/// and by RejNTTPoly (ExpandA, `sample.rs`); read only by the products with the
/// inverse NTT (`ntt::pointwise_inv_ntt`, `ntt::dot_inv_ntt`,
/// `ntt::dot_sub_inv_ntt`), which return a [`Poly`]. So a product of
/// normal-form polynomials, and an NTT-form value given to the NTT's input or
/// to a rounding, norm check, hint or encoding, do not compile.
///
/// `repr(transparent)` over [`Poly`]: the kernels (`portable/`, `simd128/`) and the
/// RejNTTPoly parsers keep working on `Poly` memory, reached through the
/// `coefficients*` functions below, which only those callers use. (Signing's
/// packed rows of s1 + 2^9·s2 are normal-form and have a type and a block of
/// their own, `mldsa::PackedSecretRows`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct NttPoly(Poly);

impl DefaultIsZeroes for NttPoly {}

impl NttPoly {
    /// The zero of T_q, which is also the NTT of the zero polynomial.
    pub const fn zero() -> Self {
        NttPoly(Poly::zero())
    }

    /// The coefficients as they are, for the kernels of the products and for
    /// tests that check bounds.
    pub(crate) fn coefficients(&self) -> &Poly {
        &self.0
    }

    /// The coefficients for writing in place: for the forward NTT (after it
    /// they are NTT-form) and for RejNTTPoly, whose samples are elements of
    /// T_q by definition (FIPS 204 Algorithm 30). Nobody else writes them.
    pub(crate) fn coefficients_mut(&mut self) -> &mut Poly {
        &mut self.0
    }

    /// `coefficients` of every element, for the kernels' dot products.
    #[allow(unsafe_code)] // a slice cast between repr(transparent) types: no copy of 1 KiB rows
    pub(crate) fn coefficients_of(a: &[NttPoly]) -> &[Poly] {
        // SAFETY: NttPoly is repr(transparent) over Poly: same size, alignment
        // and validity, so the slices have the same layout.
        unsafe { core::slice::from_raw_parts(a.as_ptr().cast::<Poly>(), a.len()) }
    }

    /// `coefficients_mut` of every element, for `ntt::ntt_all_in_place`.
    #[allow(unsafe_code)] // as in `coefficients_of`
    pub(crate) fn coefficients_of_mut(a: &mut [NttPoly]) -> &mut [Poly] {
        // SAFETY: as in `coefficients_of`; the borrow of `a` is handed on whole.
        unsafe { core::slice::from_raw_parts_mut(a.as_mut_ptr().cast::<Poly>(), a.len()) }
    }

    /// Takes coefficients as an element of T_q without transforming them:
    /// tests only, for NTT-form inputs at chosen extremes.
    #[cfg(test)]
    pub(crate) const fn from_coefficients(a: Poly) -> Self {
        NttPoly(a)
    }
}
