//! The game host: the robot's side of a game, as a state machine without I/O.
//!
//! The runtime feeds it [`Event`]s (button presses with the debounced scan, search replies, the
//! arm finishing, ticks) with the time, and carries out the [`Action`]s it returns (start a
//! search, move the arm, show a face, say a line, write the log). Keeping it pure lets tests
//! play whole games, mistakes and faults included, with a fake clock.
//!
//! A crate of its own so that the compiler enforces it: it depends on the rules, the emotion
//! model and serde, and on nothing that can do I/O (no tokio, no devices, no files).
#![warn(missing_docs)]

mod coach;
#[cfg(test)]
mod coach_tests;
mod crown_by_hand;
mod hint;
#[cfg(test)]
mod hint_tests;
mod lights;
#[cfg(test)]
mod lights_tests;
mod log_event;
mod operator;
#[cfg(test)]
mod operator_tests;
mod play_level;
mod puzzle;
#[cfg(test)]
mod puzzle_tests;
pub mod puzzles;
mod record;
mod reset;
mod set_up;
#[cfg(test)]
mod set_up_tests;
mod snapshot;
mod take_back;
#[cfg(test)]
mod take_back_tests;
#[cfg(test)]
mod tests;

pub use coach::{AdviceKind, CoachSettings, CoachSettingsError};
pub use lights::{BoardLighting, LightColour, LightMode, SquareLight};
pub use log_event::{
    Device, LitSquare, LogEvent, MistakeReason, OperatorAction, PonderEnd, ResetResult, SetUpBy,
};
pub use operator::Refused;
pub use play_level::{PlayLevel, PlayLevelError};
pub use record::GameRecord;
pub use snapshot::{NoteSnapshot, OfferSnapshot, RatingSnapshot, ResumeError, Snapshot};

use emotions::{Evaluation, Input, Language, LineRequest, Millis, Mind};
use rules::recognition::{self, MistakeKind, Recognition};
use rules::{Bitboard, Color, Game, GameResult, Move, Position, Variant, notation};
use speech::Utterance;

/// The change of intensity that is logged as a new expression.
const EXPRESSION_LOG_STEP: f32 = 0.1;

/// Which colour the robot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotColor {
    /// Always this colour.
    Fixed(Color),
    /// Changes every game; in the first game the visitor moves first.
    Alternate,
}

/// Something that happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The board's occupancy changed and is stable (setup, a piece lifted).
    Scan(Bitboard),
    /// The visitor pressed the button; the stable scan taken then.
    Button(Bitboard),
    /// The visitor held the button down; the stable scan taken then. It asks for a hint while
    /// the board still shows the position (the visitor has not moved yet); otherwise it is a
    /// press like any other, so a child who holds the button to confirm a move is not
    /// misunderstood.
    LongPress(Bitboard),
    /// The search for a hint finished: its `v` is the visitor's win probability.
    HintDone(SearchReply),
    /// How the visitor's legal moves before their last one compared: each with the visitor's
    /// win probability after it (see [`Action::Search`]'s `rate_visitor_move`).
    Alternatives(Vec<(Move, f32)>),
    /// The search finished.
    SearchDone(SearchReply),
    /// The arm finished the robot's move; the stable scan taken then.
    ArmDone(Bitboard),
    /// Time passed.
    Tick,
}

/// What the host waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// The starting position on the board.
    Setup,
    /// The visitor's move and a button press.
    VisitorMove,
    /// This occupancy (the robot's move done right) and a button press.
    BoardFix(Bitboard),
    /// The board as it was before the visitor's last move: the robot offers to take that move
    /// back (a blunder). A press with the board as it is goes on instead.
    TakeBack(Bitboard),
    /// Its own search or arm.
    Robot,
    /// Nothing: the operator paused the game (presses are ignored until it goes on).
    Paused,
}

/// What a search returned.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchReply {
    /// The move to play.
    pub mv: Move,
    /// The robot's win probability against this visitor: the search's value through the level's
    /// calibration, which also weighs how much stronger than most visitors the level plays. The
    /// face and the voice follow it.
    pub v: f32,
    /// The search's own win probability before the calibration: what the position is worth,
    /// whoever plays it. The coach rates the visitor's moves by it, since a level that beats
    /// most visitors maps most positions near a win, which would shrink every drop and call
    /// games decided that are not.
    pub raw_v: f32,
    /// The expected continuation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Time the search took.
    pub think_ms: u64,
}

