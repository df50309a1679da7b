//! The robot at work: one loop that feeds the game host from the devices and carries out what it
//! decides, the same for `checkerbot sim` and `checkerbot run`.
//!
//! The loop waits in one `select!` for whatever comes first: a button press (answered with a
//! debounced scan), the search finishing on its worker thread, the arm finishing its task, a
//! setup poll, the emotion clock, settings reloads, the operator page's commands, shutdown.
//! Nothing in it blocks: searches run on the blocking pool (on the loop's own thread only in a
//! fast simulation, see [`ThinkOn`]) and arm moves in their own task, so heartbeats, blinking
//! and presses are served while the robot thinks or moves. Its clock is tokio's, so a simulation with a paused clock runs a
//! whole game in virtual time and replays exactly.

pub mod arm_squares;
mod backoff;
pub mod face_output;
pub mod lights_output;
mod observer;
pub mod occupancy_map;
mod operate;
mod piece_mover;
pub mod planned_arm;
mod reset;
mod reset_loop;
mod set_up;
mod startup;
mod thinking;

#[cfg(test)]
mod pondering_tests;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use checkerbot_config::PlayLevel;
use emotions::Millis;
use hal::debounce::{DebounceConfig, DebounceError, stable_scan};
use hal::device::{BoardLights, BoardSensor, ButtonId, ButtonPress, Face, PressKind};
use hal::{Error as _, ErrorKind};
use rules::{Color, Position, notation};
use sounds::Voice;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::task::{JoinError, JoinHandle};
use tokio::time::{Instant, MissedTickBehavior};

use crate::state::{GameNow, Journal, StateDir, Stats, utc_date};
pub use backoff::{Backoff, Reopening};
use face_output::{FaceChanges, FaceCommands, ShownFace};
use host::{Action, Device, Event, GameRecord, Host, LogEvent, Waiting};
use lights_output::{ShownLights, square_lights};
pub use observer::{EventContext, EventLog, Observer};
pub use operate::{Adjustment, Done, OperatorCommand, Request};
pub use piece_mover::PieceMover;
pub use planned_arm::{ARM_RECONNECT_PATIENCE, PlannedArm, ReopenArm};
use player::Brain;
pub use startup::{Startup, start_or_resume};
use thinking::Purpose;
pub use thinking::ThinkOn;

/// What people around the robot can see of it: the simulated visitors act on it, the operator
/// page shows it. `serial` grows with every change, so a watcher acts once per change.
#[derive(Debug, Clone)]
pub struct VisibleState {
    /// What the robot waits for.
    pub waiting: Waiting,
    /// The game's position.
    pub position: Position,
    /// The board's last stable scan (engine squares): what the sensors saw, which may differ
    /// from the position while a move is being made or a mistake waits to be fixed.
    pub scan: Option<rules::Bitboard>,
    /// The position the board must show for the next game to start: the variant's start, or
    /// a position the operator asked for.
    pub set_up: Position,
    /// What waits beside the board as the arm's stock has it (`None` before the arm said).
    pub stock: Option<hal::arm::Stock>,
    /// Bumped on every change.
    pub serial: u64,
}

/// Timing and limits of the loop.
#[derive(Debug, Clone)]
pub struct LoopConfig {
    /// When a scan counts as the board's state.
    pub debounce: DebounceConfig,
    /// How often the board is read while waiting for the starting position, and while the
    /// board's lights follow what the visitor does.
    pub board_poll: Duration,
    /// How often the emotion model's clock ticks (blinks, fading moods, idle lines).
    pub tick: Duration,
    /// The longest the robot thinks about a move (`play.move_time_ms`).
    pub move_time: Duration,
    /// Where the search runs.
    pub think_on: ThinkOn,
    /// Whether the brain thinks on the visitor's time (`play.ponder`); only on a worker
    /// thread, since on the loop's thread it would hold the loop (and a simulation on a paused
    /// clock would no longer replay exactly).
    pub ponder: bool,
    /// Stop after this many games (finished or abandoned); `None` runs until shutdown.
    pub games: Option<u32>,
    /// A game this long (in plies) is abandoned, so a shuffling endgame cannot last forever.
    pub max_plies: usize,
    /// The face's rendering settings.
    pub face: emotions::FaceSettings,
    /// Tags written into every archived game besides the players, date and result (the level
    /// and attitude it was played at).
    pub archive_tags: Vec<(String, String)>,
    /// After a game the arm sets the board up for the next (`game.reset_board`).
    pub reset_board: bool,
    /// Games from the start or puzzles (`game.mode`).
    pub mode: checkerbot_config::GameMode,
}

impl LoopConfig {
    /// The loop's timing from the settings; `games` and `max_plies` bound a run.
    pub fn from_settings(
        settings: &checkerbot_config::Settings,
        games: Option<u32>,
        max_plies: usize,
        think_on: ThinkOn,
    ) -> LoopConfig {
        LoopConfig {
            debounce: DebounceConfig {
                agreeing_reads: settings.sensor.debounce_reads,
                interval: Duration::from_millis(settings.sensor.read_interval_ms),
                flicker_fault_after: Duration::from_millis(settings.sensor.flicker_fault_ms),
            },
            board_poll: Duration::from_millis(500),
            tick: Duration::from_millis(250),
            move_time: Duration::from_millis(settings.play.move_time_ms),
            think_on,
            ponder: settings.play.ponder && think_on == ThinkOn::Worker,
            games,
            max_plies,
            face: settings.emotions.face.clone(),
            archive_tags: vec![
                ("Level".to_owned(), settings.play.level.to_string()),
                (
                    "Attitude".to_owned(),
                    settings.emotions.attitude.as_str().to_owned(),
                ),
            ],
            reset_board: settings.game.reset_board,
            mode: settings.game.mode,
        }
    }

