//! The robot's player: the network with MCTS at the configured level, or alpha-beta when no
//! network can be used.
//!
//! [`Brain::new`] reads `play.level`, `game.variant` and the paths, loads ONNX Runtime and the
//! level's network (`<models_dir>/<variant>-gen<N>.onnx`, see [`levels`](crate::levels)) and, when anything
//! is missing or refused, logs one warning that says why and plays with alpha-beta: an
//! exhibition must go on without the network. [`Brain::think`] runs on the game loop's worker
//! thread and honours the caller's stop flag (raised at `play.move_time_ms`).
//!
//! The search tree is kept between moves: when the next position follows from the last one by
//! the visitor's move, the subtree under that move (and its visits) is reused.
//!
//! Randomness (temperature, the weak levels' random moves, levels 3 and 4's draw among
//! near-equal moves) comes from the seed given to [`Brain::new`], so a game replays exactly
//! unless a search was stopped by the clock. Level 5's searches against the clock may run on
//! several threads (`play.threads`, see [`Brain::threads`]), which do not replay
//! exactly either; every node-limited search (hints, the coach's scoring) runs on one.
//!
//! With `play.egdb_dir` set (Russian), level 5 and the adaptive level's full-strength moves
//! play a position within the endgame tables from them instead of searching (see
//! `tables.rs`): the shortest win, the longest resistance or a drawing move. At level 5 the
//! thought's v is the table's exact value; the adaptive level keeps its own v (from its
//! scoring of every move), so that its v does not jump between its weaker and full moves.
//! Beyond the tables, the same levels' alpha-beta searcher holds them too: a position below
//! its root with no more pieces than they hold is scored by its exact value, not evaluated.
//!
//! The v a thought reports is calibrated: the network's v by the map its model carries for
//! the level (none: the raw v), alpha-beta's by the level's own map (see
//! [`levels`](crate::levels)).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use checkerbot_config::{PlayLevel, Settings};
use network::calibration::ValueCalibration;
use network::runtime::{Network, NetworkEvaluator, library};
use rules::{Move, Position, Variant};
use search::mcts::{Mcts, MctsConfig, MctsLimits};
use search::{Limits, Searcher};

use crate::adaptive::{Adaptive, Choice};
use crate::book::LoadedBook;
use crate::evaluation::LoadedEvaluation;
use crate::levels::{Level, UNTIMED_NODES, UNTIMED_PLAYOUTS, VARIETY_MARGIN};
use crate::rng::SplitMix;
use crate::tables::Tables;

/// The nodes the search of a visitor's alternatives may visit in all (see
/// [`Brain::alternatives`]), and the adaptive level's scoring of its own moves: a few hundredths
/// of a second, enough to see a piece lost a few moves deep, and a fixed count, so it replays
/// exactly.
pub const ALTERNATIVES_NODES: u64 = 60_000;

/// How many scored positions the brain keeps: the visitor's (the coach's alternatives, then the
/// adaptive level's measure of their move) and the robot's own in between.
const SCORED_KEPT: usize = 2;

/// How deep each alternative is searched, at most.
pub(crate) const ALTERNATIVES_DEPTH: u32 = 8;

/// The nodes a hint's search may visit: about a tenth of a second on the robot's computer,
/// deep enough for the tactics a visitor asks about, and a fixed count, so a hint replays
/// exactly.
pub const HINT_NODES: u64 = 300_000;

/// The robot's choice of move.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// The move to play.
    pub mv: Move,
    /// The robot's win probability, 0..=1, after its own search and the calibration of what
    /// played (the network model's map for the level, or the level's alpha-beta map): the
    /// emotions read it.
    pub v: f32,
    /// The search's own v before the calibration, logged by `checkerbot-lab match --v-log` so a
    /// level's map can be refitted from any binary (`training/calibration.py --raw`).
    pub raw_v: f32,
    /// The expected line, starting with `mv` when the move was the search's first choice.
    pub pv: Vec<Move>,
    /// MCTS playouts, or alpha-beta nodes, spent on this move.
    pub playouts_or_nodes: u64,
}

/// What plays.
enum Player {
    /// MCTS over a network.
    Network {
        evaluator: Box<NetworkEvaluator>,
        /// The model file's stem (`russian-gen2`), for [`Brain::describe`].
        name: String,
        /// The tree of the last search, kept for reuse.
        tree: Option<Mcts>,
    },
    /// Alpha-beta, with the reason there is no network (`None`: the level asks for none).
    AlphaBeta { reason: Option<String> },
}

/// What the loaded player was made from, to tell whether a reload needs a new model.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Source {
    variant: Variant,
    /// `None` when the level plays alpha-beta by design.
    model: Option<PathBuf>,
    dylib: Option<PathBuf>,
}

/// A position whose moves were scored: the position, the length of the game's history before it
/// (what the repetition rule saw) and every move with its score.
#[derive(Debug, Clone)]
struct ScoredPosition {
    position: Position,
    plies: usize,
    scored: Vec<(Move, i32)>,
}

