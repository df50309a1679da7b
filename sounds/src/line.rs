//! One phrasing of a voice line.

use std::path::PathBuf;

use emotions::{Attitude, Category, Mistake};
use serde::{Deserialize, Serialize};

use emotions::Language;

/// Which attitude a phrasing suits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LineAttitude {
    /// Only the good-natured friend says it.
    Friendly,
    /// Only the theatrical rival says it.
    Rival,
    /// Neutral enough for either, so a pack need not write it twice.
    Any,
}

impl LineAttitude {
    /// Whether a robot with `attitude` may say a line marked with this.
    pub fn fits(self, attitude: Attitude) -> bool {
        match self {
            LineAttitude::Any => true,
            LineAttitude::Friendly => attitude == Attitude::Friendly,
            LineAttitude::Rival => attitude == Attitude::Rival,
        }
    }
}

/// A phrasing the robot can say: what the event log shows and the file the speaker plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// Unique within its language's pack; the same id in every pack names the same phrase,
    /// and it names an operator's recording that replaces the generated audio.
    pub id: String,
    /// The language it is spoken in.
    pub language: Language,
    /// The kind of line.
    pub category: Category,
    /// Which robot says it.
    pub attitude: LineAttitude,
    /// The only reason this line explains, when it names one; a line without a reason serves
    /// any request of its category.
    pub mistake: Option<Mistake>,
    /// What is said, for the event log and the simulator.
    pub text: String,
    /// The audio file, resolved against the directory of the index that named it.
    pub audio: PathBuf,
}
