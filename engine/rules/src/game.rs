//! A game: the moves played from a start position, and the rules that end it.

use std::fmt;

use crate::color::Color;
use crate::moves::Move;
use crate::position::{PlayError, Position};
use crate::variant::{DrawRules, Goal, Variant};

/// Who won.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// One side won.
    Win(Color),
    /// Nobody won.
    Draw,
}

/// Why a game ended.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has no pieces left.
    NoPieces,
    /// The side to move has pieces but no legal move.
    Blocked,
    /// The same position occurred three times with the same side to move.
    Repetition,
    /// Only kings moved, without captures, for the given number of moves by each side.
    KingMovesOnly {
        /// Moves by each side.
        moves: u32,
    },
    /// A lone king held out against the stronger side for the given number of moves.
    LoneKing {
        /// Moves by each side.
        moves: u32,
    },
    /// The balance of forces in a kings ending did not change for the given number of moves.
    UnchangedEnding {
        /// Moves by each side.
        moves: u32,
    },
    /// Neither side captured or moved a man for the given number of moves each.
    NoProgress {
        /// Moves by each side.
        moves: u32,
    },
    /// The players or the operator agreed.
    Agreement,
    /// A player resigned.
    Resignation,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::NoPieces => f.write_str("no pieces left"),
            EndReason::Blocked => f.write_str("no legal move"),
            EndReason::Repetition => f.write_str("the same position three times"),
            EndReason::KingMovesOnly { moves } => {
                write!(f, "{moves} moves of kings only without a capture")
            }
            EndReason::LoneKing { moves } => {
                write!(f, "a lone king held out for {moves} moves")
            }
            EndReason::UnchangedEnding { moves } => {
                write!(f, "{moves} moves without a change in the balance of forces")
            }
            EndReason::NoProgress { moves } => {
                write!(f, "{moves} moves without a capture or a man move")
            }
            EndReason::Agreement => f.write_str("agreement"),
            EndReason::Resignation => f.write_str("resignation"),
        }
    }
}

/// The end of a game.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub reason: EndReason,
}

/// A game in progress or finished.
///
/// Counters are in plies (half-moves); the rules speak of moves by each side, so a limit of
/// 15 moves is 30 plies.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Index in `positions` of the first position after the last capture or man move:
    /// earlier positions cannot repeat.
    irreversible_at: Vec<usize>,
    /// Plies since the last capture or man move.
    quiet_plies: Vec<u32>,
    /// Plies since the last capture or promotion (the balance of forces last changed).
    balance_plies: Vec<u32>,
    decided: Option<Outcome>,
}

