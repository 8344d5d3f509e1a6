#![no_main]
// The property and what it checks: rafle_props::run_config.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::run_config(data));
