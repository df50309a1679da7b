//! Any text given as a FEN: parsing must return a position or an error, never panic, and a
//! position it returns must write back to a FEN that parses to the same position.
#![no_main]

use engine::{Variant, fen};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[selector as usize % Variant::ALL.len()];
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(position) = fen::parse(variant, text) {
        let written = fen::write(&position);
        assert_eq!(fen::parse(variant, &written), Ok(position), "{written}");
    }
});
