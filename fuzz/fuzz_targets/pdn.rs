//! PDN text: see `checkerbot_fuzz::pdn`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::pdn(data));