/// Something the runtime must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Search `position` on a worker thread and send back [`Event::SearchDone`].
    Search {
        /// The position, robot to move.
        position: Position,
        /// Earlier positions of the game, oldest first (for repetitions).
        history: Vec<Position>,
        /// Whether to compare the visitor's alternatives to the move they just made (the last
        /// of `history` is the position before it) and send them back first, as
        /// [`Event::Alternatives`], for the coach's praise.
        rate_visitor_move: bool,
    },
    /// Make the robot's move with the arm and send back [`Event::ArmDone`].
    MoveArm {
        /// The position before the move.
        before: Position,
        /// The move.
        mv: Move,
    },
    /// Show this face.
    Face(emotions::FaceState),
    /// Say a line.
    Say {
        /// What kind of line.
        request: LineRequest,
        /// What to say after it when the line is about the board: the reason and the squares
        /// to fix, in the host's language.
        explanation: Option<Utterance>,
    },
    /// Show this on the board's lights, where the board has them, and log it.
    Lights(BoardLighting),
    /// Write to the event log.
    Log(LogEvent),
    /// A game ended: archive its record.
    GameFinished(GameRecord),
    /// Take a stable scan and send it back as [`Event::ArmDone`]: after a restart, to learn
    /// whether the arm finished the robot's move.
    VerifyBoard,
    /// Search `position` for the visitor's best move and send back [`Event::HintDone`]. It
    /// gives way to the robot's own search: a [`Action::Search`] that comes meanwhile stops
    /// it, and no reply comes.
    Hint {
        /// The position, the visitor to move.
        position: Position,
        /// Earlier positions of the game, oldest first (for repetitions).
        history: Vec<Position>,
    },
}

#[derive(Debug, Clone, PartialEq)]
enum State {
    /// No game: waiting until the board shows the starting position.
    WaitingForSetup,
    /// No game: the arm sets the board up for the next one (see `reset.rs`).
    ResettingBoard,
    /// The visitor is to move.
    VisitorTurn,
    /// The search runs.
    RobotThinking,
    /// The arm makes `mv`.
    RobotMoving { before: Position, mv: Move },
    /// After the arm made `mv` the board disagreed; waiting until it shows the move.
    FixingBoard { before: Position, mv: Move },
    /// Restarted while the arm may have been making `mv`: the next scan says whether it did.
    Resuming { before: Position, mv: Move },
    /// The operator changed the game (took a move back, chose between ambiguous moves): waiting
    /// until the board shows `target`, then whoever is to move goes on.
    Rearranging { target: Bitboard },
    /// The visitor's last move was a blunder: the robot holds its `reply` and offers to take
    /// the move back (see `take_back.rs`).
    OfferingTakeBack(Box<take_back::Offer>),
}

/// What the last search expected to happen next.
#[derive(Debug, Clone)]
struct Prediction {
    /// The robot's win probability after its move.
    v: f32,
    /// The same before the calibration, for the coach (see [`SearchReply::raw_v`]).
    raw_v: f32,
    /// The line it expected after its move: the visitor's reply, its own answer, and so on.
    line: Vec<Move>,
}

impl Prediction {
    /// The visitor's reply the robot expected.
    fn reply(&self) -> Option<Move> {
        self.line.first().copied()
    }
}

/// The host of one robot at one board.
#[derive(Debug)]
pub struct Host {
    variant: Variant,
    robot_color: RobotColor,
    robot: Color,
    game: Game,
    state: State,
    mind: Mind,
    games_started: u32,
    prediction: Option<Prediction>,
    last_face: Option<emotions::FaceState>,
    /// The expression last written to the event log.
    logged_expression: Option<emotions::Expression>,
    /// A variant and robot colour from a settings reload, for the next game.
    next_game: Option<(Variant, RobotColor)>,
    /// The operator paused the game.
    paused: bool,
    /// A search reply that came while paused, played when the game goes on.
    held_reply: Option<SearchReply>,
    /// The moves that fit the visitor's last press equally, for the operator to choose from.
    ambiguous: Vec<Move>,
    /// The language of the explanations and of the visitor's messages in the log.
    language: Language,
    /// What the board's lights should show now.
    lighting: BoardLighting,
    /// The last scan seen in a game, so that a scan read only to follow the lights counts as
    /// the visitor's activity only when something moved.
    last_scan: Option<Bitboard>,
    /// How the coach rates the visitor's moves.
    coach: CoachSettings,
    /// Whether the level is as forgiving as levels 1-2, where a blunder may be taken back
    /// even with the coach off.
    forgiving: bool,
    /// The notes on this game's moves for its record.
    notes: Vec<rules::pdn::MoveNote>,
    /// The hints given in this game, and the one asked for at the visitor's turn now.
    hints: hint::Hints,
    /// What was taken back in this game and is still to be noted in its record.
    taken_back: take_back::TakenBack,
    /// The coach's ratings and praise of the visitor's moves in this game, by ply: for its
    /// turning point and to keep praise rare.
    ratings: Vec<(usize, coach::Advice)>,
    /// How the visitor's alternatives compared to their last move, for the coach's praise.
    alternatives: Option<Vec<(Move, f32)>>,
    /// The position the operator asked the next game to be played from.
    set_up: Option<Box<set_up::SetUpTarget>>,
    /// Puzzle mode's puzzles (none: games from the start), and the next one to set up.
    puzzles: Vec<puzzles::Puzzle>,
    next_puzzle: usize,
    /// The puzzle on the board.
    puzzle: Option<Box<puzzle::PuzzleRun>>,
}

