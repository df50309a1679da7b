//! The engine-to-planner move conversion the planner tests and its benchmark share (the daemon
//! has its own: `hal` does not depend on the rules).

use hal::arm::{BoardSquare, PieceKind, RobotMove};
use rules::{Position, Role};

/// The move as the daemon hands it to the planner.
pub fn robot_move(position: &Position, mv: &rules::Move) -> RobotMove {
    let geometry = position.variant().geometry();
    let square = |sq| {
        let (row, col) = geometry.coords(sq);
        BoardSquare::new(row as u8, col as u8)
    };
    let kind = |sq| match position.piece_at(sq).expect("a piece stands there").role {
        Role::Man => PieceKind::Man,
        Role::King => PieceKind::King,
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
