#![no_main]
// The property and what it checks: rafle_props::player_spec.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::player_spec(data));
