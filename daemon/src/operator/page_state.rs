//! What the operator page shows, kept up to date from the robot's events and visible state: the board
//! as the engine believes it beside what the sensors saw, the last moves, the win-probability
//! graph, the face, the last lines, problems, devices, today's counters and the settings.
//!
//! The page renders this as it is (one JSON object), so everything it shows is decided here,
//! where tests can see it.

use std::collections::VecDeque;

use emotions::{FaceSettings, Frame, Millis};
use rules::{Bitboard, Color, Position, Role, notation};
use serde::Serialize;

use crate::robot::EventContext;
use crate::state::Stats;
use host::{Device, LogEvent, Waiting};

/// How many of each list the page keeps.
const RECENT_MOVES: usize = 16;
const RECENT_LINES: usize = 8;
const RECENT_PROBLEMS: usize = 10;

/// The page's whole state, as sent to it.
#[derive(Debug, Clone, Serialize)]
pub struct PageState {
    /// The big line: what is happening, readable from two metres.
    pub status: String,
    /// `setup`, `visitor`, `board_fix`, `robot` or `paused`.
    pub waiting: &'static str,
    /// The game in progress (or the last one).
    pub game: GameView,
    /// Every dark square: the engine's piece and what the sensors saw.
    pub board: BoardView,
    /// The robot's win probability after each of its moves this game.
    pub v: Vec<VPoint>,
    /// The face shown now.
    pub expression: Option<ExpressionView>,
    /// The last lines said, newest last.
    pub voice: VecDeque<Said>,
    /// Visitor mistakes, board mismatches and faults, newest last.
    pub problems: VecDeque<Problem>,
    /// Each device's last known state.
    pub devices: Devices,
    /// Counters since midnight UTC.
    pub today: Today,
    /// The settings the page can change.
    pub settings: SettingsView,
    /// The moves an ambiguous press could have been (the operator picks one).
    pub choices: Vec<ChoiceView>,
    /// Whether control actions need the token.
    pub token_required: bool,
    /// Whether settings can be written back to a settings file.
    pub settings_file: Option<String>,
    /// What waits beside the board as the arm's stock has it (`None` before the arm said).
    pub stock: Option<StockView>,
    /// Time of the last event, ms since start.
    pub t: u64,
}

/// What waits beside the board, slot by slot, as the arm's stock has it: the rack where
/// captured pieces go and the reserve of spare kings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StockView {
    /// Each rack slot in order: `w`, `b` (men), `W`, `B` (kings) or empty.
    pub rack: Vec<&'static str>,
    /// Each reserve slot, the same way.
    pub reserve: Vec<&'static str>,
    /// The same in words, such as "rack: 2 white men, 1 black man (3 of 32 slots); reserve:
    /// 2 white kings, 2 black kings".
    pub text: String,
}

impl StockView {
    /// The view of `stock`.
    pub fn of(stock: &hal::arm::Stock) -> StockView {
        use hal::arm::{Piece, PieceColour, PieceKind};
        let letter = |slot: &Option<Piece>| match slot {
            None => "",
            Some(piece) => match (piece.colour, piece.kind) {
                (PieceColour::White, PieceKind::Man) => "w",
                (PieceColour::Black, PieceKind::Man) => "b",
                (PieceColour::White, PieceKind::King) => "W",
                (PieceColour::Black, PieceKind::King) => "B",
            },
        };
        let words = |slots: &[Option<Piece>]| {
            let mut parts = Vec::new();
            for (colour, colour_name) in
                [(PieceColour::White, "white"), (PieceColour::Black, "black")]
            {
                for (kind, one, many) in [
                    (PieceKind::Man, "man", "men"),
                    (PieceKind::King, "king", "kings"),
                ] {
                    let n = slots
                        .iter()
                        .flatten()
                        .filter(|piece| piece.colour == colour && piece.kind == kind)
                        .count();
                    if n > 0 {
                        let noun = if n == 1 { one } else { many };
                        parts.push(format!("{n} {colour_name} {noun}"));
                    }
                }
            }
            if parts.is_empty() {
                "empty".to_owned()
            } else {
                parts.join(", ")
            }
        };
        let (rack, reserve) = (stock.rack(), stock.reserve());
        let held = rack.iter().flatten().count();
        let text = if rack.is_empty() {
            format!("no rack; reserve: {}", words(reserve))
        } else {
            format!(
                "rack: {} ({held} of {} slots); reserve: {}",
                words(rack),
                rack.len(),
                words(reserve)
            )
        };
        StockView {
            rack: rack.iter().map(letter).collect(),
            reserve: reserve.iter().map(letter).collect(),
            text,
        }
    }
}