    /// Whether the arm sets the board up between games: asked for, or in puzzle mode, where
    /// each puzzle is set up.
    fn sets_board_up(&self) -> bool {
        self.reset_board || self.mode == checkerbot_config::GameMode::Puzzle
    }
}

/// Puzzle mode's puzzles for `variant` (none in play mode, or for a variant without any, which
/// then plays games, after a warning).
fn puzzles_for(
    mode: checkerbot_config::GameMode,
    variant: rules::Variant,
) -> Vec<host::puzzles::Puzzle> {
    if mode != checkerbot_config::GameMode::Puzzle {
        return Vec::new();
    }
    match host::puzzles::shipped(variant) {
        Ok(puzzles) if !puzzles.is_empty() => puzzles,
        Ok(_) => {
            tracing::warn!("game.mode is puzzle but {variant} has no puzzles: it plays games");
            Vec::new()
        }
        Err(err) => {
            tracing::warn!("the shipped puzzles do not read ({err}): the robot plays games");
            Vec::new()
        }
    }
}

/// How long a board controller's link must have stayed up for its loss to be reconnected at
/// once: one that died sooner (a controller that answers the handshake and then nothing) is
/// reopened only after the next wait of the growing backoff.
const LINK_LASTED: Duration = Duration::from_secs(30);

/// The highest level that offers take-backs even with the coach off: levels 1-2 are for
/// small children.
const FORGIVING_LEVEL: u8 = 2;

/// Whether `level` offers take-backs even with the coach off. The adaptive level does not: it
/// may play a child or a club player, so take-backs there follow the coach's settings.
fn forgiving(level: PlayLevel) -> bool {
    level.fixed().is_some_and(|level| level <= FORGIVING_LEVEL)
}

/// The colour the host plays for the settings' `game.robot`.
pub fn robot_color(side: checkerbot_config::RobotSide) -> host::RobotColor {
    match side {
        checkerbot_config::RobotSide::White => host::RobotColor::Fixed(Color::White),
        checkerbot_config::RobotSide::Black => host::RobotColor::Fixed(Color::Black),
        checkerbot_config::RobotSide::Alternate => host::RobotColor::Alternate,
    }
}

/// Opens the board controller's link again after it was lost (a cable pulled, a controller
/// reset, a run of damaged frames the protocol gave up on).
pub type Reconnect<B> = Box<dyn FnMut() -> Pin<Box<dyn Future<Output = anyhow::Result<B>>>>>;

/// Where the robot keeps its state, and what it last wrote there.
struct Persistence {
    dir: StateDir,
    journal: Option<Journal>,
    stats: Stats,
    /// A finished game's PDN, appended to the archive at the next save.
    unarchived: Option<String>,
}

/// The board controller's link, and how to get it back when it dies.
struct BoardLink<B> {
    device: B,
    reconnect: Reconnect<B>,
    /// The link died; the loop reconnects before anything else.
    lost: bool,
    /// The host waits for the board as the arm left it ([`Event::ArmDone`]), which could not
    /// be read yet: the loop reads it again after reconnecting and at every board poll until a
    /// read succeeds, so a failed read never leaves the game waiting for ever.
    scan_after_arm: bool,
    /// The waits between reconnections, kept across them while each new link dies young, so
    /// a controller that answers the handshake but nothing after it is not reopened in a loop.
    reopening: Reopening,
}

/// What the robot writes down: the counters, the ids of its games, and the state directory
/// they are kept in.
struct Records {
    stats: Stats,
    /// Games played to the end in this run (for `--games`).
    games_done: u32,
    /// `None`: nothing is kept (a simulation without `--state`).
    persistence: Option<Persistence>,
    /// Prefix of game ids: when this run started, so ids never repeat across restarts.
    session: String,
    /// The archive id of the game in progress.
    game_id: Option<String>,
    /// Where the last finished game was archived, for its `game_over` event.
    archived_at: Option<String>,
}

/// The devices, the brain and the outputs of one robot.
pub struct Robot<B, M> {
    config: LoopConfig,
    host: Host,
    board: BoardLink<B>,
    mover: Option<M>,
    brain: Option<Brain>,
    /// New settings from a reload, when the robot runs with a settings file.
    reloads: Option<mpsc::UnboundedReceiver<checkerbot_config::Settings>>,
    /// Commands from the operator page, and the settings they change.
    operator: Option<operate::OperatorLink>,
    /// Settings that arrived while the brain was thinking, for its next move.
    pending_settings: Option<Box<checkerbot_config::Settings>>,
    /// Called on every tick of the loop's clock: proof of life for a watchdog.
    alive: Option<Box<dyn FnMut()>>,
    voice: Voice,
    observers: Vec<Box<dyn Observer>>,
    stage: watch::Sender<VisibleState>,
    start: Instant,
    face: ShownFace,
    lights: ShownLights,
    records: Records,
    /// Actions that continue a resumed game, carried out first.
    resume_actions: Vec<Action>,
    /// When the last game ended, by the loop's clock: a game begun long after it is a new
    /// visitor's.
    last_game_ended: Option<Millis>,
    /// A new visitor sat down: the brain forgets what it learnt of the last one before its
    /// next search.
    new_visitor: bool,
    /// The position last pondered, with the game's length then: pondered once, so that a
    /// pondering that ends by itself (its node cap) does not start again.
    pondered: PonderedOnce,
    /// The board as the arm left it after the robot's move, while the visitor puts it right:
    /// what the visitor takes off goes into the rack.
    fix_from: Option<rules::Bitboard>,
    /// The robot's man its last move crowned without a spare king: the visitor is asked to
    /// turn it over once the move is on the board as it should be.
    crown_by_hand: Option<rules::Square>,
    /// A game ended and the settings want the board set up: the reset starts when the arm is
    /// free.
    reset_wanted: bool,
    /// The arm setting the board up.
    reset: Option<reset::ResetRun>,
    /// A reset ended short of this position (FEN): people fill the rest, and the next game's
    /// start says so with a `position_set_up`.
    awaiting_fill: Option<String>,
}

