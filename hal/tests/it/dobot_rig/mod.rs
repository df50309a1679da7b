//! The board, squares and pick-and-place the Dobot tests share (over an in-memory stream and
//! over a pty pair).
#![allow(dead_code, reason = "each test file uses its own part of the rig")]

use hal::controller::peer::PeerConfig;
use hal::device::{Arm, Motion, Pose};
use hal::sim::board::{SimBoardHandle, sim_board};
use hal::sim::dobot::SimBoardLayout;
use hal::{BoardSize, Occupancy};
use tokio::io::duplex;

pub const C3: usize = 9;
pub const D4: usize = 13;
pub const E5: usize = 18;

/// a1 in front of the arm, 25 mm squares: the board spans x 150..325, y 87.5..-87.5.
pub fn layout() -> SimBoardLayout {
    SimBoardLayout::new(
        BoardSize::Squares32,
        Pose {
            x: 150.0,
            y: 87.5,
            z: -40.0,
            r: 0.0,
        },
        25.0,
    )
}

pub fn square(square: usize) -> Pose {
    layout()
        .square_pose(square)
        .expect("the square is on the board")
}

/// A simulated board holding pieces on `squares`; its controller link is not needed here.
pub fn board(squares: &[usize]) -> SimBoardHandle {
    let occupancy = Occupancy::from_squares(BoardSize::Squares32, squares.iter().copied()).unwrap();
    let (io, _unused) = duplex(64);
    sim_board(io, occupancy, PeerConfig::default()).0
}

pub fn occupied(board: &SimBoardHandle) -> Vec<usize> {
    (0..32)
        .filter(|&square| board.occupancy().is_occupied(square))
        .collect()
}

/// Queues picking the piece at `from` and putting it down at `to`.
pub async fn carry<A: Arm>(arm: &mut A, from: Pose, to: Pose) -> Result<(), A::Error> {
    arm.move_to(from, Motion::Jump).await?;
    arm.set_suction(true).await?;
    arm.move_to(to, Motion::Jump).await?;
    arm.set_suction(false).await
}
