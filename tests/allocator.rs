//! The binary's page allocator (`src/main/allocator.rs`), driven through
//! `GlobalAlloc` directly: this test process allocates with the system
//! allocator, so `enable` affects only the calls made here.

#[path = "../src/main/allocator.rs"]
mod pages;

use pages::{PAGE, Pages, SHARED_OWNER, enable, page_of};
use std::alloc::{GlobalAlloc, Layout};

/// Blocks of many sizes, written and checked, freed in another order than
/// allocated: every block is distinct, 16-aligned, and holds what was
/// written; an emptied page serves another class afterwards.
#[test]
fn blocks_are_distinct_aligned_and_reused() {
    enable();
    let a = Pages;
    let sizes = [1, 8, 16, 24, 88, 96, 500, 512, 513, 1000, 2048, 2049, 100_000];
    let mut blocks = Vec::new();
    for (n, &size) in sizes.iter().cycle().take(20_000).enumerate() {
        let layout = Layout::from_size_align(size, 8).unwrap();
        // SAFETY: a valid layout; the block is written within its size.
        unsafe {
            let b = a.alloc(layout);
            assert!(!b.is_null() && (b as usize).is_multiple_of(16), "{size}");
            std::ptr::write_bytes(b, n as u8, size);
            blocks.push((b, layout, n as u8));
        }
    }
    let check = |blocks: &[(*mut u8, Layout, u8)]| {
        for &(b, layout, v) in blocks {
            // SAFETY: live blocks, read within their size.
            unsafe {
                assert!(*b == v && *b.add(layout.size() - 1) == v, "{} overlaps", layout.size());
            }
        }
    };
    check(&blocks);
    // Free every other block, then the rest backwards: pages empty out.
    let (odd, even): (Vec<_>, Vec<_>) = blocks.iter().enumerate().partition(|(i, _)| i % 2 == 1);
    for &(_, &(b, layout, _)) in odd.iter().chain(even.iter().rev()) {
        // SAFETY: each block freed once, with its layout.
        unsafe { a.dealloc(b, layout) };
    }
    // An emptied page comes back for another size.
    let layout = Layout::from_size_align(40, 8).unwrap();
    let again: Vec<*mut u8> = (0..3 * PAGE / 48).map(|_| unsafe { a.alloc(layout) }).collect();
    let pages_before: std::collections::BTreeSet<usize> =
        blocks.iter().map(|&(b, _, _)| b as usize / PAGE).collect();
    assert!(again.iter().any(|&b| pages_before.contains(&(b as usize / PAGE))));
    for b in again {
        // SAFETY: freed once, with its layout.
        unsafe { a.dealloc(b, layout) };
    }
}

/// `realloc` across classes and between pages and the system keeps the
/// bytes; `alloc_zeroed` zeroes a reused block.
#[test]
fn realloc_keeps_bytes_and_zeroed_is_zero() {
    enable();
    let a = Pages;
    // SAFETY: valid layouts; every access within the current size.
    unsafe {
        let mut layout = Layout::from_size_align(10, 8).unwrap();
        let mut b = a.alloc(layout);
        for i in 0..10 {
            *b.add(i) = i as u8;
        }
        for new_size in [12, 100, 600, 3000, 70_000, 1500, 10] {
            b = a.realloc(b, layout, new_size);
            assert!(!b.is_null());
            for i in 0..10 {
                assert_eq!(*b.add(i), i as u8, "after realloc to {new_size}");
            }
            layout = Layout::from_size_align(new_size, 8).unwrap();
        }
        a.dealloc(b, layout);

        let l = Layout::from_size_align(256, 16).unwrap();
        let dirty = a.alloc(l);
        std::ptr::write_bytes(dirty, 0xff, 256);
        a.dealloc(dirty, l);
        let z = a.alloc_zeroed(l);
        assert!((0..256).all(|i| *z.add(i) == 0));
        a.dealloc(z, l);
    }
}

/// Threads allocate from their own pages; a block of one thread's page
/// freed by another thread is left alone, never handed out twice.
#[test]
fn threads_keep_their_own_pages() {
    enable();
    let layout = Layout::from_size_align(64, 8).unwrap();
    let sent: Vec<usize> = std::thread::spawn(move || {
        // The thread's shared blocks stay with it (and its first own
        // block: the sent ones are all of pages of its own).
        // SAFETY: a valid layout.
        let _ = unsafe { past_shared(layout) };
        // SAFETY: a valid layout; blocks written within their size.
        (0..1000)
            .map(|i| unsafe {
                let b = Pages.alloc(layout);
                std::ptr::write_bytes(b, i as u8, 64);
                b as usize
            })
            .collect()
    })
    .join()
    .unwrap();
    let mut mine = Vec::new();
    for &b in &sent {
        // SAFETY: live blocks of the other (finished) thread, freed once.
        unsafe { Pages.dealloc(b as *mut u8, layout) };
    }
    for _ in 0..2000 {
        // SAFETY: a valid layout.
        let b = unsafe { Pages.alloc(layout) } as usize;
        assert!(!sent.contains(&b), "a block freed by another thread was reused");
        mine.push(b);
    }
    for b in mine {
        // SAFETY: freed once, with its layout.
        unsafe { Pages.dealloc(b as *mut u8, layout) };
    }
}

