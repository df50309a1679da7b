//! The devices of the robot as traits, so the daemon drives real hardware and simulators through
//! the same calls.
//!
//! The style follows `embedded-hal`: one small trait per device, each method one physical action,
//! and the error type named once in [`ErrorType`](crate::ErrorType) with a shared
//! [`ErrorKind`](crate::ErrorKind) the daemon can react to without knowing the driver.
//!
//! # Async methods and `Send`
//!
//! Methods are `async` (every action waits on a serial link), and their futures are declared
//! `Send`: the trait says `fn home(&mut self) -> impl Future<Output = ...> + Send`, while an
//! implementation simply writes `async fn home(&mut self)`. The daemon runs on tokio's
//! multi-threaded runtime and is generic over the device (real or simulated), and a plain
//! `async fn` in a trait leaves the future's `Send`-ness unknown to generic code, so a task that
//! awaits it could not be spawned. The cost is that an implementation cannot hold an `Rc` or a
//! `RefCell` borrow across an `.await`; no driver needs to. The traits are not object safe; the
//! daemon picks the device types at start-up and is generic over them.
//!
//! # Cancellation
//!
//! The daemon awaits devices inside `tokio::select!`, which drops the losing futures. Methods
//! that only wait for an event ([`BoardSensor::next_press`]) must lose nothing when dropped.
//! Commands may be interrupted; the device is then in an unknown state until the next command
//! completes, as after a timeout.

mod arm;
mod board_lights;
mod board_sensor;
mod face;

pub use arm::{Arm, ArmAlarms, Motion, Pose};
pub use board_lights::{BoardLights, Light, LightColour, LightMode, SquareLights};
pub use board_sensor::{BoardSensor, ButtonId, ButtonPress, PressKind};
pub use face::{BrowAngles, EyeFrame, Eyes, Face, NeckPose, ServoAngle};
