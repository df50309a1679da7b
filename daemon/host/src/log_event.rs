//! The event log: one JSON object per line, the contract tools and the operator page read.

use std::fmt;

use emotions::{AnnounceMoves, Attitude, Category, Emotion, Language};
use rules::{Color, Variant, notation};
use serde::{Deserialize, Serialize, Serializer};

use crate::coach::{AdviceKind, CoachSettings};
use crate::lights::{BoardLighting, LightColour, LightMode};
use crate::play_level::PlayLevel;

/// What a fault or a reconnection concerns, so counters and the operator can tell a loose USB
/// cable on the arm from a flickering sensor on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Device {
    /// The board controller: Hall sensors, button, face, and its link.
    Board,
    /// The arm and its link.
    Arm,
    /// The robot's own player (a search that failed).
    Brain,
}

impl Device {
    /// The name used in the event log and the counters.
    pub const fn as_str(self) -> &'static str {
        match self {
            Device::Board => "board",
            Device::Arm => "arm",
            Device::Brain => "brain",
        }
    }
}

/// How a reset of the board ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResetResult {
    /// The board shows the target.
    Done,
    /// The rack and the reserve lacked pieces for some squares.
    Short,
    /// The reset stopped: the arm failed, no plan was possible, or the board kept changing.
    Failed,
}

impl ResetResult {
    /// The name used in the event log.
    pub const fn as_str(self) -> &'static str {
        match self {
            ResetResult::Done => "done",
            ResetResult::Short => "short",
            ResetResult::Failed => "failed",
        }
    }
}

/// How pondering ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PonderEnd {
    /// Its stop flag: the visitor pressed the button, or their turn ended another way.
    Stopped,
    /// By itself, at its node cap or with the game's result found.
    Finished,
    /// It searched nothing: the opening book answers every move the visitor can make.
    Book,
}

/// Who finished setting up a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetUpBy {
    /// The arm.
    Robot,
    /// The visitor or the operator, by hand.
    Visitor,
}