/// The robot's player. `Send`, so the game loop can move it to a worker thread.
pub struct Brain {
    level: Level,
    variant: Variant,
    source: Source,
    player: Player,
    /// The alpha-beta searcher (the fallback player, kept for its table).
    searcher: Searcher,
    rng: SplitMix,
    seed: u64,
    /// Whether the level's variety among near-equal moves applies (see [`Level::variety`]).
    variety: bool,
    /// At the adaptive level, what it learnt of the visitor (it then plays alpha-beta, with
    /// level 5's search at full strength).
    adaptive: Option<Adaptive>,
    /// The last [`SCORED_KEPT`] positions whose moves were scored (each with the length of the
    /// game's history before it) and the scores: the coach's alternatives and the adaptive
    /// level's measure of the visitor's move score the same position, and it is searched once.
    last_scored: VecDeque<ScoredPosition>,
    /// Another program that plays the moves (`play.engine`), see `brain_engine.rs`.
    engine: Option<engine::Consulted>,
    /// The endgame tables (`play.egdb_dir`), consulted at full strength only: the weaker
    /// levels' mistakes in an ending are part of what makes them beatable. At full strength
    /// the searcher holds them too (see [`Brain::hand_tables_to_search`]).
    tables: Tables,
    /// What of the full-strength search `checkerbot-lab match` left out, to measure what it
    /// adds (nothing in the robot).
    left_out: LeftOut,
    /// Level 5's opening book (`<models_dir>/<variant>-book.txt`), see `book.rs`.
    book: LoadedBook,
    /// Level 5's learned evaluation (`<models_dir>/<variant>-eval.onnx`), see `evaluation.rs`.
    evaluation: LoadedEvaluation,
    /// Every search on one thread, whatever `play.threads` says ([`Brain::on_one_thread`]).
    one_thread: bool,
}

/// Parts of the full-strength search that `checkerbot-lab match` leaves out of a player to
/// measure what each adds ([`Brain::without_search_tables`], [`Brain::with_hand_evaluation`]).
#[derive(Debug, Clone, Copy, Default)]
struct LeftOut {
    /// The endgame tables below the root (kept at the root).
    search_tables: bool,
    /// The learned evaluation (the hand-written one searches instead).
    learned_evaluation: bool,
}

impl std::fmt::Debug for Brain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Brain")
            .field("level", &self.level())
            .field("variant", &self.variant)
            .field("plays", &self.describe())
            .finish_non_exhaustive()
    }
}

impl Brain {
    /// Loads what the level needs (the model for the settings' variant and level); when the
    /// ONNX Runtime library or the model cannot be loaded or does not match, logs one warning
    /// and plays with alpha-beta. Never panics, never fails.
    pub fn new(settings: &Settings, seed: u64) -> Brain {
        let level = playing_level(settings.play.level);
        let source = source(settings, level);
        let player = load(&source);
        let mut brain = Brain {
            level,
            variant: settings.game.variant,
            source,
            player,
            searcher: Searcher::new(16).with_threads(settings.play.threads),
            rng: SplitMix::new(seed),
            seed,
            variety: true,
            adaptive: (settings.play.level == PlayLevel::Adaptive)
                .then(|| Adaptive::new(settings.play.adaptive_target)),
            last_scored: VecDeque::new(),
            engine: None,
            tables: Tables::load(settings),
            left_out: LeftOut::default(),
            book: LoadedBook::load(settings),
            evaluation: LoadedEvaluation::load(settings),
            one_thread: false,
        };
        brain.hand_tables_to_search();
        brain.hand_evaluation_to_search();
        brain
    }

    /// Hands the endgame tables to the alpha-beta searcher at full strength (level 5, and the
    /// adaptive level, whose scoring and full-strength moves are level 5's search), so that
    /// every position below a searched root with no more pieces than the tables hold is
    /// scored exactly; takes them back at the weaker levels. Changing them clears the
    /// searcher's transposition table, whose scores came from the old ones.
    fn hand_tables_to_search(&mut self) {
        let egdb = (!self.left_out.search_tables && self.level.number == 5)
            .then(|| self.tables.egdb())
            .flatten();
        self.searcher.set_egdb(egdb);
    }

    /// Hands the learned evaluation to the alpha-beta searcher at level 5 and the adaptive
    /// level (the levels that read one, see `evaluation.rs`), or takes it back. Changing it
    /// clears the searcher's transposition table, whose scores came from the old one.
    fn hand_evaluation_to_search(&mut self) {
        let network = (!self.left_out.learned_evaluation)
            .then(|| self.evaluation.network())
            .flatten();
        self.searcher.set_evalnet(network);
    }

    /// The map from alpha-beta's raw v to the v the level reports: the learned evaluation's own
    /// while the search uses one (its scores are on another scale than the hand-written
    /// evaluation's), else the level's.
    pub(crate) fn alpha_beta_map(&self) -> ValueCalibration {
        if self.searcher.evalnet().is_some() {
            self.evaluation.calibration()
        } else {
            self.level.alpha_beta_calibration
        }
    }

    /// The same player with the hand-written evaluation in its search even where a learned one
    /// is read, for `checkerbot-lab match` to measure what the learned one adds.
    #[must_use]
    pub fn with_hand_evaluation(mut self) -> Brain {
        self.left_out.learned_evaluation = true;
        self.hand_evaluation_to_search();
        self
    }

