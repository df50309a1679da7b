//! The engine's state between searches: the variant, the position and the game before it,
//! the next search's level, the strength, and the player that answers, kept between searches
//! so that it keeps what it learned: the robot's own alpha-beta searcher at strength 5 (level
//! 5's player), the robot's `Brain` at a weaker level.

use std::str::FromStr as _;
use std::sync::atomic::AtomicBool;

use checkerbot_config::PlayLevel;
use player::{Brain, Thought};
use rules::{Move, Position, Variant};
use search::{Limits, SearchResult, Searcher};

use engine_protocols::hub::board_text::{self, BoardTextError};
use engine_protocols::hub::message::{GoMode, Level};

/// The variant a session starts with: the Hub GUI's own, Scan's `normal`.
pub const DEFAULT_VARIANT: Variant = Variant::International;

/// The strongest level, the default: alpha-beta until the level's time is spent.
pub const STRONGEST: u8 = 5;

/// The transposition table's size, in megabytes: the robot's.
const TABLE_MEGABYTES: usize = 16;

/// The seed of a weaker level's dice (its random moves, its variety): fixed, so that a
/// session replays when its searches are not cut short by the clock.
const BRAIN_SEED: u64 = 24;

/// Why a command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// `set-param` of a parameter this engine does not have.
    #[error("unknown parameter {0}")]
    UnknownParameter(String),
    /// `set-param name=variant` with a variant this engine does not play.
    #[error("{0}")]
    UnknownVariant(#[from] rules::UnknownVariant),
    /// `set-param name=strength` with something other than a level.
    #[error("strength is a level from 1 to 5, not {0}")]
    BadStrength(String),
    /// The settings a weaker level reads (where the networks are) could not be read.
    #[error("the settings for strength {strength} could not be read: {reason}")]
    Settings {
        /// The strength asked for.
        strength: u8,
        /// Why.
        reason: String,
    },
    /// A `pos` whose position or moves could not be read; the engine then has no position
    /// until the next `pos`.
    #[error("bad pos ({0}); send another pos")]
    BadPosition(BoardTextError),
    /// `go` after a refused `pos`.
    #[error("no position to search: the last pos was refused")]
    NoPosition,
    /// `go` in a position without a legal move.
    #[error("the game is over: the side to move has no legal move")]
    NoLegalMove,
}

/// Who answers a search.
pub enum Player {
    /// Strength 5: the robot's alpha-beta searcher.
    AlphaBeta(Box<Searcher>),
    /// A weaker level: the robot's player at that level (its network if one can be loaded,
    /// else the level's alpha-beta stand-in).
    Brain(Box<Brain>),
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::AlphaBeta(_) => f.write_str("AlphaBeta"),
            Player::Brain(brain) => write!(f, "Brain({})", brain.describe()),
        }
    }
}

/// What a search found.
#[derive(Debug)]
pub enum Answer {
    /// Alpha-beta's result (its iterations were reported as they completed).
    Searched(SearchResult),
    /// A weaker level's choice (`None` only without a legal move).
    Thought(Option<Thought>),
}

/// What a search needs, taken out of the engine while it runs on another thread.
#[derive(Debug)]
pub struct SearchJob {
    /// The position to search.
    pub position: Position,
    /// The game's positions since the last capture or man move, for the repetition rule.
    pub history: Vec<Position>,
    /// Depth and node limits (time is the session's, through the stop flag).
    pub limits: Limits,
    /// The level the limits came from, for the session's clock.
    pub level: Level,
    /// Who answers, to be given back with [`Engine::player_back`].
    pub player: Player,
}

impl SearchJob {
    /// Runs the search until its limits or `stop`, handing alpha-beta's completed iterations
    /// to `on_iteration`; gives the player back with the answer.
    pub fn run(
        self,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&SearchResult),
    ) -> (Player, Answer) {
        let SearchJob {
            position,
            history,
            limits,
            player,
            ..
        } = self;
        match player {
            Player::AlphaBeta(mut searcher) => {
                let result =
                    searcher.search_reporting(&position, &history, limits, stop, on_iteration);
                (Player::AlphaBeta(searcher), Answer::Searched(result))
            }
            Player::Brain(mut brain) => {
                let thought = brain.think(&position, &history, stop);
                (Player::Brain(brain), Answer::Thought(thought))
            }
        }
    }
}

/// The engine between searches.
#[derive(Debug)]
pub struct Engine {
    variant: Variant,
    strength: u8,
    /// The position to search and the positions before it since the last capture or man
    /// move; `None` after a refused `pos`.
    game: Option<(Position, Vec<Position>)>,
    level: Level,
    /// The player for the variant and strength; `None` while a search has it, or when it must
    /// be made anew (another variant or strength, a new game).
    player: Option<Player>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine {
            variant: DEFAULT_VARIANT,
            strength: STRONGEST,
            game: Some((Position::new(DEFAULT_VARIANT), Vec::new())),
            level: Level::default(),
            player: None,
        }
    }
}