/// One entry of the event log; the writer adds `t`, milliseconds since start.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogEvent {
    /// A new game begins.
    GameStarted {
        /// The variant, by its command-line name.
        #[serde(serialize_with = "by_name")]
        variant: Variant,
        /// The robot's colour (`white`, `black`).
        #[serde(serialize_with = "by_name")]
        robot: Color,
        /// Games started since the daemon started, this one included.
        game: u32,
    },
    /// The visitor's legal move.
    VisitorMove {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Something the robot could not accept.
    VisitorMistake {
        /// Machine-readable reason.
        reason: MistakeReason,
        /// The sentence said to the visitor.
        message: String,
        /// Squares to clear.
        remove: Vec<String>,
        /// Squares that need a piece.
        place: Vec<String>,
    },
    /// The daemon restarted and took up an unfinished game from its journal.
    Resumed {
        /// Moves already played.
        plies: usize,
    },
    /// The visitor pressed the button, and the robot reads the board (the start of the
    /// robot's response time).
    ButtonPressed,
    /// The visitor held the button down (a hint asked for at their turn), and the robot reads
    /// the board.
    ButtonHeld,
    /// The visitor asked for a hint, and the game's hints are used up.
    NoHintsLeft {
        /// The limit, `coach.hints_per_game`.
        hints_per_game: u32,
    },
    /// The robot's search started.
    RobotThinking,
    /// Pondering (`play.ponder`: the robot searched the visitor's position on their time)
    /// came back.
    Pondered {
        /// The position searched, the visitor to move, as FEN.
        fen: String,
        /// Nodes searched.
        nodes: u64,
        /// The deepest iteration completed.
        depth: u32,
        /// How it ended.
        ended: PonderEnd,
        /// Milliseconds it ran.
        ms: u64,
    },
    /// The robot chose its move.
    RobotMove {
        /// Move text.
        #[serde(rename = "move")]
        mv: String,
        /// The robot's win probability.
        v: f32,
        /// Search time in milliseconds.
        think_ms: u64,
    },
    /// The arm finished the robot's move.
    ArmDone,
    /// The board does not show what the arm should have left.
    BoardMismatch {
        /// Squares that should hold a piece.
        missing: Vec<String>,
        /// Squares that should be empty.
        extra: Vec<String>,
    },
    /// The face changed.
    Expression {
        /// The emotion shown.
        emotion: Emotion,
        /// In `[0, 1]`.
        intensity: f32,
    },
    /// The robot finished setting the board up after a game (`game.reset_board`), or gave up.
    BoardReset {
        /// `done` (the board shows the next game's start), `short` (the rack and the reserve
        /// lacked pieces: `squares` still need one) or `failed` (`reason` says why; the visitor
        /// or the operator finishes it).
        result: ResetResult,
        /// Pieces the arm carried.
        pieces_moved: u32,
        /// From the start of the reset to the last check of the board, ms.
        duration_ms: u64,
        /// The squares still to fill (`short`, `failed`); empty when done.
        squares: Vec<String>,
        /// Why it failed; empty otherwise.
        reason: String,
        /// Times it planned again after the board disagreed with the plan (a failed pick, a
        /// piece moved by a visitor).
        replans: u32,
    },
    /// The board shows the position the robot set out to set up (the next game's start, or the
    /// position the operator asked for).
    PositionSetUp {
        /// The position, as FEN.
        fen: String,
        /// `robot` when the arm finished it, `visitor` when people filled the last squares.
        by: SetUpBy,
    },
    /// Puzzle mode: the visitor's move was not the shot; they put it back and try again, or
    /// the robot shows the solution.
    PuzzleMiss {
        /// The visitor's move.
        #[serde(rename = "move")]
        mv: String,
        /// The solution's move there.
        expected: String,
        /// Whether the robot now shows the solution.
        showing: bool,
    },
    /// The coach rated the visitor's last move (before the robot's reply to it is made).
    Advice {
        /// `inaccuracy`, `mistake` or `blunder`.
        kind: AdviceKind,
        /// The visitor's move.
        #[serde(rename = "move")]
        mv: String,
        /// The squares the lesson is about (the robot's capture, the pieces it wins, its
        /// king's square, or the better move's squares).
        squares: Vec<String>,
        /// The lesson, in the robot's language; said aloud after a mistake or a blunder.
        text: String,
        /// The visitor's expected score before the move (1 minus the robot's win probability).
        expected_before: f32,
        /// The visitor's expected score after it.
        expected_after: f32,
    },
    /// The board's lights changed (logged only for a board that has them).
    BoardLights {
        /// Every lit square; empty when the lights went dark.
        lights: Vec<LitSquare>,
    },
    /// The robot speaks.
    Voice {
        /// Line category.
        category: Category,
        /// The line's id in its voice pack (empty until packs are wired in).
        line: String,
        /// What is said.
        text: String,
    },
    /// A device or link problem.
    Fault {
        /// Where it happened.
        device: Device,
        /// What happened.
        message: String,
    },
    /// A device's link is back after it was lost.
    Reconnected {
        /// Which link.
        device: Device,
        /// Attempts it took.
        attempts: u32,
    },
    /// The settings were reloaded (SIGHUP or a changed file) and apply from the next move.
    SettingsReloaded {
        /// `play.level`.
        level: PlayLevel,
        /// `emotions.attitude`.
        attitude: Attitude,
        /// `sounds.language` (`en`, `ru`, `uk`).
        language: Language,
        /// `sounds.volume`.
        volume: f32,
        /// `emotions.announce_moves` (`friendly`, `always`, `never`).
        announce_moves: AnnounceMoves,
        /// The `[coach]` section.
        coach: CoachSettings,
        /// `game.reset_board`: the robot sets the board up after a game.
        reset_board: bool,
    },
    /// The operator acted from the operator page (the events it causes follow).
    Operator {
        /// What the operator did.
        action: OperatorAction,
        /// What exactly, for people reading the log (empty when the action says it all).
        detail: String,
    },
    /// The game ended.
    GameOver {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// Why it ended.
        reason: String,
        /// Where the PDN record was written, if it was.
        pdn: Option<String>,
    },
}

/// One lit square of a `board_lights` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LitSquare {
    /// The square in the variant's notation.
    pub square: String,
    /// `green` (fill it), `red` (clear it) or `blue` (the robot's move).
    pub colour: LightColour,
    /// `on` or `blinking`.
    pub mode: LightMode,
}

impl LogEvent {
    /// The `board_lights` event for `lighting` on a `variant` board.
    pub fn board_lights(variant: Variant, lighting: &BoardLighting) -> LogEvent {
        LogEvent::BoardLights {
            lights: lighting
                .lit()
                .into_iter()
                .map(|light| LitSquare {
                    square: notation::square_name(variant, light.square),
                    colour: light.colour,
                    mode: light.mode,
                })
                .collect(),
        }
    }
}

