//! The engine's state between searches: the variant, the position and the game before it,
//! the next search's level, and the robot's own alpha-beta searcher (level 5's player), kept
//! between searches so its table keeps what it learned.

use std::str::FromStr as _;

use rules::{Move, Position, Variant};
use search::{Limits, Searcher};

use super::board_text::{self, BoardTextError};
use super::message::{GoMode, Level};

/// The variant a session starts with: the Hub GUI's own, Scan's `normal`.
pub const DEFAULT_VARIANT: Variant = Variant::International;

/// The transposition table's size, in megabytes: the robot's.
const TABLE_MEGABYTES: usize = 16;

/// Why a command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// `set-param` of a parameter this engine does not have.
    #[error("unknown parameter {0}")]
    UnknownParameter(String),
    /// `set-param name=variant` with a variant this engine does not play.
    #[error("{0}")]
    UnknownVariant(#[from] rules::UnknownVariant),
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
    /// The searcher, to be given back with [`Engine::searcher_back`].
    pub searcher: Searcher,
}

/// The engine between searches.
#[derive(Debug)]
pub struct Engine {
    variant: Variant,
    /// The position to search and the positions before it since the last capture or man
    /// move; `None` after a refused `pos`.
    game: Option<(Position, Vec<Position>)>,
    level: Level,
    searcher: Option<Searcher>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine {
            variant: DEFAULT_VARIANT,
            game: Some((Position::new(DEFAULT_VARIANT), Vec::new())),
            level: Level::default(),
            searcher: Some(Searcher::new(TABLE_MEGABYTES)),
        }
    }
}

impl Engine {
    /// The variant positions and moves are read in.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// `set-param`: only `variant` is a parameter. A new variant starts from its initial
    /// position. `normal`, Scan's name for International, is understood too.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        if name != "variant" {
            return Err(EngineError::UnknownParameter(name.to_owned()));
        }
        let variant = if value == "normal" {
            Variant::International
        } else {
            Variant::from_str(value)?
        };
        if variant != self.variant {
            self.variant = variant;
            self.game = Some((Position::new(variant), Vec::new()));
            self.new_game();
        }
        Ok(())
    }

    /// `new-game`: forget what the searcher learned.
    pub fn new_game(&mut self) {
        if let Some(searcher) = &mut self.searcher {
            searcher.clear();
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

    /// `go`: what the search needs, the searcher included; the level is used up, as Scan's is.
    /// A single legal move is played after one iteration, unless the GUI asks for analysis:
    /// a game's clock is not spent on a forced move.
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
        Ok(SearchJob {
            position,
            history,
            limits,
            level,
            searcher: self
                .searcher
                .take()
                .unwrap_or_else(|| Searcher::new(TABLE_MEGABYTES)),
        })
    }

    /// Takes the searcher back after a search.
    pub fn searcher_back(&mut self, searcher: Searcher) {
        self.searcher = Some(searcher);
    }
}

/// Whether no earlier position can come back after `mv`: a capture or a man's move.
fn irreversible(position: &Position, mv: &Move) -> bool {
    mv.is_capture() || !position.kings().contains(mv.from())
}