impl Host {
    /// A host waiting for the board to be set up.
    pub fn new(variant: Variant, robot_color: RobotColor, mind: Mind) -> Host {
        Host {
            variant,
            robot_color,
            robot: Color::Black,
            game: Game::new(variant),
            state: State::WaitingForSetup,
            mind,
            games_started: 0,
            prediction: None,
            last_face: None,
            logged_expression: None,
            next_game: None,
            paused: false,
            held_reply: None,
            ambiguous: Vec::new(),
            language: Language::default(),
            lighting: BoardLighting::DARK,
            last_scan: None,
            coach: CoachSettings::default(),
            forgiving: false,
            notes: Vec::new(),
            hints: hint::Hints::default(),
            taken_back: take_back::TakenBack::default(),
            ratings: Vec::new(),
            alternatives: None,
            set_up: None,
            puzzles: Vec::new(),
            next_puzzle: 0,
            puzzle: None,
        }
    }

    /// Sets how the coach rates the visitor's moves, from the next move on.
    pub fn set_coach(&mut self, coach: CoachSettings) {
        self.coach = coach;
    }

    /// Says whether the robot plays at a forgiving level (1-2), where a blunder may be taken
    /// back even with the coach off.
    pub fn set_forgiving(&mut self, forgiving: bool) {
        self.forgiving = forgiving;
    }

    /// Sets the language of explanations and messages, at once (a reload changes it).
    pub fn set_language(&mut self, language: Language) {
        self.language = language;
    }

    /// Applies reloaded settings: the emotions (attitude, thresholds) at once, the variant and
    /// the robot's colour from the next game on (at once when no game is in progress).
    pub fn apply_settings(
        &mut self,
        emotions: emotions::Settings,
        variant: Variant,
        robot_color: RobotColor,
    ) {
        self.mind.set_settings(emotions);
        self.next_game = Some((variant, robot_color));
        if self.state == State::WaitingForSetup {
            self.begin_next_game_settings();
        }
    }

    fn begin_next_game_settings(&mut self) {
        if let Some((variant, robot_color)) = self.next_game.take() {
            self.variant = variant;
            self.robot_color = robot_color;
        }
    }

    /// A host in a game from `position` at the visitor's turn, the robot playing `robot`: a
    /// game set up rather than played from the start (tests use it for positions no opening
    /// reaches quickly).
    pub fn at_visitors_turn(position: Position, robot: Color, mind: Mind) -> Host {
        let mut host = Host::new(position.variant(), RobotColor::Fixed(robot), mind);
        host.game = Game::from_position(position);
        host.robot = robot;
        host.games_started = 1;
        host.state = State::VisitorTurn;
        host
    }

    /// A host in a game from `position` with the robot (`robot`) to move, and the actions that
    /// start its search: like [`Host::at_visitors_turn`], for tests that need the robot's own
    /// search before the visitor's move (the coach compares the two).
    pub fn at_robots_turn(
        position: Position,
        robot: Color,
        mind: Mind,
        now: Millis,
    ) -> (Host, Vec<Action>) {
        let mut host = Host::new(position.variant(), RobotColor::Fixed(robot), mind);
        host.game = Game::from_position(position);
        host.robot = robot;
        host.games_started = 1;
        let mut out = Vec::new();
        host.think(now, &mut out);
        (host, out)
    }

    /// The game in progress (or the last one).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// What the game's record notes on the move at `ply` (from 0): the coach's mark and
    /// comment on a visitor's move, the robot's win probability on its own.
    pub fn move_note(&self, ply: usize) -> Option<&rules::pdn::MoveNote> {
        self.notes.iter().find(|note| note.ply == ply)
    }

    /// The robot's colour in the current game.
    pub fn robot(&self) -> Color {
        self.robot
    }

