//! Pseudorandom sampling (FIPS 204 §7.3): SampleInBall, RejNTTPoly,
//! RejBoundedPoly, ExpandA, ExpandS and ExpandMask. The parsers of RejNTTPoly
//! and RejBoundedPoly are the active backend's (`backend.rs`).

use crate::backend::{Active, SampleKernels};
use crate::encode::unpack_offset;
use crate::params::{Params, N};
use crate::ring::{NttPoly, Poly};
use crate::backend::StatePair;
use crate::keccak::{f1600_x2, StateX2};
use crate::xof::{pad_seed, xor_shake256_block, Shake128, Shake128x2, Shake256, Shake256x2, SHAKE128_RATE, SHAKE256_RATE};
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// Adversarial and random input streams for the parsers' differential tests.
#[cfg(test)]
pub(crate) mod streams;

/// SampleInBall (FIPS 204 Algorithm 29): c with τ coefficients ±1, the rest 0,
/// written over `c` (in place, so that the NTT can follow in the same memory).
///
/// Variable time: its loop and memory indices depend on c̃. The signer may
/// call it because c̃ is public: it is in the signature for the accepted
/// attempt, and for a rejected one it is a hash of μ and the discarded y
/// only (Sign_internal declassifies it, with the reason, before the call).
pub fn sample_in_ball_vartime(c_tilde: &[u8], tau: usize, c: &mut Poly) {
    let mut first = [0u8; SHAKE256_RATE];
    Shake256::new().absorb(c_tilde).finalize().squeeze(&mut first);
    sample_in_ball_from_vartime(c_tilde, &first, tau, c);
}

/// SampleInBall given the first block of H(c̃) (`first`), which is almost
/// always all it reads: 8 bytes of signs and about τ + 8 of positions. Should
/// it need more, H(c̃) is recomputed and squeezed past that block.
pub fn sample_in_ball_from_vartime(c_tilde: &[u8], first: &[u8; SHAKE256_RATE], tau: usize, c: &mut Poly) {
    let mut xof = None;
    let mut buf = *first;
    let signs = u64::from_le_bytes(buf[..8].try_into().unwrap());
    let mut pos = 8;
    *c = Poly::zero();
    for (n, i) in (N - tau..N).enumerate() {
        let j = loop {
            if pos == SHAKE256_RATE {
                let xof = xof.get_or_insert_with(|| {
                    let mut x = Shake256::new().absorb(c_tilde).finalize();
                    x.squeeze(&mut buf);
                    x
                });
                xof.squeeze(&mut buf);
                pos = 0;
            }
            let j = buf[pos] as usize;
            pos += 1;
            if j <= i {
                break j;
            }
        };
        c.0[i] = c.0[j];
        c.0[j] = 1 - 2 * ((signs >> n) & 1) as i32;
    }
}

/// Bytes squeezed up front for one RejNTTPoly: five SHAKE128 blocks give 280
/// candidates, and 256 of them are accepted with probability about 1 − 2^−100
/// (each is accepted with probability q/2^23 ≈ 0.999); more blocks follow
/// only when needed.
const REJ_NTT_FIRST: usize = 5 * SHAKE128_RATE;

/// RejNTTPoly (FIPS 204 Algorithm 30) with seed ρ‖s‖r: a uniform element of T_q,
/// sampled in T_q directly (no NTT). Coefficients are in [0, q). Variable
/// time: how many blocks are squeezed and where each coefficient lands depend
/// on the stream. Allowed: ρ is public (part of pk), so Â is too.
pub fn rej_ntt_poly_vartime(rho: &[u8], s: u8, r: u8) -> NttPoly {
    let mut xof = Shake128::new().absorb(rho).absorb(&[s, r]).finalize();
    let mut buf = [0u8; REJ_NTT_FIRST];
    xof.squeeze(&mut buf);
    let mut a_hat = NttPoly::zero();
    let a = a_hat.coefficients_mut();
    let mut n = 0;
    Active::rej_ntt_parse_vartime(&buf, a, &mut n);
    while n < N {
        let block = &mut buf[..SHAKE128_RATE];
        xof.squeeze(block);
        Active::rej_ntt_parse_vartime(block, a, &mut n);
    }
    a_hat
}

