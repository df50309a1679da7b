//! `checkerbot sim`: the whole robot against simulated hardware and a simulated visitor.
//!
//! The host state machine runs exactly as on the robot; the simulated arm moves pieces on a
//! simulated board (a failed pick leaves the piece where it was), the simulated Hall sensors
//! report that board, and the face and voice are shown in the terminal. The clock is virtual:
//! `--fast` runs as fast as the machine allows, otherwise short pauses let a person watch.
//!
//! This first simulation runs the devices in-process; driving them through the controller
//! protocol over a pseudo-terminal comes with the hardware layer's simulators.

mod visitor;
mod world;

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use checkerbot_config::RobotSide;
use emotions::{Frame, Millis, Mind};
use engine::search::{Limits, Searcher};
use engine::{Color, Variant};
use serde_json::json;
use sounds::{Language, Library, Speaker, Voice};

use crate::host::{Action, Event, Host, LogEvent, RobotColor, SearchReply, Waiting};
use crate::rng::SplitMix;
use visitor::{Turn, Visitor, VisitorKind};
use world::World;

/// Arguments of `checkerbot sim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Who plays against the robot: engine, random, stdin or script:PATH.
    #[arg(long, default_value = "engine")]
    visitor: VisitorKind,
    /// Games to play.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Seed for every random choice; the same seed replays the same run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No pauses: run as fast as possible.
    #[arg(long)]
    fast: bool,
    /// Probability per turn that the visitor first does something wrong.
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    mistakes: f64,
    /// Probability per arm move of a fault (a failed pick).
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    faults: f64,
    /// Write the JSON-lines event log to this file (`-` for stdout).
    #[arg(long)]
    events: Option<PathBuf>,
    /// Settings file (default: built-in defaults; `CHECKERBOT_*` variables apply either way).
    #[arg(long)]
    config: Option<PathBuf>,
    /// The robot's colour: white, black, or alternate (the visitor moves first in game 1);
    /// overrides `game.robot`.
    #[arg(long, value_parser = robot_color)]
    robot: Option<RobotColor>,
    /// Language of the robot's voice: en, ru or uk; overrides `sounds.language`.
    #[arg(long, value_parser = language)]
    language: Option<Language>,
    /// Variant to play; overrides `game.variant`.
    #[arg(long, value_parser = crate::commands::parse_variant)]
    variant: Option<Variant>,
    /// Playing level, 1 (gentle) to 5 (strongest); overrides `play.level`.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    level: Option<u8>,
    /// Longest game in plies before the simulation calls it a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
}

fn robot_color(text: &str) -> Result<RobotColor, String> {
    match text {
        "alternate" => Ok(RobotColor::Alternate),
        _ => engine::Color::from_char(text.chars().next().unwrap_or(' '))
            .filter(|c| c.name() == text)
            .map(RobotColor::Fixed)
            .ok_or_else(|| format!("{text:?}: expected white, black or alternate")),
    }
}

fn language(text: &str) -> Result<Language, String> {
    Language::ALL
        .into_iter()
        .find(|l| l.code() == text)
        .ok_or_else(|| format!("{text:?}: expected en, ru or uk"))
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?}: expected a probability from 0 to 1")),
    }
}

/// Search depth of each level; the network-based levels replace this table later.
fn depth_of_level(level: u8) -> u32 {
    [1, 2, 6, 8, 10][usize::from(level.clamp(1, 5)) - 1]
}

/// Searches with `limits`, stopped early if it takes longer than `budget` (`play.move_time_ms`):
/// a timer thread raises the stop flag unless the search finishes first.
fn search_within(
    searcher: &mut Searcher,
    position: &engine::Position,
    history: &[engine::Position],
    limits: Limits,
    budget: Duration,
) -> engine::search::SearchResult {
    let stop = Arc::new(AtomicBool::new(false));
    let (finished, wait) = mpsc::channel::<()>();
    let timer = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            if wait.recv_timeout(budget) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        })
    };
    let result = searcher.search(position, history, limits, &stop);
    drop(finished);
    let _ = timer.join();
    result
}

/// Counts for the closing summary.
#[derive(Debug, Default)]
struct Summary {
    robot_wins: u32,
    visitor_wins: u32,
    draws: u32,
    unfinished: u32,
    mistakes: u32,
    mismatches: u32,
    plies: usize,
}

/// Where the human-readable view goes: stdout, or stderr when stdout carries the event log.
struct Screen {
    out: Box<dyn Write>,
}

impl Screen {
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }
}

/// The JSON-lines event log.
struct EventLog {
    out: Option<Box<dyn Write>>,
}

impl EventLog {
    fn write(&mut self, now: Millis, event: &LogEvent) -> anyhow::Result<()> {
        if let Some(out) = &mut self.out {
            let mut value = serde_json::to_value(event)?;
            value["t"] = json!(now.0);
            serde_json::to_writer(&mut *out, &value)?;
            out.write_all(b"\n")?;
            out.flush().context("writing the event log")?;
        }
        Ok(())
    }
}