/// A game that begins this long after the last one ended is taken to be a new visitor's: the
/// adaptive level starts again from its picture of a new visitor instead of the last one's.
const NEW_VISITOR_AFTER: Duration = Duration::from_mins(5);

impl<B, M> std::fmt::Debug for Robot<B, M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Robot")
            .field("stats", &self.records.stats)
            .finish_non_exhaustive()
    }
}

/// What a search task hands back: the player and its answer.
type ThinkingDone = (Brain, thinking::Answer);

/// What an arm task hands back: the mover and how the move went.
type ArmDone<M> = (M, Result<(), <M as PieceMover>::Error>);

/// The work running beside the loop; each hands its tool back when done.
struct Workers<M: PieceMover> {
    thinking: Option<JoinHandle<ThinkingDone>>,
    /// What the search running in `thinking` is for.
    thinking_for: Purpose,
    /// Stops the search running in `thinking` early.
    stop_thinking: Arc<AtomicBool>,
    moving: Option<JoinHandle<ArmDone<M>>>,
}

/// What woke the loop.
enum LoopEvent<M: PieceMover, E> {
    Shutdown,
    Thought(Box<Result<ThinkingDone, JoinError>>),
    ArmFinished(Result<ArmDone<M>, JoinError>),
    Press(Result<ButtonPress, E>),
    Reload(Box<checkerbot_config::Settings>),
    Operator(operate::Request),
    BoardPoll,
    Tick,
}

/// Waits for a message from a channel that may not exist (then forever).
async fn recv<T>(channel: &mut Option<mpsc::UnboundedReceiver<T>>) -> Option<T> {
    match channel {
        Some(channel) => channel.recv().await,
        None => std::future::pending().await,
    }
}

/// Waits for a task that may not exist (then forever).
async fn join<T>(task: &mut Option<JoinHandle<T>>) -> Result<T, JoinError> {
    match task {
        Some(handle) => handle.await,
        None => std::future::pending().await,
    }
}