impl Game {
    /// A game from the variant's starting position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::new(variant))
    }

    /// A game from any legal position.
    pub fn from_position(start: Position) -> Game {
        Game {
            start,
            positions: vec![start],
            moves: Vec::new(),
            irreversible_at: vec![0],
            quiet_plies: vec![0],
            balance_plies: vec![0],
            decided: None,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a legal move. A finished game accepts no more moves.
    pub fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError {
                position: Box::new(*self.position()),
            });
        }
        let before = *self.position();
        let after = before.play(mv)?;
        let man_moved = !before.kings().contains(mv.from());
        let quiet = if mv.is_capture() || man_moved {
            0
        } else {
            self.quiet_plies.last().copied().unwrap_or_default() + 1
        };
        let balance = if mv.is_capture() || mv.promotes() {
            0
        } else {
            self.balance_plies.last().copied().unwrap_or_default() + 1
        };
        let irreversible = if mv.is_capture() || man_moved {
            self.positions.len()
        } else {
            self.irreversible_at.last().copied().unwrap_or_default()
        };
        self.positions.push(after);
        self.moves.push(*mv);
        self.quiet_plies.push(quiet);
        self.balance_plies.push(balance);
        self.irreversible_at.push(irreversible);
        Ok(())
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.quiet_plies.pop();
        self.balance_plies.pop();
        self.irreversible_at.pop();
        self.decided = None;
        Some(mv)
    }

    /// Ends the game by agreement or resignation (`Resignation` needs the winner).
    pub fn decide(&mut self, outcome: Outcome) {
        self.decided = Some(outcome);
    }

    /// How many times the current position has occurred (same pieces, same side to move).
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        let since = self.irreversible_at.last().copied().unwrap_or_default();
        self.positions[since..]
            .iter()
            .filter(|p| *p == current)
            .count()
    }

    /// The result, if the game has ended by the rules (or by [`Game::decide`]).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.decided {
            return Some(outcome);
        }
        let position = self.position();
        let rules = self.variant().rules();
        let to_move = position.turn();
        if position.legal_moves().is_empty() {
            let reason = if position.pieces(to_move).is_empty() {
                EndReason::NoPieces
            } else {
                EndReason::Blocked
            };
            let winner = match rules.goal {
                Goal::Win => !to_move,
                Goal::Lose => to_move,
            };
            return Some(Outcome {
                result: GameResult::Win(winner),
                reason,
            });
        }
        self.draw_reason().map(|reason| Outcome {
            result: GameResult::Draw,
            reason,
        })
    }

    fn draw_reason(&self) -> Option<EndReason> {
        if self.repetitions() >= 3 {
            return Some(EndReason::Repetition);
        }
        let quiet = self.quiet_plies.last().copied().unwrap_or_default();
        let balance = self.balance_plies.last().copied().unwrap_or_default();
        let material = Material::of(self.position());
        let reached = |moves: u32| balance >= 2 * moves;
        match self.variant().rules().draw_rules {
            DrawRules::Russian => {
                if material.lone_king_against(|kings, _| kings >= 3) && reached(15) {
                    return Some(EndReason::LoneKing { moves: 15 });
                }
                if quiet >= 30 {
                    return Some(EndReason::KingMovesOnly { moves: 15 });
                }
                if material.both_have_kings() {
                    let limit = match material.total() {
                        4 | 5 => Some(30),
                        6 | 7 => Some(60),
                        _ => None,
                    };
                    if let Some(moves) = limit.filter(|&m| reached(m)) {
                        return Some(EndReason::UnchangedEnding { moves });
                    }
                }
                None
            }
            DrawRules::Fmjd => {
                if quiet >= 50 {
                    return Some(EndReason::KingMovesOnly { moves: 25 });
                }
                let three =
                    |k: u32, m: u32| (k, m) == (3, 0) || (k, m) == (2, 1) || (k, m) == (1, 2);
                let two = |k: u32, m: u32| (k, m) == (2, 0) || (k, m) == (1, 1) || (k, m) == (1, 0);
                if material.lone_king_against(three) && reached(16) {
                    return Some(EndReason::LoneKing { moves: 16 });
                }
                if material.lone_king_against(two) && reached(5) {
                    return Some(EndReason::LoneKing { moves: 5 });
                }
                None
            }
            DrawRules::FortyMoves => (quiet >= 80).then_some(EndReason::NoProgress { moves: 40 }),
        }
    }
}

/// Counts of men and kings of each side.
#[derive(Debug, Clone, Copy)]
struct Material {
    /// (kings, men) of White and of Black.
    sides: [(u32, u32); 2],
}

impl Material {
    fn of(position: &Position) -> Material {
        let count = |c| (position.kings_of(c).count(), position.men_of(c).count());
        Material {
            sides: [count(Color::White), count(Color::Black)],
        }
    }

    fn total(self) -> u32 {
        self.sides.iter().map(|(k, m)| k + m).sum()
    }

    fn both_have_kings(self) -> bool {
        self.sides.iter().all(|(k, _)| *k > 0)
    }

    /// Whether one side has a single king and nothing else while the other matches `strong`.
    fn lone_king_against(self, strong: impl Fn(u32, u32) -> bool) -> bool {
        let [a, b] = self.sides;
        (a == (1, 0) && strong(b.0, b.1)) || (b == (1, 0) && strong(a.0, a.1))
    }
}
