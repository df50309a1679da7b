//! Controller decoder: see `checkerbot_fuzz::controller_decoder`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::controller_decoder(data));
