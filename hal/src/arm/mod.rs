//! The arm's side of a robot move: where the board is, how the arm reaches it, and in which
//! order to carry the pieces.
//!
//! Everything here is pure computation, testable without an arm: the daemon loads a
//! [`Calibration`] from its file, builds a [`RobotMove`] from the engine's move, asks
//! [`plan_move`] for a [`Plan`], and hands the plan's steps to the arm driver
//! ([`Plan::for_dobot`] for a Dobot Magician, [`Plan::for_joints`] for a controller that takes
//! joint angles, like the reference robot's).
//!
//! - [`calibration`]: the TOML file and its validation; [`board`]: the corners and the
//!   interpolated square centres; [`square`] and [`point`]: the values they use.
//! - [`kinematics`]: forward and inverse kinematics and joint limits of both arms.
//! - [`reserve`]: the count of spare kings; [`rack`]: the calibrated grid of slots where
//!   captured pieces wait; [`stock`]: what each rack and reserve slot holds ([`slot`]: the
//!   slots and a plan's changes to them); [`piece`]: men
//!   and kings of each colour.
//! - [`planner`]: from a move to a plan; `tour`: the errand order with the least travel
//!   time; [`plan`]: the plan, its path, duration and controller forms.
//! - [`reset`]: from any arrangement of the board and the stock to a target position (the
//!   next game's start, or any position to set up); `reset_order`: its carries in the order
//!   with the least travel.
//! - [`travel`]: the time estimate both orders minimise, a trait: [`motion`]'s Cartesian
//!   model for the Dobot, [`joint_motion`]'s joint-space model for a controller that turns
//!   each joint at its own speed (the reference robot's).
//!
//! Squares are (row, column) pairs rather than `rules::Square`s: like
//! [`Occupancy`](crate::Occupancy), the hardware layer knows nothing of the rules, so a change
//! to the engine never touches the arm, and the daemon, which knows both, converts.

pub mod board;
pub mod calibration;
pub mod joint_motion;
pub mod kinematics;
pub mod motion;
pub mod piece;
pub mod plan;
pub mod planner;
pub mod point;
pub mod rack;
pub mod reserve;
pub mod reset;
mod reset_order;
pub mod slot;
pub mod square;
pub mod stock;
mod tour;
pub mod travel;

pub use board::{BoardCorners, BoardShapeError, Corner};
pub use calibration::{
    Calibration, CalibrationError, CalibrationFile, FORMAT_VERSION, PieceHeights, PieceKind,
    UnreachablePoint,
};
pub use joint_motion::{JointSpaceModel, JointSpeeds};
pub use kinematics::{ArmModel, Kinematics, Magician, ReferenceArm, Unreachable};
pub use motion::MotionModel;
pub use piece::{Piece, PieceColour};
pub use plan::{ArmStep, DobotStep, JointStep, Plan, Segment, Spot};
pub use planner::{CaptureOrder, PlanError, RobotMove, plan_move, plan_move_with_stock};
pub use point::Point;
pub use rack::{RackError, RackGrid, RackSection};
pub use reserve::KingReserve;
pub use reset::{
    Carry, Layout, ResetError, ResetOrder, ResetOutcome, ResetPlan, plan_carries, plan_reset,
};
pub use slot::{Slot, StockChange};
pub use square::BoardSquare;
pub use stock::{Stock, StockError};
pub use travel::TravelTime;
