#![no_main]
// The property and what it checks: rafle_props::hub_engine.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::hub_engine(data));
