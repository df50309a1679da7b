//! A Hub engine (Scan's protocol, version 2; `checkerbot hub`) as a child process.
//!
//! Each move: the engine is started if it is not running (or plays another variant): `hub`,
//! answered by `param` lines and `wait`; `set-param name=variant` when it is not
//! International; `init`, answered by `ready`. Then, as a Hub GUI does and as `checkerbot hub`
//! expects, `pos` (the position after the last capture or man move, and the moves since, so
//! that the engine sees repetitions), `level move-time=S` and `go think`, and the engine's
//! `done move=M` is read back against the position.
//!
//! Time: a reader thread hands the engine's lines over a channel, and the caller's thread
//! waits on it with a deadline: the move time and a [`grace`](crate::grace) after it. When the
//! caller raises its stop flag, `stop` is sent and the engine has the grace from then. An
//! engine that misses the deadline is killed; one that dies, hangs or answers badly is started
//! again at the next move. Its standard error is not read (it is the engine's own business).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use checkerbot_config::EngineSpec;
use engine_protocols::hub::board_text::{parse_move, write_move, write_position};
use engine_protocols::hub::message::{Command, GoMode, Level, Reply, parse_reply};
use player::{EngineFault, ExternalEngine, FaultKind};
use rules::{Move, Position, Variant};

use crate::grace;

/// How long the engine may take to answer `hub` with `wait`, and `init` with `ready`: loading
/// an evaluation or a book takes Scan a second or two.
pub const GREETING_TIME: Duration = Duration::from_secs(10);

/// The longest line read from an engine; a longer one is a protocol fault, so that output
/// without line ends cannot fill the memory.
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// The engine's lines held for the client: beyond them the reader waits, and so does an
/// engine that writes without end between two searches.
const HELD_LINES: usize = 256;

/// How often a wait looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

/// An engine behind the Hub protocol, started at its first move.
#[derive(Debug)]
pub struct HubEngine {
    name: String,
    command: Vec<String>,
    move_time: Duration,
    running: Option<Running>,
}

/// One line from the engine, or why there are no more.
enum Line {
    Text(String),
    TooLong,
}

/// The engine's process while it runs.
struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Line>,
    variant: Variant,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Running")
            .field("pid", &self.child.id())
            .field("variant", &self.variant)
            .finish_non_exhaustive()
    }
}

impl Drop for Running {
    /// Says `quit`, gives the engine a moment, then kills it: no engine outlives its client.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "{}", Command::Quit);
        let _ = self.input.flush();
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Why a wait for a line ended without one.
enum Silence {
    /// The engine closed its output (it ended).
    Closed,
    /// The deadline passed.
    Timeout,
}

impl HubEngine {
    /// The engine `spec` names (a `hub:` one), asked for moves of `move_time` each.
    ///
    /// # Panics
    ///
    /// When `spec` is not a `hub:` engine: [`crate::start`] chooses the client by its kind.
    pub fn new(spec: &EngineSpec, move_time: Duration) -> HubEngine {
        let EngineSpec::Hub { command } = spec else {
            panic!("a Hub engine from {spec}, which names another protocol");
        };
        HubEngine {
            name: spec.program_name(),
            command: command.clone(),
            move_time,
            running: None,
        }
    }

    /// Starts the engine for `variant`, greets it and ends it; its `id` as `name version`.
    pub fn greet(mut self, variant: Variant) -> Result<String, EngineFault> {
        let id = self.start(variant)?;
        self.running = None;
        Ok(id)
    }

    fn fault(&self, kind: FaultKind, detail: impl Into<String>) -> EngineFault {
        EngineFault {
            engine: self.name.clone(),
            kind,
            detail: detail.into(),
        }
    }

    /// Starts the process and greets it, as the engine for `variant`; its `id`.
    fn start(&mut self, variant: Variant) -> Result<String, EngineFault> {
        self.running = None;
        let (program, arguments) = self
            .command
            .split_first()
            .expect("a command is never empty");
        let mut child = Process::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| self.fault(FaultKind::Start, format!("{program}: {error}")))?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::sync_channel(HELD_LINES);
        std::thread::Builder::new()
            .name(format!("{} output", self.name))
            .spawn(move || {
                let mut output = BufReader::new(output);
                loop {
                    let mut line = Vec::new();
                    let read = (&mut output)
                        .take(MAX_LINE_BYTES + 1)
                        .read_until(b'\n', &mut line);
                    let message = match read {
                        Ok(0) | Err(_) => return,
                        Ok(_)
                            if line.last() != Some(&b'\n')
                                && line.len() as u64 > MAX_LINE_BYTES =>
                        {
                            Line::TooLong
                        }
                        Ok(_) => Line::Text(String::from_utf8_lossy(&line).trim_end().to_owned()),
                    };
                    let last = matches!(message, Line::TooLong);
                    if sender.send(message).is_err() || last {
                        return;
                    }
                }
            })
            .map_err(|error| self.fault(FaultKind::Start, format!("a reader thread: {error}")))?;
        self.running = Some(Running {
            child,
            input,
            lines,
            variant,
        });
        let result = self.greeting(variant);
        if result.is_err() {
            self.running = None;
        }
        result
    }

