//! The `hlslc` binary's memory allocator (the library leaves the choice
//! to its user): small blocks in pages of one size class each, per
//! thread; everything else from the system allocator.
//!
//! A compile makes thousands of small allocations and frees them in
//! batches (a tree, a function's arenas between passes). glibc's malloc
//! serves most of them through its general bins, at about 100
//! instructions per `malloc` or `free`: a tenth of a typical compile.
//! Here an allocation pops a block from its page's free list (or bumps
//! into the page) and a free pushes it back: a few instructions, no
//! locks, no header before each block.
//!
//! - Blocks of at most [`MAX_SMALL`] bytes (alignment at most 16) live in
//!   [`PAGE`]-sized, [`PAGE`]-aligned pages, carved from regions of
//!   address space the thread maps from the kernel; a block's page is its
//!   address rounded down, and the page starts with its [`Page`] header.
//!   Larger blocks, and everything when [`enable`] was not called, are the
//!   system allocator's.
//! - A thread allocates from its own pages: per class, a list of the
//!   pages with room. A page whose blocks are all free again (unless it
//!   is its class's only page with room) gives its memory back to the
//!   kernel and waits, empty, for any class: memory that a freed tree
//!   held serves the next phase's large arenas, which the system
//!   allocator takes from the kernel.
//! - A class's first blocks, up to [`SHARED_QUOTA`] bytes, come from
//!   pages that all classes share, a stretch of a few blocks at a time: a
//!   compile allocates from some 50 classes, most of them only a few
//!   blocks, and a page of its own for each would touch a fresh 4 KiB of
//!   memory per class. The kernel fills each such page at its first
//!   touch, at about the cost of a thousand instructions; shared, the
//!   first blocks of all classes fill a few pages (a compile of a small
//!   shader touches some 30 pages fewer). A class's stretch is allocated
//!   from as a page is, through a header of the thread's, also on a
//!   shared page (listed with the class's pages); a freed shared block
//!   goes back to that header of the thread that frees it. Shared pages
//!   are never given back.
//! - A block freed by another thread than its page's owner is not reused
//!   (the owner's lists are not shared): rare in a compile (a batch
//!   job's output, printed by the main thread), and the process exits
//!   soon after. The language server, which runs for hours and frees
//!   trees on other threads, keeps the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest block served from pages. glibc's allocator serves the
/// larger blocks from its heap, which a compile reuses (pages for them up
/// to 8 KiB measured 2 % slower per file). musl's maps a group of pages
/// for each size and unmaps it when the group empties: a small shader's
/// fourteen blocks of 2 to 21 KiB cost 16 `mmap` and 10 `munmap` calls,
/// so the musl build takes blocks up to 8 KiB from pages (7 % less time
/// per file; 25 system calls instead of 46).
#[cfg(not(target_env = "musl"))]
const MAX_SMALL: usize = 2048;
#[cfg(target_env = "musl")]
const MAX_SMALL: usize = 8192;
/// Classes of 16-byte steps. (Larger blocks are mostly large arenas and
/// vectors: the system allocator's coalescing serves them better.)
const CLASSES: usize = MAX_SMALL / 16;
/// The size and alignment of a page.
pub const PAGE: usize = 16 << 10;
/// Address space a thread maps at a time (memory only once touched).
const REGION: usize = 64 << 20;
/// Slots of a thread's stack of empty pages (16 GiB of pages).
const SPARES: usize = 1 << 20;
/// Where a page's blocks start: after the header, 16-aligned.
const FIRST: usize = 64;
/// The bytes a class takes from the shared pages (then one stretch more
/// at most) before it gets pages of its own.
const SHARED_QUOTA: usize = 16384;
/// The bytes of shared page a class takes first; each next stretch is as
/// long as all before it together, up to four times this (and at least
/// one block, for the larger classes).
const STRETCH: usize = 128;
/// The owner of the shared pages: no thread.
pub const SHARED_OWNER: usize = usize::MAX;
const _: () = assert!(size_of::<Page>() <= FIRST && CLASSES.is_power_of_two());