/// What the operator did from the operator page: the `action` of an `operator` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum OperatorAction {
    /// Abandoned the game and asked for a new one.
    NewGame,
    /// Paused the game.
    Pause,
    /// Let a paused game go on.
    GoOn,
    /// Resigned the game for the visitor.
    Resign,
    /// Took back the last move or moves.
    TakeBack,
    /// Chose between the moves an ambiguous press fits.
    Resolve,
    /// Parked the arm.
    Park,
    /// Had the robot say a line to test the voice.
    TestVoice,
    /// Changed settings.
    Settings,
    /// Asked for a position to be set up and played from (`detail`: its FEN and the robot's
    /// colour).
    SetUp,
}

/// Why the robot did not accept what the visitor did: the `reason` of a `visitor_mistake`
/// event and the key of the mistake counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MistakeReason {
    /// The button was pressed with no move on the board.
    NoChange,
    /// The board fits more than one legal move.
    Ambiguous,
    /// A capture was made but the captured pieces still stand.
    CapturesNotRemoved,
    /// A quiet move when a capture is compulsory.
    MustCapture,
    /// A man moved backwards.
    Backwards,
    /// One of the robot's pieces moved.
    RobotPieceMoved,
    /// A capture stopped before its end.
    CaptureNotFinished,
    /// A capture the variant's capture rule does not allow (majority, Italian priorities).
    WrongCaptureChoice,
    /// A piece went where it cannot go.
    CannotGoThere,
    /// A piece is gone that should be there.
    PieceMissing,
    /// A piece stands where none should.
    ExtraPiece,
    /// Nothing more specific fits.
    Unclear,
}

/// Writes a value as its name (`Display`), as the event log has always written variants and
/// colours.
fn by_name<T: fmt::Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed fields are written as the names the event log has always used.
    #[test]
    fn typed_fields_are_written_by_name() {
        let json = |event: &LogEvent| serde_json::to_value(event).unwrap();
        let started = LogEvent::GameStarted {
            variant: Variant::RussianGiveaway,
            robot: Color::White,
            game: 1,
        };
        assert_eq!(
            json(&started),
            serde_json::json!({"type": "game_started", "variant": "russian-giveaway", "robot": "white", "game": 1})
        );
        let mistake = LogEvent::VisitorMistake {
            reason: MistakeReason::CannotGoThere,
            message: String::new(),
            remove: vec![],
            place: vec![],
        };
        assert_eq!(json(&mistake)["reason"], "cannot_go_there");
        let face = LogEvent::Expression {
            emotion: Emotion::Surprised,
            intensity: 0.5,
        };
        assert_eq!(json(&face)["emotion"], "surprised");
        let voice = LogEvent::Voice {
            category: Category::OpponentBlunder,
            line: String::new(),
            text: String::new(),
        };
        assert_eq!(json(&voice)["category"], "opponent_blunder");
        let reloaded = LogEvent::SettingsReloaded {
            level: PlayLevel::Fixed(3),
            attitude: Attitude::Rival,
            language: Language::Ukrainian,
            volume: 1.0,
            announce_moves: AnnounceMoves::Never,
            coach: CoachSettings {
                hints_per_game: 1,
                ..CoachSettings::default()
            },
            reset_board: true,
        };
        assert_eq!(json(&reloaded)["attitude"], "rival");
        assert_eq!(json(&reloaded)["reset_board"], true);
        assert_eq!(json(&reloaded)["coach"]["hints_per_game"], 1);
        assert_eq!(json(&reloaded)["coach"]["take_backs"], true);
        assert_eq!(json(&reloaded)["announce_moves"], "never");
        assert_eq!(json(&reloaded)["language"], "uk");
        for (action, name) in [
            (OperatorAction::NewGame, "new_game"),
            (OperatorAction::GoOn, "go_on"),
            (OperatorAction::TakeBack, "take_back"),
            (OperatorAction::TestVoice, "test_voice"),
            (OperatorAction::Settings, "settings"),
            (OperatorAction::SetUp, "set_up"),
        ] {
            let event = LogEvent::Operator {
                action,
                detail: String::new(),
            };
            assert_eq!(json(&event)["action"], name);
        }
    }
}