    /// The same player searching on one thread, whatever `play.threads` says now or after a
    /// reload: a simulation on a paused clock, whose games must replay exactly from the seed.
    #[must_use]
    pub fn on_one_thread(mut self) -> Brain {
        self.one_thread = true;
        self.searcher.set_threads(1);
        self
    }

    /// The threads level 5's search against the clock runs on (`play.threads`; one after
    /// [`Brain::on_one_thread`]).
    pub fn threads(&self) -> usize {
        self.searcher.threads()
    }

    /// The same player always playing its most visited move, for `checkerbot-lab match` to
    /// measure what the level's variety costs.
    #[must_use]
    pub fn without_variety(mut self) -> Brain {
        self.variety = false;
        self
    }

    /// The same player with its endgame tables at the root only, not below it in its search
    /// (as before the search probed them), for `checkerbot-lab match` to measure what the
    /// probes in the search add.
    #[must_use]
    pub fn without_search_tables(mut self) -> Brain {
        self.left_out.search_tables = true;
        self.hand_tables_to_search();
        self
    }

    /// Applies a changed level or variant from a configuration reload; the model is reloaded
    /// only if the file (or the library) to use changed.
    pub fn reconfigure(&mut self, settings: &Settings) {
        let level = playing_level(settings.play.level);
        let source = source(settings, level);
        self.level = level;
        match (&mut self.adaptive, settings.play.level) {
            (Some(adaptive), PlayLevel::Adaptive) => {
                adaptive.retarget(settings.play.adaptive_target);
            }
            (None, PlayLevel::Adaptive) => {
                self.adaptive = Some(Adaptive::new(settings.play.adaptive_target));
            }
            (_, PlayLevel::Fixed(_)) => self.adaptive = None,
        }
        if source != self.source {
            self.player = load(&source);
            self.source = source;
            self.searcher.clear();
        }
        self.variant = settings.game.variant;
        let threads = if self.one_thread {
            1
        } else {
            settings.play.threads
        };
        self.searcher.set_threads(threads);
        self.tables.reconfigure(settings);
        self.hand_tables_to_search();
        self.book.reconfigure(settings);
        self.evaluation.reconfigure(settings);
        self.hand_evaluation_to_search();
    }

    /// Chooses the robot's move in `position` (`history`: the game's earlier positions, for
    /// alpha-beta's repetition rule). Honours `stop`; deterministic for a given seed when not
    /// stopped early. `None` only when the position has no legal move (the game is over).
    pub fn think(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Option<Thought> {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return None;
        }
        match self.engine_move(position, history, stop, &moves) {
            Ok(thought) => return Some(thought),
            Err(true) => return Some(self.quick_own_move(position, history, &moves)),
            Err(false) => {}
        }
        if let Some(thought) = self.book_move(position) {
            return Some(thought);
        }
        if self.adaptive.is_none()
            && self.level.number == 5
            && let Some(thought) = self.table_move(position)
        {
            return Some(thought);
        }
        if let Some(adaptive) = self.adaptive.take() {
            let (adaptive, thought) = self.adaptive_move(adaptive, position, history, stop, &moves);
            self.adaptive = Some(adaptive);
            return Some(thought);
        }
        if position.variant() != self.variant {
            // A position of another variant than configured: only alpha-beta knows every one.
            return Some(self.alpha_beta(position, history, stop, &moves));
        }
        let level = self.level;
        let thought = match &mut self.player {
            Player::Network {
                evaluator, tree, ..
            } => {
                let map = network_calibration(evaluator, level);
                let variety = level
                    .variety
                    .filter(|_| self.variety)
                    .map(|share| (share, &mut self.rng));
                let tree = tree.get_or_insert_with(|| new_tree(*position, self.seed));
                let thought = mcts(evaluator, tree, position, history, level, variety, stop);
                let thought = thought.map(|thought| Thought {
                    v: map.map_or(thought.raw_v, |map| map.apply(thought.raw_v)),
                    ..thought
                });
                if let Some(error) = evaluator.take_error() {
                    tracing::warn!(
                        "the network failed ({error}); playing with alpha-beta from now on"
                    );
                    self.player = Player::AlphaBeta {
                        reason: Some(format!("network failed: {error}")),
                    };
                }
                thought
            }
            Player::AlphaBeta { .. } => None,
        };
        Some(match thought {
            Some(thought) => thought,
            None => self.alpha_beta(position, history, stop, &moves),
        })
    }

    /// Level 5's move from its opening book, when `position` is in it: drawn by the seed among
    /// the book's good moves (its best one without variety, for `checkerbot-lab match`). The
    /// line goes on with the book's best reply, so the robot expects it as it would a search's.
    fn book_move(&mut self, position: &Position) -> Option<Thought> {
        let book = self.book.book()?;
        let chosen = if self.variety {
            book.choose(position, &mut self.rng)?
        } else {
            *book.moves(position)?.first()?
        };
        let mut pv = vec![chosen.mv];
        let after = position.play(&chosen.mv).ok()?;
        if let Some(reply) = book.moves(&after).and_then(<[_]>::first) {
            pv.push(reply.mv);
        }
        let raw_v = search::win_probability(chosen.score);
        Some(Thought {
            mv: chosen.mv,
            v: self.alpha_beta_map().apply(raw_v),
            raw_v,
            pv,
            playouts_or_nodes: 0,
        })
    }

