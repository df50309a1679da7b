//! Any text given as a move in a position reached by a few legal moves: parsing must return a
//! legal move or an error, never panic.
#![no_main]

use engine::{Position, Variant, notation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [selector, plies, rest @ ..] = data else {
        return;
    };
    let variant = Variant::ALL[*selector as usize % Variant::ALL.len()];
    let mut position = Position::new(variant);
    // Walk a few plies so that captures and kings appear in some inputs.
    for i in 0..(*plies % 16) {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(&moves[(i as usize * 7 + *plies as usize) % moves.len()]);
    }
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(mv) = notation::parse_move(&position, text) {
        assert!(position.is_legal(&mv));
    }
});