    /// `hub` ... `wait`, the variant, `init` ... `ready`.
    fn greeting(&mut self, variant: Variant) -> Result<String, EngineFault> {
        let deadline = Instant::now() + GREETING_TIME;
        self.send(&Command::Hub)?;
        let mut id = String::new();
        let mut variants: Option<Vec<String>> = None;
        loop {
            match self.reply(deadline, "wait")? {
                Reply::Wait => break,
                Reply::Id { name, version, .. } => id = format!("{name} {version}"),
                Reply::EnumParam { name, values, .. } if name == "variant" => {
                    variants = Some(values);
                }
                _ => {}
            }
        }
        // Scan calls International `normal`; an engine without the parameter plays only it.
        let offered = variants.unwrap_or_else(|| vec!["normal".to_owned()]);
        let wanted = [
            variant.name(),
            if variant == Variant::International {
                "normal"
            } else {
                ""
            },
        ];
        let Some(value) = offered.iter().find(|v| wanted.contains(&v.as_str())) else {
            return Err(self.fault(
                FaultKind::Start,
                format!(
                    "it does not play {variant} (its variants: {})",
                    offered.join(" ")
                ),
            ));
        };
        if variant != Variant::International || value != "normal" {
            self.send(&Command::SetParam {
                name: "variant".to_owned(),
                value: value.clone(),
            })?;
        }
        self.send(&Command::Init)?;
        while self.reply(deadline, "ready")? != Reply::Ready {}
        Ok(id.trim().to_owned())
    }

    /// Writes one command.
    fn send(&mut self, command: &Command) -> Result<(), EngineFault> {
        let running = self.running.as_mut().expect("the engine runs");
        let written = writeln!(running.input, "{command}").and_then(|()| running.input.flush());
        written.map_err(|error| self.died(&format!("writing {command}: {error}")))
    }

    /// The next reply before `deadline` (`awaited`: what the wait is for, for the fault).
    /// Lines that are not replies are skipped, as a GUI does; an `error` line is logged.
    fn reply(&mut self, deadline: Instant, awaited: &str) -> Result<Reply, EngineFault> {
        loop {
            match self.line(deadline, None) {
                Ok(text) => match parse_reply(&text) {
                    Ok(Reply::Error(message)) => {
                        tracing::debug!("{} said: error {message}", self.name);
                    }
                    Ok(reply) => return Ok(reply),
                    Err(error) => tracing::debug!("{} said {text:?} ({error})", self.name),
                },
                Err(Some(Silence::Closed)) => {
                    return Err(self.died(&format!("before it answered {awaited}")));
                }
                Err(None) => {
                    self.running = None;
                    return Err(self.fault(
                        FaultKind::Protocol,
                        format!("a line longer than {MAX_LINE_BYTES} bytes"),
                    ));
                }
                Err(Some(Silence::Timeout)) => {
                    let waited = GREETING_TIME.as_secs();
                    return Err(
                        self.fault(FaultKind::Start, format!("no {awaited} within {waited} s"))
                    );
                }
            }
        }
    }

