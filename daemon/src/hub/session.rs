//! The Hub session: reads the GUI's lines, carries out each command, runs a search on the
//! blocking pool while it keeps reading (`ping`, `ponder-hit`, `stop`, `quit` are answered
//! during a search), and writes the replies. Time lives here: a timer raises the search's stop
//! flag when the level's budget is spent.

use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use player::Thought;
use rules::{Move, Position};
use search::{SearchResult, WIN, WIN_THRESHOLD};
use tokio::io::{AsyncBufRead, AsyncWrite, AsyncWriteExt as _};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use super::engine::{Answer, Engine, Player, STRONGEST};
use super::line_reader::{Line, LineReader, MAX_LINE_BYTES};
use super::time_control;
use engine_protocols::hub::board_text::write_move;
use engine_protocols::hub::message::{self, Command, GoMode, Info, Reply};

/// What the search thread tells the session, in the order it happened.
enum SearchEvent {
    /// An iteration of alpha-beta completed.
    Iteration(SearchResult),
    /// The search ended: the player to give back and its answer.
    Finished((Player, Answer)),
}

/// Whether the session goes on after a command.
enum Flow {
    Continue,
    Quit,
}

/// Speaks Hub on `input` and `output` until `quit` or the end of `input`. Bad lines are
/// answered with an `error` line and the session goes on; only a failure to read or write
/// ends it with an error.
pub async fn serve<R, W>(input: R, output: W) -> io::Result<()>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut session = Session {
        lines: LineReader::new(input),
        output,
        engine: Engine::default(),
        queued: VecDeque::new(),
    };
    session.run().await
}

struct Session<R, W> {
    lines: LineReader<R>,
    output: W,
    engine: Engine,
    /// Commands that arrived during a search and are not answered during one (a `pos` sent
    /// right after `stop`, before the search's `done`): carried out after it, in order.
    queued: VecDeque<Command>,
}