    /// The best move for the side to move, whatever the level: a hint for the visitor. Searched
    /// with alpha-beta as far as [`HINT_NODES`] (or `stop`) allows, since a hint at the weak
    /// levels must still be good. The `v` is the mover's win probability from the score, not
    /// calibrated by a level's map. `None` only when the position has no legal move.
    pub fn hint(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Option<Thought> {
        let limits = Limits {
            depth: 64,
            nodes: HINT_NODES,
        };
        let result = self.searcher.search_alone(position, history, limits, stop);
        let mv = result.best?;
        Some(Thought {
            mv,
            v: result.win_probability,
            raw_v: result.win_probability,
            pv: result.pv,
            playouts_or_nodes: result.nodes,
        })
    }

    /// Whether [`Brain::ponder`] does anything: at level 5 and the adaptive level, whose moves
    /// are (or score with) level 5's alpha-beta and its table, and not when an external engine
    /// plays, whose search the table cannot help.
    pub fn ponders(&self) -> bool {
        self.level.number == 5 && self.engine.is_none()
    }

    /// Thinks on the visitor's time: searches `position`, the visitor to move, until `stop` is
    /// raised (or [`UNTIMED_NODES`]), so that whatever the visitor plays, the robot's next
    /// search finds the reply's subtree in its table. Chooses nothing and changes nothing but
    /// the table. Searches nothing (0 nodes) where it [does not ponder](Brain::ponders), or
    /// where the robot will answer every move of the visitor from its opening book
    /// ([`Pondering::book`]): its search would warm the table for nothing.
    pub fn ponder(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
    ) -> Pondering {
        if !self.ponders() {
            return Pondering::default();
        }
        if self.book_answers_every_move(position) {
            return Pondering {
                book: true,
                ..Pondering::default()
            };
        }
        let limits = Limits {
            depth: 64,
            nodes: UNTIMED_NODES,
        };
        let result = self.full_strength_search(position, history, limits, stop);
        Pondering {
            nodes: result.nodes,
            depth: result.depth,
            book: false,
        }
    }

    /// Whether every legal move in `position` leads to a position the opening book answers
    /// ([`Brain::book_move`], which [`Brain::think`] asks before any search).
    fn book_answers_every_move(&self, position: &Position) -> bool {
        let Some(book) = self.book.book() else {
            return false;
        };
        let moves = position.legal_moves();
        !moves.is_empty()
            && moves.iter().all(|mv| {
                position
                    .play(mv)
                    .is_ok_and(|after| book.moves(&after).is_some_and(|m| !m.is_empty()))
            })
    }

    /// Every legal move in `position` with the mover's win probability after it, from a short
    /// alpha-beta search of each (within [`ALTERNATIVES_NODES`] in all): how the visitor's
    /// choices compared, so the coach can tell the only good move from one of many. Not
    /// calibrated by a level's map, and independent of the level.
    pub fn alternatives(&mut self, position: &Position, history: &[Position]) -> Vec<(Move, f32)> {
        let (scored, _) = self.score_each_move(position, history);
        scored
            .into_iter()
            .map(|(mv, score)| (mv, search::win_probability(score)))
            .collect()
    }

    /// Forgets what the adaptive level learnt of the visitor, when the caller knows a new one
    /// came (the robot: the next game began long after the last one ended). Nothing to forget
    /// at a fixed level.
    pub fn forget_visitor(&mut self) {
        if let Some(adaptive) = &mut self.adaptive {
            adaptive.forget_visitor();
        }
    }

    /// The adaptive level's picture of the visitor: their mean move cost, hundredths of a man
    /// (see [`adaptive`](crate::adaptive); `None` at a fixed level).
    pub fn adaptive_visitor_cost(&self) -> Option<f32> {
        self.adaptive.as_ref().map(Adaptive::visitor_cost)
    }

    /// The level it plays at.
    pub fn level(&self) -> PlayLevel {
        match self.adaptive {
            Some(_) => PlayLevel::Adaptive,
            None => PlayLevel::Fixed(self.level.number),
        }
    }

    /// Every legal move with the mover's score after it (hundredths of a man), from a short
    /// alpha-beta search of each within [`ALTERNATIVES_NODES`] in all, and the nodes spent (0
    /// when the position was the last one scored).
    fn score_each_move(
        &mut self,
        position: &Position,
        history: &[Position],
    ) -> (Vec<(Move, i32)>, u64) {
        let known = self
            .last_scored
            .iter()
            .find(|known| known.position == *position && known.plies == history.len());
        if let Some(known) = known {
            return (known.scored.clone(), 0);
        }
        let (scored, nodes) = self.search_each_move(position, history);
        if self.last_scored.len() == SCORED_KEPT {
            self.last_scored.pop_front();
        }
        self.last_scored.push_back(ScoredPosition {
            position: *position,
            plies: history.len(),
            scored: scored.clone(),
        });
        (scored, nodes)
    }

    /// [`score_each_move`](Brain::score_each_move)'s searches.
    fn search_each_move(
        &mut self,
        position: &Position,
        history: &[Position],
    ) -> (Vec<(Move, i32)>, u64) {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return (Vec::new(), 0);
        }
        let mut line = history.to_vec();
        line.push(*position);
        let limits = Limits {
            depth: ALTERNATIVES_DEPTH,
            nodes: ALTERNATIVES_NODES / moves.len() as u64,
        };
        let unstoppable = AtomicBool::new(false);
        let mut nodes = 0;
        let scored = moves
            .iter()
            .map(|mv| {
                let mut child = *position;
                child.play_unchecked(mv);
                let reply = self
                    .searcher
                    .search_alone(&child, &line, limits, &unstoppable);
                nodes += reply.nodes;
                (*mv, -reply.score)
            })
            .collect();
        (scored, nodes)
    }

