//! The rules engine's text parsers' fuzz targets: FEN, move text, PDN.

use rules::{Position, Variant, fen, notation, pdn};

/// Any text given as a FEN: parsing must return a position or an error, never panic, and a
/// position it returns must write back to a FEN that parses to the same position.
pub fn fen(data: &[u8]) {
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
}

/// Any text given as a move in a position reached by a few legal moves: parsing must return a
/// legal move or an error, never panic.
pub fn move_text(data: &[u8]) {
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
}

/// Any text read as PDN (the first byte picks the variant of games without a `GameType`):
/// reading returns games or errors, never panics, and every game it reads writes back to PDN
/// that reads as the same start, moves and result.
pub fn pdn(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[selector as usize % Variant::ALL.len()];
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    for game in pdn::games(text, variant).flatten() {
        let written = pdn::write(&game.game, &[("Result", &game.result)]);
        let again = pdn::read(&written)
            .unwrap_or_else(|err| panic!("{err}: the written game does not read:\n{written}"));
        let [again] = again.as_slice() else {
            panic!("one game written, {} read:\n{written}", again.len());
        };
        assert_eq!(again.game.start(), game.game.start(), "{written}");
        assert_eq!(again.game.moves(), game.game.moves(), "{written}");
        let result = |token: &str| pdn::parse_result(token);
        assert_eq!(result(&again.result), result(&game.result), "{written}");
    }
}
