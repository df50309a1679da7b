//! What a person watching `checkerbot sim` sees: moves, the board, the face and the lines.

use std::io::Write;

use emotions::{FaceSettings, Frame, Millis};

use crate::robot::{EventContext, Observer};
use host::LogEvent;

/// Reads the rack beside the simulated board: whether each slot holds a piece.
pub type RackView = Box<dyn Fn() -> Vec<bool>>;

/// The terminal view; quiet about faces and boards in a fast run, which nobody watches live.
pub struct Screen {
    out: Box<dyn Write>,
    watched: bool,
    face: FaceSettings,
    rack: Option<RackView>,
}

impl Screen {
    /// A view written to `out`; `watched` shows boards and faces too.
    pub fn new(out: Box<dyn Write>, watched: bool, face: FaceSettings) -> Screen {
        Screen {
            out,
            watched,
            face,
            rack: None,
        }
    }

    /// Shows the rack's contents in a line, with the board and at the end of a game.
    pub fn with_rack(mut self, rack: RackView) -> Screen {
        self.rack = Some(rack);
        self
    }

    /// The rack as a line: `rack: 5 of 32 slots hold a piece ●●●●●···...`.
    fn rack_line(&mut self) {
        let Some(rack) = &self.rack else {
            return;
        };
        let slots = rack();
        if slots.is_empty() {
            return;
        }
        let full = slots.iter().filter(|&&held| held).count();
        let picture: String = slots
            .iter()
            .map(|&held| if held { '●' } else { '·' })
            .collect();
        self.line(&format!(
            "rack: {full} of {} slots hold a piece {picture}",
            slots.len()
        ));
    }

    /// Writes one line.
    pub fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }
}

impl Observer for Screen {
    fn event(
        &mut self,
        _now: Millis,
        event: &LogEvent,
        view: EventContext<'_>,
    ) -> anyhow::Result<()> {
        match event {
            LogEvent::VisitorMove { mv } => self.line(&format!("visitor plays {mv}")),
            LogEvent::RobotMove { mv, v, .. } => {
                self.line(&format!("robot plays {mv} (win probability {v:.2})"));
            }
            LogEvent::ArmDone if self.watched => {
                self.line(&format!("{}", view.host.game().position()));
                self.rack_line();
                self.line("");
            }
            LogEvent::Expression { emotion, intensity } => {
                if let Some(face) = view.face.filter(|_| self.watched) {
                    // Shown with the eyes open, whatever the blink timing.
                    let open = emotions::FaceState {
                        eyes_closed: false,
                        ..*face
                    };
                    let preview = Frame::render(&open, &self.face).preview();
                    self.line(&format!("face: {emotion} {intensity:.1}\n{preview}"));
                }
            }
            LogEvent::GameStarted { robot, game, .. } => {
                self.line(&format!("game {game}: the robot plays {robot}"));
            }
            LogEvent::GameOver { result, reason, .. } => {
                self.line(&format!("game over: {result} ({reason})"));
                self.rack_line();
            }
            LogEvent::ButtonHeld => self.line("visitor holds the button (a hint?)"),
            LogEvent::Advice {
                kind: host::AdviceKind::TakeBack,
                mv,
                ..
            } => self.line(&format!("visitor takes back {mv}")),
            LogEvent::Fault { device, message } => {
                self.line(&format!("fault ({}): {message}", device.as_str()));
            }
            LogEvent::BoardLights { lights } if lights.is_empty() => self.line("lights: off"),
            LogEvent::BoardLights { lights } => {
                let lit: Vec<String> = lights
                    .iter()
                    .map(|lit| {
                        let (colour, mode) = (lit.colour.as_str(), lit.mode.as_str());
                        format!("{} {colour} {mode}", lit.square)
                    })
                    .collect();
                self.line(&format!("lights: {}", lit.join(", ")));
            }
            _ => {}
        }
        Ok(())
    }

    fn spoke(&mut self, text: &str) {
        self.line(&format!("robot says: {text}"));
    }
}
