//! An arm that makes draughts moves: the calibration says where the squares are, the planner
//! orders the picks and places, and the driver sends them: `JUMP`s for a Dobot Magician, and
//! for the reference arm (a calibration with `model = "reference"`, driven by the board
//! controller) the plan's joint-target path, each point a [`Motion::Joint`] move.
//!
//! It keeps the stock of what waits beside the board ([`Stock`]: each rack slot and spare-king
//! slot, with the piece's colour and kind), from a full reserve and an empty rack at start.
//! Moves and resets are ordered by the arm's own time estimate ([`TravelTime`]): the
//! calibration's Cartesian speeds for a Dobot, and for the board controller's arm its joints'
//! speeds ([`PlannedArm::planning_with`]).
//!
//! Each move is planned with it (captured pieces into free rack slots, a crowning with a king
//! of the mover's colour), and a finished plan's changes are recorded once the board's scan
//! confirms them ([`PieceMover::confirm`]): a piece the arm failed to pick is not counted where
//! the plan meant to put it. Like the king reserve before it, the stock lives in memory only:
//! after a restart the operator empties the rack and fills the reserve again.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use std::collections::BTreeSet;

use hal::arm::kinematics::Kinematics as _;
use hal::arm::{
    ArmModel, ArmStep, BoardSquare, Calibration, CaptureOrder, Carry, DobotStep, JointStep, Layout,
    Piece, PieceColour, PieceKind, Plan, PlanError, Point, ResetError, ResetOrder, ResetOutcome,
    RobotMove, Slot, Spot, Stock, StockChange, TravelTime, Unreachable, plan_carries,
    plan_move_with_stock, plan_reset,
};
use hal::device::{Arm, Motion};
use hal::{Error as _, ErrorKind};
use rules::{Move, Position, Role};
use tokio::time::Instant;

use super::arm_squares::{board_square, colour, piece_at};
use super::{Backoff, PieceMover};

/// Opens the arm's link again after it was lost (a USB cable pulled, the arm switched off and
/// on): a fresh port and a fresh driver session, which re-reads the arm's queue.
pub type ReopenArm<A> =
    Box<dyn FnMut() -> Pin<Box<dyn Future<Output = anyhow::Result<A>> + Send>> + Send>;

/// How long a move keeps trying to reopen a lost arm before the robot asks the visitor to make
/// the move by hand; the next move tries again. Short enough that a visitor is not left
/// waiting, and a shutdown (systemd waits 30 s) is not held up for long.
pub const ARM_RECONNECT_PATIENCE: Duration = Duration::from_secs(15);

/// Why a move was not made.
#[derive(Debug)]
pub enum ArmFault<E> {
    /// The calibration cannot serve the move (an unreachable square, no bin).
    Plan(PlanError),
    /// A carry of a reset names a spot the calibration lacks.
    NoSuchSpot,
    /// A point of the joint-target path is out of the reference arm's reach.
    Unreachable(Point, Unreachable),
    /// The arm failed.
    Device(E),
    /// The arm's link is lost and could not be reopened in time.
    Disconnected {
        /// Attempts made during this call.
        attempts: u32,
        /// Why the last attempt failed.
        last_error: String,
    },
}

impl<E: fmt::Display> fmt::Display for ArmFault<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArmFault::Plan(err) => write!(f, "cannot plan the move: {err}"),
            ArmFault::NoSuchSpot => {
                write!(f, "a carry of the reset names a spot the calibration lacks")
            }
            ArmFault::Unreachable(point, why) => {
                write!(f, "the arm's path passes {point}, out of its reach: {why}")
            }
            ArmFault::Device(err) => err.fmt(f),
            ArmFault::Disconnected {
                attempts,
                last_error,
            } => write!(
                f,
                "the arm is not connected ({attempts} attempts to reopen it failed, the last \
                 with: {last_error}); check its USB cable and power"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ArmFault<E> {}

/// An arm driven through a calibration, reopened when its link is lost.
pub struct PlannedArm<A> {
    /// `None` while the link is lost.
    arm: Option<A>,
    reopen: Option<ReopenArm<A>>,
    patience: Duration,
    /// Attempts of a reconnection the loop has not reported yet.
    reconnected: Option<u32>,
    calibration: Calibration,
    /// The arm's time estimate the planners order its errands and carries by.
    travel: Box<dyn TravelTime + Send + Sync>,
    /// What each rack and spare-king slot holds.
    stock: Stock,
    /// The last plan carried out (or begun), whose stock changes wait for the board's scan.
    pending: Option<Plan>,
    /// The square of the man the last move crowned with no spare king left, until the loop
    /// asks.
    crown_by_hand: Option<BoardSquare>,
}

impl<A> fmt::Debug for PlannedArm<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlannedArm")
            .field("connected", &self.arm.is_some())
            .field("stock", &self.stock)
            .finish_non_exhaustive()
    }
}

