#![no_main]
// The property and what it checks: rafle_props::egtb_file.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::egtb_file(data));