/// Everything one simulation run holds.
struct Simulation<'a> {
    args: &'a Args,
    /// The settings with the command line's overrides applied.
    settings: checkerbot_config::Settings,
    robot: RobotColor,
    host: Host,
    visitor: Visitor,
    world: World,
    searcher: Searcher,
    voice: Voice,
    face: Option<emotions::Face>,
    rng: SplitMix,
    arm_rng: SplitMix,
    log: EventLog,
    screen: Screen,
    summary: Summary,
    now: Millis,
    queue: VecDeque<Event>,
    games_done: u32,
}

/// The settings file and environment, with the command line's overrides applied.
fn resolve_settings(args: &Args) -> anyhow::Result<(checkerbot_config::Settings, RobotColor)> {
    let mut settings =
        checkerbot_config::load(args.config.as_deref()).context("reading the settings")?;
    if let Some(variant) = args.variant {
        settings.game.variant = variant;
    }
    if let Some(level) = args.level {
        settings.play.level = level;
    }
    if let Some(language) = args.language {
        settings.sounds.language = language;
    }
    let robot = args.robot.unwrap_or(match settings.game.robot {
        RobotSide::White => RobotColor::Fixed(Color::White),
        RobotSide::Black => RobotColor::Fixed(Color::Black),
        RobotSide::Alternate => RobotColor::Alternate,
    });
    Ok((settings, robot))
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let to_stdout = args.events.as_deref() == Some(std::path::Path::new("-"));
    let log = EventLog {
        out: match &args.events {
            None => None,
            Some(_) if to_stdout => Some(Box::new(io::stdout())),
            Some(path) => Some(Box::new(BufWriter::new(
                File::create(path).with_context(|| format!("creating {}", path.display()))?,
            ))),
        },
    };
    let screen = Screen {
        out: if to_stdout {
            Box::new(io::stderr())
        } else {
            Box::new(io::stdout())
        },
    };
    let (settings, robot) = resolve_settings(args)?;
    let mut rng = SplitMix::new(args.seed);
    let host = Host::new(
        settings.game.variant,
        robot,
        Mind::new(settings.emotions.clone(), rng.next_u64()),
    );
    let visitor = Visitor::new(args.visitor.clone(), rng.next_u64(), args.mistakes)?;
    let arm_rng = SplitMix::new(rng.next_u64());
    // A watched simulation speaks through the sound card when there is one; a fast one is
    // silent. Either way every line goes to the screen and the event log.
    let speaker = if args.fast {
        Speaker::silent()
    } else {
        Speaker::open(settings.sounds.volume)
    };
    let library = Library::load(
        &settings.sounds.packs_dir,
        settings.sounds.overrides_dir.as_deref(),
    )
    .context("loading the voice packs")?;
    let voice = Voice::new(library, speaker, &settings.sounds, rng.next_u64());
    let mut sim = Simulation {
        args,
        settings,
        robot,
        host,
        visitor,
        world: World::default(),
        searcher: Searcher::new(16),
        voice,
        face: None,
        rng,
        arm_rng,
        log,
        screen,
        summary: Summary::default(),
        now: Millis(0),
        queue: VecDeque::new(),
        games_done: 0,
    };
    let started = Instant::now();
    while sim.games_done < args.games {
        let Some(event) = sim.queue.pop_front() else {
            if sim.people_act()? {
                continue;
            }
            break;
        };
        let is_tick = event == Event::Tick;
        for action in sim.host.handle(event, sim.now) {
            sim.perform(action)?;
        }
        if !is_tick {
            // Time passes after everything that happens: moods fade, idle lines come.
            sim.queue.push_back(Event::Tick);
        }
    }
    let summary = &sim.summary;
    sim.screen.line(&format!(
        "{} games: robot {} wins, visitor {} wins, {} draws, {} unfinished; {} visitor mistakes answered, {} board mismatches; {} plies in {:.1} s",
        sim.games_done,
        summary.robot_wins,
        summary.visitor_wins,
        summary.draws,
        summary.unfinished,
        summary.mistakes,
        summary.mismatches,
        summary.plies,
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

impl Simulation<'_> {
    fn pause(&self, ms: u64) {
        if !self.args.fast {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }

    fn advance(&mut self, ms: u64) {
        self.now = Millis(self.now.0 + ms);
    }

    /// The people at the board do what the host waits for; false when the visitor left.
    fn people_act(&mut self) -> anyhow::Result<bool> {
        match self.host.waiting_for() {
            Waiting::Setup => {
                self.world
                    .set(&engine::Position::new(self.settings.game.variant));
                self.queue.push_back(Event::Scan(self.world.occupancy()));
            }
            _ if self.host.game().moves().len() >= self.args.max_plies => {
                self.screen.line(&format!(
                    "the game reached {} plies: stopping it",
                    self.args.max_plies
                ));
                self.summary.unfinished += 1;
                self.summary.plies += self.host.game().moves().len();
                self.games_done += 1;
                let mind = Mind::new(self.settings.emotions.clone(), self.rng.next_u64());
                self.host = Host::new(self.settings.game.variant, self.robot, mind);
            }
            Waiting::BoardFix(_) => {
                // The robot's move is on the board wrongly: the visitor puts it right.
                self.world.set(self.host.game().position());
                self.advance(3_000);
                self.queue.push_back(Event::Button(self.world.occupancy()));
            }
            Waiting::VisitorMove => {
                let position = *self.host.game().position();
                if self.visitor.is_person() {
                    self.screen.line(&format!("{position}"));
                }
                self.advance(2_000);
                match self.visitor.take_turn(&position, &mut self.world)? {
                    Turn::Pressed => self.queue.push_back(Event::Button(self.world.occupancy())),
                    Turn::Left => {
                        self.screen.line("the visitor left");
                        self.summary.unfinished += 1;
                        return Ok(false);
                    }
                }
                self.pause(300);
            }
            Waiting::Robot => unreachable!("the robot's search and arm answer at once here"),
        }
        Ok(true)
    }

    /// Carries out one of the host's actions with the simulated devices.
    fn perform(&mut self, action: Action) -> anyhow::Result<()> {
        match action {
            Action::Search { position, history } => {
                let clock = Instant::now();
                let limits = Limits {
                    depth: depth_of_level(self.settings.play.level),
                    nodes: 2_000_000,
                };
                let budget = Duration::from_millis(self.settings.play.move_time_ms);
                let result = search_within(&mut self.searcher, &position, &history, limits, budget);
                let think_ms = clock.elapsed().as_millis() as u64;
                self.advance(1_500);
                let mv = result
                    .best
                    .context("the robot has no move in a game that goes on")?;
                self.queue.push_back(Event::SearchDone(SearchReply {
                    mv,
                    v: result.win_probability,
                    pv: result.pv,
                    think_ms,
                }));
            }
            Action::MoveArm { mv, .. } => {
                self.advance(4_000);
                if self.arm_rng.chance(self.args.faults) {
                    // The suction cup did not hold the piece: nothing moved.
                    let message = "failed pick: the piece stayed where it was".to_owned();
                    self.log.write(self.now, &LogEvent::Fault { message })?;
                } else {
                    self.world.play(&mv);
                    self.world.trophies += mv.captured().count();
                }
                self.pause(300);
                self.queue.push_back(Event::ArmDone(self.world.occupancy()));
            }
            Action::Face(face) => self.face = Some(face),
            Action::Say { request, detail } => {
                let category = request.category.as_str();
                let (id, text) = self.voice.speak(&request).map_or_else(
                    || (String::new(), String::new()),
                    |line| (line.id, line.text),
                );
                self.screen.line(&format!("robot says: {text}"));
                if let Some(detail) = detail {
                    self.screen.line(&format!("            ({detail})"));
                }
                let event = LogEvent::Voice {
                    category: category.to_owned(),
                    line: id,
                    text,
                };
                self.log.write(self.now, &event)?;
            }
            Action::Log(event) => {
                self.show(&event);
                self.log.write(self.now, &event)?;
            }
            Action::GameFinished { .. } => {}
        }
        Ok(())
    }

    /// Shows a log event on screen and counts it for the summary.
    fn show(&mut self, event: &LogEvent) {
        match event {
            LogEvent::VisitorMove { mv } => self.screen.line(&format!("visitor plays {mv}")),
            LogEvent::RobotMove { mv, v, .. } => {
                self.screen
                    .line(&format!("robot plays {mv} (win probability {v:.2})"));
                if !self.args.fast {
                    self.screen
                        .line(&format!("{}\n", self.host.game().position()));
                }
            }
            LogEvent::Expression { emotion, intensity } => {
                if let Some(face) = self.face.filter(|_| !self.args.fast) {
                    // Shown with the eyes open, whatever the blink timing.
                    let open = emotions::Face {
                        eyes_closed: false,
                        ..face
                    };
                    let frame = Frame::render(&open, &self.settings.emotions.face);
                    let preview = frame.preview();
                    self.screen
                        .line(&format!("face: {emotion} {intensity:.1}\n{preview}"));
                }
            }
            LogEvent::VisitorMistake { .. } => self.summary.mistakes += 1,
            LogEvent::BoardMismatch { .. } => self.summary.mismatches += 1,
            LogEvent::GameStarted { robot, game, .. } => {
                self.screen
                    .line(&format!("game {game}: the robot plays {robot}"));
            }
            LogEvent::GameOver { result, reason, .. } => {
                self.screen.line(&format!("game over: {result} ({reason})"));
                self.games_done += 1;
                self.summary.plies += self.host.game().moves().len();
                let robot = self.host.robot();
                let robot_won = (result == "1-0" && robot == Color::White)
                    || (result == "0-1" && robot == Color::Black);
                match result.as_str() {
                    "1/2-1/2" => self.summary.draws += 1,
                    _ if robot_won => self.summary.robot_wins += 1,
                    _ => self.summary.visitor_wins += 1,
                }
            }
            _ => {}
        }
    }
}