impl Engine {
    /// The variant positions and moves are read in.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The strength, 1 to 5.
    pub fn strength(&self) -> u8 {
        self.strength
    }

    /// `set-param`: `variant` (a new variant starts from its initial position; `normal`,
    /// Scan's name for International, is understood too) or `strength` (1 to 5).
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        match name {
            "variant" => {
                let variant = if value == "normal" {
                    Variant::International
                } else {
                    Variant::from_str(value)?
                };
                if variant != self.variant {
                    self.variant = variant;
                    self.game = Some((Position::new(variant), Vec::new()));
                    self.player = None;
                }
            }
            "strength" => {
                let strength = value
                    .parse()
                    .ok()
                    .filter(|s| PlayLevel::FIXED.contains(s))
                    .ok_or_else(|| EngineError::BadStrength(value.to_owned()))?;
                if strength != self.strength {
                    self.strength = strength;
                    self.player = None;
                }
            }
            _ => return Err(EngineError::UnknownParameter(name.to_owned())),
        }
        Ok(())
    }

    /// `new-game`: forget what the player learned.
    pub fn new_game(&mut self) {
        match &mut self.player {
            Some(Player::AlphaBeta(searcher)) => searcher.clear(),
            Some(Player::Brain(_)) => self.player = None,
            None => {}
        }
    }

    /// `pos`: the position (the variant's start when `None`) and the moves played from it.
    /// On an error nothing is searched until the next good `pos`. Like Scan, a `pos` also
    /// forgets the last `level`.
    pub fn set_position(
        &mut self,
        position: Option<&str>,
        moves: &[String],
    ) -> Result<(), EngineError> {
        self.level = Level::default();
        self.game = None;
        let mut current = match position {
            Some(text) => board_text::parse_position(self.variant, text),
            None => Ok(Position::new(self.variant)),
        }
        .map_err(EngineError::BadPosition)?;
        let mut history = Vec::new();
        for text in moves {
            let mv = board_text::parse_move(&current, text).map_err(EngineError::BadPosition)?;
            if irreversible(&current, &mv) {
                history.clear();
            } else {
                history.push(current);
            }
            current.play_unchecked(&mv);
        }
        self.game = Some((current, history));
        Ok(())
    }

    /// `level`: the limits of the next search.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// `go`: what the search needs, the player included (a weaker level's is made here, its
    /// network loaded, when the variant or strength changed); the level is used up, as
    /// Scan's is. A single legal move is played after one iteration, unless the GUI asks for
    /// analysis: a game's clock is not spent on a forced move.
    pub fn start_search(&mut self, mode: GoMode) -> Result<SearchJob, EngineError> {
        let level = std::mem::take(&mut self.level);
        let (position, history) = self.game.clone().ok_or(EngineError::NoPosition)?;
        let legal_moves = position.count_legal_moves();
        if legal_moves == 0 {
            return Err(EngineError::NoLegalMove);
        }
        let defaults = Limits::default();
        let forced = legal_moves == 1 && mode != GoMode::Analyze;
        let limits = Limits {
            depth: if forced {
                1
            } else {
                level.depth.unwrap_or(defaults.depth).max(1)
            },
            nodes: level.nodes.unwrap_or(defaults.nodes).max(1),
        };
        let player = match self.player.take() {
            Some(player) => player,
            None => self.new_player()?,
        };
        Ok(SearchJob {
            position,
            history,
            limits,
            level,
            player,
        })
    }

    /// Takes the player back after a search.
    pub fn player_back(&mut self, player: Player) {
        self.player = Some(player);
    }

    /// The player for the variant and strength.
    fn new_player(&self) -> Result<Player, EngineError> {
        new_player(self.variant, self.strength)
    }
}

/// The player of `variant` at `strength` (1 to 5): level 5's alpha-beta searcher (with the
/// learned evaluation and endgame tables level 5 reads), or the robot's `Brain` at a weaker
/// level. Either reads the settings for where its files are.
pub fn new_player(variant: Variant, strength: u8) -> Result<Player, EngineError> {
    let mut settings = checkerbot_config::load(None).map_err(|error| EngineError::Settings {
        strength,
        reason: error.to_string(),
    })?;
    settings.game.variant = variant;
    if strength == STRONGEST {
        let (searcher, description) = player::level_5_searcher(&settings, TABLE_MEGABYTES);
        tracing::info!("strength {strength}: alpha-beta; {description}");
        return Ok(Player::AlphaBeta(Box::new(searcher)));
    }
    settings.play.level = PlayLevel::Fixed(strength);
    let brain = Brain::new(&settings, BRAIN_SEED);
    tracing::info!("strength {strength}: {}", brain.describe());
    Ok(Player::Brain(Box::new(brain)))
}

/// Whether no earlier position can come back after `mv`: a capture or a man's move.
pub fn irreversible(position: &Position, mv: &Move) -> bool {
    mv.is_capture() || !position.kings().contains(mv.from())
}
