//! The allocator every Rust target runs under: one allocation above [`MAX`] bytes aborts, which
//! libFuzzer reports as a crash with its input. The parsers bound what they allocate by what their
//! formats allow (a 1 MiB age header, 16 MiB stream segments, the Argon2 and scrypt costs the
//! targets allow) before allocating it, so nothing an input declares may reach this.
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

pub const MAX: usize = 32 << 20;

pub struct Bounded;

fn check(size: usize) {
  if size > MAX {
    // No formatting: it could allocate.
    let _ = std::io::stderr().write_all(b"\n==fuzz== an allocation above 32 MiB\n");
    std::process::abort();
  }
}

// SAFETY: every call is passed on to the system allocator unchanged; `check` only reads the size.
unsafe impl GlobalAlloc for Bounded {
  unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
    check(layout.size());
    unsafe { System.alloc(layout) }
  }

  unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
    check(layout.size());
    unsafe { System.alloc_zeroed(layout) }
  }

  unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
    check(new_size);
    unsafe { System.realloc(ptr, layout, new_size) }
  }

  unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
    unsafe { System.dealloc(ptr, layout) }
  }
}

#[global_allocator]
static ALLOCATOR: Bounded = Bounded;
