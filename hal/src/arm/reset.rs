//! Setting up the board: from whatever stands on it and waits beside it to a target position,
//! the next game's start or any position to set up.
//!
//! The plan is a list of carries, each one piece from a spot to a spot (a square, a rack slot,
//! a spare-king slot, at worst a bin). They are chosen in three rounds, each taking the nearest
//! matches first:
//!
//! 1. a piece that already stands on a square of the target that wants it stays put;
//! 2. pieces on the board go to target squares that want their colour and kind, then pieces in
//!    the rack and the reserve fill what is still wanted (men for crowned men sent away);
//! 3. what is left on the board goes beside it: kings to the reserve, then the rack; men to the
//!    rack; into slots emptied by round 2 only when no slot was free, and into a bin only when
//!    no slot is left at all.
//!
//! **Invariant:** a piece is never set down where one stands and never picked up where none
//! is. A carry into an occupied spot waits for the carry out of it; where those waits close a
//! loop (two pieces that must swap squares), one piece of the loop goes by way of a free square
//! or slot. The order then minimises the estimated arm time (`reset_order.rs`).
//!
//! When the rack and the reserve lack pieces the target wants, the plan does everything else
//! and says which target squares stay empty ([`ResetOutcome::Short`]), for the robot to say.

use std::collections::{BTreeMap, HashMap, HashSet};

use thiserror::Error;

use super::calibration::Calibration;
use super::piece::{Piece, PieceKind};
use super::plan::{ArmStep, Plan, Spot};
use super::point::Point;
use super::reset_order::{self, Job};
use super::slot::StockChange;
use super::square::BoardSquare;
use super::stock::Stock;
use super::travel::TravelTime;

/// The pieces on the board's squares.
pub type Layout = BTreeMap<BoardSquare, Piece>;

/// How a reset's carries are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResetOrder {
    /// A short order: greedy nearest carry, then or-opt and 2-opt improvements.
    #[default]
    Shortest,
    /// The carries in the order of the squares they touch, row by row from a1 (as far as the
    /// waits allow): the baseline the benchmark compares against.
    BoardOrder,
}

/// Why no reset can be planned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ResetError {
    /// The calibration has no rack, so the captured pieces are in the bin out of reach.
    #[error(
        "the robot cannot set up the board: the calibration has no [rack], so captured pieces \
         went to the trophy bin where the arm cannot pick them up; teach the rack with \
         `checkerbot calibrate`"
    )]
    NoRack,
    /// A square of the board or the target is not a dark square of the calibrated board.
    #[error("square {square} of the {which} is not a dark square of the calibrated board")]
    NotOnBoard {
        /// The square.
        square: BoardSquare,
        /// `board` or `target`.
        which: &'static str,
    },
    /// The stock was counted for another rack or reserve than the calibrated one.
    #[error("the stock has {stock} {area} slot(s) but the calibration has {calibrated}")]
    StockMismatch {
        /// `rack` or `king reserve`.
        area: &'static str,
        /// Slots in the stock.
        stock: usize,
        /// Slots in the calibration.
        calibrated: usize,
    },
    /// A piece must leave the board but no slot or bin can take it.
    #[error(
        "the {piece} on {square} must leave the board but the rack and the reserve are full and \
         there is no trophy bin: empty some slots"
    )]
    NoRoom {
        /// Where it stands.
        square: BoardSquare,
        /// What it is.
        piece: Piece,
    },
    /// Two pieces must swap places but no square or slot is free to pass one through.
    #[error(
        "the pieces on {square} and beyond must swap places, and no square or slot is free to \
         pass one through: empty a rack slot"
    )]
    NoFreeSpot {
        /// A square of the swap.
        square: BoardSquare,
    },
}

/// One piece carried from one spot to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Carry {
    /// Where it is picked up.
    pub from: Spot,
    /// Where it is put down.
    pub to: Spot,
    /// What it is.
    pub piece: Piece,
}

