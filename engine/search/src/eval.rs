//! A hand-written evaluation: material, advancement, centre and back-rank guard.
//!
//! Scores are in hundredths of a man from the side to move's point of view. It is the fallback
//! player's judgement and the teacher for the network, so it favours being simple and fast
//! over being clever.

use rules::Color;
use rules::Goal;
use rules::Position;

/// Value of a man.
pub const MAN: i32 = 100;

/// Value of a king: a flying king is worth about three men, a short one about one and a half.
const fn king_value(flying: bool) -> i32 {
    if flying { 300 } else { 150 }
}

/// Static score of `position` for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    let rules = position.variant().rules();
    let geometry = rules.geometry;
    let side = geometry.side();
    let king = king_value(rules.flying_kings);
    let mut score = [0i32; 2];
    for (i, color) in Color::ALL.into_iter().enumerate() {
        let men = position.men_of(color);
        let kings = position.kings_of(color);
        let mut value = men.count() as i32 * MAN + kings.count() as i32 * king;
        // Men gain as they advance: a man one row from crowning is worth about 1.4 men.
        for sq in men {
            let (row, col) = geometry.coords(sq);
            let advance = match color {
                Color::White => row,
                Color::Black => side - 1 - row,
            } as i32;
            value += advance * advance * 40 / ((side as i32 - 2) * (side as i32 - 2));
            // The centre files matter more than the edges.
            if col >= 2 && col + 2 < side {
                value += 4;
            }
        }
        // Men on the own back rank stop the opponent from crowning.
        let back_rank = match color {
            Color::White => geometry.row(0),
            Color::Black => geometry.row(side - 1),
        };
        value += (men & back_rank).count() as i32 * 6;
        score[i] = value;
    }
    let us = position.turn() as usize;
    let material = score[us] - score[1 - us];
    match rules.goal {
        Goal::Win => material,
        // In giveaway the fewer pieces the better; mobility matters little.
        Goal::Lose => -material,
    }
}
