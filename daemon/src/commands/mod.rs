//! The rules engine's two commands of the command-line contract: `perft` and `moves`. (The
//! training and measurement commands are the lab's: `daemon/lab`, binary `checkerbot-lab`.)

pub mod moves;
pub mod perft;

use rules::SquareNotation;

/// Square notation chosen on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum NotationArg {
    /// a1..h8 (any board).
    Algebraic,
    /// 1..N from the top-left dark square.
    Numeric,
}

impl From<NotationArg> for SquareNotation {
    fn from(arg: NotationArg) -> SquareNotation {
        match arg {
            NotationArg::Algebraic => SquareNotation::Algebraic,
            NotationArg::Numeric => SquareNotation::Numeric,
        }
    }
}