impl<A> PlannedArm<A> {
    /// An arm over `calibration`, with an empty rack and every spare-king slot full: white and
    /// black kings in turn, from the first slot (so that the robot can crown a man of either
    /// colour, and the visitor too). It plans with the calibration's Cartesian speeds until
    /// [`PlannedArm::planning_with`] says otherwise.
    pub fn new(arm: A, calibration: Calibration) -> PlannedArm<A> {
        let rack = calibration.rack().map_or(0, hal::arm::RackGrid::len);
        let reserve = (0..calibration.king_slots().len())
            .map(|slot| {
                Some(Piece::king(if slot % 2 == 0 {
                    PieceColour::White
                } else {
                    PieceColour::Black
                }))
            })
            .collect();
        let stock = Stock::from_slots(vec![None; rack], reserve);
        PlannedArm {
            arm: Some(arm),
            reopen: None,
            patience: ARM_RECONNECT_PATIENCE,
            reconnected: None,
            travel: Box::new(*calibration.motion()),
            calibration,
            stock,
            pending: None,
            crown_by_hand: None,
        }
    }

    /// What waits beside the board now.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by tests"))]
    pub fn stock(&self) -> &Stock {
        &self.stock
    }

    /// Records the pending plan's changes to the stock: those of every carry that `happened`
    /// says was made (every one when it is `None`).
    fn settle_pending(&mut self, happened: Option<&[bool]>) {
        let Some(plan) = self.pending.take() else {
            return;
        };
        let mut changes = plan.stock_changes().iter();
        for (i, (from, to)) in carries_of(&plan).into_iter().enumerate() {
            let made = happened.is_none_or(|made| made.get(i).copied().unwrap_or(true));
            for spot in [from, to] {
                if spot.slot().is_none() {
                    continue;
                }
                let Some(&change) = changes.next() else {
                    return;
                };
                if made {
                    let result = match change {
                        StockChange::Take(slot) => self.stock.take(slot).map(drop),
                        StockChange::Put(slot, piece) => self.stock.put(slot, piece),
                    };
                    if let Err(err) = result {
                        tracing::warn!("the stock disagrees with the arm's plan: {err}");
                    }
                }
            }
        }
    }

    /// Puts `piece` into the first empty rack slot, as a visitor tidying up does.
    fn put_in_first_free_slot(&mut self, piece: Piece) {
        let free = self.stock.free_rack_slots().next();
        if let Some(slot) = free {
            let _ = self.stock.put(Slot::Rack(slot), piece);
        }
    }

    /// Reopens the arm with `reopen` when its link is lost, trying for up to `patience` per
    /// move (with [`Backoff`] between attempts).
    pub fn reconnect_with(mut self, reopen: ReopenArm<A>, patience: Duration) -> PlannedArm<A> {
        self.reopen = Some(reopen);
        self.patience = patience;
        self
    }

    /// Plans with `travel`, the arm's own time estimate: the board controller's arm turns
    /// each joint at its own speed, so its fastest order is not the shortest path's.
    pub fn planning_with(mut self, travel: impl TravelTime + Send + Sync + 'static) -> Self {
        self.travel = Box::new(travel);
        self
    }

    /// Whether the arm's link is up (as far as the last call knows).
    #[cfg_attr(not(test), expect(dead_code, reason = "read by tests"))]
    pub fn is_connected(&self) -> bool {
        self.arm.is_some()
    }
}

/// The planner's view of an engine move: squares as (row, column), and what stands where.
pub fn robot_move(before: &Position, mv: &Move) -> RobotMove {
    let geometry = before.variant().geometry();
    let square = |sq| board_square(geometry, sq);
    let kind = |sq| match before.piece_at(sq).map(|piece| piece.role) {
        Some(Role::King) => PieceKind::King,
        _ => PieceKind::Man,
    };
    RobotMove {
        from: square(mv.from()),
        to: square(mv.to()),
        mover: kind(mv.from()),
        captured: mv
            .captures_in_order(geometry)
            .into_iter()
            .map(|sq| (square(sq), kind(sq)))
            .collect(),
        promotes: mv.promotes(),
    }
}

