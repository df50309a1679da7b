//! From what the Hall sensors see to the move the visitor made, or to what they must fix.
//!
//! The board senses only whether a dark square holds a piece: no colour, no kings. The position
//! before the visitor's turn is known, so a legal move is identified by the occupancy it leaves.
//!
//! # Contract with the sensor driver
//! Recognition is exact: it returns a move only when the scan equals that move's outcome square
//! for square. Two different legal outcomes always differ on at least two squares, so a single
//! wrong square (a flickering sensor, a piece off-centre) can never turn one legal move into
//! another: it is reported as a missing or extra piece, naming the square. Debouncing (N equal
//! consecutive reads) belongs to the sensor driver, which hands over only stable scans.

mod mistake;
mod setup;
mod verify;

pub use mistake::{Mistake, MistakeKind};
pub use setup::{SetupCheck, check_setup};
pub use verify::{ArmCheck, ArmProblem, verify_robot_move};

use crate::movegen;
use crate::moves::Move;
use crate::position::{Position, Role};
use crate::square::{Bitboard, Square};
use crate::variant::CaptureChoice;

/// What a scan means in a position where the visitor is to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recognition {
    /// The board is as it was.
    NoChange,
    /// The visitor made this legal move.
    Move(Move),
    /// Several legal moves fit the scan, so the host must ask rather than guess: captures of
    /// different pieces between the same squares whose captured pieces are still standing, or
    /// (in principle) moves that leave the same occupancy but different positions. In every
    /// supported variant the crowning of a man is decided by its from, to and captured
    /// squares, so the second case does not arise; the type keeps the host ready for it.
    Ambiguous(Vec<Move>),
    /// The move is clear, but some of the pieces it captured are still on the board.
    CapturesNotRemoved {
        /// The move.
        mv: Move,
        /// Captured pieces still standing.
        standing: Bitboard,
    },
    /// The scan is no legal outcome.
    Mistake(Mistake),
}

/// The occupancy a move leaves.
pub fn outcome(position: &Position, mv: &Move) -> Bitboard {
    (position.occupied() - Bitboard::from_square(mv.from()) - mv.captured())
        | Bitboard::from_square(mv.to())
}

/// Recognises the visitor's move from a stable scan of the board.
///
/// `position` is the game's position with the visitor to move; its occupancy is what the board
/// showed before. Scan bits outside the board are ignored.
pub fn recognize(position: &Position, scan: Bitboard) -> Recognition {
    let scan = scan & position.variant().geometry().all();
    let before = position.occupied();
    if scan == before {
        return Recognition::NoChange;
    }
    let legal = position.legal_moves();
    let exact: Vec<Move> = legal
        .iter()
        .filter(|m| outcome(position, m) == scan)
        .copied()
        .collect();
    match exact.len() {
        0 => {}
        1 => return Recognition::Move(exact[0]),
        _ => return Recognition::Ambiguous(exact),
    }
    // Captured pieces left standing: the scan is the outcome plus some of the captured pieces.
    let unremoved: Vec<Move> = legal
        .iter()
        .filter(|m| {
            let out = outcome(position, m);
            let surplus = scan - out;
            m.is_capture() && (out - scan).is_empty() && (surplus - m.captured()).is_empty()
        })
        .copied()
        .collect();
    match unremoved.len() {
        0 => {}
        1 => {
            let mv = unremoved[0];
            return Recognition::CapturesNotRemoved {
                mv,
                standing: scan & mv.captured(),
            };
        }
        _ => return Recognition::Ambiguous(unremoved),
    }
    Recognition::Mistake(diagnose(position, &legal, scan))
}

/// Explains a scan that is no legal outcome.
fn diagnose(position: &Position, legal: &[Move], scan: Bitboard) -> Mistake {
    let before = position.occupied();
    let visitor = position.turn();
    let own = position.pieces(visitor);
    let robot = position.pieces(!visitor);
    let lifted = before - scan;
    let placed = scan - before;
    let capturable: Bitboard = legal
        .iter()
        .fold(Bitboard::EMPTY, |acc, m| acc | m.captured());
    let robot_lifted = (lifted & robot) - capturable;
    let kind = if let Some(square) = robot_lifted
        .first()
        .filter(|_| (lifted & own).is_empty() && !placed.is_empty())
    {
        MistakeKind::RobotPieceMoved {
            square,
            robot: !visitor,
        }
    } else if (lifted & own).is_single() && placed.is_single() {
        let from = (lifted & own).first().expect("one square");
        let to = placed.first().expect("one square");
        piece_moved(position, legal, from, to, lifted - own)
    } else if placed.is_empty() && !lifted.is_empty() {
        MistakeKind::PieceMissing { squares: lifted }
    } else if lifted.is_empty() && !placed.is_empty() {
        MistakeKind::ExtraPiece { squares: placed }
    } else {
        MistakeKind::Unclear
    };
    Mistake::new(position, legal, scan, kind)
}

/// One of the visitor's pieces went from `from` to `to`, and `removed` robot pieces are gone.
fn piece_moved(
    position: &Position,
    legal: &[Move],
    from: Square,
    to: Square,
    removed: Bitboard,
) -> MistakeKind {
    let geometry = position.variant().geometry();
    // Stopped on a landing square of a capture that goes on.
    if let Some(mv) = legal.iter().find(|m| {
        m.from() == from
            && m.to() != to
            && m.landings().contains(&to)
            && (removed - m.captured()).is_empty()
    }) {
        return MistakeKind::CaptureNotFinished { continuation: *mv };
    }
    // A capture the pieces can make, but not the one the capture rule demands.
    if position.variant().rules().capture_choice != CaptureChoice::Free
        && let Some(tried) = movegen::captures_before_choice(position.board())
            .into_iter()
            .find(|m| m.from() == from && m.to() == to && (removed - m.captured()).is_empty())
        && let Some(required) = legal.iter().find(|m| m.is_capture())
    {
        return MistakeKind::WrongCaptureChoice {
            tried,
            required: *required,
        };
    }
    let captures: Vec<&Move> = legal.iter().filter(|m| m.is_capture()).collect();
    if !captures.is_empty() && removed.is_empty() {
        let available = captures
            .iter()
            .find(|m| m.from() == from)
            .unwrap_or(&captures[0]);
        return MistakeKind::MustCapture {
            available: **available,
        };
    }
    let is_man = position.piece_at(from).is_some_and(|p| p.role == Role::Man);
    let (from_row, _) = geometry.coords(from);
    let (to_row, _) = geometry.coords(to);
    let forward = match position.turn() {
        crate::Color::White => to_row > from_row,
        crate::Color::Black => to_row < from_row,
    };
    if is_man && !forward && removed.is_empty() {
        return MistakeKind::Backwards { from, to };
    }
    MistakeKind::CannotGoThere { from, to }
}