/// The largest block served from pages: [`MAX_SMALL`] once they are in
/// use, 0 (no block: a layout's size is never 0) before. Set once, before
/// the first allocation, and never changed (a block must be freed by the
/// allocator that made it). One comparison decides both.
static LIMIT: AtomicUsize = AtomicUsize::new(0);

/// Turns the pages on. Call before anything is allocated.
pub fn enable() {
    LIMIT.store(MAX_SMALL, Ordering::Relaxed);
}

/// The header at the start of a page; also that of a thread's stretches
/// of shared page for a class (whose `owner` and `used` are unused).
pub struct Page {
    /// The number of the thread whose [`Heap`] owns the page.
    pub owner: usize,
    class: u32,
    /// Blocks handed out and not freed.
    used: usize,
    /// Freed blocks, linked through their first word.
    free: *mut u8,
    /// The blocks never handed out: from `fresh` to the page's end.
    fresh: *mut u8,
    /// The start of the page's last whole block: `fresh` has room while
    /// it is at most this.
    last: *mut u8,
    /// The neighbours in the owner's list of pages with room (when
    /// `listed`).
    prev: *mut Page,
    next: *mut Page,
    listed: bool,
}

impl Page {
    /// The header of an empty page (or stretch) of `class` that `owner`
    /// owns, with no blocks and not listed.
    fn empty(owner: usize, class: usize) -> Page {
        Page {
            owner,
            class: class as u32,
            used: 0,
            free: ptr::null_mut(),
            fresh: ptr::null_mut(),
            last: ptr::null_mut(),
            prev: ptr::null_mut(),
            next: ptr::null_mut(),
            listed: false,
        }
    }
}

/// A thread's pages with room, per class (the first is allocated from),
/// and where its next pages come from.
struct Heap {
    room: [Cell<*mut Page>; CLASSES],
    /// Empty pages whose memory went back to the kernel: a stack of
    /// [`SPARES`] slots in a mapping of its own (a list through the pages
    /// would bring a page of each back as it is linked), `spare_count` of
    /// them used.
    spares: Cell<*mut *mut Page>,
    spare_count: Cell<usize>,
    /// The rest of the current region: pages never used.
    region: Cell<*mut u8>,
    region_end: Cell<*mut u8>,
    /// The thread's number (from 1; 0 until its first page).
    id: Cell<usize>,
    /// The rest of the current shared page, the bytes each class has
    /// taken from shared pages, and the header of each class's stretch
    /// (null until its first), whose free list takes the shared blocks of
    /// the class this thread frees.
    shared: Cell<*mut u8>,
    shared_end: Cell<*mut u8>,
    shared_taken: [Cell<u32>; CLASSES],
    stretches: [Cell<*mut Page>; CLASSES],
}

/// The last thread number given to a [`Heap`].
static THREADS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Constant-initialised and without `Drop`: no lazy set-up, no
    // destructor to register, nothing that allocates.
    static HEAP: Heap = const {
        Heap {
            room: [const { Cell::new(ptr::null_mut()) }; CLASSES],
            spares: Cell::new(ptr::null_mut()),
            spare_count: Cell::new(0),
            region: Cell::new(ptr::null_mut()),
            region_end: Cell::new(ptr::null_mut()),
            id: Cell::new(0),
            shared: Cell::new(ptr::null_mut()),
            shared_end: Cell::new(ptr::null_mut()),
            shared_taken: [const { Cell::new(0) }; CLASSES],
            stretches: [const { Cell::new(ptr::null_mut()) }; CLASSES],
        }
    };
}

/// The class of a block of `size` bytes (1 ..= MAX_SMALL). (The mask
/// changes nothing for those sizes; it tells the compiler that the class
/// indexes [`Heap::room`] without a bounds check.)
fn class(size: usize) -> usize {
    (size.wrapping_sub(1) >> 4) & (CLASSES - 1)
}

/// The size of a class's blocks.
fn class_size(class: usize) -> usize {
    (class + 1) * 16
}

/// Whether a layout is the pages' (when they are enabled).
fn small(layout: Layout) -> bool {
    layout.size() <= LIMIT.load(Ordering::Relaxed) && layout.align() <= 16
}

