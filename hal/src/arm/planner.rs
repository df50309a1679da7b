//! From a robot move to a [`Plan`]: which pieces to carry where, in which order.
//!
//! The arm does at most three kinds of errand in a move: carry its own piece, carry each
//! captured piece to the trophy bin, and swap a crowned man for a spare king (the man goes
//! from its start square straight to the bin and a king from the reserve onto the landing
//! square; with the reserve empty the man moves and the visitor crowns it).
//! The order changes nothing on the board but the time the visitor waits, so it is chosen to
//! minimise the estimated travel time (see `tour.rs`); [`CaptureOrder::PathOrder`]
//! keeps the order of the capture path, as a plain implementation would, for comparison.
//!
//! With a rack ([`plan_move_with_stock`]) the pieces that leave the board go into free rack
//! slots instead of the bin, so that a reset can pick them up again: the slots offered are the
//! free ones nearest the pieces, the route chooses among them like among the bin's drop points,
//! and two pieces never get one slot. The plan lists what it puts where
//! ([`Plan::stock_changes`]). When the rack is absent or too full, the bin takes them as before.

use thiserror::Error;

use super::calibration::Calibration;
use super::piece::{Piece, PieceColour, PieceKind};
use super::plan::{ArmStep, Plan, Spot};
use super::point::Point;
use super::reserve::KingReserve;
use super::slot::{Slot, StockChange};
use super::square::BoardSquare;
use super::stock::Stock;
use super::tour::{Errand, Leg, Route};
use super::travel::TravelTime;

/// Free rack slots offered to the route beyond one per piece, so it has a choice near its way.
const SPARE_RACK_CHOICES: usize = 3;

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
#[non_exhaustive]
pub enum PlanError {
    /// A square of the move is not a dark square of the calibrated board.
    #[error("square {0} of the move is not a dark square of the calibrated board")]
    NotOnBoard(BoardSquare),
    /// A piece is captured twice, or on the mover's own squares.
    #[error("square {0} is captured twice or is one of the moving piece's squares")]
    BadCapture(BoardSquare),
    /// The pieces leaving the board have nowhere to go: no bin, and too few free rack slots.
    #[error(
        "{pieces} piece(s) leave the board but the rack has only {free} free slot(s) and there \
         is no trophy bin: empty the rack"
    )]
    NoRoom {
        /// Pieces leaving the board.
        pieces: usize,
        /// Free rack slots.
        free: usize,
    },
}

// Places an errand can end at, in the route's table; the park pose is where the arm starts.
const PARK: usize = 0;
const LANDING: usize = 1;
const CROWNED: usize = 2;
const FIRST_BIN: usize = 3;

/// What waits beside the board, as one plan sees it.
struct Stores {
    /// The reserve slot whose king crowns the mover, if any.
    king_slot: Option<usize>,
    /// Rack slots offered for the pieces leaving the board.
    rack_slots: Vec<usize>,
    /// Whether the bins are offered too.
    use_bins: bool,
    /// The mover's colour, when the plan keeps track of the stock.
    colour: Option<PieceColour>,
}

/// The errands of one move with what each picks up, ready for ordering.
struct MoveErrands {
    places: Vec<Point>,
    /// What each place beyond the landing squares is.
    place_spots: Vec<Spot>,
    errands: Vec<Errand>,
    pickups: Vec<Spot>,
    pieces: Vec<Piece>,
    king_slot: Option<usize>,
}

impl MoveErrands {
    /// Adds an errand and returns its bit, for errands that must follow it.
    fn add(&mut self, errand: Errand, pickup: Spot, piece: Piece) -> u64 {
        self.errands.push(errand);
        self.pickups.push(pickup);
        self.pieces.push(piece);
        1 << (self.errands.len() - 1)
    }
}

