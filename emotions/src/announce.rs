//! Whether the robot says its own move aloud.

use serde::{Deserialize, Serialize};

use crate::attitude::Attitude;

/// When the robot says the move its arm just made ("I moved from square c5 to square d4 and
/// took your piece on square e3"), for a visitor who did not watch the arm.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnounceMoves {
    /// When the attitude is friendly: a friend helps the visitor follow the game; a rival
    /// keeps them guessing.
    #[default]
    Friendly,
    /// After every move of the robot's.
    Always,
    /// Never.
    Never,
}

impl AnnounceMoves {
    /// The name in the settings file and the event log.
    pub const fn as_str(self) -> &'static str {
        match self {
            AnnounceMoves::Friendly => "friendly",
            AnnounceMoves::Always => "always",
            AnnounceMoves::Never => "never",
        }
    }

    /// Whether a robot with `attitude` says its moves.
    pub fn applies(self, attitude: Attitude) -> bool {
        match self {
            AnnounceMoves::Friendly => attitude == Attitude::Friendly,
            AnnounceMoves::Always => true,
            AnnounceMoves::Never => false,
        }
    }
}