/// Two RejNTTPoly at once on a two-lane SHAKE128: a0 from ρ‖s0‖r0 and a1 from
/// ρ‖s1‖r1. The same outputs as two `rej_ntt_poly_vartime` calls; variable
/// time for the same reason (ρ is public).
pub fn rej_ntt_poly_x2_vartime(rho: &[u8], (s0, r0): (u8, u8), (s1, r1): (u8, u8), a0: &mut NttPoly, a1: &mut NttPoly) {
    let (a0, a1) = (a0.coefficients_mut(), a1.coefficients_mut());
    let mut xof = Shake128x2::new([rho, &[s0, r0]], [rho, &[s1, r1]]);
    let mut buf0 = [0u8; REJ_NTT_FIRST];
    let mut buf1 = [0u8; REJ_NTT_FIRST];
    xof.squeeze(&mut buf0, &mut buf1);
    let (mut n0, mut n1) = (0, 0);
    Active::rej_ntt_parse_vartime(&buf0, a0, &mut n0);
    Active::rej_ntt_parse_vartime(&buf1, a1, &mut n1);
    while n0 < N || n1 < N {
        let (b0, b1) = (&mut buf0[..SHAKE128_RATE], &mut buf1[..SHAKE128_RATE]);
        xof.squeeze(b0, b1);
        Active::rej_ntt_parse_vartime(b0, a0, &mut n0);
        Active::rej_ntt_parse_vartime(b1, a1, &mut n1);
    }
}

/// RejBoundedPoly (FIPS 204 Algorithm 31) with seed ρ′‖IntegerToBytes(nonce, 2):
/// coefficients in [−η, η].
pub fn rej_bounded_poly(rho_prime: &[u8], nonce: u16, eta: i32) -> Poly {
    let mut xof = Shake256::new().absorb(rho_prime).absorb(&nonce.to_le_bytes()).finalize();
    let mut buf = [0u8; SHAKE256_RATE];
    let mut a = Poly::zero();
    let mut n = 0;
    while n < N {
        xof.squeeze(&mut buf);
        Active::rej_bounded_parse(&buf, eta, &mut a, &mut n);
    }
    buf.zeroize();
    a
}

/// Two RejBoundedPoly at once on a two-lane SHAKE256, with nonces n0 and n1.
/// The same outputs as two `rej_bounded_poly` calls.
pub fn rej_bounded_poly_x2(rho_prime: &[u8], nonces: [u16; 2], eta: i32, a0: &mut Poly, a1: &mut Poly) {
    let (k0, k1) = (nonces[0].to_le_bytes(), nonces[1].to_le_bytes());
    let mut xof = Shake256x2::new([rho_prime, &k0], [rho_prime, &k1]);
    let mut buf0 = [0u8; SHAKE256_RATE];
    let mut buf1 = [0u8; SHAKE256_RATE];
    let (mut n0, mut n1) = (0, 0);
    while n0 < N || n1 < N {
        xof.squeeze(&mut buf0, &mut buf1);
        Active::rej_bounded_parse(&buf0, eta, a0, &mut n0);
        Active::rej_bounded_parse(&buf1, eta, a1, &mut n1);
    }
    buf0.zeroize();
    buf1.zeroize();
}

/// ExpandS (FIPS 204 Algorithm 33): s1 ∈ S_η^ℓ and s2 ∈ S_η^k from ρ′.
/// The ℓ + k polynomials (nonces 0, 1, …, ℓ + k − 1) are drawn two at a
/// time; when ℓ + k is odd the last one is drawn alone.
pub fn expand_s(p: &Params, rho_prime: &[u8], s1: &mut [Poly], s2: &mut [Poly]) {
    let mut all: Vec<&mut Poly> = s1.iter_mut().chain(s2.iter_mut()).collect();
    let mut nonce = 0u16;
    let mut pairs = all.chunks_exact_mut(2);
    for pair in &mut pairs {
        let [a0, a1] = pair else { unreachable!() };
        rej_bounded_poly_x2(rho_prime, [nonce, nonce + 1], p.eta, a0, a1);
        nonce += 2;
    }
    if let [last] = pairs.into_remainder() {
        **last = rej_bounded_poly(rho_prime, nonce, p.eta);
    }
}

/// ExpandA (FIPS 204 Algorithm 32), row-major: a_hat[r·ℓ + s] = Â[r][s] ∈ T_q,
/// generated two entries at a time in that order, straight into `a_hat`.
pub fn expand_a(p: &Params, rho: &[u8], a_hat: &mut [NttPoly]) {
    let mut at = (0u8, 0u8);
    let after = |(s, r): (u8, u8)| if s as usize + 1 == p.l { (0, r + 1) } else { (s + 1, r) };
    let mut pairs = a_hat[..p.k * p.l].chunks_exact_mut(2);
    for pair in &mut pairs {
        let [a0, a1] = pair else { unreachable!() };
        let next = after(at);
        rej_ntt_poly_x2_vartime(rho, at, next, a0, a1);
        at = after(next);
    }
    if let [last] = pairs.into_remainder() {
        *last = rej_ntt_poly_vartime(rho, at.0, at.1);
    }
}

