//! checkerbot's hardware layer: what the daemon needs to drive the robot's devices without
//! knowing whether they are real or simulated.
//!
//! - [`arm`]: calibration of the board under the arm, kinematics, and pick-and-place plans.
//! - [`device`]: one trait per device ([`Arm`](device::Arm),
//!   [`BoardSensor`](device::BoardSensor), [`BoardLights`](device::BoardLights),
//!   [`Face`](device::Face)) and the values they exchange.
//! - [`Error`], [`ErrorKind`], [`ErrorType`]: the error contract every driver follows.
//! - [`Occupancy`]: one scan of the board's Hall sensors.
//! - [`controller`]: the protocol of the board/face/arm controller (`docs/protocol.md`).
//! - [`debounce`]: when a run of sensor reads counts as the board's state.
//! - [`dobot`]: the Dobot Magician's serial protocol, and [`DobotArm`](dobot::DobotArm), its
//!   [`Arm`](device::Arm) driver over any byte stream (retries, resynchronisation, queue flow
//!   control and recovery).
//! - [`sim`]: simulated devices speaking the real protocols (a board controller; a Dobot whose
//!   queue runs over time and whose suction cup moves the simulated board's pieces), and fault
//!   injection.
#![warn(missing_docs)]

pub mod arm;
pub mod controller;
pub mod debounce;
pub mod device;
pub mod dobot;
mod error;
mod occupancy;
pub mod sim;

pub use error::{Error, ErrorKind, ErrorType};
pub use occupancy::{BoardSize, Occupancy, SquareOutOfRange};