impl<A> PieceMover for PlannedArm<A>
where
    A: Arm + Send + 'static,
{
    type Error = ArmFault<A::Error>;

    async fn make_move(&mut self, before: &Position, mv: &Move) -> Result<(), Self::Error> {
        let patience = self.patience;
        self.reconnect_if_lost(patience).await?;
        let result = self.carry_out(before, mv).await;
        self.recover(&result).await;
        result
    }

    async fn park(&mut self) -> Result<(), Self::Error> {
        // One attempt only: parking happens at shutdown, which must not wait for a cable.
        self.reconnect_if_lost(Duration::ZERO).await?;
        let result = self.park_now().await;
        self.recover(&result).await;
        result
    }

    fn take_reconnection(&mut self) -> Option<u32> {
        self.reconnected.take()
    }

    fn take_crown_by_hand(&mut self) -> Option<BoardSquare> {
        self.crown_by_hand.take()
    }

    fn can_reset(&self) -> bool {
        self.calibration.rack().is_some()
    }

    fn plan_reset(&self, board: &Layout, target: &Layout) -> Result<ResetOutcome, ResetError> {
        plan_reset(
            &self.calibration,
            board,
            &self.stock,
            target,
            ResetOrder::Shortest,
            self.travel.as_ref(),
        )
    }

    async fn carry(&mut self, carries: Vec<Carry>) -> Result<(), Self::Error> {
        self.settle_pending(None);
        let patience = self.patience;
        self.reconnect_if_lost(patience).await?;
        let plan = plan_carries(&self.calibration, &carries).ok_or(ArmFault::NoSuchSpot)?;
        let result = self.run_plan(plan).await;
        self.recover(&result).await;
        result
    }

    fn confirm(&mut self, occupied: &BTreeSet<BoardSquare>) -> Vec<bool> {
        let Some(plan) = &self.pending else {
            return Vec::new();
        };
        let happened: Vec<bool> = carries_of(plan)
            .into_iter()
            .map(|(from, to)| match (from, to) {
                (Spot::Square(a), Spot::Square(b)) if a == b => true,
                (Spot::Square(a), _) => !occupied.contains(&a),
                (_, Spot::Square(b)) => occupied.contains(&b),
                _ => true,
            })
            .collect();
        self.settle_pending(Some(&happened));
        happened
    }

    fn visitor_moved(&mut self, before: &Position, mv: &Move) {
        self.settle_pending(None);
        let geometry = before.variant().geometry();
        for sq in mv.captures_in_order(geometry) {
            if let Some(piece) = piece_at(before, sq) {
                self.put_in_first_free_slot(piece);
            }
        }
        if mv.promotes() {
            let mover = colour(before.turn());
            let king = self.stock.kings_in_reserve(mover).next();
            if let Some(slot) = king {
                let _ = self.stock.take(Slot::Reserve(slot));
            }
            self.put_in_first_free_slot(Piece::man(mover));
        }
    }

    fn cleared_by_hand(&mut self, pieces: &[Piece]) {
        self.settle_pending(None);
        for &piece in pieces {
            self.put_in_first_free_slot(piece);
        }
    }

    fn forget_slot(&mut self, slot: Slot) -> Option<Piece> {
        self.stock.take(slot).ok()
    }

    fn restore_slot(&mut self, slot: Slot, piece: Piece) {
        if let Err(err) = self.stock.put(slot, piece) {
            tracing::warn!("{slot} cannot take its piece back: {err}");
        }
    }

    fn taken_back(&mut self, returned: &[Piece], removed: &[Piece]) {
        self.settle_pending(None);
        for &piece in removed {
            // An uncrowned king goes back to the reserve while it has room.
            let reserve = (piece.kind == PieceKind::King)
                .then(|| self.stock.free_reserve_slots().next())
                .flatten();
            match reserve {
                Some(slot) => {
                    let _ = self.stock.put(Slot::Reserve(slot), piece);
                }
                None => self.put_in_first_free_slot(piece),
            }
        }
        for &piece in returned {
            // Captures went into the rack in slot order: the last such piece is the latest.
            let slot = self
                .stock
                .pieces()
                .filter(|&(slot, held)| matches!(slot, Slot::Rack(_)) && held == piece)
                .map(|(slot, _)| slot)
                .last();
            if let Some(slot) = slot {
                let _ = self.stock.take(slot);
            }
        }
    }

    fn stock(&self) -> Option<Stock> {
        Some(self.stock.clone())
    }
}

/// A joint-target path as arm calls: each point a [`Motion::Joint`] move to where the
/// kinematics put the tool for it (the driver solves it back to the same angles).
fn joint_steps(
    arm: &hal::arm::ReferenceArm,
    steps: Vec<JointStep<hal::arm::kinematics::ReferenceJoints>>,
) -> Vec<DobotStep> {
    steps
        .into_iter()
        .map(|step| match step {
            JointStep::Move(joints) => DobotStep::Move {
                target: arm.forward(&joints).to_pose(0.0),
                motion: Motion::Joint,
            },
            JointStep::Suction(on) => DobotStep::Suction(on),
            JointStep::AskVisitorToCrown(square) => DobotStep::AskVisitorToCrown(square),
        })
        .collect()
}