/// A page is taken out of its class's list when it is found full, not
/// when its last block goes: a full page that a freed block's page pushed
/// down the list is skipped, never handed out from twice.
#[test]
fn full_pages_down_the_list_are_skipped() {
    enable();
    let layout = Layout::from_size_align(2048, 16).unwrap();
    let per_page = (PAGE - 64) / 2048;
    // SAFETY: a valid layout; each block freed once, with its layout.
    unsafe {
        // Three full pages: the first two were found full and unlisted,
        // the third is still first in the list.
        let (shared, first) = past_shared(layout);
        let mut live: Vec<*mut u8> = std::iter::once(first)
            .chain((1..3 * per_page).map(|_| Pages.alloc(layout)))
            .collect();
        let page = |b: *mut u8| b as usize / PAGE;
        assert_eq!(live.iter().map(|&b| page(b)).collect::<std::collections::BTreeSet<_>>().len(), 3);
        // A block of the first page comes back: that page goes first, the
        // full third page second.
        let freed = live.swap_remove(0);
        Pages.dealloc(freed, layout);
        let again = Pages.alloc(layout);
        assert_eq!(again, freed);
        live.push(again);
        // The next block comes from a new page, not from a full one.
        let next = Pages.alloc(layout);
        assert!(!live.contains(&next));
        assert!(live.iter().all(|&b| page(b) != page(next)));
        live.push(next);
        for b in live.into_iter().chain(shared) {
            Pages.dealloc(b, layout);
        }
    }
}

/// Whether a block handed out (and not freed) is on a shared page.
fn is_shared(block: *mut u8) -> bool {
    // SAFETY: the block's page is live and its header written.
    unsafe { (*page_of(block)).owner == SHARED_OWNER }
}

/// Allocates blocks of a layout's class until one comes from a page of the
/// class's own: the shared blocks, and that one.
///
/// # Safety
/// `layout` is valid.
unsafe fn past_shared(layout: Layout) -> (Vec<*mut u8>, *mut u8) {
    let mut shared = Vec::new();
    loop {
        // SAFETY: as for this function.
        let b = unsafe { Pages.alloc(layout) };
        if !is_shared(b) {
            return (shared, b);
        }
        shared.push(b);
        // A quota of a few pages at most.
        assert!(shared.len() * layout.size() < 4 * PAGE, "no page of the class's own");
    }
}

/// A class's first blocks come from pages that all classes share; the
/// blocks of a class follow one another there; a freed shared block is the
/// next one its class takes; after a quota, the class's blocks come from
/// pages of its own, and its freed shared blocks still come back.
#[test]
fn first_blocks_share_pages() {
    enable();
    let page = |b: *mut u8| b as usize / PAGE;
    // SAFETY: valid layouts; each block freed once, with its layout.
    unsafe {
        let layouts: Vec<Layout> =
            [16, 32, 48, 80, 160, 2048].iter().map(|&s| Layout::from_size_align(s, 8).unwrap()).collect();
        let firsts: Vec<*mut u8> = layouts.iter().map(|&l| Pages.alloc(l)).collect();
        assert!(firsts.iter().all(|&b| is_shared(b) && page(b) == page(firsts[0])));

        let l = Layout::from_size_align(64, 8).unwrap();
        let (a, b) = (Pages.alloc(l), Pages.alloc(l));
        assert!(is_shared(a) && b as usize == a as usize + 64);
        Pages.dealloc(a, l);
        assert_eq!(Pages.alloc(l), a);
        let (mut shared, own) = past_shared(l);
        assert!(shared.len() > 2 && shared.iter().all(|&s| page(s) != page(own)));
        // The class's own page serves its next blocks and takes back its
        // blocks; a freed shared block comes first.
        let next = Pages.alloc(l);
        assert_eq!(page(next), page(own));
        Pages.dealloc(next, l);
        assert_eq!(Pages.alloc(l), next);
        let back = shared.pop().unwrap();
        Pages.dealloc(back, l);
        assert_eq!(Pages.alloc(l), back);
        for x in shared.into_iter().chain([a, b, own, next, back]) {
            Pages.dealloc(x, l);
        }
        for (&x, &l) in firsts.iter().zip(&layouts) {
            Pages.dealloc(x, l);
        }
    }
}