    /// What the host waits for from the people at the board.
    pub fn waiting_for(&self) -> Waiting {
        if self.paused {
            return Waiting::Paused;
        }
        match self.state {
            State::WaitingForSetup => Waiting::Setup,
            State::VisitorTurn => Waiting::VisitorMove,
            State::FixingBoard { before, mv } => {
                Waiting::BoardFix(recognition::outcome(&before, &mv))
            }
            State::Rearranging { target } => Waiting::BoardFix(target),
            State::OfferingTakeBack(ref offer) => Waiting::TakeBack(offer.board_before()),
            State::RobotThinking
            | State::RobotMoving { .. }
            | State::Resuming { .. }
            | State::ResettingBoard => Waiting::Robot,
        }
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        if self.paused {
            match event {
                // The arm's move is made either way; the board is checked as usual.
                Event::Tick | Event::ArmDone(_) | Event::Alternatives(_) => {}
                Event::SearchDone(reply) => {
                    if self.state == State::RobotThinking {
                        self.held_reply = Some(reply);
                    }
                    return out;
                }
                // A hint found while paused is not given; the visitor may ask again.
                Event::HintDone(_) => {
                    self.hints.forget_search();
                    return out;
                }
                Event::Scan(_) | Event::Button(_) | Event::LongPress(_) => return out,
            }
        }
        if let Event::Button(scan) | Event::ArmDone(scan) | Event::LongPress(scan) = event {
            self.last_scan = Some(scan & self.variant.geometry().all());
        }
        // A long press is a hint asked for only at the visitor's turn, on an untouched board.
        let event = match event {
            Event::LongPress(scan) if !self.asks_for_hint(scan) => Event::Button(scan),
            event => event,
        };
        match (&self.state, event) {
            (_, Event::Tick) => self.feel(Input::Tick, now, &mut out),
            (State::WaitingForSetup, Event::Scan(scan) | Event::Button(scan)) => {
                self.feel(Input::VisitorActivity, now, &mut out);
                if self.set_up_complete(scan) {
                    self.start_game(now, &mut out);
                }
            }
            (State::VisitorTurn, Event::Button(scan)) => self.visitor_pressed(scan, now, &mut out),
            (State::VisitorTurn, Event::LongPress(_)) => self.hint_asked(now, &mut out),
            (State::VisitorTurn, Event::HintDone(reply)) => self.hint_found(&reply, now, &mut out),
            (State::OfferingTakeBack(offer), Event::Button(scan)) => {
                let offer = offer.clone();
                self.offer_answered(&offer, scan, now, &mut out);
            }
            (State::OfferingTakeBack(offer), Event::Scan(scan)) => {
                let offer = offer.clone();
                self.offer_scanned(&offer, scan, now, &mut out);
            }
            (State::Rearranging { target }, Event::Button(scan)) => {
                let target = *target;
                self.rearranged(target, scan, now, &mut out);
            }
            (
                State::VisitorTurn | State::FixingBoard { .. } | State::Rearranging { .. },
                Event::Scan(scan),
            ) => self.scanned_during_game(scan, now, &mut out),
            (State::RobotThinking, Event::Alternatives(alternatives)) => {
                self.alternatives = Some(alternatives);
            }
            (State::RobotThinking, Event::SearchDone(reply)) => {
                self.robot_moves(&reply, now, &mut out);
            }
            // Back after a restart: an untouched board means the arm never started.
            (State::Resuming { before, mv }, Event::ArmDone(scan)) => {
                let (before, mv) = (*before, *mv);
                if scan == before.occupied() {
                    self.state = State::RobotMoving { before, mv };
                    out.push(Action::MoveArm { before, mv });
                } else {
                    self.arm_done(&before, &mv, scan, now, &mut out);
                }
            }
            // The arm finished, or the visitor put its move right: check the board.
            (State::RobotMoving { before, mv }, Event::ArmDone(scan))
            | (State::FixingBoard { before, mv }, Event::Button(scan)) => {
                let (before, mv) = (*before, *mv);
                self.arm_done(&before, &mv, scan, now, &mut out);
            }
            // Presses while the robot thinks or moves, and stale replies, change nothing.
            (_, Event::HintDone(_)) => self.hints.forget_search(),
            _ => {}
        }
        out
    }

    fn start_game(&mut self, now: Millis, out: &mut Vec<Action>) {
        self.begin_next_game_settings();
        self.games_started += 1;
        self.robot = match self.robot_color {
            RobotColor::Fixed(color) => color,
            RobotColor::Alternate if self.games_started % 2 == 1 => !self.variant.rules().first,
            RobotColor::Alternate => self.variant.rules().first,
        };
        self.game = Game::new(self.variant);
        // A position the operator set up, or puzzle mode's next puzzle, is played from instead
        // (unless a reload changed the variant meanwhile).
        let set_up = self.pending_set_up();
        self.set_up = None;
        let puzzle = set_up.is_some_and(|(_, puzzle)| puzzle);
        if let Some((target, _)) = set_up {
            self.robot = target.robot;
            self.game = Game::from_position(target.position);
        }
        self.prediction = None;
        self.notes.clear();
        self.hints = hint::Hints::default();
        self.taken_back = take_back::TakenBack::default();
        self.ratings.clear();
        self.set_lights(BoardLighting::DARK, out);
        out.push(Action::Log(LogEvent::GameStarted {
            variant: self.variant,
            robot: self.robot,
            game: self.games_started,
        }));
        if puzzle {
            self.begin_puzzle(now, out);
            return;
        }
        self.feel(Input::GameStarted, now, out);
        if self.game.position().turn() == self.robot {
            self.think(now, out);
        } else {
            self.state = State::VisitorTurn;
        }
    }

