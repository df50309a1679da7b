//! The character the operator chooses for the robot.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How the robot relates to the visitor: the reference robot's "positive" and "negative"
/// settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attitude {
    /// A good-natured friend: sympathises, praises the visitor's strong moves, is sad rather than
    /// angry when things go badly, and surprised rather than offended by a rule break.
    #[default]
    Friendly,
    /// A theatrical rival: gloats, grumbles, is angry when losing and disgusted by a rule break.
    Rival,
}

impl Attitude {
    /// The name used in settings, the event log and voice packs.
    pub fn as_str(self) -> &'static str {
        match self {
            Attitude::Friendly => "friendly",
            Attitude::Rival => "rival",
        }
    }
}

/// An attitude name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected friendly or rival")]
pub struct UnknownAttitude(pub String);

impl FromStr for Attitude {
    type Err = UnknownAttitude;

    /// Reads an attitude by its name (`rival`).
    fn from_str(name: &str) -> Result<Attitude, UnknownAttitude> {
        [Attitude::Friendly, Attitude::Rival]
            .into_iter()
            .find(|a| a.as_str() == name)
            .ok_or_else(|| UnknownAttitude(name.to_owned()))
    }
}

impl fmt::Display for Attitude {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