    /// The next line before `deadline`; with `stop`, `stop` is sent when the flag rises, and
    /// the deadline comes a grace after it at the latest. `Err(None)`: a line too long.
    fn line(
        &mut self,
        mut deadline: Instant,
        mut stop: Option<&AtomicBool>,
    ) -> Result<String, Option<Silence>> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Some(Silence::Timeout));
            }
            if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                stop = None;
                deadline = deadline.min(now + grace(self.move_time));
                if self.send(&Command::Stop).is_err() {
                    return Err(Some(Silence::Closed));
                }
            }
            let wait = (deadline - now).min(STOP_POLL);
            let running = self.running.as_ref().expect("the engine runs");
            match running.lines.recv_timeout(wait) {
                Ok(Line::Text(text)) => return Ok(text),
                Ok(Line::TooLong) => return Err(None),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(Some(Silence::Closed)),
            }
        }
    }

    /// A fault for an engine that ended, with its exit status when it has one; the process is
    /// dropped, so the next move starts it again.
    fn died(&mut self, when: &str) -> EngineFault {
        let status = self.running.as_mut().and_then(|running| {
            // A process whose output closed has ended, or is about to.
            let until = Instant::now() + Duration::from_millis(500);
            loop {
                match running.child.try_wait() {
                    Ok(Some(status)) => return Some(status.to_string()),
                    Ok(None) if Instant::now() < until => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    _ => return None,
                }
            }
        });
        self.running = None;
        let detail = match status {
            Some(status) => format!("{status}, {when}"),
            None => when.to_owned(),
        };
        self.fault(FaultKind::Died, detail)
    }

    /// One search: `pos`, `level`, `go think`, and the `done`.
    fn search(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Result<Move, EngineFault> {
        let (start, moves) = game_since(position, history);
        self.send(&Command::Pos {
            position: Some(write_position(&start)),
            moves,
        })?;
        self.send(&Command::Level(Level {
            move_time: Some(self.move_time.as_secs_f64()),
            ..Level::default()
        }))?;
        self.send(&Command::Go(GoMode::Think))?;
        let deadline = Instant::now() + self.move_time + grace(self.move_time);
        let mut said = None;
        loop {
            let text = match self.line(deadline, Some(stop)) {
                Ok(text) => text,
                Err(Some(Silence::Closed)) => return Err(self.died("during its search")),
                Err(Some(Silence::Timeout)) => {
                    self.running = None;
                    let waited = (self.move_time + grace(self.move_time)).as_secs_f64();
                    return Err(self.fault(
                        FaultKind::Hung,
                        format!("no move within {waited:.1} s; stopped"),
                    ));
                }
                Err(None) => {
                    self.running = None;
                    return Err(self.fault(
                        FaultKind::Protocol,
                        format!("a line longer than {MAX_LINE_BYTES} bytes"),
                    ));
                }
            };
            match parse_reply(&text) {
                Ok(Reply::Done { mv: Some(mv), .. }) => {
                    return parse_move(position, &mv).map_err(|error| {
                        self.fault(FaultKind::IllegalMove, format!("done move={mv}: {error}"))
                    });
                }
                Ok(Reply::Done { mv: None, .. }) => {
                    let why = said.map_or_else(String::new, |m| format!(" after error {m:?}"));
                    return Err(
                        self.fault(FaultKind::Protocol, format!("done without a move{why}"))
                    );
                }
                Ok(Reply::Error(message)) => {
                    tracing::debug!("{} said: error {message}", self.name);
                    said = Some(message);
                }
                Ok(_) => {}
                Err(error) => tracing::debug!("{} said {text:?} ({error})", self.name),
            }
        }
    }
}

impl ExternalEngine for HubEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        let command = EngineSpec::Hub {
            command: self.command.clone(),
        };
        format!("{command}, {} ms a move", self.move_time.as_millis())
    }

    fn choose(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Result<Move, EngineFault> {
        let variant = position.variant();
        if let Some(running) = &mut self.running
            && let Ok(Some(status)) = running.child.try_wait()
        {
            // Nothing was asked of it, so no move is lost: it is only started again.
            tracing::warn!(
                "the external engine {} ended between two moves ({status}); starting it again",
                self.name
            );
            self.running = None;
        }
        if self
            .running
            .as_ref()
            .is_none_or(|running| running.variant != variant)
        {
            self.start(variant)?;
        }
        let result = self.search(position, history, stop);
        if let Err(fault) = &result
            && fault.kind != FaultKind::Died
        {
            // It may be in the middle of anything: the next move starts a fresh one.
            self.running = None;
        }
        result
    }
}

/// The earliest position of `history` from which `position` is reached by legal moves, and
/// those moves as Hub text: the engine sees the repetitions since, as the robot's own search
/// does. Where a step is not one legal move (a game set up again), it starts after it.
fn game_since(position: &Position, history: &[Position]) -> (Position, Vec<String>) {
    let mut line: Vec<Position> = history.to_vec();
    line.push(*position);
    let mut moves = Vec::new();
    let mut start = line.len() - 1;
    while start > 0 {
        let (before, after) = (line[start - 1], line[start]);
        let step = before
            .legal_moves()
            .into_iter()
            .find(|mv| before.play(mv).is_ok_and(|next| next == after));
        let Some(step) = step else { break };
        moves.push(write_move(&before, &step));
        start -= 1;
    }
    moves.reverse();
    (line[start], moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_is_sent_from_its_first_position_reached_by_moves() {
        let start = Position::new(Variant::Russian);
        let first = start.legal_moves()[0];
        let middle = start.play(&first).unwrap();
        let second = middle.legal_moves()[0];
        let now = middle.play(&second).unwrap();
        let (from, moves) = game_since(&now, &[start, middle]);
        assert_eq!(from, start);
        assert_eq!(
            moves,
            vec![write_move(&start, &first), write_move(&middle, &second)]
        );
        // A history that does not lead here by a move: only the position itself.
        let (from, moves) = game_since(&now, &[Position::new(Variant::International)]);
        assert_eq!((from, moves.len()), (now, 0));
    }

    #[test]
    fn a_missing_program_is_a_start_fault_naming_it() {
        let spec = EngineSpec::parse("hub:/nonexistent/engine hub").unwrap();
        let mut engine = HubEngine::new(&spec, Duration::from_millis(100));
        let position = Position::new(Variant::Russian);
        let fault = engine
            .choose(&position, &[], &AtomicBool::new(false))
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Start);
        assert!(fault.to_string().contains("hub:engine"), "{fault}");
        assert!(fault.to_string().contains("/nonexistent/engine"), "{fault}");
    }
}