impl<B, M> Robot<B, M>
where
    B: BoardSensor + BoardLights + Face + Send,
    M: PieceMover,
{
    /// A robot about to start: fresh, or back in a journaled game (see [`start_or_resume`]).
    pub fn new(
        config: LoopConfig,
        startup: Startup,
        board: B,
        reconnect: Reconnect<B>,
        mover: M,
        brain: Brain,
        voice: Voice,
    ) -> Robot<B, M> {
        let Startup {
            mut host,
            actions,
            game_id,
        } = startup;
        // The visitor's messages and the explanations are in the voice's language.
        host.set_language(voice.language());
        let variant = host.next_variant();
        host.set_puzzles(puzzles_for(config.mode, variant));
        host.set_forgiving(forgiving(brain.level()));
        let session = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis())
            .to_string();
        let stage = VisibleState {
            waiting: host.waiting_for(),
            position: *host.game().position(),
            scan: None,
            set_up: host.next_start(),
            stock: mover.stock(),
            serial: 0,
        };
        Robot {
            config,
            host,
            board: BoardLink {
                device: board,
                reconnect,
                lost: false,
                scan_after_arm: false,
                reopening: Reopening::new(LINK_LASTED),
            },
            mover: Some(mover),
            brain: Some(brain),
            reloads: None,
            operator: None,
            pending_settings: None,
            alive: None,
            voice,
            observers: Vec::new(),
            stage: watch::Sender::new(stage),
            start: Instant::now(),
            face: ShownFace::default(),
            lights: ShownLights::default(),
            records: Records {
                stats: Stats::default(),
                games_done: 0,
                persistence: None,
                session,
                game_id,
                archived_at: None,
            },
            resume_actions: actions,
            last_game_ended: None,
            new_visitor: false,
            pondered: PonderedOnce::default(),
            fix_from: None,
            crown_by_hand: None,
            reset_wanted: false,
            reset: None,
            awaiting_fill: None,
        }
    }

    /// Keeps the journal, the archive and the counters in `dir` (the counters carry on from
    /// what it holds).
    pub fn keep_state_in(&mut self, dir: StateDir) -> anyhow::Result<()> {
        let stats = dir.load_stats()?;
        self.records.stats = stats.clone();
        self.records.persistence = Some(Persistence {
            journal: dir.load_journal().ok().flatten(),
            dir,
            stats,
            unarchived: None,
        });
        Ok(())
    }

    /// Applies new settings as they come (see [`crate::reload`]).
    pub fn reload_from(&mut self, reloads: mpsc::UnboundedReceiver<checkerbot_config::Settings>) {
        self.reloads = Some(reloads);
    }

    /// Applies reloaded settings: attitude and emotions, voice, level and move time from the
    /// next move; variant and robot colour from the next game. Devices and paths need a
    /// restart.
    fn apply_settings(&mut self, settings: &checkerbot_config::Settings) -> anyhow::Result<()> {
        let robot_color = robot_color(settings.game.robot);
        self.host.apply_settings(
            settings.emotions.clone(),
            settings.game.variant,
            robot_color,
        );
        self.voice.apply(&settings.sounds);
        self.host.set_language(settings.sounds.language);
        self.host.set_coach(settings.coach);
        self.host.set_forgiving(forgiving(settings.play.level));
        self.host
            .set_puzzles(puzzles_for(settings.game.mode, settings.game.variant));
        if let Some(link) = &mut self.operator {
            link.settings = settings.clone();
        }
        match &mut self.brain {
            Some(brain) => {
                brain.reconfigure(settings);
                external_engines::configure(brain, settings);
            }
            None => self.pending_settings = Some(Box::new(settings.clone())),
        }
        let fresh = LoopConfig::from_settings(
            settings,
            self.config.games,
            self.config.max_plies,
            self.config.think_on,
        );
        self.config = fresh;
        self.log(&LogEvent::SettingsReloaded {
            level: settings.play.level,
            attitude: settings.emotions.attitude,
            language: settings.sounds.language,
            volume: settings.sounds.volume,
            announce_moves: settings.emotions.announce_moves,
            coach: settings.coach,
            reset_board: settings.game.reset_board,
        })
    }

    /// Calls `alive` on every tick of the loop's clock, so a stuck loop can be noticed.
    pub fn on_tick(&mut self, alive: Box<dyn FnMut()>) {
        self.alive = Some(alive);
    }

    /// Adds someone who follows every event.
    pub fn observe(&mut self, observer: Box<dyn Observer>) {
        self.observers.push(observer);
    }

    /// A receiver of the robot's visible state.
    pub fn visible_state(&self) -> watch::Receiver<VisibleState> {
        self.stage.subscribe()
    }

    fn now(&self) -> Millis {
        Millis(self.start.elapsed().as_millis() as u64)
    }

    /// Runs until shutdown or the configured number of games; returns the counters.
    pub async fn run(mut self, mut shutdown: broadcast::Receiver<()>) -> anyhow::Result<Stats> {
        let mut workers = Workers {
            thinking: None,
            // Read only while `thinking` holds a search; set when one starts.
            thinking_for: Purpose::Hint,
            stop_thinking: Arc::new(AtomicBool::new(false)),
            moving: None,
        };
        let mut ticker = tokio::time::interval(self.config.tick);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut board_poll = tokio::time::interval(self.config.board_poll);
        board_poll.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let resumed = std::mem::take(&mut self.resume_actions);
        self.dispatch(resumed, &mut workers).await?;
        // In puzzle mode the arm sets up the first puzzle too.
        if self.config.mode == checkerbot_config::GameMode::Puzzle {
            self.reset_wanted = true;
            self.maybe_start_reset(&mut workers).await?;
        }
        self.publish()?;
        loop {
            // A reset after the last game is seen to its end.
            if self
                .config
                .games
                .is_some_and(|games| self.records.games_done >= games)
                && self.reset.is_none()
                && !(self.reset_wanted && workers.moving.is_none() && self.mover.is_some())
            {
                break;
            }
            if self.board.lost {
                if !self.reconnect_board(&mut shutdown).await? {
                    break;
                }
                if let Some(event) = self.read_after_arm().await? {
                    self.handle(event, &mut workers).await?;
                }
                continue;
            }
            let waiting = self.host.waiting_for();
            self.ponder_while_the_visitor_thinks(waiting, &mut workers)?;
            // The board is read on its own for setup and for a take-back on offer (the pieces
            // put back are the answer), and for lights that follow the board.
            let poll = matches!(waiting, Waiting::Setup | Waiting::TakeBack(_))
                || (self.board.device.has_lights() && self.host.wants_board_scans())
                || self.reset_settling()
                || self.board.scan_after_arm;
            let wake: LoopEvent<M, B::Error> = tokio::select! {
                biased;
                _ = shutdown.recv() => LoopEvent::Shutdown,
                done = join(&mut workers.thinking) => LoopEvent::Thought(Box::new(done)),
                done = join(&mut workers.moving) => LoopEvent::ArmFinished(done),
                press = self.board.device.next_press() => LoopEvent::Press(press),
                Some(settings) = recv(&mut self.reloads) => LoopEvent::Reload(Box::new(settings)),
                Some(request) = operate::next_request(&mut self.operator) => LoopEvent::Operator(request),
                _ = board_poll.tick(), if poll => LoopEvent::BoardPoll,
                _ = ticker.tick() => LoopEvent::Tick,
            };
            if matches!(wake, LoopEvent::Shutdown) {
                break;
            }
            if let Some(event) = self.event_from(wake, waiting, &mut workers).await? {
                self.handle(event, &mut workers).await?;
            }
        }
        self.finish(workers).await
    }

    /// Turns what woke the loop into an event for the host, reading the board where the event
    /// needs a scan. `None` when there is nothing for the host.
    async fn event_from(
        &mut self,
        wake: LoopEvent<M, B::Error>,
        waiting: Waiting,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<Option<Event>> {
        Ok(match wake {
            LoopEvent::Thought(done) => {
                workers.thinking = None;
                let (mut brain, answer) = (*done).context("the search thread failed")?;
                let thinking::Answer {
                    reply,
                    alternatives,
                    pondered,
                } = answer;
                if let Some(event) = pondered {
                    self.log(&event)?;
                }
                if let Some(settings) = self.pending_settings.take() {
                    brain.reconfigure(&settings);
                    external_engines::configure(&mut brain, &settings);
                }
                // The external engine's faults, each once an episode: the move was the
                // robot's own.
                for fault in brain.take_engine_faults() {
                    self.fault(Device::Brain, &fault.to_string())?;
                }
                self.brain = Some(brain);
                if let Some(alternatives) = alternatives {
                    self.handle(Event::Alternatives(alternatives), workers)
                        .await?;
                }
                match workers.thinking_for {
                    Purpose::RobotMove { .. } => {
                        if reply.is_none() {
                            self.fault(
                                Device::Brain,
                                "the search found no move in a game that goes on",
                            )?;
                        }
                        reply.map(Event::SearchDone)
                    }
                    Purpose::Hint => reply.map(Event::HintDone),
                    Purpose::Ponder => None,
                }
            }
            LoopEvent::ArmFinished(done) => self.arm_finished(done, workers).await?,
            LoopEvent::Press(Ok(ButtonPress {
                button: ButtonId::CONFIRM,
                kind,
            })) if matches!(
                waiting,
                Waiting::VisitorMove | Waiting::BoardFix(_) | Waiting::Setup | Waiting::TakeBack(_)
            ) =>
            {
                match kind {
                    PressKind::Short => {
                        self.log(&LogEvent::ButtonPressed)?;
                        self.scan().await?.map(Event::Button)
                    }
                    PressKind::Long => {
                        self.log(&LogEvent::ButtonHeld)?;
                        self.scan().await?.map(Event::LongPress)
                    }
                }
            }
            LoopEvent::Shutdown | LoopEvent::Press(Ok(_)) => None,
            LoopEvent::Press(Err(err)) => {
                self.device_error("button", &err)?;
                None
            }
            LoopEvent::Reload(settings) => {
                self.apply_settings(&settings)?;
                None
            }
            LoopEvent::Operator(request) => {
                self.operate(request, workers).await?;
                None
            }
            LoopEvent::BoardPoll if self.board.scan_after_arm => self.read_after_arm().await?,
            LoopEvent::BoardPoll if self.reset_settling() => {
                self.reset_poll(workers).await?;
                None
            }
            LoopEvent::BoardPoll => self.scan().await?.map(Event::Scan),
            LoopEvent::Tick => {
                if let Some(alive) = &mut self.alive {
                    alive();
                }
                Some(Event::Tick)
            }
        })
    }

    /// Asks the visitor to turn over the man the robot crowned without a spare king, once the
    /// robot's move is on the board as it should be and it is the visitor's turn; forgotten
    /// when the game is over first.
    async fn maybe_ask_to_crown(&mut self, workers: &mut Workers<M>) -> anyhow::Result<()> {
        match self.host.waiting_for() {
            Waiting::VisitorMove => {
                if let Some(square) = self.crown_by_hand.take() {
                    let actions = self.host.crown_by_hand(square, self.now());
                    self.dispatch(actions, workers).await?;
                }
            }
            Waiting::Robot | Waiting::BoardFix(_) => {}
            _ => self.crown_by_hand = None,
        }
        Ok(())
    }

    /// The arm task finished: a batch of a reset, or the robot's move, whose board is read
    /// for the host.
    async fn arm_finished(
        &mut self,
        done: Result<ArmDone<M>, JoinError>,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<Option<Event>> {
        workers.moving = None;
        let (mut mover, result) = done.context("the arm task failed")?;
        // The arm's link came back during this move, before the move's own outcome.
        if let Some(attempts) = mover.take_reconnection() {
            self.log(&LogEvent::Reconnected {
                device: Device::Arm,
                attempts,
            })?;
        }
        let geometry = self.host.game().position().variant().geometry();
        self.crown_by_hand = mover
            .take_crown_by_hand()
            .and_then(|square| arm_squares::rules_square(geometry, square));
        self.mover = Some(mover);
        if self.reset.is_some() {
            self.batch_done(result.map_err(|err| err.to_string()), workers)
                .await?;
            return Ok(None);
        }
        if let Err(err) = result {
            self.fault(Device::Arm, &err.to_string())?;
        }
        self.fix_from = None;
        self.board.scan_after_arm = true;
        self.read_after_arm().await
    }

    /// The board as the arm left it, for the host, when it is waited for
    /// (`board.scan_after_arm`) and can be read now. A read that fails leaves it waited for:
    /// the loop tries again after reconnecting or at the next board poll.
    async fn read_after_arm(&mut self) -> anyhow::Result<Option<Event>> {
        if !self.board.scan_after_arm {
            return Ok(None);
        }
        if self.reset.is_some() {
            // The game was given up meanwhile and the arm sets the board up: its own reads
            // settle what the arm did.
            self.board.scan_after_arm = false;
            return Ok(None);
        }
        let Some(scan) = self.scan().await? else {
            return Ok(None);
        };
        self.board.scan_after_arm = false;
        if let Some(mover) = &mut self.mover {
            let geometry = self.host.game().position().variant().geometry();
            mover.confirm(&arm_squares::occupied(geometry, scan));
        }
        self.fix_from = Some(scan);
        Ok(Some(Event::ArmDone(scan)))
    }

    /// Gives `event` to the host and carries out its answer.
    async fn handle(&mut self, event: Event, workers: &mut Workers<M>) -> anyhow::Result<()> {
        // The clock, the board's own reads (setup, lights that follow the board) and hints wake
        // watchers only when they change what the robot waits for: a read while the visitor
        // moves must not look like a new turn to the simulated people.
        // A hint changes nothing the visitor waits for either: they go on with their turn.
        let quiet = match event {
            Event::Tick | Event::Scan(_) | Event::HintDone(_) | Event::Alternatives(_) => true,
            Event::LongPress(scan) => self.host.asks_for_hint(scan),
            _ => false,
        };
        let waiting = self.host.waiting_for();
        let now = self.now();
        let plies = self.host.game().moves().len();
        let pressed = match event {
            Event::Button(scan) | Event::LongPress(scan) => Some(scan),
            _ => None,
        };
        let arm_done = matches!(event, Event::ArmDone(_));
        let mut actions = self.host.handle(event, now);
        if let Some(scan) = pressed {
            self.track_hands(waiting, plies, scan);
        }
        if arm_done && !matches!(self.host.waiting_for(), Waiting::BoardFix(_)) {
            self.fix_from = None;
        }
        if self.host.waiting_for() == Waiting::VisitorMove
            && self.host.game().moves().len() >= self.config.max_plies
        {
            actions.extend(self.host.abandon("ply limit", now));
        }
        self.dispatch(actions, workers).await?;
        self.maybe_ask_to_crown(workers).await?;
        // Before the people see that the game ended: they are not asked to set up a board the
        // arm sets up.
        self.maybe_start_reset(workers).await?;
        if quiet && self.host.waiting_for() == waiting {
            // What a tick or a read changed (a fault counted while the robot only waited) is
            // saved now, not at the next move.
            self.save()?;
        } else {
            self.publish()?;
        }
        Ok(())
    }

    /// Tells the arm what the visitor's hands did that it must know of, after a press the host
    /// took (`waiting` is what it waited for, `plies` the game's length then): the pieces a
    /// move captured (and a man crowned) went into the rack, and so did the pieces taken off
    /// the board while putting the robot's move right.
    fn track_hands(&mut self, waiting: Waiting, plies: usize, scan: rules::Bitboard) {
        let Some(mover) = &mut self.mover else {
            return;
        };
        let game = self.host.game();
        match waiting {
            Waiting::VisitorMove if game.moves().len() == plies + 1 => {
                let before = game.positions()[plies];
                mover.visitor_moved(&before, &game.moves()[plies]);
            }
            Waiting::BoardFix(_) if !matches!(self.host.waiting_for(), Waiting::BoardFix(_)) => {
                let Some(left) = self.fix_from.take() else {
                    return;
                };
                // What stood there before the robot's move, or after it.
                let positions = game.positions();
                let after = positions[positions.len() - 1];
                let before = positions[positions.len().saturating_sub(2)];
                let robot = arm_squares::colour(self.host.robot());
                let pieces: Vec<hal::arm::Piece> = (left - scan)
                    .into_iter()
                    .map(|sq| {
                        arm_squares::piece_at(&before, sq)
                            .or_else(|| arm_squares::piece_at(&after, sq))
                            .unwrap_or(hal::arm::Piece::man(robot))
                    })
                    .collect();
                mover.cleared_by_hand(&pieces);
            }
            _ => {}
        }
    }

    /// Carries out the host's actions in order, starting workers where they take time.
    async fn dispatch(
        &mut self,
        actions: Vec<Action>,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        for action in actions {
            match action {
                Action::Search {
                    position,
                    history,
                    rate_visitor_move,
                } => {
                    self.stop_background_search(workers).await?;
                    let purpose = Purpose::RobotMove { rate_visitor_move };
                    self.start_thinking(purpose, position, history, workers)?;
                }
                Action::Hint { position, history } => {
                    // A hint asked for while another is searched for waits for that one;
                    // pondering gives way to it.
                    if workers.thinking_for == Purpose::Ponder {
                        self.stop_background_search(workers).await?;
                    }
                    if workers.thinking.is_none() {
                        self.start_thinking(Purpose::Hint, position, history, workers)?;
                    }
                }
                Action::MoveArm { before, mv } => {
                    let mut mover = self.mover.take().context("the arm is already moving")?;
                    workers.moving = Some(tokio::spawn(async move {
                        let result = mover.make_move(&before, &mv).await;
                        (mover, result)
                    }));
                }
                Action::VerifyBoard => {
                    self.board.scan_after_arm = true;
                    if let Some(event) = self.read_after_arm().await? {
                        let more = self.host.handle(event, self.now());
                        Box::pin(self.dispatch(more, workers)).await?;
                    }
                }
                other => self.perform(other).await?,
            }
        }
        Ok(())
    }

    /// Starts a search for `purpose` on the brain.
    fn start_thinking(
        &mut self,
        purpose: Purpose,
        position: Position,
        history: Vec<Position>,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        let mut brain = self.brain.take().context("a search is already running")?;
        if purpose != Purpose::Ponder && std::mem::take(&mut self.new_visitor) {
            brain.forget_visitor();
        }
        workers.stop_thinking = Arc::new(AtomicBool::new(false));
        workers.thinking_for = purpose;
        workers.thinking = Some(thinking::think(
            self.config.think_on,
            brain,
            thinking::Search {
                purpose,
                position,
                history,
                budget: self.config.move_time,
                stop: Arc::clone(&workers.stop_thinking),
            },
        ));
        Ok(())
    }

    /// Stops a hint's search or pondering, if one runs, and takes the brain back: the robot's
    /// own move comes first. Its answer is dropped, and the host is told so. The search checks
    /// the flag every 1024 nodes, so the brain is back within a fraction of a millisecond.
    async fn stop_background_search(&mut self, workers: &mut Workers<M>) -> anyhow::Result<()> {
        if !matches!(workers.thinking_for, Purpose::Hint | Purpose::Ponder) {
            return Ok(());
        }
        let Some(task) = workers.thinking.take() else {
            return Ok(());
        };
        workers.stop_thinking.store(true, Ordering::Relaxed);
        let (brain, answer) = task
            .await
            .context("the background search's thread failed")?;
        self.brain = Some(brain);
        if let Some(event) = answer.pondered {
            self.log(&event)?;
        }
        Ok(())
    }

    /// Thinks on the visitor's time: while the visitor is to move and the brain is idle, it
    /// searches the position the visitor faces ([`player::Brain::ponder`]), once a position;
    /// once the visitor's turn is over in another way (a take-back, the game's end), the
    /// flag stops it and the brain comes back as a search's does.
    fn ponder_while_the_visitor_thinks(
        &mut self,
        waiting: Waiting,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        if workers.thinking.is_some() {
            if workers.thinking_for == Purpose::Ponder && waiting != Waiting::VisitorMove {
                workers.stop_thinking.store(true, Ordering::Relaxed);
            }
            return Ok(());
        }
        if !self.config.ponder || waiting != Waiting::VisitorMove {
            return Ok(());
        }
        let Some(brain) = &self.brain else {
            return Ok(());
        };
        let positions = self.host.game().positions();
        let Some((position, history)) = positions.split_last() else {
            return Ok(());
        };
        if !brain.ponders() || !self.pondered.first_time(positions.len(), position) {
            return Ok(());
        }
        let history = history.to_vec();
        self.start_thinking(Purpose::Ponder, *position, history, workers)
    }

    /// Lets running work end, parks the arm and returns the counters.
    async fn finish(mut self, workers: Workers<M>) -> anyhow::Result<Stats> {
        if let Some(task) = workers.thinking {
            // Pondering has no budget: only the flag ends its thread.
            workers.stop_thinking.store(true, Ordering::Relaxed);
            task.abort();
        }
        if let Some(task) = workers.moving {
            // A move half made is worse than a late shutdown: let the arm finish.
            if let Ok((mover, _)) = task.await {
                self.mover = Some(mover);
            }
        }
        if let Some(mover) = &mut self.mover
            && let Err(err) = mover.park().await
        {
            tracing::warn!("parking the arm at shutdown: {err}");
        }
        Ok(self.records.stats)
    }

    /// Saves what changed and tells watchers what the robot waits for now.
    fn publish(&mut self) -> anyhow::Result<()> {
        self.save()?;
        let waiting = self.host.waiting_for();
        let position = *self.host.game().position();
        let set_up = self.host.next_start();
        // While the arm works its stock is with it: the last one shown stays.
        let stock = self.mover.as_ref().map(PieceMover::stock);
        self.stage.send_modify(|stage| {
            stage.waiting = waiting;
            stage.position = position;
            stage.set_up = set_up;
            if let Some(stock) = stock {
                stage.stock = stock;
            }
            stage.serial += 1;
        });
        Ok(())
    }

    /// Writes the journal and the counters when they changed since the last write.
    fn save(&mut self) -> anyhow::Result<()> {
        let Some(persistence) = &mut self.records.persistence else {
            return Ok(());
        };
        let journal = self
            .host
            .snapshot()
            .zip(self.records.game_id.clone())
            .map(|(snapshot, game_id)| Journal { game_id, snapshot });
        // Counters, archive, journal, in this order: a ply or an end the counters hold that
        // the journal lacks is played again after a restart and counted once
        // (`Stats::count`); a game in the archive is never resumed (`start_or_resume`). Any
        // other order would let a stop between two writes lose a ply or a game from the
        // counters, or archive a game twice.
        Self::save_stats(persistence, &self.records.stats)?;
        if let Some(pdn) = persistence.unarchived.take() {
            persistence.dir.archive(&pdn)?;
        }
        if journal != persistence.journal {
            persistence.dir.save_journal(journal.as_ref())?;
            persistence.journal = journal;
        }
        Ok(())
    }

    fn save_stats(persistence: &mut Persistence, stats: &Stats) -> anyhow::Result<()> {
        if *stats != persistence.stats {
            persistence.dir.save_stats(stats)?;
            persistence.stats = stats.clone();
        }
        Ok(())
    }

    /// Makes a finished game's archive entry, written by the next save (after the counters,
    /// before the journal goes).
    fn archive(&mut self, record: &GameRecord) {
        let Some(persistence) = &mut self.records.persistence else {
            return;
        };
        let date = utc_date(std::time::SystemTime::now());
        let id = self.records.game_id.clone().unwrap_or_default();
        let mut tags: Vec<(&str, &str)> = vec![("Date", &date), ("CheckerbotGame", &id)];
        tags.extend(
            self.config
                .archive_tags
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        persistence.unarchived = Some(record.pdn(&tags));
        self.records.archived_at = Some(persistence.dir.archive_path().display().to_string());
    }

    /// A debounced scan as engine squares; `None` (after logging a fault) when the board would
    /// not settle or the sensor failed in a way worth retrying.
    async fn scan(&mut self) -> anyhow::Result<Option<rules::Bitboard>> {
        match stable_scan(&mut self.board.device, self.config.debounce).await {
            Ok(scan) => {
                let geometry = self.host.game().position().variant().geometry();
                let squares = occupancy_map::to_bitboard(geometry, &scan);
                // Shown with the next change of stage, without waking its watchers now.
                self.stage.send_if_modified(|stage| {
                    stage.scan = Some(squares);
                    false
                });
                Ok(Some(squares))
            }
            Err(DebounceError::Flickering(squares)) => {
                let variant = self.host.game().position().variant();
                let names: Vec<String> = squares
                    .iter()
                    .filter_map(|&i| variant.geometry().square(i))
                    .map(|sq| notation::square_name(variant, sq))
                    .collect();
                self.fault(
                    Device::Board,
                    &format!(
                    "the sensors under {} keep changing: check for a stray magnet or a loose sensor",
                    names.join(", ")
                ),
                )?;
                Ok(None)
            }
            Err(DebounceError::Sensor(err)) => {
                self.device_error("board sensor", &err)?;
                Ok(None)
            }
        }
    }

    /// Logs a device error; a lost link is reconnected by the loop.
    fn device_error(&mut self, device: &str, err: &B::Error) -> anyhow::Result<()> {
        if err.kind() == ErrorKind::Disconnected {
            if self.board.lost {
                return Ok(());
            }
            self.board.lost = true;
            return self.fault(Device::Board, &format!("{device}: {err}; reconnecting"));
        }
        self.fault(Device::Board, &format!("{device}: {err}"))
    }

    /// Opens the board's link again, waiting longer after each failure; false on shutdown.
    /// A link that died young counts as a failure too: the waits go on growing from where the
    /// last reconnection left them, and start afresh only after a link that lasted.
    async fn reconnect_board(
        &mut self,
        shutdown: &mut broadcast::Receiver<()>,
    ) -> anyhow::Result<bool> {
        if let Some(wait) = self.board.reopening.lost() {
            tracing::debug!("the board controller's link died young: waiting {wait:?}");
            tokio::select! {
                biased;
                _ = shutdown.recv() => return Ok(false),
                () = tokio::time::sleep(wait) => {}
            }
        }
        let mut attempts = 0u32;
        loop {
            attempts += 1;
            match (self.board.reconnect)().await {
                Ok(board) => {
                    self.board.device = board;
                    self.board.lost = false;
                    self.board.reopening.reopened();
                    // The new session's controller shows nothing until told.
                    self.face.sent = None;
                    self.lights.sent = None;
                    self.log(&LogEvent::Reconnected {
                        device: Device::Board,
                        attempts,
                    })?;
                    if let Some(face) = self.face.current {
                        self.show_face(&face).await?;
                    }
                    let lighting = self.host.lighting();
                    if !lighting.is_dark() {
                        self.show_lights(lighting).await?;
                    }
                    return Ok(true);
                }
                Err(err) => tracing::debug!("reconnecting to the board controller: {err:#}"),
            }
            tokio::select! {
                biased;
                _ = shutdown.recv() => return Ok(false),
                () = tokio::time::sleep(self.board.reopening.failed()) => {}
            }
        }
    }

    fn fault(&mut self, device: Device, message: &str) -> anyhow::Result<()> {
        self.log(&LogEvent::Fault {
            device,
            message: message.to_owned(),
        })
    }

    fn log(&mut self, event: &LogEvent) -> anyhow::Result<()> {
        let now = self.now();
        let filled;
        let event = match event {
            LogEvent::GameStarted { .. } if self.awaiting_fill.is_some() => {
                let fen = self.awaiting_fill.take().unwrap_or_default();
                self.log(&LogEvent::PositionSetUp {
                    fen,
                    by: host::SetUpBy::Visitor,
                })?;
                return self.log(event);
            }
            LogEvent::GameStarted { game, .. } => {
                self.records.game_id = Some(format!("{}-{game}", self.records.session));
                // A new game may begin where the last one did: its start is pondered again.
                self.pondered.new_game();
                self.new_visitor = self.last_game_ended.is_some_and(|ended| {
                    now.0.saturating_sub(ended.0) >= NEW_VISITOR_AFTER.as_millis() as u64
                });
                event
            }
            LogEvent::GameOver {
                result,
                reason,
                pdn: None,
            } => {
                filled = LogEvent::GameOver {
                    result: result.clone(),
                    reason: reason.clone(),
                    pdn: self.records.archived_at.take(),
                };
                &filled
            }
            _ => event,
        };
        let game = GameNow {
            id: self.records.game_id.as_deref().unwrap_or_default(),
            plies: self.host.game().moves().len() as u64,
            robot_is_white: self.host.robot() == Color::White,
        };
        self.records.stats.count(event, game);
        if matches!(event, LogEvent::GameOver { .. }) {
            self.records.games_done += 1;
            self.last_game_ended = Some(now);
            self.reset_wanted = self.config.sets_board_up();
        }
        let view = EventContext {
            host: &self.host,
            face: self.face.current.as_ref(),
            game,
        };
        for observer in &mut self.observers {
            observer.event(now, event, view)?;
        }
        Ok(())
    }

    /// Carries out an action that needs no worker.
    async fn perform(&mut self, action: Action) -> anyhow::Result<()> {
        match action {
            Action::Face(face) => {
                self.face.current = Some(face);
                self.show_face(&face).await?;
            }
            Action::Say {
                request,
                explanation,
            } => {
                let category = request.category;
                let (line, text) = self
                    .voice
                    .speak(&request, explanation.as_ref())
                    .map_or_else(|| (String::new(), String::new()), |s| (s.line.id, s.text));
                for observer in &mut self.observers {
                    observer.spoke(&text);
                }
                self.log(&LogEvent::Voice {
                    category,
                    line,
                    text,
                })?;
            }
            Action::Lights(lighting) => self.show_lights(lighting).await?,
            Action::Log(event) => self.log(&event)?,
            Action::GameFinished(record) => self.archive(&record),
            Action::Search { .. }
            | Action::Hint { .. }
            | Action::MoveArm { .. }
            | Action::VerifyBoard => {
                unreachable!("the loop starts workers itself")
            }
        }
        Ok(())
    }

    /// Shows `lighting` on the board's lights and logs it, where the board has lights; a
    /// board without them gets nothing. Lights that fail are reported once and never stop the
    /// game.
    async fn show_lights(&mut self, lighting: host::BoardLighting) -> anyhow::Result<()> {
        if !self.board.device.has_lights() || self.lights.sent == Some(lighting) {
            return Ok(());
        }
        let variant = self.host.game().position().variant();
        let lights = square_lights(variant.geometry(), &lighting);
        match self.board.device.show_lights(lights).await {
            Ok(()) => {
                self.lights.sent = Some(lighting);
                self.lights.failing = false;
                self.log(&LogEvent::board_lights(variant, &lighting))?;
            }
            Err(err) if !self.lights.failing => {
                self.lights.failing = true;
                self.device_error("board lights", &err)?;
            }
            Err(_) => {}
        }
        Ok(())
    }

    /// Sends what changed of the face to the controller. A face that fails is reported once and
    /// never stops the game.
    async fn show_face(&mut self, face: &emotions::FaceState) -> anyhow::Result<()> {
        let next = FaceCommands::render(face, &self.config.face);
        let changes = FaceChanges::between(self.face.sent.as_ref(), &next);
        let mut result = Ok(());
        if changes.eyes {
            result = self.board.device.show_eyes(next.eyes).await;
        }
        if changes.brows && result.is_ok() {
            result = self
                .board
                .device
                .set_brows(next.brows, next.transition)
                .await;
        }
        if changes.neck && result.is_ok() {
            result = self.board.device.set_neck(next.neck, next.transition).await;
        }
        match result {
            Ok(()) => {
                self.face.sent = Some(next);
                self.face.failing = false;
            }
            Err(err) if !self.face.failing => {
                self.face.failing = true;
                self.device_error("face", &err)?;
            }
            Err(_) => {}
        }
        Ok(())
    }
}

/// The position last pondered, keyed by the game's length then, so that each position of a
/// game is pondered once; a new game forgets it, since it may begin where the last one did.
#[derive(Debug, Default)]
struct PonderedOnce(Option<(usize, Position)>);

impl PonderedOnce {
    /// Whether `position`, at the game's length `plies`, was not pondered yet; notes it.
    fn first_time(&mut self, plies: usize, position: &Position) -> bool {
        let this = Some((plies, *position));
        if self.0 == this {
            return false;
        }
        self.0 = this;
        true
    }

    /// A game started.
    fn new_game(&mut self) {
        self.0 = None;
    }
}
