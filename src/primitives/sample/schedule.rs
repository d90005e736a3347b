//! The two-lane Keccak schedules of the samplers: FIPS 204's outputs, drawn
//! two SHAKE states at a time, with a hash on one state while the other
//! samples.
//!
//! - `MatrixRows`: Â (ExpandA, Algorithm 32) row by row, its first entries
//!   drawn beside the hash tr = H(pk) of verification.
//! - `MaskStream`: y (ExpandMask, Algorithm 34) for the signer's successive
//!   attempts, with c̃'s hash and SampleInBall's first block beside.
//!
//! Each output depends only on its seed, so every schedule gives the outputs
//! of the algorithms in `sample.rs`; the tests check that, and each invariant
//! the schedules' bounds rest on (debug builds assert them as they run).

use super::{mask_poly_from, rej_ntt_poly_vartime, rej_ntt_poly_x2_vartime, MASK_BLOCKS};
use crate::backend::{Active, SampleKernels, StatePair};
use crate::keccak::{f1600_x2, StateX2};
use crate::params::{Params, N};
use crate::ring::{NttPoly, Poly};
use crate::xof::{pad_seed, xor_shake256_block, SHAKE128_RATE, SHAKE256_RATE};
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// Â row by row (Â[0][0..ℓ], Â[1][0..ℓ], …), its entries generated two at a
/// time in row-major order: keygen and verification use it to build Â just in
/// time with a row of memory instead of k·ℓ polynomials. A pair lies within one row
/// and is generated straight into it, except, when the entries left of a row
/// are odd in number, the pair made of its last entry and the next row's
/// first; that one waits in `spare`.
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
                debug_assert!(rows.head.len() <= rows.l);
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
        // What the pairs left of the row: one entry at most.
        debug_assert!(s + 1 >= self.l);
        self.carried = s < self.l && r + 1 < self.k;
        if self.carried {
            rej_ntt_poly_x2_vartime(self.rho, (s as u8, r8), (0, r8 + 1), &mut row[s], &mut self.spare);
        } else if s < self.l {
            row[s] = rej_ntt_poly_vartime(self.rho, s as u8, r8);
        }
        self.next_row += 1;
    }
}

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
        debug_assert!(self.jobs_in_order());
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
                debug_assert!(i - y.len() < self.ahead.len());
                self.ahead_len = self.ahead_len.max(i - y.len() + 1);
                &mut self.ahead[i - y.len()]
            };
            mask_poly_from(self.p, &self.out[lane][..32 * bits], target);
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
        debug_assert!(self.after_fill());
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
        debug_assert!(self.has_free_state());
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
        debug_assert!(self.after_hash());
    }

    // The invariants of the schedule (see the type), as the debug builds
    // check them and the tests below.

    /// Jobs start in nonce order and all take `MASK_BLOCKS` permutations, so
    /// of two jobs under way the one with the lower nonce has had at least as
    /// many blocks: they finish in nonce order.
    fn jobs_in_order(&self) -> bool {
        match self.jobs {
            [Some((n0, b0)), Some((n1, b1))] => {
                let (older, newer) = if n1.wrapping_sub(n0) < 0x8000 { (b0, b1) } else { (b1, b0) };
                n0 != n1 && older >= newer
            }
            _ => true,
        }
    }

    /// At least one state has no job (`hash_beside` takes it).
    fn has_free_state(&self) -> bool {
        self.jobs.iter().any(Option::is_none)
    }

    /// After `fill`: at most one polynomial waits, and a state is free.
    fn after_fill(&self) -> bool {
        self.ahead_len <= 1 && self.has_free_state() && self.jobs_in_order()
    }

    /// After `hash_beside`: at most three polynomials wait (ℓ ≥ 4, so the
    /// next `fill` takes them all), and a state is free.
    fn after_hash(&self) -> bool {
        self.ahead_len <= self.ahead.len() && self.has_free_state() && self.jobs_in_order()
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
    use crate::params::ParamSet;
    use crate::sample::{expand_a, expand_mask};
    use crate::xof::h;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

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
            for (kappa0, hash_when) in [(0usize, 0b110111u32), (65536 - 3 * p.l - 1, 0b011101), (100, 0b111111), (7, 0)]
            {
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
                        assert_eq!(*yr, one_poly(p, &rho_pp, nonce), "{ps:?} κ {kappa} y[{r}]");
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
                if !(1000..=65536 - 100).contains(&kappa) || kappa % 97 == 0 {
                    for (r, yr) in y.iter().enumerate() {
                        assert_eq!(*yr, one_poly(p, &rho_pp, (kappa + r) as u16), "{ps:?} κ {kappa} y[{r}]");
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

    /// y_r of ExpandMask alone (`sample::expand_mask`, one lane).
    fn one_poly(p: &Params, rho_pp: &[u8], nonce: u16) -> Poly {
        let mut y = [Poly::zero()];
        expand_mask(p, rho_pp, nonce, &mut y);
        y[0]
    }

    /// Invariant: of two jobs under way, the older (lower nonce) has had at
    /// least as many blocks, so jobs finish in nonce order; and after `fill`
    /// at most one polynomial waits and a state is free. Checked after every
    /// call of the signer's pattern, with hashes of each set's c̃ input.
    #[test]
    fn mask_stream_after_fill_one_waits_at_most_and_a_state_is_free() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            let msg: Vec<u8> = (0..64 + 32 * p.k * p.w1_bits()).map(|i| (i * 7 + 1) as u8).collect();
            let mut stream = MaskStream::new(p, &[9u8; 64]);
            let mut y = vec![Poly::zero(); p.l];
            let mut kappa = 0u16;
            for attempt in 0..200 {
                stream.fill(kappa, &mut y);
                assert!(
                    stream.after_fill(),
                    "{ps:?} after fill {attempt}: {} waiting, jobs {:?}",
                    stream.ahead_len,
                    stream.jobs
                );
                kappa = kappa.wrapping_add(p.l as u16);
                // Not always a hash between two fills: fills in a row too.
                if attempt % 5 != 4 {
                    let (mut c, mut block) = ([0u8; 64], [0u8; SHAKE256_RATE]);
                    stream.hash_beside(kappa, &msg, &mut c[..p.c_tilde_bytes()], &mut block);
                    assert!(
                        stream.after_hash(),
                        "{ps:?} after hash {attempt}: {} waiting, jobs {:?}",
                        stream.ahead_len,
                        stream.jobs
                    );
                }
            }
        }
    }

    /// Invariant: `hash_beside` finds a free state right after a fresh start
    /// (both free) and after `fill`; and the check sees a schedule that broke
    /// it (both states busy, or the older job behind the newer one).
    #[test]
    fn mask_stream_invariant_checks_can_fail() {
        let p = ParamSet::MlDsa65.params();
        let mut stream = MaskStream::new(p, &[3u8; 64]);
        assert!(stream.has_free_state() && stream.jobs_in_order());
        stream.jobs = [Some((5, 1)), Some((6, 2))];
        assert!(!stream.has_free_state());
        assert!(!stream.jobs_in_order());
        stream.jobs = [Some((65535, 3)), Some((0, 2))]; // across the wrap
        assert!(stream.jobs_in_order());
        stream.jobs = [None, None];
        stream.ahead_len = 2;
        assert!(!stream.after_fill() && stream.after_hash());
    }

    /// Invariant: whatever the entries drawn beside the hash (0 to ℓ), each
    /// row's pairs leave at most one entry, which is paired with the next
    /// row's first (waiting in `spare`), never past the last row; and every
    /// row equals ExpandA's.
    #[test]
    fn rows_carry_at_most_one_entry_and_never_past_the_last_row() {
        for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
            let p = ps.params();
            let rho = [0x33u8; 32];
            let mut a_hat = vec![NttPoly::zero(); p.k * p.l];
            expand_a(p, &rho, &mut a_hat);
            for head in 0..=p.l {
                let mut rows = MatrixRows::new(p, &rho);
                rows.head = a_hat[..head].to_vec();
                let mut row = vec![NttPoly::zero(); p.l];
                for r in 0..p.k {
                    rows.next_row(&mut row);
                    assert_eq!(row[..], a_hat[r * p.l..(r + 1) * p.l], "{ps:?} row {r}, {head} entries drawn before");
                    // An entry carried over is the next row's first.
                    assert!(!rows.carried || rows.spare == a_hat[(r + 1) * p.l], "{ps:?} row {r}");
                }
                assert!(!rows.carried, "{ps:?}: an entry drawn past the last row ({head} before)");
            }
        }
    }
}
