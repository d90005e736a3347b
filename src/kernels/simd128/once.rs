//! A static filled on first use, for tables that are cheaper to compute at
//! run time than to ship (`twiddles.rs`).
//!
//! No type of `core` does this: `OnceCell` and `LazyCell` are not `Sync`, so
//! they cannot be statics, and `OnceLock`/`LazyLock` are in `std`, which the
//! shipped .wasm does not link (feature `panic-trap`: `no_std`). What makes a
//! plain cell sound here is that a wasm instance without the atomics feature
//! runs one thread, and that the value is only reachable through `get`, which
//! fills it before it hands out the first reference and never writes it again.

use core::cell::{Cell, UnsafeCell};

pub(super) struct FilledOnce<T> {
    ready: Cell<bool>,
    value: UnsafeCell<T>,
}

// SAFETY: without the atomics feature a wasm instance runs one thread.
unsafe impl<T> Sync for FilledOnce<T> {}
#[cfg(target_feature = "atomics")]
compile_error!("src/kernels/simd128/once.rs fills its tables through a plain static: single-threaded wasm only");

impl<T> FilledOnce<T> {
    /// `zero` should be all zero bytes (as `false` is), so that the static
    /// takes no space in the .wasm's data section.
    pub(super) const fn new(zero: T) -> Self {
        FilledOnce { ready: Cell::new(false), value: UnsafeCell::new(zero) }
    }

    /// The filled value: one load and one branch once filled. `fill`, called
    /// the first time, is a function without parameters (so that it refers to
    /// the static itself and folds its address) that calls `fill_in` on this
    /// cell.
    ///
    /// # Safety
    /// `fill` must call `self.fill_in`: the value is then filled before the
    /// first reference to it is handed out.
    #[inline(always)]
    pub(super) unsafe fn get(&'static self, fill: fn()) -> &'static T {
        if !self.ready.get() {
            self.fill_now(fill);
        }
        // SAFETY: filled (`fill_now` checked it; `fill` calling `fill_in` is
        // the caller's promise), and never written again after `ready` is set.
        unsafe { &*self.value.get() }
    }

    /// Calls `fill` and checks, always, that it filled the value: the check
    /// guards the reference `get` hands out, and lives here, off the path of
    /// every call after the first (one copy, where `get` is inlined many
    /// times). A bare trap, which is what the shipped build's panic handler
    /// does anyway: `assert!` would add its message and location, ~90 bytes
    /// of .wasm, since this check cannot fold away.
    #[cold]
    #[inline(never)]
    fn fill_now(&'static self, fill: fn()) {
        fill();
        if !self.ready.get() {
            core::arch::wasm32::unreachable()
        }
    }

    /// Fills the value in place with `f` and marks it filled.
    ///
    /// # Safety
    /// Only from the `fill` given to `get`, which `get` calls before `ready`
    /// is set: no reference to the value exists yet (one thread, and `get`
    /// hands them out only once `ready` is set).
    #[inline(always)]
    pub(super) unsafe fn fill_in(&'static self, f: impl FnOnce(&mut T)) {
        // SAFETY: no reference to the value exists (the caller's promise).
        f(unsafe { &mut *self.value.get() });
        self.ready.set(true);
    }
}