    /// The adaptive level's move (see [`adaptive`](crate::adaptive)): what the visitor's last
    /// move cost learnt, every move of the robot's scored, and either level 5's full search or
    /// a move of the cost drawn by the seed.
    fn adaptive_move(
        &mut self,
        mut adaptive: Adaptive,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
        moves: &[Move],
    ) -> (Adaptive, Thought) {
        let left = adaptive.take_left();
        let expected = adaptive.take_expected();
        let mut measuring_nodes = 0;
        // The robot's score by its last full search, when the visitor answered as it expected.
        let mut expected_score = None;
        if let Some((before, earlier)) = history.split_last()
            && left.as_ref() == Some(before)
        {
            let reply_expected =
                expected.filter(|(reply, _)| before.play(reply).ok().as_ref() == Some(position));
            // A forced move (a capture with no other) says nothing of how the visitor plays.
            let chosen = before.count_legal_moves() > 1;
            if expected.is_some() && chosen {
                adaptive.agreed(reply_expected.is_some());
            }
            if let Some((_, score)) = reply_expected {
                // What the deeper search expected costs nothing, and needs no scoring.
                if chosen {
                    adaptive.observe_expected();
                }
                expected_score = Some(score);
            } else if !adaptive.plays_like_level_5() {
                // The visitor's moves, scored as the robot's are: what the one played cost them.
                let (theirs, nodes) = self.score_each_move(before, earlier);
                measuring_nodes = nodes;
                let their_best = theirs.iter().map(|&(_, score)| score).max();
                let played = theirs.iter().find(|(mv, _)| {
                    let mut after = *before;
                    after.play_unchecked(mv);
                    after == *position
                });
                if theirs.len() > 1
                    && let (Some(their_best), Some(&(_, score))) = (their_best, played)
                {
                    adaptive.observe(crate::adaptive::cost(their_best, score));
                }
            }
        }
        let drawn = adaptive.draw(&mut self.rng);
        let unscored = adaptive.plays_like_level_5()
            || expected_score.is_some_and(|score| adaptive.full_strength_unscored(drawn, score));
        let (scored, scoring_nodes) = if unscored {
            (Vec::new(), 0)
        } else {
            self.score_each_move(position, history)
        };
        let choice = if unscored {
            Choice::FullStrength
        } else {
            adaptive.choose_drawn(&scored, drawn, &mut self.rng)
        };
        tracing::debug!(
            "adaptive: unscored {unscored}, the visitor's mean move cost {:.0}, their replies \
             expected {:?}: {choice:?}",
            adaptive.visitor_cost(),
            adaptive.agreement()
        );
        let mut reached = None;
        // The full search's own score, when it chose the move: what cuts its depth or restores it.
        let mut searched_score = None;
        let (mut thought, score, expected) = match choice {
            Choice::FullStrength => {
                // Level 5's search, as deep as the visitor has shown they need.
                let thought = self.table_move(position).unwrap_or_else(|| {
                    let depth = adaptive.depth();
                    let (thought, depth) =
                        self.capped_alpha_beta(position, history, stop, moves, depth);
                    reached = Some(depth);
                    thought
                });
                // The full search's own score: deeper than the short one, and there unscored.
                let searched = crate::adaptive::score_of(thought.raw_v);
                searched_score = Some(searched);
                let score = scored
                    .iter()
                    .find(|&&(mv, _)| mv == thought.mv)
                    .map_or(searched, |&(_, score)| score);
                let expected = thought.pv.get(1).map(|&reply| (reply, searched));
                (thought, score, expected)
            }
            Choice::Weaker(mv, score) => (
                Thought {
                    mv,
                    v: 0.0,
                    raw_v: 0.0,
                    pv: vec![mv],
                    playouts_or_nodes: 0,
                },
                score,
                None,
            ),
        };
        let mut after = *position;
        after.play_unchecked(&thought.mv);
        adaptive.played(after, expected);
        adaptive.follow_lead(searched_score, reached);
        thought.v = adaptive.v(score);
        thought.raw_v = thought.v;
        thought.playouts_or_nodes += scoring_nodes + measuring_nodes;
        (adaptive, thought)
    }