/// `bytes` of fresh address space from the kernel (memory once touched).
fn map(bytes: usize) -> Option<*mut u8> {
    // SAFETY: a new private anonymous mapping, no other effect.
    let at = unsafe {
        libc::mmap(
            ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    (at != libc::MAP_FAILED).then(|| at.cast())
}

/// The page of a block.
pub fn page_of(block: *mut u8) -> *mut Page {
    block.wrapping_sub(block as usize % PAGE).cast()
}

impl Heap {
    /// The thread's number (a heap's address could be a later thread's),
    /// given when it makes its first page.
    fn id(&self) -> usize {
        if self.id.get() == 0 {
            self.id.set(THREADS.fetch_add(1, Ordering::Relaxed) + 1);
        }
        self.id.get()
    }

    /// A block of `class`: the first listed page's free list, else its
    /// fresh blocks; [`Heap::refill`] when it has neither.
    ///
    /// # Safety
    /// The lists hold this thread's live pages of their class.
    #[inline]
    unsafe fn take(&self, class: usize) -> *mut u8 {
        let page = self.room[class].get();
        if !page.is_null() {
            // SAFETY: a listed page is live. Fields are accessed through
            // the pointer: other threads read `owner` meanwhile.
            unsafe {
                let block = (*page).free;
                if !block.is_null() {
                    (*page).free = *block.cast::<*mut u8>();
                    (*page).used += 1;
                    return block;
                }
                let block = (*page).fresh;
                if block <= (*page).last {
                    (*page).fresh = block.wrapping_add(class_size(class));
                    (*page).used += 1;
                    return block;
                }
            }
        }
        // SAFETY: as for this function.
        unsafe { self.refill(class) }
    }

    /// A block of `class` when the first listed page is full (or there is
    /// none): full pages leave the list, which gives the next page with
    /// room, or a new one.
    ///
    /// A page is unlisted only here, when it is found full, rather than
    /// when its last block is handed out, which would cost every
    /// allocation a check. So only pages that have been first can be full
    /// and listed.
    ///
    /// # Safety
    /// As for [`Heap::take`].
    #[cold]
    #[inline(never)]
    unsafe fn refill(&self, class: usize) -> *mut u8 {
        loop {
            let page = self.room[class].get();
            if page.is_null() {
                break;
            }
            // SAFETY: a listed page is live.
            unsafe {
                if !(*page).free.is_null() || (*page).fresh <= (*page).last {
                    return self.take(class);
                }
                self.unlist(page);
            }
        }
        // SAFETY: as for this function.
        if unsafe { self.new_stretch(class) } {
            // SAFETY: the stretch is listed first and has room.
            return unsafe { self.take(class) };
        }
        // SAFETY: as for this function.
        let page = unsafe { self.new_page(class) };
        if page.is_null() {
            return ptr::null_mut();
        }
        // SAFETY: the new page is listed first and has room.
        unsafe { self.take(class) }
    }

    /// Gives `class` a new stretch of shared page, listed first, while
    /// the class has taken less than [`SHARED_QUOTA`] bytes there; false
    /// after (or when no memory is left).
    ///
    /// # Safety
    /// As for [`Heap::take`]; the class's stretch is not listed.
    unsafe fn new_stretch(&self, class: usize) -> bool {
        let taken = &self.shared_taken[class];
        let bytes = class_size(class).max(STRETCH.max(taken.get() as usize).min(4 * STRETCH));
        if taken.get() as usize >= SHARED_QUOTA {
            return false;
        }
        let mut stretch = self.stretches[class].get();
        if stretch.is_null() {
            stretch = self.carve(size_of::<Page>().next_multiple_of(16)).cast::<Page>();
            if stretch.is_null() {
                return false;
            }
            // SAFETY: fresh shared memory, aligned for the header.
            unsafe {
                stretch.write(Page::empty(SHARED_OWNER, class));
            }
            self.stretches[class].set(stretch);
        }
        let start = self.carve(bytes);
        if start.is_null() {
            return false;
        }
        taken.set(taken.get() + bytes as u32);
        // SAFETY: the thread's header of the class, not listed (as for
        // this function); its free list is kept.
        unsafe {
            (*stretch).fresh = start;
            (*stretch).last = start.wrapping_add(bytes - class_size(class));
            self.list(stretch);
        }
        true
    }

    /// `bytes` (a multiple of 16, at most a page's room) of the shared
    /// pages; null when no memory is left.
    fn carve(&self, bytes: usize) -> *mut u8 {
        if (self.shared_end.get() as usize) - (self.shared.get() as usize) < bytes {
            let page = self.empty_page();
            if page.is_null() {
                return ptr::null_mut();
            }
            // SAFETY: the page is mapped, PAGE bytes, unused, aligned for
            // the header; only `owner` is ever read (by `give`).
            unsafe {
                page.write(Page::empty(SHARED_OWNER, 0));
            }
            self.shared.set(page.cast::<u8>().wrapping_add(FIRST));
            self.shared_end.set(page.cast::<u8>().wrapping_add(PAGE));
        }
        let start = self.shared.get();
        self.shared.set(start.wrapping_add(bytes));
        start
    }

    /// An empty page: a spare, else the next one of the region (null when
    /// the kernel has no more address space).
    fn empty_page(&self) -> *mut Page {
        let spares = self.spare_count.get();
        if spares > 0 {
            self.spare_count.set(spares - 1);
            // SAFETY: the stack's first `spare_count` slots hold pages.
            unsafe { *self.spares.get().add(spares - 1) }
        } else {
            if (self.region_end.get() as usize) - (self.region.get() as usize) < PAGE {
                let Some(at) = map(REGION + PAGE) else {
                    return ptr::null_mut();
                };
                // The first PAGE-aligned address (the rest of the
                // mapping's first page is never touched).
                let start = at.wrapping_add((at as usize).next_multiple_of(PAGE) - at as usize);
                self.region.set(start);
                self.region_end.set(start.wrapping_add(REGION));
            }
            let page = self.region.get();
            self.region.set(page.wrapping_add(PAGE));
            page.cast::<Page>()
        }
    }

    /// A new, empty page of `class`, listed first.
    ///
    /// # Safety
    /// As for [`Heap::take`].
    #[cold]
    unsafe fn new_page(&self, class: usize) -> *mut Page {
        let page = self.empty_page();
        if page.is_null() {
            return page;
        }
        // SAFETY: the page is mapped, PAGE bytes, unused, aligned for the
        // header.
        unsafe {
            page.write(Page {
                fresh: page.cast::<u8>().wrapping_add(FIRST),
                last: page.cast::<u8>().wrapping_add(PAGE - class_size(class)),
                ..Page::empty(self.id(), class)
            });
            self.list(page);
        }
        page
    }

    /// Puts a page first in its class's list.
    ///
    /// # Safety
    /// `page` is this thread's, live and not listed.
    unsafe fn list(&self, page: *mut Page) {
        // SAFETY: the listed pages are live.
        unsafe {
            let head = &self.room[(*page).class as usize];
            (*page).prev = ptr::null_mut();
            (*page).next = head.get();
            (*page).listed = true;
            if !head.get().is_null() {
                (*head.get()).prev = page;
            }
            head.set(page);
        }
    }

    /// Takes a page out of its class's list.
    ///
    /// # Safety
    /// `page` is this thread's, live and listed.
    unsafe fn unlist(&self, page: *mut Page) {
        // SAFETY: the listed pages are live.
        unsafe {
            let (prev, next) = ((*page).prev, (*page).next);
            if prev.is_null() {
                self.room[(*page).class as usize].set(next);
            } else {
                (*prev).next = next;
            }
            if !next.is_null() {
                (*next).prev = prev;
            }
            (*page).listed = false;
        }
    }

    /// Keeps an empty page for later (or, if its stack cannot take it,
    /// leaves it: its memory is the kernel's already).
    ///
    /// # Safety
    /// `page` is this thread's, empty and unlisted.
    #[cold]
    unsafe fn keep_spare(&self, page: *mut Page) {
        if self.spares.get().is_null() {
            let Some(at) = map(SPARES * size_of::<*mut Page>()) else {
                return;
            };
            self.spares.set(at.cast());
        }
        let n = self.spare_count.get();
        if n < SPARES {
            // SAFETY: slot `n` is inside the stack's mapping.
            unsafe { *self.spares.get().add(n) = page };
            self.spare_count.set(n + 1);
        }
    }

    /// Gives a block of `size` bytes back to its page, or to its class's
    /// list of freed shared blocks.
    ///
    /// # Safety
    /// `block` was handed out by [`Heap::take`] (of any thread) for `size`
    /// bytes and is no longer used.
    unsafe fn give(&self, block: *mut u8, size: usize) {
        let page = page_of(block);
        // SAFETY: the block's page is live while it has a used block
        // (this one); only its owner changes it, and `owner` never.
        unsafe {
            // A thread without pages (number 0) owns none.
            if (*page).owner != self.id.get() {
                let stretch = self.stretches[class(size)].get();
                if (*page).owner == SHARED_OWNER && !stretch.is_null() {
                    // Shared pages are never given back: the block can
                    // serve any thread that has a stretch of its class.
                    *block.cast::<*mut u8>() = (*stretch).free;
                    (*stretch).free = block;
                    if !(*stretch).listed {
                        self.list(stretch);
                    }
                }
                // Otherwise another thread's page (or a shared block of
                // a class this thread has no stretch of): left alone (see
                // the module).
                return;
            }
            *block.cast::<*mut u8>() = (*page).free;
            (*page).free = block;
            (*page).used -= 1;
            if !(*page).listed {
                self.list(page);
            } else if (*page).used == 0 && self.room[(*page).class as usize].get() != page {
                self.release(page);
            }
        }
    }

    /// Empty, and not the page its class allocates from: the page's
    /// memory goes back to the kernel (read as zeros after).
    ///
    /// # Safety
    /// `page` is this thread's, empty and listed.
    #[cold]
    #[inline(never)]
    unsafe fn release(&self, page: *mut Page) {
        // SAFETY: as for this function.
        unsafe {
            self.unlist(page);
            libc::madvise(page.cast(), PAGE, libc::MADV_DONTNEED);
            self.keep_spare(page);
        }
    }
}

/// The allocator (see the module).
pub struct Pages;

// SAFETY: a page's blocks are `class_size` bytes, 16-aligned (pages are
// PAGE-aligned, FIRST and classes multiples of 16), inside the page, and
// handed out once until freed; a page goes back to the system only when
// none of its blocks is in use; everything else is the system
// allocator's.
unsafe impl GlobalAlloc for Pages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !small(layout) {
            // SAFETY: the caller's layout, passed on.
            return unsafe { System.alloc(layout) };
        }
        // SAFETY: the heap's lists hold its live pages.
        HEAP.with(|h| unsafe { h.take(class(layout.size())) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !small(layout) {
            // SAFETY: as for `alloc`.
            return unsafe { System.alloc_zeroed(layout) };
        }
        // SAFETY: as for `alloc`; the block has at least `size` bytes.
        unsafe {
            let p = self.alloc(layout);
            if !p.is_null() {
                ptr::write_bytes(p, 0, layout.size());
            }
            p
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if !small(layout) {
            // SAFETY: the system allocator made it (same layout).
            return unsafe { System.dealloc(block, layout) };
        }
        // SAFETY: a small layout's block came from a page.
        HEAP.with(|h| unsafe { h.give(block, layout.size()) })
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees a valid new layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (small(layout), small(new)) {
            // SAFETY: both the system allocator's.
            (false, false) => unsafe { System.realloc(block, layout, new_size) },
            (true, true) if class(layout.size()) == class(new_size) => block,
            // SAFETY: a new block, the old one's bytes copied, the old freed.
            _ => unsafe {
                let p = self.alloc(new);
                if !p.is_null() {
                    ptr::copy_nonoverlapping(block, p, layout.size().min(new_size));
                    self.dealloc(block, layout);
                }
                p
            },
        }
    }
}

// Tested in `tests/allocator.rs` (the binary has no test harness).