/// A planned reset: the carries in order, the arm's plan, and what it leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct ResetPlan {
    carries: Vec<Carry>,
    plan: Plan,
    board_after: Layout,
    stock_after: Stock,
    duration_s: f64,
}

impl ResetPlan {
    /// The carries in the planned order.
    pub fn carries(&self) -> &[Carry] {
        &self.carries
    }

    /// The arm's plan, from the park pose back to it ([`Plan::for_dobot`] and the rest).
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The board once the plan is carried out.
    pub fn board_after(&self) -> &Layout {
        &self.board_after
    }

    /// The stock once the plan is carried out (also [`Stock::apply`] of the plan).
    pub fn stock_after(&self) -> &Stock {
        &self.stock_after
    }

    /// Estimated arm time, s, by the [`TravelTime`] the reset was planned with.
    pub const fn duration_s(&self) -> f64 {
        self.duration_s
    }
}

/// What a reset comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum ResetOutcome {
    /// The plan ends with exactly the target on the board.
    Complete(ResetPlan),
    /// The rack and the reserve lack pieces: the plan does the rest, and these target squares
    /// stay empty (with the piece each wants), for the visitor or the operator to fill.
    Short {
        /// The partial plan.
        plan: ResetPlan,
        /// The target squares left empty, row by row.
        empty: Vec<(BoardSquare, Piece)>,
    },
}

impl ResetOutcome {
    /// The plan, complete or not.
    pub fn plan(&self) -> &ResetPlan {
        match self {
            ResetOutcome::Complete(plan) | ResetOutcome::Short { plan, .. } => plan,
        }
    }

    /// The target squares left empty; none for a complete plan.
    pub fn empty_squares(&self) -> &[(BoardSquare, Piece)] {
        match self {
            ResetOutcome::Complete(_) => &[],
            ResetOutcome::Short { empty, .. } => empty,
        }
    }
}

/// Plans the carries from `board` and `stock` to `target`, starting and ending at the park
/// pose, ordered by `travel`'s estimate of the arm's time. Needs a calibrated rack
/// ([`ResetError::NoRack`]).
pub fn plan_reset(
    calibration: &Calibration,
    board: &Layout,
    stock: &Stock,
    target: &Layout,
    order: ResetOrder,
    travel: &dyn TravelTime,
) -> Result<ResetOutcome, ResetError> {
    let rack = calibration.rack().ok_or(ResetError::NoRack)?;
    for (area, in_stock, calibrated) in [
        ("rack", stock.rack().len(), rack.len()),
        (
            "king reserve",
            stock.reserve().len(),
            calibration.king_slots().len(),
        ),
    ] {
        if in_stock != calibrated {
            return Err(ResetError::StockMismatch {
                area,
                stock: in_stock,
                calibrated,
            });
        }
    }
    for (which, layout) in [("board", board), ("target", target)] {
        if let Some(&square) = layout
            .keys()
            .find(|square| !square.is_dark() || !square.is_on(calibration.side()))
        {
            return Err(ResetError::NotOnBoard { square, which });
        }
    }
    let places = Places {
        calibration,
        travel,
    };
    let Chosen { mut carries, empty } = choose_carries(&places, board, stock, target)?;
    break_loops(&places, board, stock, target, &mut carries)?;
    let jobs = jobs(&places, board, stock, &carries);
    let park = calibration.park();
    let ordered = match order {
        ResetOrder::Shortest => reset_order::shortest(&jobs, park, park, &places.cost()),
        ResetOrder::BoardOrder => {
            let mut preference: Vec<usize> = (0..carries.len()).collect();
            preference.sort_by_key(|&i| board_key(&carries[i]));
            reset_order::in_preferred_order(&jobs, &preference)
        }
    };
    let carries: Vec<Carry> = ordered.into_iter().map(|i| carries[i]).collect();
    let plan = ResetPlan::new(&places, board, stock, carries);
    Ok(if empty.is_empty() {
        ResetOutcome::Complete(plan)
    } else {
        ResetOutcome::Short { plan, empty }
    })
}