/// Each carry of `plan`, where the piece is picked up and where it is put down, in order.
fn carries_of(plan: &Plan) -> Vec<(Spot, Spot)> {
    let spots: Vec<Spot> = plan
        .steps()
        .iter()
        .filter_map(|step| match *step {
            ArmStep::Pick { spot, .. } | ArmStep::Release { spot, .. } => Some(spot),
            _ => None,
        })
        .collect();
    spots
        .chunks_exact(2)
        .map(|pair| (pair[0], pair[1]))
        .collect()
}

impl<A> PlannedArm<A>
where
    A: Arm + Send + 'static,
{
    /// The connected arm. Only called after [`Self::reconnect_if_lost`] succeeded.
    fn connected(&mut self) -> Result<&mut A, ArmFault<A::Error>> {
        self.arm.as_mut().ok_or_else(|| ArmFault::Disconnected {
            attempts: 0,
            last_error: "the link was lost".to_owned(),
        })
    }

    /// Plans `mv` and sends every step, then waits until the arm is done.
    async fn carry_out(&mut self, before: &Position, mv: &Move) -> Result<(), ArmFault<A::Error>> {
        // A plan the board's scan never confirmed (the scan failed) is taken as made.
        self.settle_pending(None);
        let plan = plan_move_with_stock(
            &self.calibration,
            &robot_move(before, mv),
            colour(before.turn()),
            &self.stock,
            CaptureOrder::Shortest,
            self.travel.as_ref(),
        )
        .map_err(ArmFault::Plan)?;
        self.crown_by_hand = plan.visitor_crowns();
        self.run_plan(plan).await
    }

    /// Sends every step of `plan`, then waits until the arm is done; the plan's stock changes
    /// wait for [`PieceMover::confirm`].
    async fn run_plan(&mut self, plan: Plan) -> Result<(), ArmFault<A::Error>> {
        let steps = match self.calibration.arm() {
            ArmModel::Magician(magician) => plan.for_dobot(magician),
            ArmModel::Reference(reference) => {
                let steps = plan
                    .for_joints(reference)
                    .map_err(|(point, why)| ArmFault::Unreachable(point, why))?;
                joint_steps(reference, steps)
            }
        };
        self.pending = Some(plan);
        let arm = self.connected()?;
        for step in steps {
            match step {
                DobotStep::Move { target, motion } => arm.move_to(target, motion).await,
                DobotStep::Suction(on) => arm.set_suction(on).await,
                DobotStep::AskVisitorToCrown(square) => {
                    tracing::info!("no spare king left: the visitor crowns the man on {square:?}");
                    Ok(())
                }
            }
            .map_err(ArmFault::Device)?;
        }
        arm.wait_until_idle().await.map_err(ArmFault::Device)
    }

    async fn park_now(&mut self) -> Result<(), ArmFault<A::Error>> {
        let arm = self.connected()?;
        arm.park().await.map_err(ArmFault::Device)?;
        arm.wait_until_idle().await.map_err(ArmFault::Device)
    }

    /// After a failed call: a lost link is dropped, to be reopened by the next call; otherwise
    /// whatever is left of the plan is stopped before alarms are cleared (a cleared arm would
    /// carry on with its queue and could drop a held piece anywhere).
    async fn recover(&mut self, result: &Result<(), ArmFault<A::Error>>) {
        let Err(ArmFault::Device(err)) = result else {
            return;
        };
        if err.kind() == ErrorKind::Disconnected {
            tracing::debug!("the arm's link is lost: {err}; it is reopened before the next move");
            self.arm = None;
            return;
        }
        if let Some(arm) = &mut self.arm {
            let _ = arm.abort().await;
            let _ = arm.clear_alarms().await;
            // Clearing may have queued putting a held piece back (the board controller's
            // arm does): it is done before the board is read.
            let _ = arm.wait_until_idle().await;
        }
    }

    /// Reopens a lost link, trying until `patience` has passed (at least once).
    async fn reconnect_if_lost(&mut self, patience: Duration) -> Result<(), ArmFault<A::Error>> {
        if self.arm.is_some() {
            return Ok(());
        }
        let Some(reopen) = &mut self.reopen else {
            return Err(ArmFault::Disconnected {
                attempts: 0,
                last_error: "this arm cannot be reopened".to_owned(),
            });
        };
        let started = Instant::now();
        let mut backoff = Backoff::new();
        let mut attempts = 0;
        loop {
            attempts += 1;
            let last_error = match reopen().await {
                Ok(arm) => {
                    self.arm = Some(arm);
                    self.reconnected = Some(attempts);
                    return Ok(());
                }
                Err(err) => format!("{err:#}"),
            };
            tracing::debug!("reopening the arm, attempt {attempts}: {last_error}");
            let wait = backoff.next_wait();
            if started.elapsed() + wait > patience {
                return Err(ArmFault::Disconnected {
                    attempts,
                    last_error,
                });
            }
            tokio::time::sleep(wait).await;
        }
    }
}