    fn visitor_pressed(&mut self, scan: Bitboard, now: Millis, out: &mut Vec<Action>) {
        let position = *self.game.position();
        let recognition = recognition::recognize(&position, scan);
        let explanation = speech::explain_recognition(self.language, self.variant, &recognition);
        self.ambiguous = match &recognition {
            Recognition::Ambiguous(moves) => moves.clone(),
            _ => Vec::new(),
        };
        let empty = Bitboard::EMPTY;
        // Everything but a clean move is refused with a reason and the squares to fix.
        let (kind, reason, remove, place) = match recognition {
            Recognition::Move(mv) if self.in_puzzle() => {
                self.puzzle_move(position, mv, now, out);
                return;
            }
            Recognition::Move(mv) => {
                self.set_lights(BoardLighting::DARK, out);
                self.game.play(&mv).expect("recognised moves are legal");
                // A hint still being searched for is not given now; it does not count.
                self.hints.forget_search();
                out.push(Action::Log(LogEvent::VisitorMove {
                    mv: notation::move_text(self.variant, &mv),
                }));
                let captured = mv.captured().count() as u8;
                self.feel(Input::VisitorMove { captured }, now, out);
                if !self.check_game_over(now, out) {
                    self.think(now, out);
                }
                return;
            }
            Recognition::NoChange => (
                emotions::Mistake::NoMove,
                MistakeReason::NoChange,
                empty,
                empty,
            ),
            Recognition::Ambiguous(_) => (
                emotions::Mistake::CapturesNotRemoved,
                MistakeReason::Ambiguous,
                empty,
                empty,
            ),
            Recognition::CapturesNotRemoved { standing, .. } => (
                emotions::Mistake::CapturesNotRemoved,
                MistakeReason::CapturesNotRemoved,
                standing,
                empty,
            ),
            Recognition::Mistake(mistake) => {
                let (kind, reason) = mistake_kind(&mistake.kind);
                (kind, reason, mistake.remove, mistake.place)
            }
        };
        out.push(Action::Log(LogEvent::VisitorMistake {
            reason,
            message: explanation
                .as_ref()
                .map(Utterance::text)
                .unwrap_or_default(),
            remove: self.names(remove),
            place: self.names(place),
        }));
        self.feel_explaining(Input::VisitorMistake(kind), || explanation, now, out);
        // A press before any move leaves the robot's move lit; every other refusal lights the
        // squares to fix (none for a press only the operator can settle).
        if reason != MistakeReason::NoChange {
            self.set_lights(BoardLighting::fix(remove, place), out);
        }
    }

    /// Square names in the variant's notation.
    fn names(&self, squares: Bitboard) -> Vec<String> {
        squares
            .into_iter()
            .map(|sq| notation::square_name(self.variant, sq))
            .collect()
    }

    fn think(&mut self, now: Millis, out: &mut Vec<Action>) {
        self.state = State::RobotThinking;
        out.push(Action::Log(LogEvent::RobotThinking));
        self.feel(Input::RobotThinking, now, out);
        let positions = self.game.positions();
        // The visitor's choice is worth comparing when they had one.
        let rate_visitor_move = self.coach.enabled
            && positions.len() >= 2
            && positions[positions.len() - 2].turn() != self.robot
            && positions[positions.len() - 2].legal_moves().len() >= 2;
        self.alternatives = None;
        out.push(Action::Search {
            position: *self.game.position(),
            history: positions[..positions.len() - 1].to_vec(),
            rate_visitor_move,
        });
    }

    fn robot_moves(&mut self, reply: &SearchReply, now: Millis, out: &mut Vec<Action>) {
        let before = *self.game.position();
        if !before.is_legal(&reply.mv) {
            out.push(Action::Log(LogEvent::Fault {
                device: Device::Brain,
                message: "the search returned an illegal move; searching again".to_owned(),
            }));
            self.think(now, out);
            return;
        }
        let advice = self.advice(reply);
        if let Some(advice) = advice.filter(|advice| self.offers_take_back(advice)) {
            self.offer_take_back(reply, advice, now, out);
            return;
        }
        self.play_reply(reply, advice, now, out);
    }

