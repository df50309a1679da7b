//! A Dobot that makes draughts moves: the calibration says where the squares are, the planner
//! orders the picks and places, and the driver sends them.

use std::fmt;

use engine::{Move, Position, Role};
use hal::arm::{
    ArmModel, BoardSquare, Calibration, CaptureOrder, DobotStep, KingReserve, Magician, PieceKind,
    PlanError, RobotMove, plan_move,
};
use hal::device::Arm;

use super::PieceMover;

/// Why a move was not made.
#[derive(Debug)]
pub enum ArmFault<E> {
    /// The calibration cannot serve the move (an unreachable square, no bin).
    Plan(PlanError),
    /// The arm failed.
    Device(E),
}

impl<E: fmt::Display> fmt::Display for ArmFault<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArmFault::Plan(err) => write!(f, "cannot plan the move: {err}"),
            ArmFault::Device(err) => err.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ArmFault<E> {}

/// A Dobot Magician driven through a calibration.
#[derive(Debug)]
pub struct PlannedArm<A> {
    arm: A,
    calibration: Calibration,
    magician: Magician,
    reserve: KingReserve,
}

impl<A> PlannedArm<A> {
    /// An arm over `calibration`, with every spare-king slot full.
    pub fn new(arm: A, calibration: Calibration) -> PlannedArm<A> {
        let magician = match calibration.arm() {
            ArmModel::Magician(magician) => *magician,
            // A reference arm's controller takes joint targets, not Dobot poses; its driver
            // is not written yet, so a Dobot with default dimensions stands in.
            ArmModel::Reference(_) => Magician::default(),
        };
        let reserve = KingReserve::full(calibration.king_slots().len());
        PlannedArm {
            arm,
            calibration,
            magician,
            reserve,
        }
    }
}

/// The planner's view of an engine move: squares as (row, column), and what stands where.
pub fn robot_move(before: &Position, mv: &Move) -> RobotMove {
    let geometry = before.variant().geometry();
    let square = |sq| {
        let (row, col) = geometry.coords(sq);
        BoardSquare::new(row as u8, col as u8)
    };
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
        let result = self.carry_out(before, mv).await;
        if let Err(ArmFault::Device(_)) = &result {
            // Stop whatever is left of the plan before clearing alarms: a cleared arm would
            // carry on with its queue and could drop a held piece anywhere.
            let _ = self.arm.abort().await;
            let _ = self.arm.clear_alarms().await;
        }
        result
    }

    async fn park(&mut self) -> Result<(), Self::Error> {
        self.arm.park().await.map_err(ArmFault::Device)?;
        self.arm.wait_until_idle().await.map_err(ArmFault::Device)
    }
}

impl<A> PlannedArm<A>
where
    A: Arm + Send + 'static,
{
    /// Plans `mv` and sends every step, then waits until the arm is done.
    async fn carry_out(&mut self, before: &Position, mv: &Move) -> Result<(), ArmFault<A::Error>> {
        let plan = plan_move(
            &self.calibration,
            &robot_move(before, mv),
            &self.reserve,
            CaptureOrder::Shortest,
        )
        .map_err(ArmFault::Plan)?;
        for step in plan.for_dobot(&self.magician) {
            match step {
                DobotStep::Move { target, motion } => self.arm.move_to(target, motion).await,
                DobotStep::Suction(on) => self.arm.set_suction(on).await,
                DobotStep::AskVisitorToCrown(square) => {
                    tracing::info!("no spare king left: the visitor crowns the man on {square:?}");
                    Ok(())
                }
            }
            .map_err(ArmFault::Device)?;
        }
        self.arm.wait_until_idle().await.map_err(ArmFault::Device)?;
        if plan.king_slot().is_some() {
            self.reserve.take();
        }
        Ok(())
    }
}