/// The game in progress.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GameView {
    /// Games started since the daemon started (journal included).
    pub number: u32,
    /// Variant name.
    pub variant: String,
    /// The robot's colour.
    pub robot: String,
    /// The last moves, oldest first.
    pub moves: Vec<MoveView>,
    /// The result once over.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
}

/// One move of the list.
#[derive(Debug, Clone, Serialize)]
pub struct MoveView {
    /// 1 for the first move of the game.
    pub ply: usize,
    /// `robot` or `visitor`.
    pub by: &'static str,
    /// Move text.
    pub text: String,
    /// The coach's mark on a visitor's move: `?` (a mistake), `??` (a blunder) or empty.
    pub mark: &'static str,
    /// What the game's record says about the move (the coach's rating and lesson, the robot's
    /// win probability), if anything.
    pub note: Option<String>,
}

/// The board, both ways.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BoardView {
    /// Squares along an edge.
    pub side: usize,
    /// Dark squares.
    pub squares: Vec<SquareView>,
    /// Whether any square differs between engine and sensors.
    pub differs: bool,
    /// Whether there was a scan yet.
    pub scanned: bool,
}

/// One dark square.
#[derive(Debug, Clone, Serialize)]
pub struct SquareView {
    /// Its name in the variant's notation.
    pub name: String,
    /// Row from White's side (0 = White's back rank).
    pub row: usize,
    /// Column from White's left.
    pub col: usize,
    /// `w`, `b` (men), `W`, `B` (kings) or empty.
    pub piece: &'static str,
    /// Whether the last scan saw a piece here (`None` before any scan).
    pub sensed: Option<bool>,
    /// The sensors disagree with the engine here.
    pub differs: bool,
    /// What the board's light under this square shows (`None`: dark, or no lights).
    pub light: Option<LightView>,
}

/// A lit square's light, as the last `board_lights` event set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LightView {
    /// `green` (fill it), `red` (clear it), `blue` (the robot's move) or `white` (a hint).
    pub colour: host::LightColour,
    /// `on` or `blinking`.
    pub mode: host::LightMode,
}

/// A move an ambiguous press could have been.
#[derive(Debug, Clone, Serialize)]
pub struct ChoiceView {
    /// What the operator clicks, and sends back to `/api/resolve`.
    pub label: String,
    /// The squares it touches (from, to, captured), highlighted on the board.
    pub squares: Vec<String>,
}

/// One point of the win-probability graph.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct VPoint {
    /// Plies played when the robot moved.
    pub ply: usize,
    /// The robot's win probability.
    pub v: f32,
}

/// The face.
#[derive(Debug, Clone, Serialize)]
pub struct ExpressionView {
    /// Emotion name.
    pub emotion: String,
    /// 0..1.
    pub intensity: f32,
    /// The left eye's 8 rows, most significant bit the left column.
    pub left_eye: [u8; 8],
    /// The right eye's rows.
    pub right_eye: [u8; 8],
}

/// A line said.
#[derive(Debug, Clone, Serialize)]
pub struct Said {
    /// ms since start.
    pub t: u64,
    /// Line category.
    pub category: String,
    /// The words.
    pub text: String,
}

/// A mistake, mismatch or fault.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// ms since start.
    pub t: u64,
    /// `mistake`, `mismatch`, `fault`, `reset` (the robot set the board up, or stopped) or
    /// `set_up` (the next game's start stands on the board).
    pub kind: &'static str,
    /// What happened.
    pub text: String,
}

/// The devices as the events report them: a fault marks its device, a sign of work (a
/// reconnection, a move read from the board, the arm's move done, a search's move) clears it.
#[derive(Debug, Clone, Serialize)]
pub struct Devices {
    /// The board controller: Hall sensors, button, face, and its link.
    pub board: DeviceState,
    /// The arm and its link.
    pub arm: DeviceState,
    /// The robot's player.
    pub brain: DeviceState,
}

impl Devices {
    fn of(&mut self, device: Device) -> &mut DeviceState {
        match device {
            Device::Board => &mut self.board,
            Device::Arm => &mut self.arm,
            Device::Brain => &mut self.brain,
        }
    }
}

