//! Who watches the robot: the JSON-lines event log, the terminal of `checkerbot sim`, the
//! operator page. They are called in order from the game loop, so nothing is lost or
//! reordered.

use std::io::Write;

use anyhow::Context as _;
use emotions::Millis;
use serde_json::json;

use crate::state::GameNow;
use host::{Host, LogEvent};

/// What an observer may look at besides the event.
#[derive(Debug, Clone, Copy)]
pub struct EventContext<'a> {
    /// The game host, after the event.
    pub host: &'a Host,
    /// The face shown now.
    pub face: Option<&'a emotions::FaceState>,
    /// The game the event belongs to, for counting.
    pub game: GameNow<'a>,
}

/// Something that follows the robot's events.
pub trait Observer {
    /// An event, at `now` since start.
    fn event(
        &mut self,
        now: Millis,
        event: &LogEvent,
        view: EventContext<'_>,
    ) -> anyhow::Result<()>;

    /// The robot said `text` (its line, then any explanation with the squares).
    fn spoke(&mut self, _text: &str) {}
}

/// The JSON-lines event log (`--events`): one object per event with `type` and `t`.
pub struct EventLog {
    out: Box<dyn Write>,
}

impl EventLog {
    /// A log written to `out`, flushed after every event so a crash loses nothing written.
    pub fn new(out: Box<dyn Write>) -> EventLog {
        EventLog { out }
    }
}

impl Observer for EventLog {
    fn event(&mut self, now: Millis, event: &LogEvent, _: EventContext<'_>) -> anyhow::Result<()> {
        let mut value = serde_json::to_value(event)?;
        value["t"] = json!(now.0);
        serde_json::to_writer(&mut self.out, &value)?;
        self.out.write_all(b"\n")?;
        self.out.flush().context("writing the event log")
    }
}