/// The calibrated points of every spot, and the arm's time between them.
struct Places<'a> {
    calibration: &'a Calibration,
    travel: &'a dyn TravelTime,
}

impl Places<'_> {
    /// Where the tool grips (or lets go of) `kind` at `spot`.
    fn at(&self, spot: Spot, kind: PieceKind) -> Point {
        let calibration = self.calibration;
        match spot {
            Spot::Square(square) => calibration.grip(square, kind),
            Spot::RackSlot(i) => calibration.rack_grip(i, kind),
            Spot::KingSlot(i) => calibration.reserve_grip(i, kind),
            Spot::Bin(i) => calibration.bins().get(i).copied(),
        }
        .expect("spots are checked against the calibration")
    }

    /// The arm's time from one point to another: up to the travel height, across, down.
    fn cost(&self) -> impl Fn(Point, Point) -> f64 + use<'_> {
        let safe_z = self.calibration.safe_z();
        move |a: Point, b: Point| self.travel.lift_travel_lower_s(a, b, safe_z)
    }
}

/// A piece that may move, and where it is.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    spot: Spot,
    piece: Piece,
    at: Point,
}

/// Pairs `from` with `to` of the same piece, the nearest pairs first; returns the pairs and
/// marks the used ones.
fn pair_nearest(
    from: &[Candidate],
    from_used: &mut [bool],
    to: &[Candidate],
    to_used: &mut [bool],
    matches: impl Fn(&Candidate, &Candidate) -> bool,
) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (a, source) in from.iter().enumerate() {
        if from_used[a] {
            continue;
        }
        for (b, sink) in to.iter().enumerate() {
            if !to_used[b] && matches(source, sink) {
                pairs.push((source.at.horizontal_distance(sink.at), a, b));
            }
        }
    }
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let mut chosen = Vec::new();
    for (_, a, b) in pairs {
        if !from_used[a] && !to_used[b] {
            from_used[a] = true;
            to_used[b] = true;
            chosen.push((a, b));
        }
    }
    chosen
}

/// Which piece goes where, and the target squares nothing can fill.
struct Chosen {
    carries: Vec<Carry>,
    empty: Vec<(BoardSquare, Piece)>,
}

/// Whether a piece (the first) may go to a spot (the second).
type Fits<'a> = &'a dyn Fn(&Candidate, &Candidate) -> bool;

/// The three rounds of the module's description.
fn choose_carries(
    places: &Places<'_>,
    board: &Layout,
    stock: &Stock,
    target: &Layout,
) -> Result<Chosen, ResetError> {
    let square = |square: BoardSquare, piece: Piece| Candidate {
        spot: Spot::Square(square),
        piece,
        at: places.at(Spot::Square(square), piece.kind),
    };
    let wanted: Vec<Candidate> = target
        .iter()
        .filter(|&(at, piece)| board.get(at) != Some(piece))
        .map(|(&at, &piece)| square(at, piece))
        .collect();
    let movable: Vec<Candidate> = board
        .iter()
        .filter(|&(at, piece)| target.get(at) != Some(piece))
        .map(|(&at, &piece)| square(at, piece))
        .collect();
    let waiting: Vec<Candidate> = stock
        .pieces()
        .map(|(slot, piece)| {
            let spot = Spot::from(slot);
            Candidate {
                spot,
                piece,
                at: places.at(spot, piece.kind),
            }
        })
        .collect();
    let same = |a: &Candidate, b: &Candidate| a.piece == b.piece;
    let mut carries = Vec::new();
    let mut wanted_used = vec![false; wanted.len()];

    // Round 2: the board's own pieces, then the stock's.
    let mut movable_used = vec![false; movable.len()];
    for (a, b) in pair_nearest(&movable, &mut movable_used, &wanted, &mut wanted_used, same) {
        carries.push(Carry {
            from: movable[a].spot,
            to: wanted[b].spot,
            piece: movable[a].piece,
        });
    }
    let mut waiting_used = vec![false; waiting.len()];
    for (a, b) in pair_nearest(&waiting, &mut waiting_used, &wanted, &mut wanted_used, same) {
        carries.push(Carry {
            from: waiting[a].spot,
            to: wanted[b].spot,
            piece: waiting[a].piece,
        });
    }
    let empty: Vec<(BoardSquare, Piece)> = wanted
        .iter()
        .zip(&wanted_used)
        .filter(|&(_, &used)| !used)
        .map(|(candidate, _)| match candidate.spot {
            Spot::Square(square) => (square, candidate.piece),
            _ => unreachable!("wanted spots are squares"),
        })
        .collect();
    let emptied: Vec<Spot> = waiting
        .iter()
        .zip(&waiting_used)
        .filter(|&(_, &used)| used)
        .map(|(candidate, _)| candidate.spot)
        .collect();
    put_aside(
        places,
        stock,
        &movable,
        &mut movable_used,
        &emptied,
        &mut carries,
    )?;
    Ok(Chosen { carries, empty })
}