/// One device.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceState {
    /// Working as far as anyone knows.
    pub ok: bool,
    /// The last problem, or `ok`.
    pub message: String,
}

impl DeviceState {
    fn ok() -> DeviceState {
        DeviceState {
            ok: true,
            message: "ok".to_owned(),
        }
    }

    fn failed(message: &str) -> DeviceState {
        DeviceState {
            ok: false,
            message: message.to_owned(),
        }
    }
}

/// Today's counters.
#[derive(Debug, Clone, Serialize)]
pub struct Today {
    /// `YYYY-MM-DD`, UTC.
    pub date: String,
    /// The counters.
    #[serde(flatten)]
    pub stats: Stats,
    /// Visitor mistakes of every kind.
    pub mistakes_total: u32,
}

/// The settings the page shows and changes.
#[derive(Debug, Clone, Serialize)]
pub struct SettingsView {
    /// `play.level`.
    pub level: checkerbot_config::PlayLevel,
    /// `emotions.attitude`.
    pub attitude: String,
    /// `sounds.language`.
    pub language: String,
    /// `sounds.volume`.
    pub volume: f32,
    /// `emotions.announce_moves`.
    pub announce_moves: &'static str,
    /// `coach.enabled`.
    pub coach_enabled: bool,
    /// `coach.hints_per_game`.
    pub hints_per_game: u32,
    /// `coach.take_backs`.
    pub take_backs: bool,
    /// `game.reset_board`.
    pub reset_board: bool,
}

impl SettingsView {
    /// The page's part of `settings`.
    pub fn of(settings: &checkerbot_config::Settings) -> SettingsView {
        SettingsView {
            level: settings.play.level,
            attitude: settings.emotions.attitude.as_str().to_owned(),
            language: settings.sounds.language.code().to_owned(),
            volume: settings.sounds.volume,
            announce_moves: settings.emotions.announce_moves.as_str(),
            coach_enabled: settings.coach.enabled,
            hints_per_game: settings.coach.hints_per_game,
            take_backs: settings.coach.take_backs,
            reset_board: settings.game.reset_board,
        }
    }
}

/// The page's state and what it needs to keep it.
#[derive(Debug)]
pub struct PageStateTracker {
    state: PageState,
    position: Position,
    waiting: Waiting,
    scan: Option<Bitboard>,
    face: FaceSettings,
    /// The robot's colour, for counting results.
    robot: Color,
    /// The robot chose its move and the arm is making it (else, while the robot works, it
    /// thinks), for the status line.
    arm_moving: bool,
    /// The board's lit squares, by name, as the last `board_lights` event left them.
    lights: Vec<host::LitSquare>,
}

impl PageStateTracker {
    /// A page for a robot starting with `settings` at `position`.
    pub fn new(
        settings: &checkerbot_config::Settings,
        position: Position,
        token_required: bool,
        settings_file: Option<String>,
        date: String,
    ) -> PageStateTracker {
        let state = PageState {
            status: String::new(),
            waiting: "setup",
            game: GameView {
                variant: position.variant().name().to_owned(),
                ..GameView::default()
            },
            board: BoardView::default(),
            v: Vec::new(),
            expression: None,
            voice: VecDeque::new(),
            problems: VecDeque::new(),
            devices: Devices {
                board: DeviceState::ok(),
                arm: DeviceState::ok(),
                brain: DeviceState::ok(),
            },
            today: Today {
                date,
                stats: Stats::default(),
                mistakes_total: 0,
            },
            settings: SettingsView::of(settings),
            choices: Vec::new(),
            token_required,
            settings_file,
            stock: None,
            t: 0,
        };
        let mut tracker = PageStateTracker {
            state,
            position,
            waiting: Waiting::Setup,
            scan: None,
            face: settings.emotions.face.clone(),
            robot: Color::Black,
            arm_moving: false,
            lights: Vec::new(),
        };
        tracker.refresh();
        tracker
    }

    /// The state to send.
    pub fn state(&self) -> &PageState {
        &self.state
    }

    /// The arm's stock as the robot last published it.
    pub fn stock_changed(&mut self, stock: Option<&hal::arm::Stock>) {
        self.state.stock = stock.map(StockView::of);
    }

    /// The robot's visible state changed (after every event it handled): position, wait, scan.
    pub fn visible_state_changed(
        &mut self,
        position: Position,
        waiting: Waiting,
        scan: Option<Bitboard>,
    ) {
        self.position = position;
        self.waiting = waiting;
        self.scan = scan;
        self.refresh();
    }

