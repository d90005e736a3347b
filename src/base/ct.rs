//! Constant-time testing marks (the "ctgrind" method): with the cargo feature
//! `ct-testing`, secrets are marked as undefined memory for valgrind's
//! memcheck, which then reports every conditional branch and every memory
//! index that depends on them ("Conditional jump or move depends on
//! uninitialised value(s)", "Use of uninitialised value of size N").
//! `scripts/ct.sh` runs the harness `examples/ctgrind.rs` that way.
//!
//! Declassification is the exception and must be justified: every call of
//! `declassify` or `declassified` names, in a comment at the call site, the
//! reason FIPS 204 (or the Dilithium round-3 specification, §5.5) allows the
//! value to be public. Without the feature all of these are empty inline
//! functions: normal builds, the .wasm included, carry no trace of them.
//!
//! The marks are valgrind client requests (valgrind.h / memcheck.h): a magic
//! no-op instruction sequence that valgrind's JIT recognises, with the
//! request in rax. Two requests of one platform (x86_64 Linux) are all that is
//! needed, so they are written out here rather than taken from the
//! `crabgrind` crate, which builds a C shim with `cc` and `bindgen` (libclang).

#[cfg(all(feature = "ct-testing", not(all(target_arch = "x86_64", target_os = "linux"))))]
compile_error!("feature ct-testing needs x86_64 Linux (valgrind client requests are written for it)");

#[cfg(all(feature = "ct-testing", target_arch = "x86_64", target_os = "linux"))]
mod valgrind {
    /// VG_USERREQ_TOOL_BASE('M', 'C') + 1 and + 2 (memcheck.h).
    pub const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
    pub const MAKE_MEM_DEFINED: usize = 0x4d43_0002;
    /// VG_USERREQ_TOOL_BASE('M', 'C') + 8: copies the V bits (1 = undefined) out.
    pub const GET_VBITS: usize = 0x4d43_0008;
    /// VG_USERREQ__RUNNING_ON_VALGRIND (valgrind.h).
    pub const RUNNING_ON_VALGRIND: usize = 0x1001;

    /// A client request with up to three arguments: returns valgrind's answer,
    /// or `default` when the program does not run under valgrind (the
    /// sequence is then a no-op: the four rotations of rdi add up to 128).
    #[inline(never)]
    pub fn request(default: usize, code: usize, a1: usize, a2: usize, a3: usize) -> usize {
        let args: [usize; 6] = [code, a1, a2, a3, 0, 0];
        let mut result = default;
        // SAFETY: valgrind reads `args` through rax and writes only rdx; run
        // natively, the sequence changes no register but the flags.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") result,
                options(nostack),
            );
        }
        result
    }
}

/// Marks the bytes of `v` as secret: memcheck then treats them, and all that
/// is computed from them, as undefined. `&mut` so that the compiler reloads
/// them afterwards instead of reusing a known value (a constant seed, say).
/// Only the harness marks secrets; the library only declassifies.
#[inline(always)]
#[allow(unused_variables)]
#[cfg_attr(not(feature = "ct-testing"), allow(dead_code))]
pub fn secret<T: ?Sized>(v: &mut T) {
    #[cfg(feature = "ct-testing")]
    valgrind::request(0, valgrind::MAKE_MEM_UNDEFINED, v as *mut T as *mut u8 as usize, core::mem::size_of_val(v), 0);
}

/// Declassifies the bytes of `v`: memcheck treats them as public from here
/// on. Every call site says why FIPS 204 allows it.
#[inline(always)]
#[allow(unused_variables)]
pub fn declassify<T: ?Sized>(v: &T) {
    #[cfg(feature = "ct-testing")]
    valgrind::request(0, valgrind::MAKE_MEM_DEFINED, v as *const T as *const u8 as usize, core::mem::size_of_val(v), 0);
}

/// `v`, declassified: for a verdict (a bool, a count) about to decide a
/// branch. The value goes through memory so that the mark applies to it.
#[inline(always)]
pub fn declassified<T: Copy>(v: T) -> T {
    #[cfg(feature = "ct-testing")]
    {
        let x = v;
        declassify(&x);
        // SAFETY: reads a local; volatile so the load comes after the request.
        unsafe { core::ptr::read_volatile(&x) }
    }
    #[cfg(not(feature = "ct-testing"))]
    v
}

/// True when running under valgrind (the harness refuses to run otherwise:
/// without valgrind the marks do nothing and nothing would be checked).
#[cfg(feature = "ct-testing")]
pub fn running_on_valgrind() -> bool {
    valgrind::request(0, valgrind::RUNNING_ON_VALGRIND, 0, 0, 0) != 0
}

/// Memcheck's V bits of each byte of `v` (bit set: derived from a secret and
/// not declassified), so the harness can check that outputs are public and
/// that secrets were not declassified. None when not under valgrind.
#[cfg(feature = "ct-testing")]
pub fn secret_bits(v: &[u8]) -> Option<alloc::vec::Vec<u8>> {
    let mut bits = alloc::vec![0u8; v.len()];
    let ok = valgrind::request(0, valgrind::GET_VBITS, v.as_ptr() as usize, bits.as_mut_ptr() as usize, v.len());
    (ok == 1).then_some(bits)
}

/// How often each rejection condition of FIPS 204 Algorithm 7 fired, in the
/// order ‖z‖∞, ‖r0‖∞, ‖ct0‖∞, hint count: the harness checks that every one
/// of them ran under valgrind.
#[cfg(any(test, feature = "ct-testing"))]
pub fn rejections() -> [usize; 4] {
    REJECTIONS.with(|r| core::array::from_fn(|i| r[i].get()))
}

#[cfg(any(test, feature = "ct-testing"))]
std::thread_local! {
    /// The counts behind `rejections` (unit tests and the ct-testing harness
    /// only). Per thread: the test harness runs tests in parallel threads, and
    /// signing runs on the caller's.
    static REJECTIONS: [core::cell::Cell<usize>; 4] = const { [const { core::cell::Cell::new(0) }; 4] };
}

/// Sign_internal (FIPS 204 Algorithm 7) calls this when an attempt is
/// rejected, with the condition's index in the order of `rejections`; it
/// compiles to nothing outside tests and the ct-testing harness.
#[inline(always)]
pub fn count_rejection(_which: usize) {
    #[cfg(any(test, feature = "ct-testing"))]
    REJECTIONS.with(|r| r[_which].set(r[_which].get() + 1));
}
