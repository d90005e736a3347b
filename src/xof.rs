//! SHAKE128 and SHAKE256 (FIPS 202) behind the small interface the algorithms
//! use: H and G of FIPS 204 §3.7 and §7.3. Today they come from the `sha3`
//! crate; a two-lane simd128 Keccak can replace them here without touching the
//! callers.

use sha3::digest::{ExtendableOutput, Update, XofReader};

/// SHAKE128 rate in bytes: the natural squeeze unit for G.
pub const SHAKE128_RATE: usize = 168;
/// SHAKE256 rate in bytes: the natural squeeze unit for H.
pub const SHAKE256_RATE: usize = 136;

/// An absorbing SHAKE instance.
pub struct Shake<H>(H);
/// A squeezing SHAKE instance.
pub struct Squeeze<R>(R);

pub type Shake128 = Shake<sha3::Shake128>;
pub type Shake256 = Shake<sha3::Shake256>;

impl<H: Default + Update + ExtendableOutput> Shake<H> {
    pub fn new() -> Self {
        Shake(H::default())
    }
    pub fn absorb(mut self, data: &[u8]) -> Self {
        self.0.update(data);
        self
    }
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }
    pub fn finalize(self) -> Squeeze<H::Reader> {
        Squeeze(self.0.finalize_xof())
    }
}

impl<R: XofReader> Squeeze<R> {
    pub fn squeeze(&mut self, out: &mut [u8]) {
        self.0.read(out);
    }
}

/// H(inputs…, out.len()) = SHAKE256 of the concatenated inputs (FIPS 204 §3.7).
pub fn h(inputs: &[&[u8]], out: &mut [u8]) {
    let mut s = Shake256::new();
    for x in inputs {
        s = s.absorb(x);
    }
    s.finalize().squeeze(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn shake_known_answers() {
        // FIPS 202 example values for the empty message.
        let mut o = [0u8; 8];
        Shake128::new().finalize().squeeze(&mut o);
        assert_eq!(o, [0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d]);
        h(&[], &mut o);
        assert_eq!(o, [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13]);
        // Absorbing in pieces equals absorbing at once; squeezing in pieces too.
        let mut a = [0u8; 300];
        let mut b = [0u8; 300];
        h(&[b"abc", b"def"], &mut a);
        let mut s = Shake256::new().absorb(b"abcdef").finalize();
        s.squeeze(&mut b[..137]);
        s.squeeze(&mut b[137..]);
        assert_eq!(a, b);
    }
}