    /// An event of the robot's log at `now`, with the host after it; `date` is today's (UTC).
    pub fn event(&mut self, now: Millis, event: &LogEvent, view: EventContext<'_>, date: &str) {
        let t = now.0;
        self.state.t = t;
        let host = view.host;
        self.robot = host.robot();
        self.position = *host.game().position();
        self.waiting = host.waiting_for();
        if self.state.today.date != date {
            self.state.today = Today {
                date: date.to_owned(),
                stats: Stats::default(),
                mistakes_total: 0,
            };
        }
        self.state.today.stats.count(event, view.game);
        self.state.today.mistakes_total = self.state.today.stats.mistakes_total();
        let variant = host.game().position().variant();
        self.state.choices = host
            .ambiguous()
            .iter()
            .map(|mv| ChoiceView {
                label: host.choice_label(mv),
                squares: [mv.from(), mv.to()]
                    .into_iter()
                    .chain(mv.captured())
                    .map(|sq| notation::square_name(variant, sq))
                    .collect(),
            })
            .collect();
        self.record(t, event, host);
        if let Some(face) = view.face {
            // The expression, eyes open: a blink caught by chance would tell the operator nothing.
            let mut open = *face;
            open.eyes_closed = false;
            let frame = Frame::render(&open, &self.face);
            self.state.expression = Some(ExpressionView {
                emotion: face.expression.emotion.as_str().to_owned(),
                intensity: face.expression.intensity,
                left_eye: frame.left_eye,
                right_eye: frame.right_eye,
            });
        }
        self.state.game.moves = recent_moves(host);
        self.refresh();
    }

    /// What an event adds to the page's lists and devices.
    fn record(&mut self, t: u64, event: &LogEvent, host: &host::Host) {
        match event {
            LogEvent::GameStarted {
                variant,
                robot,
                game,
            } => {
                self.state.game = GameView {
                    number: *game,
                    variant: variant.name().to_owned(),
                    robot: robot.name().to_owned(),
                    ..GameView::default()
                };
                self.state.v.clear();
            }
            // A game taken up from the journal after a restart.
            LogEvent::Resumed { .. } => {
                self.state.game = GameView {
                    number: host.snapshot().map_or(0, |s| s.games_started),
                    variant: host.game().variant().name().to_owned(),
                    robot: host.robot().name().to_owned(),
                    ..GameView::default()
                };
                self.state.v.clear();
            }
            LogEvent::RobotThinking => self.arm_moving = false,
            LogEvent::RobotMove { v, .. } => {
                self.arm_moving = true;
                self.state.v.push(VPoint {
                    ply: host.game().moves().len(),
                    v: *v,
                });
                self.state.devices.brain = DeviceState::ok();
            }
            LogEvent::ArmDone => self.state.devices.arm = DeviceState::ok(),
            LogEvent::BoardLights { lights } => self.lights.clone_from(lights),
            // The coach's mistakes and blunders with what they allow, its hints, and the moves
            // taken back.
            LogEvent::Advice { kind, mv, text, .. } => self.advice(t, *kind, mv, text),
            LogEvent::VisitorMove { .. } => self.state.devices.board = DeviceState::ok(),
            LogEvent::BoardReset { .. }
            | LogEvent::PositionSetUp { .. }
            | LogEvent::PuzzleMiss { .. } => {
                self.record_reset(t, event);
            }
            LogEvent::VisitorMistake { message, .. } => self.problem(t, "mistake", message),
            LogEvent::BoardMismatch { missing, extra } => {
                self.problem(t, "mismatch", &mismatch_text(missing, extra));
            }
            LogEvent::Fault { device, message } => {
                self.problem(t, "fault", &format!("{}: {message}", device.as_str()));
                *self.state.devices.of(*device) = DeviceState::failed(message);
            }
            LogEvent::Reconnected { device, .. } => {
                *self.state.devices.of(*device) = DeviceState::ok();
            }
            LogEvent::Voice { category, text, .. } => {
                if !text.is_empty() {
                    self.state.voice.push_back(Said {
                        t,
                        category: category.as_str().to_owned(),
                        text: text.clone(),
                    });
                    if self.state.voice.len() > RECENT_LINES {
                        self.state.voice.pop_front();
                    }
                }
            }
            LogEvent::SettingsReloaded {
                level,
                attitude,
                language,
                volume,
                announce_moves,
                coach,
                reset_board,
            } => {
                self.state.settings = SettingsView {
                    level: *level,
                    attitude: attitude.as_str().to_owned(),
                    language: language.code().to_owned(),
                    volume: *volume,
                    announce_moves: announce_moves.as_str(),
                    coach_enabled: coach.enabled,
                    hints_per_game: coach.hints_per_game,
                    take_backs: coach.take_backs,
                    reset_board: *reset_board,
                };
            }
            LogEvent::GameOver { result, reason, .. } => {
                self.state.game.result = Some(result.clone());
                self.state.game.reason = Some(reason.clone());
            }
            LogEvent::NoHintsLeft { hints_per_game } => self.problem(
                t,
                "advice",
                &format!("No hint left: the visitor had all {hints_per_game} of this game"),
            ),
            // Shown through the moves, the face and the status line; pondering is only logged.
            LogEvent::ButtonPressed
            | LogEvent::ButtonHeld
            | LogEvent::Operator { .. }
            | LogEvent::Expression { .. }
            | LogEvent::Pondered { .. } => {}
        }
    }

