//! A hand-written evaluation: material, advancement, centre and back-rank guard.
//!
//! Scores are in hundredths of a man from the side to move's point of view. It is the fallback
//! player's judgement and the teacher for the network, so it favours being simple and fast
//! over being clever.

use std::sync::OnceLock;

use rules::{Color, Goal, Position, Variant};

/// Value of a man.
pub const MAN: i32 = 100;

/// Value of a king: a flying king is worth about three men, a short one about one and a half.
const fn king_value(flying: bool) -> i32 {
    if flying { 300 } else { 150 }
}

/// What each man adds beyond [`MAN`] on each square, for each colour, and a king's value: the
/// per-square terms worked out once per variant, so that the evaluation (run at every leaf)
/// is a table look-up per man rather than coordinate arithmetic.
struct Table {
    men: [[i32; 128]; 2],
    king: i32,
}

impl Table {
    fn new(variant: Variant) -> Table {
        let rules = variant.rules();
        let geometry = rules.geometry;
        let side = geometry.side();
        let mut men = [[0; 128]; 2];
        for (i, color) in Color::ALL.into_iter().enumerate() {
            // Men on the own back rank stop the opponent from crowning.
            let back_rank = match color {
                Color::White => geometry.row(0),
                Color::Black => geometry.row(side - 1),
            };
            for row in 0..side {
                for sq in geometry.row(row) {
                    let (row, col) = geometry.coords(sq);
                    // Men gain as they advance: a man one row from crowning is worth about 1.4
                    // men.
                    let advance = match color {
                        Color::White => row,
                        Color::Black => side - 1 - row,
                    } as i32;
                    let mut value =
                        MAN + advance * advance * 40 / ((side as i32 - 2) * (side as i32 - 2));
                    // The centre files matter more than the edges.
                    if col >= 2 && col + 2 < side {
                        value += 4;
                    }
                    if back_rank.contains(sq) {
                        value += 6;
                    }
                    men[i][sq.bit() as usize] = value;
                }
            }
        }
        Table {
            men,
            king: king_value(rules.flying_kings),
        }
    }
}

fn table(variant: Variant) -> &'static Table {
    static TABLES: OnceLock<Vec<Table>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| Variant::ALL.into_iter().map(Table::new).collect());
    &tables[Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("every variant has a table")]
}

/// Static score of `position` for the side to move.
pub fn evaluate(position: &Position) -> i32 {
    let variant = position.variant();
    let table = table(variant);
    let mut score = [0i32; 2];
    for (i, color) in Color::ALL.into_iter().enumerate() {
        let mut value = position.kings_of(color).count() as i32 * table.king;
        for sq in position.men_of(color) {
            value += table.men[i][sq.bit() as usize];
        }
        score[i] = value;
    }
    let us = position.turn() as usize;
    let material = score[us] - score[1 - us];
    match variant.rules().goal {
        Goal::Win => material,
        // In giveaway the fewer pieces the better; mobility matters little.
        Goal::Lose => -material,
    }
}