impl<R, W> Session<R, W>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    async fn run(&mut self) -> io::Result<()> {
        loop {
            let command = if let Some(command) = self.queued.pop_front() {
                command
            } else {
                let Some(line) = self.lines.next().await? else {
                    return Ok(());
                };
                match command_of(line) {
                    Ok(command) => command,
                    Err(error) => {
                        self.send(Reply::Error(error)).await?;
                        continue;
                    }
                }
            };
            if let Flow::Quit = self.carry_out(command).await? {
                return Ok(());
            }
        }
    }

    async fn carry_out(&mut self, command: Command) -> io::Result<Flow> {
        match command {
            Command::Hub => {
                self.send(Reply::Id {
                    name: "checkerbot".to_owned(),
                    version: env!("CARGO_PKG_VERSION").to_owned(),
                    author: "checkerbot developers".to_owned(),
                })
                .await?;
                self.send(Reply::EnumParam {
                    name: "variant".to_owned(),
                    value: self.engine.variant().name().to_owned(),
                    values: rules::Variant::ALL
                        .iter()
                        .map(|v| v.name().to_owned())
                        .collect(),
                })
                .await?;
                self.send(Reply::IntParam {
                    name: "strength".to_owned(),
                    value: i64::from(self.engine.strength()),
                    min: 1,
                    max: i64::from(STRONGEST),
                })
                .await?;
                self.send(Reply::Wait).await?;
            }
            Command::SetParam { name, value } => {
                if let Err(error) = self.engine.set_param(&name, &value) {
                    self.send(Reply::Error(error.to_string())).await?;
                }
            }
            Command::Init => self.send(Reply::Ready).await?,
            Command::Pos { position, moves } => {
                if let Err(error) = self.engine.set_position(position.as_deref(), &moves) {
                    self.send(Reply::Error(error.to_string())).await?;
                }
            }
            Command::Level(level) => self.engine.set_level(level),
            Command::Go(mode) => return self.search(mode).await,
            // Outside a search there is nothing to stop or to hit.
            Command::PonderHit | Command::Stop => {}
            Command::NewGame => self.engine.new_game(),
            Command::Ping => self.send(Reply::Pong).await?,
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// Runs one search to its `done`, answering the commands allowed during it.
    async fn search(&mut self, mode: GoMode) -> io::Result<Flow> {
        let job = match self.engine.start_search(mode) {
            Ok(job) => job,
            Err(error) => {
                // The GUI waits for a `done` after every `go`.
                self.send(Reply::Error(error.to_string())).await?;
                self.send(Reply::Done {
                    mv: None,
                    ponder: None,
                })
                .await?;
                return Ok(Flow::Continue);
            }
        };
        let started = Instant::now();
        let budget = time_control::budget(&job.level);
        let clock_from = |now: Instant| budget.and_then(|budget| now.checked_add(budget));
        let mut pondering = mode == GoMode::Ponder;
        let mut deadline = if pondering { None } else { clock_from(started) };
        let position = job.position;
        let stop = Arc::new(AtomicBool::new(false));
        // Iterations and the answer travel on one channel, so that every iteration is told
        // before the `done` however quickly the search ends (a forced move's one iteration).
        let (events_sender, mut events) = mpsc::unbounded_channel();
        let search = tokio::task::spawn_blocking({
            let stop = Arc::clone(&stop);
            move || {
                let finished = job.run(&stop, |report| {
                    // The session may have quit and dropped the receiver; nothing to tell.
                    let _ = events_sender.send(SearchEvent::Iteration(report.clone()));
                });
                let _ = events_sender.send(SearchEvent::Finished(finished));
            }
        });
        loop {
            tokio::select! {
                biased;
                event = events.recv() => {
                    let done = match event {
                        Some(SearchEvent::Iteration(report)) => {
                            let info = info(&position, &report, started.elapsed().as_secs_f64());
                            self.send(Reply::Info(info)).await?;
                            continue;
                        }
                        Some(SearchEvent::Finished((player, answer))) => {
                            self.engine.player_back(player);
                            if let Answer::Thought(Some(thought)) = &answer {
                                let seconds = started.elapsed().as_secs_f64();
                                let info = thought_info(&position, thought, seconds);
                                self.send(Reply::Info(info)).await?;
                            }
                            done(&position, &answer)
                        }
                        None => {
                            // The search ended without an answer: it panicked. The engine
                            // makes a new player for the next search.
                            let reason = match search.await {
                                Err(error) => error.to_string(),
                                Ok(()) => "it ended without an answer".to_owned(),
                            };
                            self.send(Reply::Error(format!("the search failed: {reason}"))).await?;
                            Reply::Done { mv: None, ponder: None }
                        }
                    };
                    self.send(done).await?;
                    return Ok(Flow::Continue);
                }
                () = sleep_until(deadline.unwrap_or(started)), if deadline.is_some() => {
                    stop.store(true, Ordering::Relaxed);
                    deadline = None;
                }
                line = self.lines.next() => {
                    let Some(line) = line? else {
                        // The GUI is gone: quit as directly as possible.
                        stop.store(true, Ordering::Relaxed);
                        return Ok(Flow::Quit);
                    };
                    match command_of(line) {
                        Ok(Command::Ping) => self.send(Reply::Pong).await?,
                        Ok(Command::Stop) => stop.store(true, Ordering::Relaxed),
                        Ok(Command::PonderHit) => {
                            if pondering {
                                pondering = false;
                                deadline = clock_from(Instant::now());
                            }
                        }
                        Ok(Command::Quit) => {
                            stop.store(true, Ordering::Relaxed);
                            return Ok(Flow::Quit);
                        }
                        Ok(command) => self.queued.push_back(command),
                        Err(error) => self.send(Reply::Error(error)).await?,
                    }
                }
            }
        }
    }

    async fn send(&mut self, reply: Reply) -> io::Result<()> {
        self.output
            .write_all(format!("{reply}\n").as_bytes())
            .await?;
        self.output.flush().await
    }
}

/// The command a line of input asks for, or why it cannot be read.
fn command_of(line: Line) -> Result<Command, String> {
    match line {
        Line::Text(text) => message::parse(&text).map_err(|error| error.to_string()),
        Line::TooLong => Err(format!(
            "a line longer than {MAX_LINE_BYTES} bytes, refused whole"
        )),
    }
}

/// A completed iteration as an `info` line.
fn info(position: &Position, report: &SearchResult, seconds: f64) -> Info {
    Info {
        depth: Some(report.depth),
        score: Some(score_in_men(report.score)),
        nodes: report.nodes,
        time: seconds,
        nps: millions_a_second(report.nodes, seconds),
        pv: line_text(position, &report.pv),
    }
}

/// A weaker level's search as an `info` line: what it spent and its line.
fn thought_info(position: &Position, thought: &Thought, seconds: f64) -> Info {
    Info {
        depth: None,
        score: None,
        nodes: thought.playouts_or_nodes,
        time: seconds,
        nps: millions_a_second(thought.playouts_or_nodes, seconds),
        pv: line_text(position, &thought.pv),
    }
}

fn millions_a_second(count: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        count as f64 / seconds / 1e6
    } else {
        0.0
    }
}

/// The search's score in men, Scan's unit. A forced win in `n` plies is `100 - n/100` (a loss
/// the negative), the convention pydraughts reads back as a win in `n` plies.
fn score_in_men(score: i32) -> f64 {
    if score.abs() >= WIN_THRESHOLD {
        let plies = WIN - score.abs();
        f64::from(score.signum() * (10_000 - plies)) / 100.0
    } else {
        f64::from(score) / 100.0
    }
}

/// Moves played one after the other from `position`, as Hub text.
fn line_text(position: &Position, line: &[Move]) -> Vec<String> {
    let mut current = *position;
    line.iter()
        .map(|mv| {
            let text = write_move(&current, mv);
            current.play_unchecked(mv);
            text
        })
        .collect()
}

/// The `done` line: the move and, when the expected line starts with it, the reply expected
/// after it (for pondering).
fn done(position: &Position, answer: &Answer) -> Reply {
    let (best, pv) = match answer {
        Answer::Searched(result) => (result.best, result.pv.as_slice()),
        Answer::Thought(Some(thought)) => (Some(thought.mv), thought.pv.as_slice()),
        Answer::Thought(None) => (None, &[][..]),
    };
    let line = match (best, pv.first()) {
        (Some(best), Some(&first)) if best == first => line_text(position, pv),
        (Some(best), _) => line_text(position, &[best]),
        (None, _) => Vec::new(),
    };
    let mut line = line.into_iter();
    Reply::Done {
        mv: line.next(),
        ponder: line.next(),
    }
}