    /// The adaptive level's full search: level 5's alpha-beta (until the move time, and as far as
    /// [`UNTIMED_NODES`] without one), cut at `depth` plies (see
    /// [`Adaptive::depth`](crate::adaptive::Adaptive::depth)); and the depth it reached.
    fn capped_alpha_beta(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
        moves: &[Move],
        depth: u32,
    ) -> (Thought, u32) {
        let limits = Limits {
            depth,
            nodes: UNTIMED_NODES,
        };
        let result = self.full_strength_search(position, history, limits, stop);
        let thought = Thought {
            mv: result.best.unwrap_or(moves[0]),
            v: result.win_probability,
            raw_v: result.win_probability,
            pv: result.pv,
            playouts_or_nodes: result.nodes,
        };
        (thought, result.depth)
    }

    /// The endgame tables' move in `position` (see `tables.rs`), as a thought whose v is the
    /// table's exact value (a win 1, a draw 0.5, a loss 0: no calibration, since nothing is
    /// estimated) and whose pv is the move. `None` without tables or outside them.
    fn table_move(&self, position: &Position) -> Option<Thought> {
        let found = self.tables.best_move(position)?;
        let v = match found.value {
            egdb::Wdl::Win => 1.0,
            egdb::Wdl::Draw => 0.5,
            egdb::Wdl::Loss => 0.0,
        };
        tracing::debug!(
            "endgame tables: {:?} in {} plies",
            found.value,
            found.distance
        );
        Some(Thought {
            mv: found.mv,
            v,
            raw_v: v,
            pv: vec![found.mv],
            playouts_or_nodes: 0,
        })
    }

    /// The endgame tables: `None` when `play.egdb_dir` names none (or the variant has none),
    /// else the most pieces they answer, or the warning that said why they are not used.
    pub fn endgame_tables(&self) -> Option<Result<u32, &str>> {
        self.tables.status()
    }

    /// What plays now, for logs and `checkerbot doctor`.
    pub fn describe(&self) -> String {
        let own = self.describe_own();
        let own = match self.book.status() {
            None => own,
            Some(Ok(positions)) => format!("{own}; opening book of {positions} positions"),
            Some(Err(reason)) => format!("{own}; no opening book: {reason}"),
        };
        let own = match self.evaluation.status() {
            Some(Ok(file)) if !self.left_out.learned_evaluation => {
                format!("{own}; learned evaluation {file}")
            }
            Some(Err(reason)) => format!("{own}; hand-written evaluation: {reason}"),
            _ => own,
        };
        let own = match self.tables.status() {
            None => own,
            Some(Ok(pieces)) => format!("{own}; endgame tables up to {pieces} pieces"),
            Some(Err(reason)) => format!("{own}; no endgame tables: {reason}"),
        };
        match self.engine_description() {
            Some(engine) => engine + &own,
            None => own,
        }
    }

    /// What plays when no external engine does.
    fn describe_own(&self) -> String {
        if let Some(adaptive) = &self.adaptive {
            if adaptive.plays_like_level_5() {
                return format!(
                    "adaptive: plays level 5's alpha-beta{}, since the visitor plays like it \
                     ({:.0}% of their latest replies were the ones it expected)",
                    self.on_threads(),
                    100.0 * adaptive.agreement().unwrap_or(0.0)
                );
            }
            return format!(
                "adaptive: makes the visitor's mistakes (their moves cost {:.0} hundredths of a \
                 man on average, as far as it knows) around level 5's alpha-beta{}, leaning to \
                 keep their expected score near {:.2}",
                adaptive.visitor_cost(),
                self.on_threads(),
                adaptive.target()
            );
        }
        match &self.player {
            Player::Network {
                evaluator, name, ..
            } => {
                let playouts = self.level.playouts_in(self.variant).map_or_else(
                    || "playouts until the move time".to_owned(),
                    |n| format!("{n} playouts"),
                );
                let temperature = if self.level.temperature > 0.0 {
                    format!(", temperature {}", self.level.temperature)
                } else {
                    String::new()
                };
                let raw = if network_calibration(evaluator, self.level).is_some() {
                    ""
                } else {
                    "; raw v: the model has no calibration for this level"
                };
                format!(
                    "network {name} via ONNX Runtime {}, {playouts}{temperature} (level {}{raw})",
                    runtime_version(evaluator.network().library()),
                    self.level.number
                )
            }
            Player::AlphaBeta { reason } => {
                let depth = self.level.fallback_depth.map_or_else(
                    || format!("until the move time{}", self.on_threads()),
                    |d| format!("depth {d}"),
                );
                let random = if self.level.fallback_random > 0.0 {
                    format!(", {:.0}% random moves", self.level.fallback_random * 100.0)
                } else {
                    String::new()
                };
                match reason {
                    Some(reason) => format!(
                        "alpha-beta {depth}{random} (level {}; no network: {reason})",
                        self.level.number
                    ),
                    None => format!("alpha-beta {depth}{random} (level {})", self.level.number),
                }
            }
        }
    }

