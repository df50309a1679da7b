//! A finished (or abandoned) game as the archive stores it.

use rules::pdn::MoveNote;
use rules::{Color, Game, Move, Position};

/// Everything the PDN archive needs of one game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// The starting position.
    pub start: Position,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// The robot's colour.
    pub robot: Color,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game stopped before its end.
    pub result: String,
    /// What the robot noted on the moves: its win probability after each of its own, and the
    /// coach's rating of the visitor's (`?` for a mistake, `??` for a blunder), and what was
    /// taken back before a move.
    pub notes: Vec<MoveNote>,
}

impl GameRecord {
    /// The game as PDN, with the players' names, `extra` tags (date, level, attitude) and the
    /// notes on its moves.
    pub fn pdn(&self, extra: &[(&str, &str)]) -> String {
        let mut game = Game::from_position(self.start);
        for mv in &self.moves {
            game.play(mv)
                .expect("a record holds the moves the game accepted");
        }
        let (white, black) = match self.robot {
            Color::White => ("checkerbot", "visitor"),
            Color::Black => ("visitor", "checkerbot"),
        };
        let mut tags = vec![
            ("Event", "checkerbot exhibition"),
            ("White", white),
            ("Black", black),
            ("Result", self.result.as_str()),
        ];
        tags.extend_from_slice(extra);
        rules::pdn::write_annotated(&game, &tags, &self.notes)
    }
}

/// Adds `note` to `notes`, joined with the note already on its move: the marks keep the newer
/// one, the comments follow each other.
pub(crate) fn merge_note(notes: &mut Vec<MoveNote>, note: MoveNote) {
    match notes.iter_mut().find(|old| old.ply == note.ply) {
        Some(old) => {
            old.mark = note.mark.or(old.mark);
            old.comment = match (old.comment.take(), note.comment) {
                (Some(a), Some(b)) => Some(format!("{a}; {b}")),
                (a, b) => a.or(b),
            };
        }
        None => notes.push(note),
    }
}