/// Plans `mv` on the calibrated board, starting and ending at the park pose, with captured
/// pieces dropped into the bins, in the order `travel` estimates fastest.
///
/// The reserve is only read: the plan says which slot it uses ([`Plan::king_slot`]).
pub fn plan_move(
    calibration: &Calibration,
    mv: &RobotMove,
    reserve: &KingReserve,
    order: CaptureOrder,
    travel: &dyn TravelTime,
) -> Result<Plan, PlanError> {
    let stores = Stores {
        king_slot: if mv.promotes {
            reserve.next_slot()
        } else {
            None
        },
        rack_slots: Vec::new(),
        use_bins: true,
        colour: None,
    };
    if calibration.bins().is_empty() {
        let pieces = mv.captured.len() + usize::from(stores.king_slot.is_some());
        if pieces > 0 {
            return Err(PlanError::NoRoom { pieces, free: 0 });
        }
    }
    plan_with(calibration, mv, &stores, order, travel)
}

/// Plans `mv`, a move of `colour`'s piece, keeping track of the stock: the pieces leaving the
/// board go into free rack slots near the route (into the bins when the rack is absent or has
/// too few free slots), and a crowning takes the nearest spare king of `colour`.
///
/// The stock is only read: [`Plan::stock_changes`] says what the plan takes and puts, for
/// [`Stock::apply`] once the arm has carried it out. The errands are ordered by `travel`'s
/// estimate, the arm's own.
pub fn plan_move_with_stock(
    calibration: &Calibration,
    mv: &RobotMove,
    colour: PieceColour,
    stock: &Stock,
    order: CaptureOrder,
    travel: &dyn TravelTime,
) -> Result<Plan, PlanError> {
    let landing = calibration
        .square(mv.to)
        .ok_or(PlanError::NotOnBoard(mv.to))?;
    let king_slot = if mv.promotes {
        stock.kings_in_reserve(colour).min_by(|&a, &b| {
            let distance = |slot: usize| {
                calibration
                    .king_slots()
                    .get(slot)
                    .map_or(f64::INFINITY, |point| point.horizontal_distance(landing))
            };
            distance(a).total_cmp(&distance(b))
        })
    } else {
        None
    };
    let leaving = mv.captured.len() + usize::from(king_slot.is_some());
    let mut free: Vec<usize> = if calibration.rack().is_some() {
        stock.free_rack_slots().collect()
    } else {
        Vec::new()
    };
    let bins = !calibration.bins().is_empty();
    if free.len() < leaving && !bins {
        return Err(PlanError::NoRoom {
            pieces: leaving,
            free: free.len(),
        });
    }
    // Offer the free slots nearest the pieces that leave, a few more than needed.
    let mut leaving_at: Vec<Point> = mv
        .captured
        .iter()
        .filter_map(|&(square, _)| calibration.square(square))
        .collect();
    if king_slot.is_some() {
        leaving_at.extend(calibration.square(mv.from));
    }
    let remoteness = |slot: usize| {
        let point = calibration
            .rack_grip(slot, PieceKind::Man)
            .expect("free slots are the rack's");
        leaving_at
            .iter()
            .map(|at| at.horizontal_distance(point))
            .fold(f64::INFINITY, f64::min)
    };
    free.sort_by(|&a, &b| remoteness(a).total_cmp(&remoteness(b)));
    let enough = free.len() >= leaving;
    free.truncate(if enough {
        leaving + SPARE_RACK_CHOICES
    } else {
        free.len()
    });
    if leaving == 0 {
        free.clear();
    }
    let stores = Stores {
        king_slot,
        rack_slots: free,
        use_bins: !enough,
        colour: Some(colour),
    };
    plan_with(calibration, mv, &stores, order, travel)
}

