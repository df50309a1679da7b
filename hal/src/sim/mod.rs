//! Simulated devices that speak the real protocols, so the daemon's drivers are tested on the
//! same bytes a firmware sends, over an in-memory pipe or a pseudo-terminal.
//!
//! - [`board`]: a board controller with Hall sensors, buttons and a face, set by the test through
//!   a [`SimBoardHandle`](board::SimBoardHandle).
//! - [`controller_arm`]: the board controller's own arm (the reference robot's), added with
//!   [`SimBoardHandle::add_arm`](board::SimBoardHandle::add_arm): joints at configured speeds,
//!   a suction cup that moves the board's pieces, seeded failed picks, stalls and late
//!   `MotionDone`s.
//! - [`dobot`]: a virtual Dobot Magician whose command queue runs over time and whose suction
//!   cup moves the pieces of a simulated board, with seeded faults (failed picks, late and
//!   dropped replies, alarms mid-move).
//! - [`layout`]: where the board's squares, the rack, the bin and the reserve lie under an arm,
//!   for both simulated arms.
//! - [`faulty_io`]: a byte stream wrapper that drops and corrupts bytes with a seeded generator,
//!   so fault tests replay exactly.

pub mod board;
pub mod controller_arm;
pub mod dobot;
pub mod faulty_io;
pub mod layout;
