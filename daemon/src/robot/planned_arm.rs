//! A Dobot that makes draughts moves: the calibration says where the squares are, the planner
//! orders the picks and places, and the driver sends them.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use hal::arm::{
    ArmModel, BoardSquare, Calibration, CaptureOrder, DobotStep, KingReserve, Magician, PieceKind,
    PlanError, RobotMove, plan_move,
};
use hal::device::Arm;
use hal::{Error as _, ErrorKind};
use rules::{Move, Position, Role};
use tokio::time::Instant;

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

/// A Dobot Magician driven through a calibration, reopened when its link is lost.
pub struct PlannedArm<A> {
    /// `None` while the link is lost.
    arm: Option<A>,
    reopen: Option<ReopenArm<A>>,
    patience: Duration,
    /// Attempts of a reconnection the loop has not reported yet.
    reconnected: Option<u32>,
    calibration: Calibration,
    magician: Magician,
    reserve: KingReserve,
}

impl<A> fmt::Debug for PlannedArm<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlannedArm")
            .field("connected", &self.arm.is_some())
            .field("reserve", &self.reserve)
            .finish_non_exhaustive()
    }
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
            arm: Some(arm),
            reopen: None,
            patience: ARM_RECONNECT_PATIENCE,
            reconnected: None,
            calibration,
            magician,
            reserve,
        }
    }

    /// Reopens the arm with `reopen` when its link is lost, trying for up to `patience` per
    /// move (with [`Backoff`] between attempts).
    pub fn reconnect_with(mut self, reopen: ReopenArm<A>, patience: Duration) -> PlannedArm<A> {
        self.reopen = Some(reopen);
        self.patience = patience;
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
        let plan = plan_move(
            &self.calibration,
            &robot_move(before, mv),
            &self.reserve,
            CaptureOrder::Shortest,
        )
        .map_err(ArmFault::Plan)?;
        let steps = plan.for_dobot(&self.magician);
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
        arm.wait_until_idle().await.map_err(ArmFault::Device)?;
        if plan.king_slot().is_some() {
            self.reserve.take();
        }
        Ok(())
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