    /// " on N threads" where level 5's search has more than one, for the descriptions.
    fn on_threads(&self) -> String {
        match self.threads() {
            1 => String::new(),
            threads => format!(" on {threads} threads"),
        }
    }

    /// Whether the network plays (false: alpha-beta).
    pub fn uses_network(&self) -> bool {
        matches!(self.player, Player::Network { .. })
    }

    /// Whether the level asks for a network (false: alpha-beta by design, as at level 5), so
    /// `checkerbot doctor` can tell a fallback from the plan.
    pub fn wants_network(&self) -> bool {
        self.source.model.is_some()
    }

    fn alpha_beta(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
        moves: &[Move],
    ) -> Thought {
        let limits = match self.level.fallback_depth {
            Some(depth) => Limits {
                depth,
                nodes: UNTIMED_NODES,
            },
            None => Limits {
                depth: 64,
                nodes: UNTIMED_NODES,
            },
        };
        let result = match self.level.fallback_depth {
            Some(_) => self.searcher.search_alone(position, history, limits, stop),
            None => self.full_strength_search(position, history, limits, stop),
        };
        let searched = result.best.unwrap_or(moves[0]);
        let random =
            self.level.fallback_random > 0.0 && self.rng.chance(self.level.fallback_random);
        let variety = self.variety && self.level.variety.is_some();
        let mv = match self.level.fallback_depth {
            _ if random => moves[self.rng.below(moves.len())],
            Some(depth) if variety => self.near_equal_alpha_beta(
                position,
                history,
                stop,
                moves,
                (searched, result.score),
                depth,
            ),
            _ => searched,
        };
        let pv = if mv == searched { result.pv } else { vec![mv] };
        let v = self.alpha_beta_map().apply(result.win_probability);
        Thought {
            mv,
            v,
            raw_v: result.win_probability,
            pv,
            playouts_or_nodes: result.nodes,
        }
    }

    /// Level 5's search against the clock (its moves, its pondering and the adaptive level's
    /// full-strength moves): on the `play.threads` threads. Every other search (the coach's
    /// scoring, hints, the weaker levels) is on one thread and replays exactly.
    fn full_strength_search(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: Limits,
        stop: &AtomicBool,
    ) -> search::SearchResult {
        self.searcher.search(position, history, limits, stop)
    }

    /// The alpha-beta stand-in's variety: among the root moves whose own search (a ply less
    /// deep than the level's) scores within [`VARIETY_MARGIN`] of the `best` move's score, the
    /// one the seed draws.
    fn near_equal_alpha_beta(
        &mut self,
        position: &Position,
        history: &[Position],
        stop: &AtomicBool,
        moves: &[Move],
        (best, score): (Move, i32),
        depth: u32,
    ) -> Move {
        if depth < 2 || moves.len() < 2 {
            return best;
        }
        let mut line = history.to_vec();
        line.push(*position);
        let limits = Limits {
            depth: depth - 1,
            nodes: UNTIMED_NODES,
        };
        let searcher = &mut self.searcher;
        let near: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| {
                if *mv == best {
                    return true;
                }
                let mut child = *position;
                child.play_unchecked(mv);
                -searcher.search_alone(&child, &line, limits, stop).score >= score - VARIETY_MARGIN
            })
            .collect();
        if near.len() < 2 {
            return best;
        }
        tracing::debug!("{} moves score as the best; the seed chose one", near.len());
        near[self.rng.below(near.len())]
    }
}

/// What [`Brain::ponder`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pondering {
    /// Nodes searched (0 where it did not search).
    pub nodes: u64,
    /// The deepest iteration it completed.
    pub depth: u32,
    /// It searched nothing: the opening book answers every move the visitor can make.
    pub book: bool,
}

/// The level whose player is loaded: the fixed one, or level 5 (alpha-beta) for the adaptive
/// level's full strength.
fn playing_level(level: PlayLevel) -> Level {
    crate::levels::level(level.fixed().unwrap_or(5))
}

/// The model and library the settings ask for at `level`: the newest of the level's
/// generations that exists for the variant, else the oldest (whose absence is then reported).
fn source(settings: &Settings, level: Level) -> Source {
    let variant = settings.game.variant;
    let dir = settings.paths.models_dir();
    let path = |generation: u8| dir.join(model_name(variant, generation) + ".onnx");
    let generation = level
        .generations
        .iter()
        .copied()
        .find(|&generation| path(generation).is_file())
        .or_else(|| level.generations.last().copied());
    Source {
        variant,
        model: generation.map(path),
        dylib: dylib(settings.paths.onnxruntime.as_deref()),
    }
}

/// The move to play among the root moves whose `visits` reach `share` of the most visited
/// one's: drawn from `rng` when there are several, else `best`.
pub(crate) fn near_equal_choice(
    visits: &[(Move, u32)],
    best: Move,
    share: f32,
    rng: &mut SplitMix,
) -> Move {
    let top = visits.iter().map(|&(_, n)| n).max().unwrap_or(0);
    if top == 0 {
        return best;
    }
    let near: Vec<Move> = visits
        .iter()
        .filter(|&&(_, n)| n as f32 >= share * top as f32)
        .map(|&(mv, _)| mv)
        .collect();
    if near.len() < 2 {
        return best;
    }
    let chosen = near[rng.below(near.len())];
    tracing::debug!("{} near-equal moves; the seed chose one", near.len());
    chosen
}

