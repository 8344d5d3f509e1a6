#![no_main]
// The property and what it checks: rafle_props::moves.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::moves(data));
