//! FEN text: see `checkerbot_fuzz::fen`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::fen(data));
