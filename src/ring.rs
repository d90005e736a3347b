//! The element of R_q = Z_q[X]/(X^256 + 1) that every layer passes around: 256
//! i32 coefficients. A leaf, so that the kernels (`portable/`, `simd128/`) and
//! the algorithms above them share the type without a cycle; the operations
//! live in `poly.rs` (coefficient-wise), `ntt.rs` (products) and `encode.rs`.

use crate::params::N;
use zeroize::DefaultIsZeroes;

/// A polynomial: 256 coefficients, each an i32 whose range the caller states.
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