/// Â row by row (Â[0][0..ℓ], Â[1][0..ℓ], …), its entries generated two at a
/// time in row-major order: keygen and verification use it to build Â just in
/// time with a row of memory instead of k·ℓ polynomials. A pair lies within one row
/// and is generated straight into it, except, when ℓ is odd, the pair made of
/// a row's last entry and the next row's first; that one waits in `spare`.
pub struct MatrixRows<'a> {
    rho: &'a [u8],
    k: usize,
    l: usize,
    /// Â[0][0..head.len()], drawn before (`beside_hash`).
    head: Vec<NttPoly>,
    /// The index r of the next row handed out.
    next_row: usize,
    /// Whether `spare` holds Â[next_row][0].
    carried: bool,
    spare: NttPoly,
}

impl<'a> MatrixRows<'a> {
    pub fn new(p: &Params, rho: &'a [u8]) -> Self {
        MatrixRows { rho, k: p.k, l: p.l, head: Vec::new(), next_row: 0, carried: false, spare: NttPoly::zero() }
    }

    /// The rows, with tr = H(pk, 64) (`msg`; FIPS 204 Algorithm 8 step 6)
    /// computed beside the first entries of Â on the two-lane Keccak: one
    /// state absorbs the message while the other draws Â[0][0], Â[0][1], …
    /// (at most ℓ), starting one only while the hash has five blocks or
    /// more to go, so that each takes five of the hash's permutations
    /// (RejNTTPoly almost never needs a sixth; then the hash's state idles).
    /// The hash would otherwise run on one state alone, and the entries'
    /// pairs, which follow them, are unchanged in number but for a single
    /// one at the end when the count left is odd.
    pub fn beside_hash(p: &Params, rho: &'a [u8], msg: &[u8], digest: &mut [u8; 64]) -> Self {
        const R: usize = SHAKE256_RATE;
        let mut rows = MatrixRows::new(p, rho);
        let mut s = StateX2::default();
        let (mut rest, mut hashing) = (msg, true);
        // The entry being drawn, and its coefficients so far.
        let (mut drawing, mut n) = (false, 0);
        let mut out = [[0u8; SHAKE128_RATE]; 2];
        loop {
            if !drawing && hashing && rest.len() >= 4 * R && rows.head.len() < p.l {
                let mut start = [0u64; 25];
                pad_seed(&mut start, SHAKE128_RATE, [rho, &[rows.head.len() as u8, 0]]);
                s.set_state(1, &start);
                rows.head.push(NttPoly::zero());
                (drawing, n) = (true, 0);
            }
            if !drawing && !hashing {
                return rows;
            }
            if hashing {
                xor_shake256_block(&mut s, 0, rest);
            }
            f1600_x2(&mut s);
            let [o0, o1] = &mut out;
            s.read_lanes(0, o0, o1);
            if hashing {
                if rest.len() < R {
                    digest.copy_from_slice(&o0[..64]);
                    hashing = false;
                } else {
                    rest = &rest[R..];
                }
            }
            if drawing {
                let a = rows.head.last_mut().unwrap().coefficients_mut();
                Active::rej_ntt_parse_vartime(&o1[..], a, &mut n);
                drawing = n < N;
            }
        }
    }

    /// Writes the next row of Â, Â[r][0..ℓ], to `row` (ℓ entries).
    pub fn next_row(&mut self, row: &mut [NttPoly]) {
        let r = self.next_row;
        assert!(r < self.k && row.len() == self.l);
        // (s, r) of Â[r][s] is the seed suffix of RejNTTPoly; r, s < 8.
        let r8 = r as u8;
        let mut s = 0;
        if self.carried {
            row[0] = self.spare;
            s = 1;
        }
        if r == 0 {
            row[..self.head.len()].copy_from_slice(&self.head);
            s = self.head.len();
        }
        while s + 2 <= self.l {
            let (head, tail) = row[s..].split_at_mut(1);
            rej_ntt_poly_x2_vartime(self.rho, (s as u8, r8), (s as u8 + 1, r8), &mut head[0], &mut tail[0]);
            s += 2;
        }
        self.carried = s < self.l && r + 1 < self.k;
        if self.carried {
            rej_ntt_poly_x2_vartime(self.rho, (s as u8, r8), (0, r8 + 1), &mut row[s], &mut self.spare);
        } else if s < self.l {
            row[s] = rej_ntt_poly_vartime(self.rho, s as u8, r8);
        }
        self.next_row += 1;
    }
}

/// SHAKE256 blocks squeezed for one polynomial of ExpandMask: 32·(1 +
/// bitlen(γ1 − 1)) = 576 or 640 bytes, more than four blocks of 136.
const MASK_BLOCKS: usize = 5;
const MASK_BUF: usize = MASK_BLOCKS * SHAKE256_RATE;

