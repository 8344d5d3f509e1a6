#![no_main]
// The property and what it checks: rafle_props::dxp_message.
libfuzzer_sys::fuzz_target!(|data: &[u8]| rafle_props::dxp_message(data));
