//! Move text: see `checkerbot_fuzz::move_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::move_text(data));