    /// Plays the robot's `reply`, and says the coach's `advice` about the visitor's move before
    /// it, if any.
    fn play_reply(
        &mut self,
        reply: &SearchReply,
        advice: Option<coach::Advice>,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let before = *self.game.position();
        let visitor_reply = self.game.moves().last().copied();
        // Praise, when the visitor's move was the only good one, has a line of its own.
        let praise = if advice.is_none() {
            self.praise(out)
        } else {
            None
        };
        let evaluation = Evaluation {
            v: reply.v,
            v_pred: self.prediction.as_ref().map(|p| p.v),
            expected_reply: self
                .prediction
                .as_ref()
                .and_then(Prediction::reply)
                .is_some_and(|expected| Some(expected) == visitor_reply),
            captures: reply.mv.captured().count() as u8,
        };
        self.prediction = Some(Prediction {
            v: reply.v,
            raw_v: reply.raw_v,
            line: reply.pv.get(1..).unwrap_or_default().to_vec(),
        });
        self.game.play(&reply.mv).expect("checked legal above");
        self.notes.push(rules::pdn::MoveNote {
            ply: self.game.moves().len() - 1,
            mark: None,
            comment: Some(format!("v {:.2}", reply.v)),
        });
        out.push(Action::Log(LogEvent::RobotMove {
            mv: notation::move_text(self.variant, &reply.mv),
            v: reply.v,
            think_ms: reply.think_ms,
        }));
        // What the coach says follows the line the robot's move brings, or a line of its own.
        let lesson = advice.and_then(|advice| {
            self.log_advice(&advice, self.game.moves().len() - 2, out)
                .filter(|_| advice.kind.is_said())
        });
        if let (Some(advice), Some(_)) = (advice, &lesson) {
            // The squares the sentence names stay lit while the arm answers.
            self.set_lights(BoardLighting::lesson(advice.lesson_squares()), out);
        }
        let said = self.feel_explaining(Input::RobotMove(evaluation), || lesson.clone(), now, out);
        if let Some(lesson) = lesson.filter(|_| !said) {
            self.feel_explaining(Input::Advice, || Some(lesson), now, out);
        }
        if let Some(praise) = praise {
            self.feel_explaining(Input::Praise, || Some(praise), now, out);
        }
        self.state = State::RobotMoving {
            before,
            mv: reply.mv,
        };
        out.push(Action::MoveArm {
            before,
            mv: reply.mv,
        });
    }

    fn arm_done(
        &mut self,
        before: &Position,
        mv: &Move,
        scan: Bitboard,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        let check = recognition::verify_robot_move(before, mv, scan);
        if check.is_ok() {
            out.push(Action::Log(LogEvent::ArmDone));
            self.set_lights(BoardLighting::robot_move(mv.from(), mv.to()), out);
            // Said only when the settings want the robot's moves announced (the model asks).
            let (language, variant) = (self.language, self.variant);
            let announcement = || Some(speech::explain_robot_move(language, variant, mv));
            self.feel_explaining(Input::ArmDone, announcement, now, out);
            self.after_robot_move(now, out);
            return;
        }
        out.push(Action::Log(LogEvent::BoardMismatch {
            missing: self.names(check.missing),
            extra: self.names(check.extra),
        }));
        self.state = State::FixingBoard {
            before: *before,
            mv: *mv,
        };
        let explanation = speech::explain_arm_check(self.language, self.variant, &check);
        self.feel_explaining(Input::BoardMismatch, || Some(explanation), now, out);
        self.set_lights(BoardLighting::fix(check.extra, check.missing), out);
    }

    /// Ends the game in progress without a result (the ply limit, the operator asked for a new
    /// game, the visitor walked away): archives it as unfinished and waits for the board to be
    /// set up. Late search or arm results for the old game are ignored.
    pub fn abandon(&mut self, reason: &str, now: Millis) -> Vec<Action> {
        let mut out = Vec::new();
        if matches!(self.state, State::WaitingForSetup | State::ResettingBoard) {
            return out;
        }
        self.end_game("*", reason, emotions::RobotResult::Draw, now, &mut out);
        out
    }

    /// Archives the game with `result`, logs its end, shows the feeling and waits for setup.
    fn end_game(
        &mut self,
        result: &str,
        reason: &str,
        feeling: emotions::RobotResult,
        now: Millis,
        out: &mut Vec<Action>,
    ) {
        out.push(Action::GameFinished(self.record(result)));
        out.push(Action::Log(LogEvent::GameOver {
            result: result.to_owned(),
            reason: reason.to_owned(),
            pdn: None,
        }));
        // After a game the visitor did not win, where it turned for them.
        let turning_point = (result != "*" && feeling != emotions::RobotResult::Loss)
            .then(|| self.turning_point())
            .flatten();
        let explanation = turning_point.map(|(explanation, event)| {
            out.push(Action::Log(event));
            explanation
        });
        self.feel_explaining(Input::GameOver(feeling), || explanation, now, out);
        self.set_lights(BoardLighting::DARK, out);
        self.after_game();
    }

    /// Between games: waiting for the board to be set up for the next one.
    fn after_game(&mut self) {
        self.state = State::WaitingForSetup;
        self.paused = false;
        self.held_reply = None;
        self.hints = hint::Hints::default();
        self.ambiguous.clear();
        self.puzzle = None;
        self.begin_next_game_settings();
    }

    /// The game so far, for the archive.
    fn record(&self, result: &str) -> GameRecord {
        GameRecord {
            start: *self.game.start(),
            moves: self.game.moves().to_vec(),
            robot: self.robot,
            result: result.to_owned(),
            notes: self.record_notes(),
        }
    }

    /// The notes on the game's moves for its record.
    fn record_notes(&self) -> Vec<rules::pdn::MoveNote> {
        // What was taken back comes first in a move's comment, then its rating.
        let mut notes = self.taken_back.notes();
        for note in &self.notes {
            record::merge_note(&mut notes, note.clone());
        }
        notes
    }