/// ExpandMask (FIPS 204 Algorithm 34), y with coefficients in (−γ1, γ1], for
/// the successive attempts of one Sign_internal, which use the nonces κ,
/// κ + 1, … without a gap (attempt κ takes κ … κ + ℓ − 1, the next starts at
/// κ + ℓ), together with the attempts' one-lane hash c̃ = H(μ ‖ w1Encode(w1)).
///
/// Every polynomial of the nonce sequence is a job of five permutations on
/// one state of a two-lane Keccak; a state that finishes its job takes the
/// next nonce's at once, even one for a later attempt. `hash_beside` runs
/// the hash on the state that is free while the other goes on with its job,
/// so every permutation serves two states and the hash costs no permutation
/// of its own. Polynomials finished before their attempt wait in `ahead`;
/// what is still drawing when the last attempt is accepted is wasted.
///
/// Each y_r depends only on (ρ″, its nonce), so the outputs are those of
/// Algorithm 34 whatever the schedule.
///
/// The schedule, which the bound on `ahead` rests on: jobs start in nonce
/// order and all take five permutations, so they also finish in that order.
/// `fill` returns at the permutation that finishes its last polynomial; a job
/// for the next attempt started with that one's at the same permutation has
/// finished too (then both states are free), one started later has not. So
/// `fill` leaves at most one polynomial in `ahead`, and one state free.
/// `hash_beside` takes a free state for 10 permutations or fewer (c̃'s 9 or
/// fewer, one for SampleInBall's first block). Meanwhile the other state
/// finishes at most two jobs: a fresh start finishes at the 5th and 10th, and
/// a job under way (it has had at least one permutation) within 4, the next
/// within 9. That is at most three waiting, which the next `fill` takes
/// (ℓ ≥ 4), and one state is free after either call.
pub struct MaskStream<'a> {
    p: &'a Params,
    rho_pp: &'a [u8],
    /// The state a job starts from: ρ″ ‖ 0 0 with SHAKE's padding; the nonce
    /// goes into lane 8 (bytes 64 and 65).
    seed: Zeroizing<[u64; 25]>,
    s: StateX2,
    /// Each state's job: the nonce of its polynomial and the blocks squeezed
    /// so far, or None when the state is free.
    jobs: [Option<(u16, usize)>; 2],
    /// Each state's squeezed blocks.
    out: Zeroizing<[[u8; MASK_BUF]; 2]>,
    /// The nonce the next job takes.
    next: u16,
    /// The κ the schedule is ready for; any other starts afresh.
    base: Option<u16>,
    /// Polynomials finished ahead of their attempt: ahead[i] has nonce base + i.
    ahead: Zeroizing<[Poly; 3]>,
    ahead_len: usize,
}

impl<'a> MaskStream<'a> {
    pub fn new(p: &'a Params, rho_pp: &'a [u8]) -> Self {
        MaskStream {
            p,
            rho_pp,
            seed: Zeroizing::new([0u64; 25]),
            s: StateX2::default(),
            jobs: [None; 2],
            out: Zeroizing::new([[0u8; MASK_BUF]; 2]),
            next: 0,
            base: None,
            ahead: Zeroizing::new([Poly::zero(); 3]),
            ahead_len: 0,
        }
    }

    /// Continues the schedule at κ, or drops it and starts afresh there.
    /// The seed state is written here, where the stream stays, not in `new`:
    /// returning it by value would leave a copy of ρ″ behind.
    fn start_at(&mut self, kappa: u16) {
        if self.base != Some(kappa) {
            self.jobs = [None; 2];
            self.next = kappa;
            self.ahead_len = 0;
            *self.seed = [0; 25];
            pad_seed(&mut self.seed, SHAKE256_RATE, [self.rho_pp, &[0, 0]]);
        }
        self.base = None;
    }

