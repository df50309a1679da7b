//! From a robot move to a [`Plan`]: which pieces to carry where, in which order.
//!
//! The arm does at most three kinds of errand in a move: carry its own piece, carry each
//! captured piece to the trophy bin, and swap a crowned man for a spare king (the man goes
//! from its start square straight to the bin and a king from the reserve onto the landing
//! square; with the reserve empty the man moves and the visitor crowns it).
//! The order changes nothing on the board but the time the visitor waits, so it is chosen to
//! minimise the estimated travel time (see `tour.rs`); [`CaptureOrder::PathOrder`]
//! keeps the order of the capture path, as a plain implementation would, for comparison.

use thiserror::Error;

use super::calibration::{Calibration, PieceKind};
use super::plan::{ArmStep, Plan, Spot};
use super::point::Point;
use super::reserve::KingReserve;
use super::square::BoardSquare;
use super::tour::{Errand, Leg, Route};

/// The robot's move as the arm needs it: the daemon builds it from an `rules::Move` with
/// `Geometry::coords` and the position before the move (for the kinds of the pieces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotMove {
    /// Square the robot's piece leaves.
    pub from: BoardSquare,
    /// Square it ends on (may equal `from` after a round-trip capture).
    pub to: BoardSquare,
    /// What the moving piece is.
    pub mover: PieceKind,
    /// The captured pieces in the order they are jumped.
    pub captured: Vec<(BoardSquare, PieceKind)>,
    /// Whether the man is crowned by this move.
    pub promotes: bool,
}

/// How the errands of a move are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaptureOrder {
    /// The order with the least estimated travel time.
    #[default]
    Shortest,
    /// Own piece first, then captured pieces in the order they were jumped, each to its nearest
    /// bin, then the crowning: the baseline the benchmark compares against.
    PathOrder,
}

/// A move the planner cannot carry out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PlanError {
    /// A square of the move is not a dark square of the calibrated board.
    #[error("square {0} of the move is not a dark square of the calibrated board")]
    NotOnBoard(BoardSquare),
    /// A piece is captured twice, or on the mover's own squares.
    #[error("square {0} is captured twice or is one of the moving piece's squares")]
    BadCapture(BoardSquare),
}

// Places an errand can end at, in the route's table; the park pose is where the arm starts.
const PARK: usize = 0;
const LANDING: usize = 1;
const CROWNED: usize = 2;
const FIRST_BIN: usize = 3;

/// The errands of one move with what each picks up, ready for ordering.
struct MoveErrands {
    places: Vec<Point>,
    errands: Vec<Errand>,
    pickups: Vec<Spot>,
    king_slot: Option<usize>,
}

impl MoveErrands {
    /// Adds an errand and returns its bit, for errands that must follow it.
    fn add(&mut self, errand: Errand, pickup: Spot) -> u64 {
        self.errands.push(errand);
        self.pickups.push(pickup);
        1 << (self.errands.len() - 1)
    }
}

/// Plans `mv` on the calibrated board, starting and ending at the park pose.
///
/// The reserve is only read: the plan says which slot it uses ([`Plan::king_slot`]).
pub fn plan_move(
    calibration: &Calibration,
    mv: &RobotMove,
    reserve: &KingReserve,
    order: CaptureOrder,
) -> Result<Plan, PlanError> {
    let errands = errands(calibration, mv, reserve)?;
    let route = Route {
        places: &errands.places,
        start: PARK,
        finish: calibration.park(),
        errands: &errands.errands,
    };
    let safe_z = calibration.safe_z();
    let motion = *calibration.motion();
    let cost = |a: Point, b: Point| {
        motion.segment_s(safe_z - a.z)
            + motion.segment_s(a.horizontal_distance(b))
            + motion.segment_s(safe_z - b.z)
    };
    let legs = match order {
        CaptureOrder::Shortest => route.shortest(&cost),
        CaptureOrder::PathOrder => route.in_given_order(&cost),
    };

    let mut steps = Vec::with_capacity(2 * legs.len() + 2);
    for Leg { errand, drop } in legs {
        steps.push(ArmStep::Pick {
            spot: errands.pickups[errand],
            at: errands.errands[errand].pickup,
        });
        let spot = if drop >= FIRST_BIN {
            Spot::Bin(drop - FIRST_BIN)
        } else {
            Spot::Square(mv.to)
        };
        steps.push(ArmStep::Release {
            spot,
            at: errands.places[drop],
        });
    }
    steps.push(ArmStep::Park {
        at: calibration.park(),
    });
    if mv.promotes && errands.king_slot.is_none() {
        steps.push(ArmStep::AskVisitorToCrown { square: mv.to });
    }
    Ok(Plan {
        start: calibration.park(),
        safe_z,
        steps,
        king_slot: errands.king_slot,
    })
}

/// The move's errands: the own piece to its landing (unless it ends where it started), each
/// captured piece to a bin; for a crowning with a king in reserve the man goes straight to a
/// bin instead and the king onto the landing square, which saves carrying the man twice.
fn errands(
    calibration: &Calibration,
    mv: &RobotMove,
    reserve: &KingReserve,
) -> Result<MoveErrands, PlanError> {
    let grip = |square: BoardSquare, kind: PieceKind| {
        calibration
            .grip(square, kind)
            .filter(|_| square.is_dark())
            .ok_or(PlanError::NotOnBoard(square))
    };
    let from = grip(mv.from, mv.mover)?;
    let landing = grip(mv.to, mv.mover)?;
    let crowned = grip(mv.to, PieceKind::King)?;
    let mut seen = vec![mv.from, mv.to];
    for &(square, _) in &mv.captured {
        if seen.contains(&square) {
            return Err(PlanError::BadCapture(square));
        }
        seen.push(square);
    }

    let mut places = vec![calibration.park(), landing, crowned];
    places.extend_from_slice(calibration.bins());
    let bins: Vec<usize> = (FIRST_BIN..places.len()).collect();
    let king_slot = if mv.promotes {
        reserve.next_slot()
    } else {
        None
    };
    let mut out = MoveErrands {
        places,
        errands: Vec::new(),
        pickups: Vec::new(),
        king_slot,
    };
    let own_drops = if king_slot.is_some() {
        bins.clone()
    } else {
        vec![LANDING]
    };
    let own_move = if mv.from == mv.to && king_slot.is_none() {
        0
    } else {
        out.add(
            Errand {
                pickup: from,
                drops: own_drops,
                after: 0,
            },
            Spot::Square(mv.from),
        )
    };
    for &(square, kind) in &mv.captured {
        let pickup = grip(square, kind)?;
        out.add(
            Errand {
                pickup,
                drops: bins.clone(),
                after: 0,
            },
            Spot::Square(square),
        );
    }
    if let Some(slot) = king_slot {
        // After a round trip the man still stands on the landing square: it must go first.
        let after = if mv.from == mv.to { own_move } else { 0 };
        out.add(
            Errand {
                pickup: calibration.king_slots()[slot],
                drops: vec![CROWNED],
                after,
            },
            Spot::KingSlot(slot),
        );
    }
    Ok(out)
}
