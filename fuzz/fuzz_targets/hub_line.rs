//! A line from a Hub GUI: see `checkerbot_fuzz::hub_line`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::hub_line(data));
