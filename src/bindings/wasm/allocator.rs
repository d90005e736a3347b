//! The global heap allocator of the .wasm, which wipes every block it frees.

use core::cell::Cell;

/// The heap allocator: first fit on one address-ordered free list, with
/// splitting and coalescing (a few hundred bytes of code, where std's
/// dlmalloc is ~6 KB of the .wasm), wiping each block before it is freed.
///
/// A block is a 16-byte header (its total size, and the next free block while
/// it is free) followed by the payload, all sizes multiples of 16, so every
/// payload is 16-aligned: blocks come from whole 64 KiB pages of
/// `memory.grow` and are split at multiples of 16. Adjacent free blocks are
/// merged, so memory is reused across sizes as with dlmalloc. wasm32 without
/// the atomics feature runs one thread, so the Cell is never shared.
struct WipingAllocator {
    /// Address of the first free block (0: none).
    free: Cell<usize>,
}

// SAFETY: without the atomics feature a wasm instance runs one thread.
unsafe impl Sync for WipingAllocator {}

const HEADER: usize = 16;
const PAGE: usize = 65536;

unsafe fn size_of_block(b: usize) -> usize {
    *(b as *const usize)
}
unsafe fn set_size(b: usize, size: usize) {
    *(b as *mut usize) = size;
}
unsafe fn next_of(b: usize) -> usize {
    *((b + 4) as *const usize)
}
unsafe fn set_next(b: usize, next: usize) {
    *((b + 4) as *mut usize) = next;
}

impl WipingAllocator {
    /// The total size of the free blocks.
    fn free_bytes(&self) -> usize {
        let (mut free, mut cur) = (0, self.free.get());
        while cur != 0 {
            // SAFETY: the free list holds only headers of free blocks.
            unsafe {
                free += size_of_block(cur);
                cur = next_of(cur);
            }
        }
        free
    }

    /// Puts block b on the free list at its address, merged with the free
    /// blocks right before and after it.
    unsafe fn insert(&self, b: usize) {
        let (mut prev, mut cur) = (0, self.free.get());
        while cur != 0 && cur < b {
            prev = cur;
            cur = next_of(cur);
        }
        if cur != 0 && b + size_of_block(b) == cur {
            set_size(b, size_of_block(b) + size_of_block(cur));
            set_next(b, next_of(cur));
        } else {
            set_next(b, cur);
        }
        if prev == 0 {
            self.free.set(b);
        } else if prev + size_of_block(prev) == b {
            set_size(prev, size_of_block(prev) + size_of_block(b));
            set_next(prev, next_of(b));
        } else {
            set_next(prev, b);
        }
    }
}

/// Bytes of linear memory not on the global allocator's free list: static
/// data, the stack and the heap blocks in use (with their headers). Unlike
/// the memory's size, a high-water mark, it falls again when blocks are
/// freed, so a leak shows in it at once.
pub(crate) fn bytes_in_use() -> usize {
    core::arch::wasm32::memory_size(0) * PAGE - ALLOCATOR.free_bytes()
}

// Out of line: inlined, they would be copied into every allocation site.
unsafe impl core::alloc::GlobalAlloc for WipingAllocator {
    #[inline(never)]
    unsafe fn alloc(&self, layout: core::alloc::Layout) -> *mut u8 {
        if layout.align() > HEADER || layout.size() > 1 << 30 {
            return core::ptr::null_mut();
        }
        // Payload rounded up to 16, plus the header; ≤ 2^30 + 32.
        let need = (layout.size() + 2 * HEADER - 1) & !(HEADER - 1);
        loop {
            let (mut prev, mut cur) = (0, self.free.get());
            while cur != 0 {
                let size = size_of_block(cur);
                if size >= need {
                    // Hand out the head; a tail of 2 headers or more stays on
                    // the list in its place. (The head, so that the rest of
                    // freshly grown pages lies at the end of memory, where
                    // the next pages grown merge with it.)
                    let rest = if size - need >= 2 * HEADER {
                        let tail = cur + need;
                        set_size(tail, size - need);
                        set_next(tail, next_of(cur));
                        set_size(cur, need);
                        tail
                    } else {
                        next_of(cur)
                    };
                    if prev == 0 {
                        self.free.set(rest);
                    } else {
                        set_next(prev, rest);
                    }
                    return (cur + HEADER) as *mut u8;
                }
                prev = cur;
                cur = next_of(cur);
            }
            // No block fits: add fresh pages (zeroed by memory.grow) and
            // retry. A free block that ends where memory ends merges with
            // them (`insert`), so only what it lacks is grown.
            let end = core::arch::wasm32::memory_size(0) * PAGE;
            let (mut last, mut cur) = (0, self.free.get());
            while cur != 0 {
                last = cur;
                cur = next_of(cur);
            }
            let at_end = if last != 0 && last + size_of_block(last) == end { size_of_block(last) } else { 0 };
            let pages = (need - at_end).div_ceil(PAGE);
            let old = core::arch::wasm32::memory_grow(0, pages);
            // Refused at 4 GiB (65536 pages), where block ends would wrap.
            if old == usize::MAX || old + pages >= 65536 {
                return core::ptr::null_mut();
            }
            let b = old * PAGE;
            set_size(b, pages * PAGE);
            self.insert(b);
        }
    }
    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: core::alloc::Layout) {
        // One memory.fill (bulk memory), where zeroize's volatile stores would
        // copy a zero vector 16 bytes at a time. The pointer then escapes into
        // black_box, an optimisation barrier, so the fill is not a dead store
        // to freed memory (as in `wasm::wipe_stack`).
        core::ptr::write_bytes(ptr, 0, layout.size());
        core::hint::black_box(ptr);
        self.insert(ptr as usize - HEADER);
    }
}

