#![no_main]
// The property and what it checks: rafle_props::checkpoint_meta.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::checkpoint_meta(data));