    /// One permutation of the pair: `hash` = (state, message from this
    /// block on, whether it is the first) absorbs that block; a state not
    /// hashing goes on with its job (a free one starts the next nonce's). A
    /// finished polynomial of nonce n goes to y[n − kappa], or to
    /// ahead[n − kappa − y.len()]; returns how many went to y.
    fn step(&mut self, hash: Option<(usize, &[u8], bool)>, kappa: u16, y: &mut [Poly]) -> usize {
        let hash_lane = hash.map(|h| h.0);
        for lane in 0..2 {
            let hashed = hash.filter(|h| h.0 == lane);
            // A hash starts from the zero state, a job from the seed's.
            let fresh = match hashed {
                Some((_, _, first)) => first,
                None => self.jobs[lane].is_none(),
            };
            if fresh {
                self.s.set_state(lane, if hashed.is_some() { &[0; 25] } else { &self.seed });
            }
            if let Some((_, rest, _)) = hashed {
                xor_shake256_block(&mut self.s, lane, rest);
            } else if fresh {
                self.s.xor_lanes(lane, 8, &(self.next as u64).to_le_bytes());
                self.jobs[lane] = Some((self.next, 0));
                self.next = self.next.wrapping_add(1);
            }
        }
        f1600_x2(&mut self.s);
        // Each state's block goes to its job's place; a hashing state's to the
        // start of its buffer, where the digest is read from.
        let place = |job: Option<(u16, usize)>| job.map_or(0, |j| j.1 * SHAKE256_RATE);
        let (b0, b1) = (place(self.jobs[0]), place(self.jobs[1]));
        let [o0, o1] = &mut *self.out;
        self.s.read_lanes(0, &mut o0[b0..b0 + SHAKE256_RATE], &mut o1[b1..b1 + SHAKE256_RATE]);
        let (bits, mut done) = (self.p.z_bits(), 0);
        for lane in 0..2 {
            let Some((nonce, blocks)) = self.jobs[lane].filter(|_| hash_lane != Some(lane)) else { continue };
            if blocks + 1 < MASK_BLOCKS {
                self.jobs[lane] = Some((nonce, blocks + 1));
                continue;
            }
            self.jobs[lane] = None;
            let i = nonce.wrapping_sub(kappa) as usize;
            let target = if i < y.len() {
                done += 1;
                &mut y[i]
            } else {
                // Below 3 by the schedule (see the type).
                self.ahead_len = self.ahead_len.max(i - y.len() + 1);
                &mut self.ahead[i - y.len()]
            };
            unpack_offset(&self.out[lane][..32 * bits], self.p.gamma1, bits, target);
        }
        done
    }

    /// y ← ExpandMask(ρ″, κ): y[r] from nonce κ + r mod 2^16 (IntegerToBytes(κ + r, 2)).
    /// Polynomials drawn ahead for this κ are used; jobs for the next κ + ℓ
    /// may be left running. y.len() ≥ 3 (ℓ ≥ 4), so that everything waiting
    /// is taken.
    pub fn fill(&mut self, kappa: u16, y: &mut [Poly]) {
        assert!(y.len() >= self.ahead.len());
        self.start_at(kappa);
        let ready = self.ahead_len.min(y.len());
        y[..ready].copy_from_slice(&self.ahead[..ready]);
        self.ahead_len = 0;
        let mut have = ready;
        while have < y.len() {
            have += self.step(None, kappa, y);
        }
        let next = kappa.wrapping_add(y.len() as u16);
        self.base = Some(next);
    }

    /// H(msg, digest.len()) (FIPS 204 §3.7) on the free state while the other
    /// draws the polynomials that follow, for the attempt at `next_kappa`
    /// (where `fill` left off; the bound on `ahead` wants one `fill` between
    /// two calls, as the signer makes them); then the first block of
    /// H(digest) into `then`, also beside the other state's jobs: c̃ and the
    /// block SampleInBall starts from (`sample_in_ball_from_vartime`). At most
    /// 9 blocks of message (the schedule's bound, above; c̃'s input is 7 or
    /// 9); digest.len() ≤ 64.
    pub fn hash_beside(&mut self, next_kappa: u16, msg: &[u8], digest: &mut [u8], then: &mut [u8; SHAKE256_RATE]) {
        const R: usize = SHAKE256_RATE;
        assert!(msg.len() < 9 * R && digest.len() <= 64);
        self.start_at(next_kappa);
        // One state is free after `fill` (the schedule, above), and both are
        // after a fresh start.
        let lane = if self.jobs[0].is_none() { 0 } else { 1 };
        debug_assert!(self.jobs[lane].is_none());
        // The blocks split off one at a time: a block count would be a
        // division, which wasm-div-scan refuses where signing reaches (the
        // length is public; the scan cannot know).
        let (mut rest, mut first) = (msg, true);
        loop {
            self.step(Some((lane, rest, first)), next_kappa, &mut []);
            if rest.len() < R {
                break;
            }
            (rest, first) = (&rest[R..], false);
        }
        digest.copy_from_slice(&self.out[lane][..digest.len()]);
        self.step(Some((lane, digest, true)), next_kappa, &mut []);
        then.copy_from_slice(&self.out[lane][..SHAKE256_RATE]);
        self.base = Some(next_kappa);
    }
}

