//! Dobot decoder: see `checkerbot_fuzz::dobot_decoder`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::dobot_decoder(data));