    /// The game in progress, for the journal; `None` between games.
    pub fn snapshot(&self) -> Option<Snapshot> {
        let arm_pending = match self.state {
            State::WaitingForSetup | State::ResettingBoard => return None,
            State::VisitorTurn
            | State::RobotThinking
            | State::Rearranging { .. }
            | State::OfferingTakeBack(_) => false,
            State::RobotMoving { .. } | State::FixingBoard { .. } | State::Resuming { .. } => true,
        };
        Some(Snapshot {
            variant: self.variant.name().to_owned(),
            robot: self.robot.name().to_owned(),
            games_started: self.games_started,
            start: (*self.game.start() != Position::new(self.variant))
                .then(|| rules::fen::write(self.game.start())),
            moves: self
                .game
                .moves()
                .iter()
                .map(|mv| notation::move_text(self.variant, mv))
                .collect(),
            arm_pending,
            notes: self.record_notes().iter().map(NoteSnapshot::of).collect(),
            hints_given: self.hints.given(),
            ratings: self
                .ratings
                .iter()
                .map(|(ply, advice)| advice.snapshot(*ply))
                .collect(),
            take_back_offer: match &self.state {
                State::OfferingTakeBack(offer) => Some(offer.snapshot(self.variant)),
                _ => None,
            },
        })
    }

    /// Puts a host back into the game `snapshot` describes, after a restart. The returned
    /// actions continue it: a search when the robot is to move, a board check when the arm
    /// may have been interrupted. Refused, with the reason, when the snapshot does not fit the
    /// rules (another variant, an illegal move).
    pub fn resume(
        robot_color: RobotColor,
        mind: Mind,
        snapshot: &Snapshot,
        now: Millis,
    ) -> Result<(Host, Vec<Action>), ResumeError> {
        let variant: Variant = snapshot.variant.parse()?;
        let robot = Color::ALL
            .into_iter()
            .find(|c| c.name() == snapshot.robot)
            .ok_or_else(|| ResumeError::RobotColor(snapshot.robot.clone()))?;
        let mut game = match &snapshot.start {
            Some(start) => Game::from_position(rules::fen::parse(variant, start)?),
            None => Game::new(variant),
        };
        for (ply, text) in snapshot.moves.iter().enumerate() {
            let mv = notation::parse_move(game.position(), text).map_err(|source| {
                ResumeError::MoveText {
                    ply: ply + 1,
                    text: text.clone(),
                    source,
                }
            })?;
            game.play(&mv).map_err(|_| ResumeError::IllegalMove {
                ply: ply + 1,
                text: text.clone(),
            })?;
        }
        let last_by_robot = game.position().turn() != robot && !game.moves().is_empty();
        // A game the robot's own move ended is not over until the arm has made that move and
        // the board shows it: resume it like any interrupted arm move, then it is archived.
        if game.outcome().is_some() && !(snapshot.arm_pending && last_by_robot) {
            return Err(ResumeError::AlreadyOver);
        }
        let mut host = Host::new(variant, robot_color, mind);
        host.robot = robot;
        host.games_started = snapshot.games_started;
        for note in &snapshot.notes {
            host.add_note(note.note(game.moves().len())?);
        }
        host.hints = hint::Hints::resumed(snapshot.hints_given);
        let positions = game.positions();
        for rating in &snapshot.ratings {
            rating.check(game.moves().len(), |ply| positions[ply].turn() == robot)?;
            let advice = coach::Advice::resumed(rating, game.moves()[rating.ply]);
            host.ratings.push((rating.ply, advice));
        }
        let mut out = vec![Action::Log(LogEvent::Resumed {
            plies: game.moves().len(),
        })];
        if let Some(offer) = &snapshot.take_back_offer {
            let (reply, advice) = Self::resumed_offer(offer, &host.ratings, &game, robot)?;
            host.game = game;
            host.offer_take_back_again(reply, advice, now, &mut out);
        } else if snapshot.arm_pending && last_by_robot {
            let mv = *game.moves().last().expect("checked non-empty");
            let positions = game.positions();
            let before = positions[positions.len() - 2];
            host.game = game;
            host.state = State::Resuming { before, mv };
            out.push(Action::VerifyBoard);
        } else {
            host.game = game;
            if host.game.position().turn() == robot {
                host.think(now, &mut out);
            } else {
                host.state = State::VisitorTurn;
            }
        }
        Ok((host, out))
    }