impl Drop for MaskStream<'_> {
    fn drop(&mut self) {
        self.s.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamSet, Q};
    use crate::xof::h;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sample_in_ball_has_tau_signs() {
        for (i, tau) in [39usize, 49, 60].into_iter().enumerate() {
            for seed in 0u8..20 {
                let mut c = Poly([7; N]);
                sample_in_ball_vartime(&[seed ^ i as u8; 48], tau, &mut c);
                assert_eq!(c.0.iter().filter(|&&x| x != 0).count(), tau);
                assert!(c.0.iter().all(|&x| (-1..=1).contains(&x)));
            }
        }
    }

    /// SampleInBall over a byte stream, as Algorithm 29 reads it.
    fn sample_in_ball_reference(stream: &[u8], tau: usize) -> Poly {
        let mut c = Poly::zero();
        let signs = u64::from_le_bytes(stream[..8].try_into().unwrap());
        let mut pos = 8;
        for (n, i) in (N - tau..N).enumerate() {
            while stream[pos] as usize > i {
                pos += 1;
            }
            let j = stream[pos] as usize;
            pos += 1;
            c.0[i] = c.0[j];
            c.0[j] = 1 - 2 * ((signs >> n) & 1) as i32;
        }
        c
    }

    /// Given its first block of H(c̃), SampleInBall equals Algorithm 29; when
    /// that block runs out (a first block that rejects its 128 positions)
    /// it goes on with the rest of H(c̃).
    #[test]
    fn sample_in_ball_from_first_block() {
        for (k, tau) in [39usize, 49, 60].into_iter().enumerate() {
            let c_tilde = [k as u8 * 3 + 1; 48];
            let mut full = [0u8; 4 * SHAKE256_RATE];
            h(&[&c_tilde], &mut full);
            let first: [u8; SHAKE256_RATE] = full[..SHAKE256_RATE].try_into().unwrap();
            let (mut a, mut b) = (Poly::zero(), Poly::zero());
            sample_in_ball_from_vartime(&c_tilde, &first, tau, &mut a);
            sample_in_ball_vartime(&c_tilde, tau, &mut b);
            assert_eq!(a, b);
            assert_eq!(a, sample_in_ball_reference(&full, tau));
            let mut odd = [0xffu8; SHAKE256_RATE];
            odd[..8].copy_from_slice(&first[..8]);
            let mut stream = full;
            stream[..SHAKE256_RATE].copy_from_slice(&odd);
            sample_in_ball_from_vartime(&c_tilde, &odd, tau, &mut a);
            assert_eq!(a, sample_in_ball_reference(&stream, tau), "τ {tau}, first block used up");
        }
    }

    #[test]
    fn rejection_samplers_stay_in_range() {
        for nonce in 0..40u16 {
            let a = rej_ntt_poly_vartime(&[nonce as u8; 32], 3, 1);
            assert!(a.coefficients().0.iter().all(|&x| (0..Q).contains(&x)));
            for eta in [2, 4] {
                let s = rej_bounded_poly(&[7u8; 64], nonce, eta);
                assert!(s.0.iter().all(|&x| (-eta..=eta).contains(&x)));
                for v in -eta..=eta {
                    assert!(s.0.contains(&v), "value {v} never drawn (eta {eta})");
                }
            }
        }
    }

    /// The branch-free parsers on extreme input: all-rejected candidates
    /// advance nothing, accepted ones land in order, and a buffer parsed in
    /// pieces (as when more blocks are squeezed) gives what it gives at once.
    #[test]
    fn parsers_keep_exactly_the_accepted_values() {
        let mut a = Poly::zero();
        let mut n = 0;
        Active::rej_ntt_parse_vartime(&[0xff; 168], &mut a, &mut n); // z = 2^23 − 1 ≥ q
        assert_eq!(n, 0);
        // q − 1 is accepted, q rejected, 0 accepted.
        let (qm1, q) = ((Q - 1).to_le_bytes(), Q.to_le_bytes());
        Active::rej_ntt_parse_vartime(&[qm1[0], qm1[1], qm1[2], q[0], q[1], q[2], 0, 0, 0x80], &mut a, &mut n);
        assert_eq!((n, a.0[0], a.0[1]), (2, Q - 1, 0));
        for eta in [2, 4] {
            let mut n = 0;
            Active::rej_bounded_parse(&[0xff; 136], eta, &mut a, &mut n); // z = 15 is rejected for both η
            assert_eq!(n, 0);
            // Half-bytes 0, 15, 8, 14, 9, 0: η = 2 keeps 0, 8, 14, 9, 0; η = 4 keeps 0, 8, 0.
            Active::rej_bounded_parse(&[0xf0, 0xe8, 0x09], eta, &mut a, &mut n);
            let want: &[i32] = if eta == 2 { &[2, -1, -2, -2, 2] } else { &[4, -4, 4] };
            assert_eq!(&a.0[..n], want, "eta {eta}");
        }
        // Top bytes 0xFF: z = 0x7F‖b1‖b0 is rejected when b1‖b0 ≥ 0xE001 (about 1 in 8).
        let buf: Vec<u8> = (0..5 * 168).map(|i| if i % 3 == 2 { 0xff } else { (i * 97 + 13) as u8 }).collect();
        let (mut whole, mut parts) = (Poly::zero(), Poly::zero());
        let (mut n1, mut n2) = (0, 0);
        Active::rej_ntt_parse_vartime(&buf, &mut whole, &mut n1);
        for block in buf.chunks(168) {
            Active::rej_ntt_parse_vartime(block, &mut parts, &mut n2);
        }
        assert_eq!((n1, whole), (n2, parts));
        assert!(n1 > 0 && n1 < N, "the buffer is meant to reject many candidates");
    }

    /// The two-lane samplers against the one-lane ones, for every parameter
    /// set (odd and even counts) and a few seeds, including all-zero and
    /// all-0xFF seeds.
    #[test]
    fn two_lane_samplers_equal_one_lane() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            for seed in [0u8, 0xff, 0x5a] {
                let rho: Vec<u8> = (0..64u8).map(|i| seed ^ i.wrapping_mul(seed | 1)).collect();
                let mut a_hat = vec![NttPoly::zero(); p.k * p.l];
                expand_a(p, &rho[..32], &mut a_hat);
                for r in 0..p.k {
                    for s in 0..p.l {
                        assert_eq!(a_hat[r * p.l + s], rej_ntt_poly_vartime(&rho[..32], s as u8, r as u8), "Â[{r}][{s}]");
                    }
                }
                let mut rows = MatrixRows::new(p, &rho[..32]);
                let mut row = vec![NttPoly::zero(); p.l];
                for r in 0..p.k {
                    rows.next_row(&mut row);
                    assert_eq!(row[..], a_hat[r * p.l..(r + 1) * p.l], "row {r} of Â");
                }
                let (mut s1, mut s2) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k]);
                expand_s(p, &rho, &mut s1, &mut s2);
                for (r, s) in s1.iter().chain(s2.iter()).enumerate() {
                    assert_eq!(*s, rej_bounded_poly(&rho, r as u16, p.eta), "s[{r}]");
                }
                // κ near 2^16 checks the wrap of IntegerToBytes(κ + r, 2).
                for kappa in [0u16, 65533] {
                    let mut y = vec![Poly::zero(); p.l];
                    MaskStream::new(p, &rho).fill(kappa, &mut y);
                    for (r, yr) in y.iter().enumerate() {
                        let nonce = kappa.wrapping_add(r as u16);
                        assert_eq!(*yr, mask_reference(p, &rho, nonce), "y[{r}] κ {kappa}");
                    }
                }
            }
        }
    }

    /// y_r straight from Algorithm 34: one-lane SHAKE256(ρ″ ‖ IntegerToBytes(nonce, 2)).
    fn mask_reference(p: &Params, rho_pp: &[u8], nonce: u16) -> Poly {
        let mut v = [0u8; 640];
        let v = &mut v[..32 * p.z_bits()];
        Shake256::new().absorb(rho_pp).absorb(&nonce.to_le_bytes()).finalize().squeeze(v);
        let mut y = Poly::zero();
        crate::encode::unpack_bits(v, p.z_bits(), &mut y);
        y.0.iter_mut().for_each(|c| *c = p.gamma1 - *c);
        y
    }

    /// A stream over successive attempts (κ = κ0, κ0 + ℓ, …) gives every
    /// attempt the y of Algorithm 34, for every ℓ, with and without a hash
    /// (and SampleInBall's block) beside the next attempt's polynomials,
    /// across the 2^16 wrap of the nonce, and ignores what waits when κ
    /// jumps. The hashes drawn beside equal H.
    #[test]
    fn mask_stream_equals_algorithm_34_per_attempt() {
        let rho_pp: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37) ^ 0xa5).collect();
        let msg: Vec<u8> = (0..1100u32).map(|i| (i * 7 + (i >> 8)) as u8).collect();
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            for (kappa0, hash_when) in [(0usize, 0b110111u32), (65536 - 3 * p.l - 1, 0b011101), (100, 0b111111), (7, 0)] {
                let mut stream = MaskStream::new(p, &rho_pp);
                let mut y = vec![Poly::zero(); p.l];
                let mut kappa = kappa0;
                for attempt in 0..6 {
                    if attempt == 4 {
                        kappa += 1; // not the next κ: what waits must not be used
                    }
                    stream.fill(kappa as u16, &mut y);
                    for (r, yr) in y.iter().enumerate() {
                        let nonce = (kappa + r) as u16;
                        assert_eq!(*yr, mask_reference(p, &rho_pp, nonce), "{ps:?} κ {kappa} y[{r}]");
                    }
                    kappa += p.l;
                    if hash_when >> attempt & 1 == 1 {
                        let m = &msg[..64 + 32 * p.k * p.w1_bits() + attempt];
                        let (mut got, mut want) = ([0u8; 64], [0u8; 64]);
                        let n = p.c_tilde_bytes();
                        let mut block = [0u8; SHAKE256_RATE];
                        stream.hash_beside(kappa as u16, m, &mut got[..n], &mut block);
                        h(&[m], &mut want[..n]);
                        assert_eq!(got, want, "{ps:?} hash at κ {kappa}");
                        let mut want = [0u8; SHAKE256_RATE];
                        h(&[&got[..n]], &mut want);
                        assert_eq!(block, want, "{ps:?} H(c̃) at κ {kappa}");
                    }
                }
            }
        }
    }

    /// The signer's pattern (a fill, then c̃'s hash and SampleInBall's block
    /// beside, attempt after attempt) over the whole nonce range: every y is
    /// Algorithm 34's, and the most polynomials waiting is the bound of the
    /// schedule, 3, reached by ML-DSA-87 (9 blocks of c̃ input); 2 for the
    /// others (7).
    #[test]
    fn mask_stream_in_the_signers_pattern() {
        let rho_pp: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(91) ^ 0x3c).collect();
        for (ps, most) in [(ParamSet::MlDsa44, 2), (ParamSet::MlDsa65, 2), (ParamSet::MlDsa87, 3)] {
            let p = ps.params();
            let msg: Vec<u8> = (0..64 + 32 * p.k * p.w1_bits()).map(|i| (i * 13 + 5) as u8).collect();
            let mut stream = MaskStream::new(p, &rho_pp);
            let mut y = vec![Poly::zero(); p.l];
            let (mut kappa, mut seen) = (0usize, 0);
            while kappa + p.l <= 65536 {
                stream.fill(kappa as u16, &mut y);
                // Every nonce near both ends of the range, a sample between.
                if kappa < 1000 || kappa > 65536 - 100 || kappa % 97 == 0 {
                    for (r, yr) in y.iter().enumerate() {
                        assert_eq!(*yr, mask_reference(p, &rho_pp, (kappa + r) as u16), "{ps:?} κ {kappa} y[{r}]");
                    }
                }
                kappa += p.l;
                let (mut c, mut block) = ([0u8; 64], [0u8; SHAKE256_RATE]);
                stream.hash_beside(kappa as u16, &msg, &mut c[..p.c_tilde_bytes()], &mut block);
                seen = seen.max(stream.ahead_len);
            }
            assert_eq!(seen, most, "{ps:?}: most polynomials waiting");
        }
    }

    /// Rows whose first entries were drawn beside a hash equal ExpandA's,
    /// and the hash equals H, for every set and hashes of no entry's length
    /// (under five blocks), a few entries' and of more than a row's.
    #[test]
    fn rows_beside_hash_equal_expand_a_and_h() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            let rho: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(29) ^ p.k as u8).collect();
            let mut a_hat = vec![NttPoly::zero(); p.k * p.l];
            expand_a(p, &rho, &mut a_hat);
            for len in [0usize, 543, 544, 1312, 1952, 2592, 5000] {
                let msg: Vec<u8> = (0..len).map(|i| (i * 131 + (i >> 7)) as u8).collect();
                let (mut got, mut want) = ([0u8; 64], [0u8; 64]);
                let mut rows = MatrixRows::beside_hash(p, &rho, &msg, &mut got);
                h(&[&msg], &mut want);
                assert_eq!(got, want, "{ps:?} hash of {len} bytes");
                let entries = if len < 544 { 0 } else { ((len / 136 + 1) / 5).min(p.l) };
                assert_eq!(rows.head.len(), entries, "{ps:?} entries beside {len} bytes");
                let mut row = vec![NttPoly::zero(); p.l];
                for r in 0..p.k {
                    rows.next_row(&mut row);
                    assert_eq!(row[..], a_hat[r * p.l..(r + 1) * p.l], "{ps:?} row {r}, hash of {len} bytes");
                }
            }
        }
    }

    #[test]
    fn mask_in_range() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa87] {
            let p = ps.params();
            let mut y = vec![Poly::zero(); p.l];
            MaskStream::new(p, &[1u8; 64]).fill(65530, &mut y);
            for yr in &y {
                assert!(yr.0.iter().all(|&c| c > -p.gamma1 && c <= p.gamma1));
            }
        }
    }
}
