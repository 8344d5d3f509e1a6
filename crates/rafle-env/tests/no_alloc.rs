//! Batched steps do not allocate once the envs have warmed up: a counting
//! global allocator (this test binary's own) watches the steps of every
//! variant. Move and action lists may spill to the heap in rare king-rich
//! positions and step records grow past the longest episode so far; both
//! keep that room, so after the warm-up almost no step allocates at all.

// A global allocator can only be written with unsafe code; it forwards
// every call to the system allocator unchanged.
#![allow(unsafe_code)]

use rafle_core::Variant;
use rafle_env::{EnvConfig, VecEnv};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as it came.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as it came.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded as it came.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn warmed_up_steps_do_not_allocate() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for v in Variant::ALL {
        let (steps, allocations) = pool.install(|| {
            let cfg = EnvConfig {
                max_plies: Some(60),
                ..EnvConfig::default()
            };
            let mut ve = VecEnv::new(v, 64, 3, cfg).unwrap();
            let mut acts = vec![0i64; ve.num_envs()];
            let mut play = |n: usize| {
                for _ in 0..n {
                    ve.sample_legal_actions(&mut acts);
                    ve.step(&acts).unwrap();
                }
            };
            play(400);
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            play(400);
            (400 * 64, ALLOCATIONS.load(Ordering::Relaxed) - before)
        });
        // A few spills in rare positions, never one per step.
        assert!(
            allocations * 1000 < steps,
            "{v}: {allocations} allocations in {steps} env steps"
        );
    }
}
