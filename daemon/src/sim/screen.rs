//! What a person watching `checkerbot sim` sees: moves, the board, the face and the lines.

use std::io::Write;

use emotions::{FaceSettings, Frame, Millis};

use crate::robot::{EventContext, Observer};
use host::LogEvent;

/// The terminal view; quiet about faces and boards in a fast run, which nobody watches live.
pub struct Screen {
    out: Box<dyn Write>,
    watched: bool,
    face: FaceSettings,
}

impl Screen {
    /// A view written to `out`; `watched` shows boards and faces too.
    pub fn new(out: Box<dyn Write>, watched: bool, face: FaceSettings) -> Screen {
        Screen { out, watched, face }
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
                self.line(&format!("{}\n", view.host.game().position()));
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