    /// The take-back `offer` of a journaled `game`: the reply the robot held, and the rating
    /// (among `ratings`) of the blunder it answers, the visitor's last move.
    fn resumed_offer(
        offer: &snapshot::OfferSnapshot,
        ratings: &[(usize, coach::Advice)],
        game: &Game,
        robot: Color,
    ) -> Result<(SearchReply, coach::Advice), ResumeError> {
        let positions = game.positions();
        let last = positions.len().checked_sub(2);
        if last.is_none_or(|ply| positions[ply].turn() == robot) {
            return Err(ResumeError::TakeBackOffer(
                "the last move is not the visitor's".to_owned(),
            ));
        }
        let advice = ratings
            .iter()
            .find(|(ply, advice)| Some(*ply) == last && advice.kind == AdviceKind::Blunder)
            .map(|(_, advice)| *advice)
            .ok_or_else(|| {
                ResumeError::TakeBackOffer(
                    "the visitor's last move is not rated a blunder".to_owned(),
                )
            })?;
        Ok((offer.reply(game.position())?, advice))
    }

    fn after_robot_move(&mut self, now: Millis, out: &mut Vec<Action>) {
        if self.puzzle_arm_done(out) {
            return;
        }
        if !self.check_game_over(now, out) {
            self.state = State::VisitorTurn;
        }
    }

    /// Ends the game if the rules say so; returns whether it ended.
    fn check_game_over(&mut self, now: Millis, out: &mut Vec<Action>) -> bool {
        let Some(outcome) = self.game.outcome() else {
            return false;
        };
        let (result, feeling) = match outcome.result {
            GameResult::Win(color) if color == self.robot => {
                (result_token(color), emotions::RobotResult::Win)
            }
            GameResult::Win(color) => (result_token(color), emotions::RobotResult::Loss),
            GameResult::Draw => ("1/2-1/2", emotions::RobotResult::Draw),
        };
        self.end_game(result, &outcome.reason.to_string(), feeling, now, out);
        true
    }

    /// Adds a note on a move to the game's record, joined with one already there.
    fn add_note(&mut self, note: rules::pdn::MoveNote) {
        record::merge_note(&mut self.notes, note);
    }

    fn feel(&mut self, input: Input, now: Millis, out: &mut Vec<Action>) {
        self.feel_explaining(input, || None, now, out);
    }

    /// Steps the emotion model and turns what it shows and says into actions; `explanation`
    /// gives what follows the line the model asks for, composed only when there is one.
    /// Returns whether a line was asked for.
    fn feel_explaining(
        &mut self,
        input: Input,
        explanation: impl FnOnce() -> Option<Utterance>,
        now: Millis,
        out: &mut Vec<Action>,
    ) -> bool {
        let output = self.mind.step(input, now);
        if self.last_face != Some(output.face) {
            self.last_face = Some(output.face);
            out.push(Action::Face(output.face));
        }
        // The log records a new emotion, or an intensity that moved visibly; not every step of a
        // mood fading on the clock.
        let expression = output.face.expression;
        let logged = self.logged_expression.is_some_and(|last| {
            last.emotion == expression.emotion
                && (last.intensity - expression.intensity).abs() < EXPRESSION_LOG_STEP
        });
        if !logged {
            self.logged_expression = Some(expression);
            out.push(Action::Log(LogEvent::Expression {
                emotion: expression.emotion,
                intensity: expression.intensity,
            }));
        }
        let said = output.line.is_some();
        if let Some(request) = output.line {
            out.push(Action::Say {
                request,
                explanation: explanation(),
            });
        }
        said
    }
}

/// The PDN result token for a win by `winner`.
fn result_token(winner: Color) -> &'static str {
    match winner {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

/// The emotion model's reason code and the log's reason for a recognition mistake.
fn mistake_kind(kind: &MistakeKind) -> (emotions::Mistake, MistakeReason) {
    use emotions::Mistake;
    match kind {
        MistakeKind::MustCapture { .. } => (Mistake::MustCapture, MistakeReason::MustCapture),
        MistakeKind::Backwards { .. } => (Mistake::MovedBackwards, MistakeReason::Backwards),
        MistakeKind::RobotPieceMoved { .. } => {
            (Mistake::MovedRobotPiece, MistakeReason::RobotPieceMoved)
        }
        MistakeKind::CaptureNotFinished { .. } => (
            Mistake::CaptureNotFinished,
            MistakeReason::CaptureNotFinished,
        ),
        // Italian's priorities after the majority can refuse a capture that takes as many
        // pieces: "take the most" would be wrong there.
        MistakeKind::WrongCaptureChoice { tried, required }
            if tried.captured().count() >= required.captured().count() =>
        {
            (Mistake::CaptureOrder, MistakeReason::WrongCaptureChoice)
        }
        MistakeKind::WrongCaptureChoice { .. } => (
            Mistake::NotMajorityCapture,
            MistakeReason::WrongCaptureChoice,
        ),
        MistakeKind::CannotGoThere { .. } => (Mistake::NotAMove, MistakeReason::CannotGoThere),
        MistakeKind::PieceMissing { .. } => (Mistake::PieceMissing, MistakeReason::PieceMissing),
        MistakeKind::ExtraPiece { .. } => (Mistake::PieceExtra, MistakeReason::ExtraPiece),
        _ => (Mistake::NotAMove, MistakeReason::Unclear),
    }
}