/// `russian-gen2`.
pub fn model_name(variant: Variant, generation: u8) -> String {
    format!("{}-gen{generation}", variant.name())
}

/// The library to load: the configured one; else `None` (the engine's own search: the
/// environment, next to the executable, the system) unless only the development copy that
/// `scripts/install-deps` puts under the source tree's `target/onnxruntime/` exists.
pub fn dylib(configured: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = configured {
        return Some(path.to_path_buf());
    }
    if std::env::var_os(library::DYLIB_ENV).is_some_and(|v| !v.is_empty()) {
        return None;
    }
    let next_to_exe = library::candidates(None)
        .iter()
        .any(|p| p.components().count() > 1 && p.exists());
    if next_to_exe {
        return None;
    }
    let dir = checkerbot_config::PathSettings::source_onnxruntime_dir();
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libonnxruntime.so") || n == "onnxruntime.dll")
        })
        .collect();
    found.sort();
    found.pop()
}

/// Loads the network, or says why not (once, as a warning).
fn load(source: &Source) -> Player {
    let Some(model) = &source.model else {
        return Player::AlphaBeta { reason: None };
    };
    let name = model
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let reason = if model.is_file() {
        match Network::load(source.dylib.as_deref(), model, source.variant) {
            Ok(network) => {
                tracing::info!(
                    "playing with the network {} ({})",
                    model.display(),
                    network.library().display()
                );
                return Player::Network {
                    evaluator: Box::new(NetworkEvaluator::new(network)),
                    name,
                    tree: None,
                };
            }
            Err(error) => error.to_string(),
        }
    } else {
        format!(
            "{} not found (set paths.models_dir, see models/README.md)",
            model.display()
        )
    };
    tracing::warn!("playing with alpha-beta instead of the network: {reason}");
    Player::AlphaBeta {
        reason: Some(reason),
    }
}

/// The map the network's model carries for `level`, if any.
fn network_calibration(evaluator: &NetworkEvaluator, level: Level) -> Option<ValueCalibration> {
    evaluator.network().calibrations().for_level(level.number)
}

/// A game's MCTS tree, rooted at `position`.
fn new_tree(position: Position, seed: u64) -> Mcts {
    Mcts::new(
        position,
        MctsConfig {
            seed,
            ..MctsConfig::default()
        },
    )
}

/// One MCTS search, reusing the tree when `position` follows from its root; its v is the raw
/// one (the caller calibrates it). `history` is the game's positions before `position`: the
/// tree scores a position repeating one of them as a draw. `None` if the search found nothing
/// (it always finds a move for a position with legal moves).
fn mcts(
    evaluator: &mut NetworkEvaluator,
    tree: &mut Mcts,
    position: &Position,
    history: &[Position],
    level: Level,
    variety: Option<(f32, &mut SplitMix)>,
    stop: &AtomicBool,
) -> Option<Thought> {
    if tree.root() != position {
        let root = *tree.root();
        let reached = root
            .legal_moves()
            .into_iter()
            .find(|mv| root.play(mv).is_ok_and(|next| next == *position));
        match reached {
            Some(mv) if tree.advance(&mv).is_ok() => {}
            _ => tree.reset(*position),
        }
    }
    tree.set_history(history);
    let before = tree.root_visits();
    let limits = MctsLimits {
        playouts: level
            .playouts_in(position.variant())
            .unwrap_or(UNTIMED_PLAYOUTS),
        temperature: level.temperature,
    };
    let result = tree.search(evaluator, limits, stop)?;
    let playouts = u64::from(tree.root_visits().saturating_sub(before));
    let best = match variety {
        Some((share, rng)) => near_equal_choice(&result.visits, result.best, share, rng),
        None => result.best,
    };
    // Keep what was searched below the chosen move for the next turn.
    if tree.advance(&best).is_err() {
        tree.reset(*position);
    }
    let pv = if result.pv.first() == Some(&best) {
        result.pv
    } else {
        vec![best]
    };
    Some(Thought {
        mv: best,
        v: result.v,
        raw_v: result.v,
        pv,
        playouts_or_nodes: playouts,
    })
}

/// `1.32.0` from `libonnxruntime.so.1.32.0`; else the file's name.
fn runtime_version(library: &Path) -> String {
    let name = library
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.split_once(".so.")
        .map_or(name.clone(), |(_, version)| version.to_owned())
}

#[path = "brain_engine.rs"]
mod engine;

#[cfg(test)]
#[path = "brain_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "brain_tables_tests.rs"]
mod tables_tests;

#[cfg(test)]
#[path = "brain_book_tests.rs"]
mod book_tests;

#[cfg(test)]
#[path = "brain_pondering_tests.rs"]
mod pondering_tests;

#[cfg(test)]
#[path = "brain_evaluation_tests.rs"]
mod evaluation_tests;
