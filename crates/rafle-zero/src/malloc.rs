//! glibc's allocator settings for a process that runs torch on the CPU.
//!
//! libtorch's CPU tensors come from `malloc`. By default glibc gives the top
//! of the heap back to the kernel whenever 128 KiB or more of it is free
//! (and maps the largest blocks on their own), so each network call's
//! activations, megabytes at batches of hundreds of leaves, are paged in
//! anew: in `rafle bench selfplay` a quarter of the CPU time went to the
//! kernel (2,843 `brk` calls in a round). Keeping freed memory in the
//! process takes that sys time from 8.5 s to 0.2 s and the whole bench from
//! 15.4 s to 9.4 s, for 21 MiB more at peak (docs/benchmarks.md).

/// Keeps freed memory in the process: no trimming of the heap, and blocks
/// up to glibc's largest mmap threshold (32 MiB) served from the heap.
/// Call it once, at start, before threads allocate. A no-op off glibc.
// The one foreign call of the crate: glibc's own setter, no pointers.
#[allow(unsafe_code)]
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::raw::c_int;
        extern "C" {
            fn mallopt(param: c_int, value: c_int) -> c_int;
        }
        // <malloc.h>: M_TRIM_THRESHOLD -1, M_MMAP_THRESHOLD -3.
        const M_TRIM_THRESHOLD: c_int = -1;
        const M_MMAP_THRESHOLD: c_int = -3;
        // SAFETY: mallopt only sets allocator parameters; called before
        // other threads start, as glibc asks.
        unsafe {
            mallopt(M_TRIM_THRESHOLD, c_int::MAX);
            mallopt(M_MMAP_THRESHOLD, 32 << 20);
        }
    }
}
