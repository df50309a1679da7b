//! How games end: wins, giveaway, and each variant's automatic draws.

use std::collections::HashSet;

use rules::{Color, EndReason, Game, GameResult, Move, Outcome, Position, Variant, fen, notation};

fn game(variant: Variant, fen_text: &str) -> Game {
    Game::from_position(fen::parse(variant, fen_text).unwrap())
}

fn play(game: &mut Game, text: &str) {
    let mv = notation::parse_move(game.position(), text).unwrap();
    game.play(&mv).unwrap();
}

/// Quiet moves from `position` to positions not in `seen` that give the opponent no capture.
fn safe_quiet_moves(position: &Position, seen: &HashSet<Position>) -> Vec<Move> {
    position
        .legal_moves()
        .into_iter()
        .filter(|m| !m.is_capture() && !m.promotes())
        .filter(|m| {
            let next = position.play(m).unwrap();
            !seen.contains(&next) && !next.has_capture()
        })
        .collect()
}

/// Plays quiet moves that never repeat a position and never offer a capture, until the game
/// ends or `limit` plies pass; returns the number of plies played. Looks one reply ahead so
/// that neither side walks into a position where it must give up material.
fn shuffle_without_repeating(game: &mut Game, limit: usize) -> usize {
    let mut seen: HashSet<Position> = game.positions().iter().copied().collect();
    for ply in 0..limit {
        if game.outcome().is_some() {
            return ply;
        }
        let position = *game.position();
        let candidates = safe_quiet_moves(&position, &seen);
        let chosen = candidates
            .iter()
            .find(|m| {
                let next = position.play(m).unwrap();
                let mut seen_after = seen.clone();
                seen_after.insert(next);
                !safe_quiet_moves(&next, &seen_after).is_empty()
            })
            .or(candidates.first())
            .copied()
            .unwrap_or_else(|| panic!("no safe quiet move in {position:?} after {ply} plies"));
        seen.insert(position.play(&chosen).unwrap());
        game.play(&chosen).unwrap();
    }
    limit
}

#[test]
fn side_without_pieces_loses_and_giveaway_wins() {
    let mut russian = game(Variant::Russian, "W:Wc3:Bd4");
    assert_eq!(russian.outcome(), None);
    play(&mut russian, "c3:e5");
    let end = Outcome {
        result: GameResult::Win(Color::White),
        reason: EndReason::NoPieces,
    };
    assert_eq!(russian.outcome(), Some(end));

    let mut giveaway = game(Variant::RussianGiveaway, "W:Wc3:Bd4");
    play(&mut giveaway, "c3:e5");
    assert_eq!(
        giveaway.outcome().map(|o| o.result),
        Some(GameResult::Win(Color::Black))
    );
}

#[test]
fn blocked_side_loses() {
    // Black's man on a7 is blocked by White's men on b6 and c5 (which it cannot jump).
    let game = game(Variant::Russian, "B:Wb6,c5:Ba7");
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            result: GameResult::Win(Color::White),
            reason: EndReason::Blocked
        })
    );
}

#[test]
fn threefold_repetition_draws() {
    let mut g = game(Variant::Russian, "W:WKh2:BKb8");
    for round in 0..2 {
        for text in ["h2-g1", "b8-a7", "g1-h2", "a7-b8"] {
            assert_eq!(g.outcome(), None, "round {round}, before {text}");
            play(&mut g, text);
        }
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome().unwrap().reason, EndReason::Repetition);
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn russian_fifteen_king_moves_without_capture_draw() {
    let mut g = game(
        Variant::Russian,
        "W:WKa1,Kc1,Ke1,Kg1,h6:BKh8,Kf8,Kd8,Kb8,a3",
    );
    let plies = shuffle_without_repeating(&mut g, 100);
    assert_eq!(plies, 30);
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::KingMovesOnly { moves: 15 }
    );
}

#[test]
fn russian_three_kings_against_one_draw_after_fifteen_moves() {
    let mut g = game(Variant::Russian, "W:WKh2,Kg1,Ke1:BKb8");
    let plies = shuffle_without_repeating(&mut g, 100);
    assert_eq!(plies, 30);
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::LoneKing { moves: 15 }
    );
}

#[test]
fn international_lone_king_limits() {
    // Two kings against one: five moves each.
    let mut g = game(Variant::International, "W:WK46,K50:BK24");
    assert_eq!(shuffle_without_repeating(&mut g, 100), 10);
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::LoneKing { moves: 5 }
    );
    // Three kings against one: sixteen moves each.
    let mut g = game(Variant::International, "W:WK46,K48,K50:BK24");
    assert_eq!(shuffle_without_repeating(&mut g, 100), 32);
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::LoneKing { moves: 16 }
    );
}

#[test]
fn english_forty_moves_without_progress_draw() {
    let mut g = game(Variant::English, "B:WK29,K30,K31,K32:BK1,K2,K3,K4");
    assert_eq!(shuffle_without_repeating(&mut g, 200), 80);
    assert_eq!(
        g.outcome().unwrap().reason,
        EndReason::NoProgress { moves: 40 }
    );
}

#[test]
fn finished_game_refuses_moves() {
    let mut g = game(Variant::Russian, "W:Wc3:Bd4");
    play(&mut g, "c3:e5");
    let start = Position::new(Variant::Russian);
    let mv = start.legal_moves()[0];
    assert!(g.play(&mv).is_err());
}
