//! One module per subcommand.

pub mod datagen;
pub mod match_games;
pub mod moves;
pub mod perft;
pub mod search;
pub mod selfplay;
pub mod training_record;

use rules::{SquareNotation, Variant};

/// Parses `--variant`, listing the valid names on error.
pub fn parse_variant(name: &str) -> Result<Variant, String> {
    name.parse()
        .map_err(|e: rules::UnknownVariant| e.to_string())
}

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