fn plan_with(
    calibration: &Calibration,
    mv: &RobotMove,
    stores: &Stores,
    order: CaptureOrder,
    travel: &dyn TravelTime,
) -> Result<Plan, PlanError> {
    let errands = errands(calibration, mv, stores)?;
    let route = Route {
        places: &errands.places,
        start: PARK,
        finish: calibration.park(),
        errands: &errands.errands,
    };
    let safe_z = calibration.safe_z();
    let cost = |a: Point, b: Point| travel.lift_travel_lower_s(a, b, safe_z);
    let mut legs = match order {
        CaptureOrder::Shortest => route.shortest(&cost),
        CaptureOrder::PathOrder => route.in_given_order(&cost),
    };
    one_piece_per_slot(&errands, &mut legs, calibration.park(), &cost);

    let mut steps = Vec::with_capacity(2 * legs.len() + 2);
    let mut stock_changes = Vec::new();
    if let (Some(slot), Some(_)) = (errands.king_slot, stores.colour) {
        stock_changes.push(StockChange::Take(Slot::Reserve(slot)));
    }
    for Leg { errand, drop } in legs {
        steps.push(ArmStep::Pick {
            spot: errands.pickups[errand],
            at: errands.errands[errand].pickup,
        });
        let spot = if drop >= FIRST_BIN {
            errands.place_spots[drop - FIRST_BIN]
        } else {
            Spot::Square(mv.to)
        };
        let piece = errands.pieces[errand];
        if let (Some(slot), Some(_)) = (spot.slot(), stores.colour) {
            stock_changes.push(StockChange::Put(slot, piece));
        }
        // A king goes down into a slot until its foot, not the tool, meets the slot's floor.
        let at = match spot {
            Spot::RackSlot(slot) => calibration
                .rack_grip(slot, piece.kind)
                .expect("offered slots are the rack's"),
            _ => errands.places[drop],
        };
        steps.push(ArmStep::Release { spot, at });
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
        stock_changes,
    })
}

/// The route may send two pieces to the same rack slot (it knows drop places, not what they
/// hold): every later one is moved to the free place, another offered slot or a bin, that adds
/// the least time between its pickup and the next one.
fn one_piece_per_slot(
    errands: &MoveErrands,
    legs: &mut [Leg],
    finish: Point,
    cost: &impl Fn(Point, Point) -> f64,
) {
    let is_slot =
        |drop: usize| drop >= FIRST_BIN && errands.place_spots[drop - FIRST_BIN].slot().is_some();
    let mut used = Vec::new();
    for i in 0..legs.len() {
        let drop = legs[i].drop;
        if !is_slot(drop) {
            continue;
        }
        if used.contains(&drop) {
            let pickup = errands.errands[legs[i].errand].pickup;
            let next = legs
                .get(i + 1)
                .map_or(finish, |leg| errands.errands[leg.errand].pickup);
            let added = |place: usize| {
                cost(pickup, errands.places[place]) + cost(errands.places[place], next)
            };
            let choice = errands.errands[legs[i].errand]
                .drops
                .iter()
                .copied()
                .filter(|place| !used.contains(place))
                .min_by(|&a, &b| added(a).total_cmp(&added(b)))
                .expect("enough slots or a bin are offered");
            legs[i].drop = choice;
        }
        if is_slot(legs[i].drop) {
            used.push(legs[i].drop);
        }
    }
}

/// The move's errands: the own piece to its landing (unless it ends where it started), each
/// captured piece to a bin or a rack slot; for a crowning with a king in reserve the man goes
/// straight to a bin or a slot instead and the king onto the landing square, which saves
/// carrying the man twice.
fn errands(
    calibration: &Calibration,
    mv: &RobotMove,
    stores: &Stores,
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
    let mut place_spots = Vec::new();
    if stores.use_bins {
        places.extend_from_slice(calibration.bins());
        place_spots.extend((0..calibration.bins().len()).map(Spot::Bin));
    }
    // A slot's drop point: where the tool lets go of a man's top; a king is let go higher.
    for &slot in &stores.rack_slots {
        places.push(
            calibration
                .rack_grip(slot, PieceKind::Man)
                .expect("offered slots are the rack's"),
        );
        place_spots.push(Spot::RackSlot(slot));
    }
    let drops: Vec<usize> = (FIRST_BIN..places.len()).collect();
    let king_slot = stores.king_slot;
    let colour = stores.colour.unwrap_or(PieceColour::White);
    let mut out = MoveErrands {
        places,
        place_spots,
        errands: Vec::new(),
        pickups: Vec::new(),
        pieces: Vec::new(),
        king_slot,
    };
    let own_drops = if king_slot.is_some() {
        drops.clone()
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
            Piece {
                colour,
                kind: mv.mover,
            },
        )
    };
    for &(square, kind) in &mv.captured {
        let pickup = grip(square, kind)?;
        out.add(
            Errand {
                pickup,
                drops: drops.clone(),
                after: 0,
            },
            Spot::Square(square),
            Piece {
                colour: colour.opponent(),
                kind,
            },
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
            Piece::king(colour),
        );
    }
    Ok(out)
}