    /// The coach's advice in the page's list; inaccuracies are only logged.
    fn advice(&mut self, t: u64, kind: host::AdviceKind, mv: &str, text: &str) {
        let said = match kind {
            host::AdviceKind::Inaccuracy => return,
            host::AdviceKind::Mistake => format!("Mistake {mv}: {text}"),
            host::AdviceKind::Blunder => format!("Blunder {mv}: {text}"),
            host::AdviceKind::Hint => format!("Hint {mv}: {text}"),
            host::AdviceKind::TakeBack => format!("Taken back: {mv}"),
            host::AdviceKind::TurningPoint => format!("Turning point {mv}: {text}"),
            host::AdviceKind::Praise => format!("Praised {mv}: {text}"),
        };
        self.problem(t, "advice", &said);
    }

    /// A reset of the board after a game, the next game's position set up, or a puzzle's
    /// miss, in the list.
    fn record_reset(&mut self, t: u64, event: &LogEvent) {
        match event {
            LogEvent::BoardReset {
                result,
                pieces_moved,
                duration_ms,
                squares,
                reason,
                ..
            } => {
                let seconds = *duration_ms as f64 / 1000.0;
                let text = match result {
                    host::ResetResult::Done => {
                        format!("board set up: {pieces_moved} pieces moved in {seconds:.0} s")
                    }
                    host::ResetResult::Short => format!(
                        "board set up short of pieces ({pieces_moved} moved): fill {}",
                        squares.join(", ")
                    ),
                    host::ResetResult::Failed => format!(
                        "setting the board up stopped ({reason}); fill {}",
                        squares.join(", ")
                    ),
                };
                self.problem(t, "reset", &text);
            }
            LogEvent::PositionSetUp { by, fen } => {
                let who = match by {
                    host::SetUpBy::Robot => "the robot",
                    host::SetUpBy::Visitor => "hand",
                };
                self.problem(
                    t,
                    "set_up",
                    &format!("the next game's position set up by {who}: {fen}"),
                );
            }
            LogEvent::PuzzleMiss {
                mv,
                expected,
                showing,
            } => {
                let then = if *showing {
                    "the robot shows the solution"
                } else {
                    "tried again"
                };
                let text = format!("puzzle: {mv} is not the shot ({expected}); {then}");
                self.problem(t, "puzzle", &text);
            }
            _ => {}
        }
    }

    fn problem(&mut self, t: u64, kind: &'static str, text: &str) {
        self.state.problems.push_back(Problem {
            t,
            kind,
            text: text.to_owned(),
        });
        if self.state.problems.len() > RECENT_PROBLEMS {
            self.state.problems.pop_front();
        }
    }

    /// Recomputes what follows from the position, the wait and the scan.
    fn refresh(&mut self) {
        self.state.board = board_view(&self.position, self.scan, &self.lights);
        self.state.waiting = match self.waiting {
            Waiting::Setup => "setup",
            Waiting::VisitorMove => "visitor",
            Waiting::BoardFix(_) => "board_fix",
            Waiting::TakeBack(_) => "take_back",
            Waiting::Robot => "robot",
            Waiting::Paused => "paused",
        };
        self.state.status = self.status();
    }

