//! Bytes from a DXP peer: see `checkerbot_fuzz::dxp_message`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| checkerbot_fuzz::dxp_message(data));
