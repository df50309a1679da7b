//! Settings text: see `checkerbot_fuzz::settings`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::settings(data));