    fn status(&self) -> String {
        let game = &self.state.game;
        match self.waiting {
            Waiting::Setup => match &game.result {
                Some(result) if result == "*" => {
                    "Game stopped: set up the board for a new game".to_owned()
                }
                Some(result) => format!("Game over {result}: set up the board for a new game"),
                None => "Set up the board for a new game".to_owned(),
            },
            Waiting::VisitorMove if !self.state.choices.is_empty() => {
                "Which move was it? Choose below".to_owned()
            }
            Waiting::VisitorMove => {
                let color = (!self.robot).name();
                format!("Visitor ({color}) to move, then press the button")
            }
            Waiting::BoardFix(_) => "Put the board right, then press the button".to_owned(),
            Waiting::TakeBack(_) => {
                "Take-back offered: put the pieces back, or press the button to go on".to_owned()
            }
            Waiting::Robot if self.arm_moving => "The robot's arm is moving".to_owned(),
            Waiting::Robot => "The robot is thinking".to_owned(),
            Waiting::Paused => "Paused".to_owned(),
        }
    }
}

/// What differs on the board: "Board differs: a piece stands on e5; no piece on c3".
fn mismatch_text(missing: &[String], extra: &[String]) -> String {
    let mut text = Vec::new();
    if !extra.is_empty() {
        text.push(format!("a piece stands on {}", extra.join(", ")));
    }
    if !missing.is_empty() {
        text.push(format!("no piece on {}", missing.join(", ")));
    }
    format!("Board differs: {}", text.join("; "))
}

/// The last moves of the host's game, with who made each.
fn recent_moves(host: &host::Host) -> Vec<MoveView> {
    let game = host.game();
    let variant = game.position().variant();
    let positions = game.positions();
    // From an odd ply on, so the page can show the moves in pairs (first mover on the left).
    let first = game.moves().len().saturating_sub(RECENT_MOVES) / 2 * 2;
    game.moves()
        .iter()
        .enumerate()
        .skip(first)
        .map(|(ply, mv)| MoveView {
            ply: ply + 1,
            by: if positions[ply].turn() == host.robot() {
                "robot"
            } else {
                "visitor"
            },
            text: notation::move_text(variant, mv),
            mark: host
                .move_note(ply)
                .and_then(|note| note.mark)
                .map_or("", rules::pdn::MoveMark::as_str),
            note: host.move_note(ply).and_then(|note| note.comment.clone()),
        })
        .collect()
}

/// Every dark square with the engine's piece, the sensors' reading and its light.
pub fn board_view(
    position: &Position,
    scan: Option<Bitboard>,
    lights: &[host::LitSquare],
) -> BoardView {
    let variant = position.variant();
    let geometry = variant.geometry();
    let squares: Vec<SquareView> = geometry
        .squares()
        .map(|sq| {
            let (row, col) = geometry.coords(sq);
            let piece = match position.piece_at(sq) {
                None => "",
                Some(p) => match (p.color, p.role) {
                    (Color::White, Role::Man) => "w",
                    (Color::White, Role::King) => "W",
                    (Color::Black, Role::Man) => "b",
                    (Color::Black, Role::King) => "B",
                },
            };
            let sensed = scan.map(|scan| scan.contains(sq));
            let stands = !piece.is_empty();
            let name = notation::square_name(variant, sq);
            let light = lights
                .iter()
                .find(|lit| lit.square == name)
                .map(|lit| LightView {
                    colour: lit.colour,
                    mode: lit.mode,
                });
            SquareView {
                name,
                row,
                col,
                piece,
                sensed,
                differs: sensed.is_some_and(|seen| seen != stands),
                light,
            }
        })
        .collect();
    BoardView {
        side: geometry.side(),
        differs: squares.iter().any(|s| s.differs),
        scanned: scan.is_some(),
        squares,
    }
}

#[cfg(test)]
mod tests {
    use emotions::{Mind, Settings};
    use rules::recognition::outcome;
    use rules::{Variant, notation};

    use super::*;
    use crate::state::GameNow;
    use host::{Action, Event, Host, RobotColor, SearchReply};