#[global_allocator]
static ALLOCATOR: WipingAllocator = WipingAllocator { free: Cell::new(0) };

#[cfg(test)]
mod tests {
    use super::{WipingAllocator, HEADER};
    use crate::test_rng::Rng;
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::Cell;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A private instance (not the global one the test harness uses): random
    /// allocations and frees of many sizes; every live block keeps its own
    /// fill pattern (so no two live blocks overlap and no free touches a live
    /// block), every payload is 16-aligned, and freed memory is reused.
    #[test]
    fn allocator_blocks_never_overlap_and_memory_is_reused() {
        let a = WipingAllocator { free: Cell::new(0) };
        let mut rng = Rng(0x5eed_a110c);
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let pages_before = core::arch::wasm32::memory_size(0);
        for step in 0..4000u32 {
            if live.len() < 40 && (rng.next() % 3 != 0 || live.is_empty()) {
                let size = match rng.next() % 4 {
                    0 => 1 + (rng.next() % 48) as usize,
                    1 => 1 + (rng.next() % 1024) as usize,
                    2 => 1024 * (1 + (rng.next() % 8) as usize),
                    _ => 1 + (rng.next() % 70_000) as usize,
                };
                let layout = Layout::from_size_align(size, 1 << (rng.next() % 5)).unwrap();
                let p = unsafe { a.alloc(layout) };
                assert!(!p.is_null(), "step {step}: allocation of {size} bytes failed");
                assert_eq!(p as usize % HEADER, 0, "payload not 16-aligned");
                let tag = (step % 251) as u8 + 1;
                unsafe { core::ptr::write_bytes(p, tag, size) };
                live.push((p, layout, tag));
            } else {
                let (p, layout, tag) = live.swap_remove((rng.next() % live.len() as u64) as usize);
                let bytes = unsafe { core::slice::from_raw_parts(p, layout.size()) };
                assert!(bytes.iter().all(|&b| b == tag), "step {step}: a live block was overwritten");
                unsafe { a.dealloc(p, layout) };
            }
            for &(p, layout, tag) in live.iter().step_by(7) {
                let bytes = unsafe { core::slice::from_raw_parts(p, layout.size()) };
                assert!(bytes.iter().all(|&b| b == tag), "step {step}: a live block was overwritten");
            }
        }
        for (p, layout, _) in live.drain(..) {
            unsafe { a.dealloc(p, layout) };
        }
        // At most 40 live blocks of < 70 KB each: with reuse and coalescing the
        // instance needs a few MiB, not the ~100 MiB that 4000 allocations
        // without reuse would take.
        let grown = core::arch::wasm32::memory_size(0) - pages_before;
        assert!(grown < 64, "grew by {grown} pages of 64 KiB");
        // After every block is freed, one allocation of the whole grown area fits again.
        let big = Layout::from_size_align(grown.max(1) * 65536 - 2 * HEADER, 16).unwrap();
        let p = unsafe { a.alloc(big) };
        assert!(!p.is_null());
        assert_eq!(core::arch::wasm32::memory_size(0) - pages_before, grown, "the coalesced free list was not reused");
        unsafe { a.dealloc(p, big) };
    }

    /// What `bytes_in_use` reads: every block handed out is missing from
    /// `free_bytes`, its header and rounding included, and returns when freed,
    /// also while the free list holds several blocks. (Nothing else allocates
    /// between the readings, so the memory's growth is this instance's.)
    #[test]
    fn blocks_in_use_are_what_the_free_list_lacks() {
        let a = WipingAllocator { free: Cell::new(0) };
        let in_use = || core::arch::wasm32::memory_size(0) * 65536 - a.free_bytes();
        let before = in_use();
        let layouts = [(1, 1), (100, 8), (70_000, 16), (48, 16)]
            .map(|(size, align)| Layout::from_size_align(size, align).unwrap());
        // A block: the payload rounded up to 16, and its header.
        let need = |i: usize| (layouts[i].size() + 2 * HEADER - 1) & !(HEADER - 1);
        let mut blocks = [core::ptr::null_mut(); 4];
        let mut want = 0;
        for i in 0..4 {
            blocks[i] = unsafe { a.alloc(layouts[i]) };
            assert!(!blocks[i].is_null());
            want += need(i);
            assert_eq!(in_use() - before, want, "after allocating {} bytes", layouts[i].size());
        }
        // Freeing the first and third leaves three free blocks (the live
        // second and fourth keep them apart), then one as the rest go.
        for i in [0, 2, 1, 3] {
            unsafe { a.dealloc(blocks[i], layouts[i]) };
            want -= need(i);
            assert_eq!(in_use() - before, want, "after freeing block {i}");
        }
        assert_eq!(in_use(), before);
    }
}