/// Round 3: what is left on the board goes beside it, in tiers of preference.
fn put_aside(
    places: &Places<'_>,
    stock: &Stock,
    movable: &[Candidate],
    movable_used: &mut [bool],
    emptied: &[Spot],
    carries: &mut Vec<Carry>,
) -> Result<(), ResetError> {
    let calibration = places.calibration;
    let slot_candidate = |spot: Spot| Candidate {
        spot,
        // Only the place matters for a destination; a man's grip is the slot's floor.
        piece: Piece::man(super::piece::PieceColour::White),
        at: places.at(spot, PieceKind::Man),
    };
    let free_reserve: Vec<Candidate> = stock
        .free_reserve_slots()
        .map(|i| slot_candidate(Spot::KingSlot(i)))
        .collect();
    let free_rack: Vec<Candidate> = stock
        .free_rack_slots()
        .map(|i| slot_candidate(Spot::RackSlot(i)))
        .collect();
    let emptied: Vec<Candidate> = emptied.iter().map(|&spot| slot_candidate(spot)).collect();
    let kings_only = |a: &Candidate, _: &Candidate| a.piece.kind == PieceKind::King;
    let anything = |_: &Candidate, _: &Candidate| true;
    let men_out_of_reserve = |a: &Candidate, b: &Candidate| {
        a.piece.kind == PieceKind::King || !matches!(b.spot, Spot::KingSlot(_))
    };
    let tiers: [(&[Candidate], Fits<'_>); 3] = [
        (&free_reserve, &kings_only),
        (&free_rack, &anything),
        (&emptied, &men_out_of_reserve),
    ];
    for (sinks, fits) in tiers {
        let mut sinks_used = vec![false; sinks.len()];
        for (a, b) in pair_nearest(movable, movable_used, sinks, &mut sinks_used, fits) {
            carries.push(Carry {
                from: movable[a].spot,
                to: sinks[b].spot,
                piece: movable[a].piece,
            });
        }
    }
    // A bin takes any number of pieces: each piece still left goes to the nearest.
    let bins = calibration.bins();
    for (source, used) in movable.iter().zip(movable_used.iter_mut()) {
        let nearest = (0..bins.len()).min_by(|&x, &y| {
            bins[x]
                .horizontal_distance(source.at)
                .total_cmp(&bins[y].horizontal_distance(source.at))
        });
        if let (false, Some(bin)) = (*used, nearest) {
            *used = true;
            carries.push(Carry {
                from: source.spot,
                to: Spot::Bin(bin),
                piece: source.piece,
            });
        }
    }
    if let Some(a) = movable_used.iter().position(|used| !used) {
        let Spot::Square(square) = movable[a].spot else {
            unreachable!("movable pieces stand on squares")
        };
        return Err(ResetError::NoRoom {
            square,
            piece: movable[a].piece,
        });
    }
    Ok(())
}

/// Spots holding a piece before the reset.
fn occupied_before(board: &Layout, stock: &Stock) -> HashSet<Spot> {
    board
        .keys()
        .map(|&square| Spot::Square(square))
        .chain(stock.pieces().map(|(slot, _)| Spot::from(slot)))
        .collect()
}

/// Where the waits close a loop (each carry into a spot waits for the carry out of it), one
/// carry of the loop goes by way of a free spot: a square empty before and after, or a free
/// rack slot nothing goes into.
fn break_loops(
    places: &Places<'_>,
    board: &Layout,
    stock: &Stock,
    target: &Layout,
    carries: &mut Vec<Carry>,
) -> Result<(), ResetError> {
    let occupied = occupied_before(board, stock);
    let out_of: HashMap<Spot, usize> = carries
        .iter()
        .enumerate()
        .map(|(i, carry)| (carry.from, i))
        .collect();
    let waits_for = |i: usize| out_of.get(&carries[i].to).copied();
    let mut state = vec![0u8; carries.len()]; // 0 unseen, 1 on the current walk, 2 done
    let mut loops = Vec::new();
    for begin in 0..carries.len() {
        let mut walk = Vec::new();
        let mut at = Some(begin);
        while let Some(i) = at {
            match state[i] {
                2 => break,
                1 => {
                    let start = walk.iter().position(|&j| j == i).expect("on the walk");
                    loops.push(walk[start]);
                    break;
                }
                _ => {
                    state[i] = 1;
                    walk.push(i);
                    at = waits_for(i);
                }
            }
        }
        for i in walk {
            state[i] = 2;
        }
    }
    if loops.is_empty() {
        return Ok(());
    }
    let destinations: HashSet<Spot> = carries.iter().map(|carry| carry.to).collect();
    let calibration = places.calibration;
    let mut free: Vec<Spot> = calibration
        .dark_squares()
        .filter(|square| !board.contains_key(square) && !target.contains_key(square))
        .map(Spot::Square)
        .chain(stock.free_rack_slots().map(Spot::RackSlot))
        .filter(|spot| !occupied.contains(spot) && !destinations.contains(spot))
        .collect();
    for i in loops {
        let carry = carries[i];
        let from = places.at(carry.from, carry.piece.kind);
        let Some(nearest) = (0..free.len()).min_by(|&a, &b| {
            let distance = |k: usize| {
                places
                    .at(free[k], carry.piece.kind)
                    .horizontal_distance(from)
            };
            distance(a).total_cmp(&distance(b))
        }) else {
            let Spot::Square(square) = carry.from else {
                unreachable!("loops run through the board")
            };
            return Err(ResetError::NoFreeSpot { square });
        };
        let buffer = free.swap_remove(nearest);
        carries[i].to = buffer;
        carries.push(Carry {
            from: buffer,
            to: carry.to,
            piece: carry.piece,
        });
    }
    Ok(())
}

/// The carries as jobs for ordering, with their waits: out of a spot filled during the reset
/// only after the carry that fills it; into a spot occupied before only after the carry that
/// empties it.
fn jobs(places: &Places<'_>, board: &Layout, stock: &Stock, carries: &[Carry]) -> Vec<Job> {
    let occupied = occupied_before(board, stock);
    let out_of: HashMap<Spot, usize> = carries
        .iter()
        .enumerate()
        .map(|(i, carry)| (carry.from, i))
        .collect();
    let into: HashMap<Spot, usize> = carries
        .iter()
        .enumerate()
        .filter(|(_, carry)| !matches!(carry.to, Spot::Bin(_)))
        .map(|(i, carry)| (carry.to, i))
        .collect();
    carries
        .iter()
        .map(|carry| {
            let mut after = Vec::new();
            if !occupied.contains(&carry.from) {
                after.extend(into.get(&carry.from).copied());
            }
            if occupied.contains(&carry.to) {
                after.extend(out_of.get(&carry.to).copied());
            }
            Job {
                pickup: places.at(carry.from, carry.piece.kind),
                drop: places.at(carry.to, carry.piece.kind),
                after,
            }
        })
        .collect()
}

/// The board square a carry is about, for the naive order: where it picks up, else where it
/// puts down; carries between slots last.
fn board_key(carry: &Carry) -> (u8, u8, u8) {
    match (carry.from, carry.to) {
        (Spot::Square(square), _) | (_, Spot::Square(square)) => (0, square.row, square.col),
        _ => (1, 0, 0),
    }
}

/// The arm's plan for `carries` alone, in their order, from the park pose back to it: a batch
/// of a reset (a prefix of [`ResetPlan::carries`]), carried out before the board is checked.
/// Its [`Plan::stock_changes`] are the batch's. `None` when a carry's spot is not in the
/// calibration.
pub fn plan_carries(calibration: &Calibration, carries: &[Carry]) -> Option<Plan> {
    let grip = |spot: Spot, kind: PieceKind| match spot {
        Spot::Square(square) => calibration.grip(square, kind),
        Spot::RackSlot(i) => calibration.rack_grip(i, kind),
        Spot::KingSlot(i) => calibration.reserve_grip(i, kind),
        Spot::Bin(i) => calibration.bins().get(i).copied(),
    };
    let mut steps = Vec::with_capacity(2 * carries.len() + 1);
    let mut stock_changes = Vec::new();
    for carry in carries {
        steps.push(ArmStep::Pick {
            spot: carry.from,
            at: grip(carry.from, carry.piece.kind)?,
        });
        steps.push(ArmStep::Release {
            spot: carry.to,
            at: grip(carry.to, carry.piece.kind)?,
        });
        stock_changes.extend(carry.from.slot().map(StockChange::Take));
        stock_changes.extend(
            carry
                .to
                .slot()
                .map(|slot| StockChange::Put(slot, carry.piece)),
        );
    }
    steps.push(ArmStep::Park {
        at: calibration.park(),
    });
    Some(Plan {
        start: calibration.park(),
        safe_z: calibration.safe_z(),
        steps,
        king_slot: None,
        stock_changes,
    })
}

impl ResetPlan {
    fn new(places: &Places<'_>, board: &Layout, stock: &Stock, carries: Vec<Carry>) -> ResetPlan {
        let calibration = places.calibration;
        let mut steps = Vec::with_capacity(2 * carries.len() + 1);
        let mut stock_changes = Vec::new();
        let mut board_after = board.clone();
        let mut stock_after = stock.clone();
        for carry in &carries {
            steps.push(ArmStep::Pick {
                spot: carry.from,
                at: places.at(carry.from, carry.piece.kind),
            });
            steps.push(ArmStep::Release {
                spot: carry.to,
                at: places.at(carry.to, carry.piece.kind),
            });
            match carry.from {
                Spot::Square(square) => {
                    board_after.remove(&square);
                }
                spot => {
                    let slot = spot
                        .slot()
                        .expect("pieces are picked from squares and slots");
                    stock_changes.push(StockChange::Take(slot));
                    stock_after
                        .take(slot)
                        .expect("a carry picks from a full slot");
                }
            }
            match carry.to {
                Spot::Square(square) => {
                    board_after.insert(square, carry.piece);
                }
                Spot::Bin(_) => {}
                spot => {
                    let slot = spot
                        .slot()
                        .expect("pieces are put on squares, slots and bins");
                    stock_changes.push(StockChange::Put(slot, carry.piece));
                    stock_after
                        .put(slot, carry.piece)
                        .expect("a carry puts into an empty slot");
                }
            }
        }
        steps.push(ArmStep::Park {
            at: calibration.park(),
        });
        let plan = Plan {
            start: calibration.park(),
            safe_z: calibration.safe_z(),
            steps,
            king_slot: None,
            stock_changes,
        };
        let duration_s = plan.duration_s(places.travel);
        ResetPlan {
            carries,
            plan,
            board_after,
            stock_after,
            duration_s,
        }
    }
}