    /// What the robot shows its observers of `host`, with no face.
    fn view_of(host: &Host) -> EventContext<'_> {
        EventContext {
            host,
            face: None,
            game: GameNow {
                id: "test",
                plies: host.game().moves().len() as u64,
                robot_is_white: host.robot() == rules::Color::White,
            },
        }
    }

    /// Feeds `event` to the host and every event it logs to the tracker, the lights as a
    /// board with lights logs them.
    fn step(host: &mut Host, tracker: &mut PageStateTracker, event: Event, t: u64) {
        for action in host.handle(event, Millis(t)) {
            let event = match action {
                Action::Log(event) => event,
                Action::Lights(lighting) => {
                    LogEvent::board_lights(host.game().variant(), &lighting)
                }
                _ => continue,
            };
            tracker.event(Millis(t), &event, view_of(host), "2026-11-30");
        }
    }

    #[test]
    fn the_page_follows_a_game_and_shows_where_the_board_differs() {
        let settings = checkerbot_config::Settings::default();
        let start = Position::new(Variant::Russian);
        let mut tracker =
            PageStateTracker::new(&settings, start, false, None, "2026-11-30".to_owned());
        let mut host = Host::new(
            Variant::Russian,
            RobotColor::Alternate,
            Mind::new(Settings::default(), 1),
        );
        step(&mut host, &mut tracker, Event::Scan(start.occupied()), 0);
        assert_eq!(tracker.state().game.number, 1);
        assert!(
            tracker
                .state()
                .status
                .starts_with("Visitor (white) to move")
        );

        // The visitor plays c3-d4; the robot answers f6-g5 with v = 0.6.
        let mv = notation::parse_move(&start, "c3-d4").unwrap();
        step(
            &mut host,
            &mut tracker,
            Event::Button(outcome(&start, &mv)),
            1_000,
        );
        assert_eq!(tracker.state().status, "The robot is thinking");
        let before = *host.game().position();
        let reply = notation::parse_move(&before, "f6-g5").unwrap();
        let search = SearchReply {
            mv: reply,
            v: 0.6,
            raw_v: 0.6,
            pv: vec![reply],
            think_ms: 3,
        };
        step(&mut host, &mut tracker, Event::SearchDone(search), 2_000);
        let state = tracker.state();
        assert_eq!(state.status, "The robot's arm is moving");
        let moves: Vec<(&str, &str)> = state
            .game
            .moves
            .iter()
            .map(|m| (m.by, m.text.as_str()))
            .collect();
        assert_eq!(moves, [("visitor", "c3-d4"), ("robot", "f6-g5")]);
        assert_eq!(state.v.len(), 1);
        assert_eq!((state.v[0].ply, state.v[0].v), (2, 0.6));
        assert_eq!(state.today.stats.plies, 2);

        // The sensors still show the board before the robot's move: f6 and g5 differ.
        tracker.visible_state_changed(
            *host.game().position(),
            host.waiting_for(),
            Some(before.occupied()),
        );
        let differing: Vec<&str> = tracker
            .state()
            .board
            .squares
            .iter()
            .filter(|s| s.differs)
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(differing, ["g5", "f6"]);
        assert!(tracker.state().board.differs);

        assert!(tracker.state().choices.is_empty());

        // A failed pick: the mismatch is listed; a fault names its device.
        step(
            &mut host,
            &mut tracker,
            Event::ArmDone(before.occupied()),
            3_000,
        );
        let state = tracker.state();
        assert_eq!(state.waiting, "board_fix");
        assert!(state.problems.iter().any(|p| p.kind == "mismatch"));
        // The board's lights ask for the man on f6 to go to g5.
        let lit: Vec<(&str, LightView)> = state
            .board
            .squares
            .iter()
            .filter_map(|s| Some((s.name.as_str(), s.light?)))
            .collect();
        let blinking = |colour| LightView {
            colour,
            mode: host::LightMode::Blinking,
        };
        assert_eq!(
            lit,
            [
                ("g5", blinking(host::LightColour::Green)),
                ("f6", blinking(host::LightColour::Red))
            ]
        );
        let fault = LogEvent::Fault {
            device: Device::Arm,
            message: "the Dobot did not answer".to_owned(),
        };
        tracker.event(Millis(4_000), &fault, view_of(&host), "2026-11-30");
        assert!(!tracker.state().devices.arm.ok);
        assert!(tracker.state().devices.board.ok);

        // A new day starts the day's counters afresh.
        tracker.event(Millis(5_000), &fault, view_of(&host), "2026-12-01");
        assert_eq!(tracker.state().today.date, "2026-12-01");
        assert_eq!(tracker.state().today.stats.faults, 1);
    }

    #[test]
    fn the_page_marks_the_visitors_blunder_and_lists_what_it_allows() {
        let start = rules::fen::parse(Variant::Russian, "W:Wc3,b4,g1:Be5,h8").unwrap();
        let mut host =
            Host::at_visitors_turn(start, Color::Black, Mind::new(Settings::default(), 1));
        host.set_coach(host::CoachSettings {
            take_backs: false,
            ..host::CoachSettings::default()
        });
        let settings = checkerbot_config::Settings::default();
        let mut tracker = PageStateTracker::new(&settings, start, false, None, String::new());
        let mut t = 0;
        let mut play = |host: &mut Host, tracker: &mut PageStateTracker, text: &str, v: f32| {
            let position = *host.game().position();
            let mv = notation::parse_move(&position, text).unwrap();
            t += 1_000;
            let event = if position.turn() == Color::White {
                Event::Button(outcome(&position, &mv))
            } else {
                Event::SearchDone(SearchReply {
                    mv,
                    v,
                    raw_v: v,
                    pv: vec![mv],
                    think_ms: 3,
                })
            };
            step(host, tracker, event, t);
            if position.turn() == Color::Black {
                step(
                    host,
                    tracker,
                    Event::ArmDone(outcome(&position, &mv)),
                    t + 500,
                );
            }
        };
        play(&mut host, &mut tracker, "g1-h2", 0.0);
        play(&mut host, &mut tracker, "h8-g7", 0.5);
        play(&mut host, &mut tracker, "c3-d4", 0.0);
        play(&mut host, &mut tracker, "e5:c3:a5", 0.95);
        let state = tracker.state();
        let blunder = state.game.moves.iter().find(|m| m.text == "c3-d4").unwrap();
        assert_eq!(blunder.mark, "??");
        assert!(
            blunder.note.as_deref().is_some_and(
                |note| note.starts_with("blunder: the visitor's expected score 0.50 -> 0.05")
            ),
            "{:?}",
            blunder.note
        );
        assert!(
            state
                .game
                .moves
                .iter()
                .filter(|m| m.text != "c3-d4")
                .all(|m| m.mark.is_empty())
        );
        assert!(state.problems.iter().any(|p| {
            p.kind == "advice"
                && p.text
                    .starts_with("Blunder c3-d4: Careful: now I can take your pieces")
        }));
    }

    #[test]
    fn an_ambiguous_press_lists_the_candidates_with_their_squares() {
        let position = rules::fen::parse(Variant::English, "W:Wc1:Bb2,b4,d2,d4").unwrap();
        let mind = Mind::new(Settings::default(), 1);
        let mut host = Host::at_visitors_turn(position, Color::Black, mind);
        let settings = checkerbot_config::Settings::default();
        let mut tracker = PageStateTracker::new(&settings, position, false, None, String::new());
        let sq = |name| notation::parse_square(Variant::English, name).unwrap();
        let scan = position.occupied().without(sq("c1")).with(sq("c5"));
        step(&mut host, &mut tracker, Event::Button(scan), 0);
        let state = tracker.state();
        assert_eq!(state.status, "Which move was it? Choose below");
        let choices: Vec<(&str, Vec<&str>)> = state
            .choices
            .iter()
            .map(|c| {
                (
                    c.label.as_str(),
                    c.squares.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            choices,
            [
                ("30x21x14 (taking 17, 25)", vec!["30", "14", "25", "17"]),
                ("30x23x14 (taking 18, 26)", vec!["30", "14", "26", "18"]),
            ]
        );
    }

    #[test]
    fn a_game_taken_up_from_the_journal_shows_its_number_and_sides() {
        let snapshot = host::Snapshot {
            variant: "russian".to_owned(),
            robot: "white".to_owned(),
            games_started: 7,
            start: None,
            moves: vec!["c3-d4".to_owned()],
            arm_pending: false,
            notes: Vec::new(),
            hints_given: 0,
            ratings: Vec::new(),
            take_back_offer: None,
        };
        let mind = Mind::new(Settings::default(), 1);
        let (host, actions) =
            Host::resume(RobotColor::Alternate, mind, &snapshot, Millis(0)).unwrap();
        let settings = checkerbot_config::Settings::default();
        let start = Position::new(Variant::Russian);
        let mut tracker = PageStateTracker::new(&settings, start, false, None, String::new());
        for action in actions {
            if let Action::Log(event) = action {
                tracker.event(Millis(0), &event, view_of(&host), "");
            }
        }
        let game = &tracker.state().game;
        assert_eq!((game.number, game.robot.as_str()), (7, "white"));
        assert_eq!(game.moves.len(), 1);
        assert_eq!(
            (game.moves[0].by, game.moves[0].text.as_str()),
            ("robot", "c3-d4")
        );
    }
}
