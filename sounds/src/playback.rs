//! What became of a line handed to the speaker.

use crate::line::Line;

/// A report from the speaker, in the order things happened. The host may log these or ignore
/// them: the speaker drops reports nobody reads rather than pile them up.
#[derive(Debug, Clone, PartialEq)]
pub enum Playback {
    /// The line's audio started playing.
    Started(Line),
    /// The line's audio played to its end.
    Finished(Line),
    /// The line was waiting behind a playing one and another line took its place.
    Replaced(Line),
    /// There is no audio output: the line was not played (the event log still shows it).
    Silent(Line),
    /// The line's audio file could not be opened or decoded, so nothing was played.
    Failed {
        /// The line.
        line: Line,
        /// Why, for the log.
        error: String,
    },
}
