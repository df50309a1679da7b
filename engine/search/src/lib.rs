//! Alpha-beta search: the fallback player when no network can be loaded, the teacher for
//! training, and a yardstick for the others.
//!
//! Negamax with principal-variation search, iterative deepening in aspiration windows, a
//! transposition table (buckets replaced by age, then depth), killer and history move ordering,
//! and late-move reductions. Captures are compulsory in draughts, so the search never stops
//! in a position where the side to move must capture (that is its quiescence search), and a
//! leaf where the opponent threatens a capture is searched one ply further. Time is
//! not read here: the caller sets the `stop` flag (the daemon does it from a timer) and gives
//! node and depth limits, so a search is reproducible. A stopped iteration is not all lost:
//! each one searches the last one's best move first, so a root move that beat it before the
//! stop is the answer.
//!
//! With endgame tables handed over ([`Searcher::set_egdb`]; the caller opens them, so the
//! search still does no I/O), a quiet position below the root with no more pieces than the
//! tables hold is not searched: its exact win, draw or loss is its score, a table win scored
//! between the evaluation's range and a mate's ([`TB_WIN`]).
//!
//! With a learned evaluation handed over ([`Searcher::set_evalnet`]), quiet leaves are scored
//! by that network instead of the hand-written [`evaluate`]: its first layer is kept per ply
//! and updated by what each move changes, so a leaf costs the network's small upper layers.
//!
//! With more than one thread ([`Searcher::with_threads`]), the search is Lazy SMP: helper
//! searchers, each with its own killers, history and buffers, search the same root at the
//! same time, sharing the transposition table (lock-free, see `tt.rs`), and every other
//! helper one ply deeper, so that what they store orders and cuts the main thread's search.
//! The main thread's result is returned; the helpers stop when it finishes. Which thread
//! stores what first depends on the scheduler, so such a search does not replay exactly:
//! with one thread (the default) it does.
#![warn(missing_docs)]

mod dirichlet;
mod eval;
mod hash;
pub mod mcts;
mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

pub use eval::{MAN, evaluate};
pub use hash::key;

use egdb::{Egdb, Wdl};
use evalnet::{Accumulator, EvalNet};
use rules::{Goal, Move, Position};
use tt::{Bound, Entry, MoveKey, Table};

/// Score of a won position, less the plies needed to win.
pub const WIN: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// Score of a position the endgame tables say is won, less the plies to it, plus the
/// evaluation clamped to [`TB_EVAL_CLAMP`]: above anything the evaluation gives, so a table
/// win ranks above any other score, and below [`WIN_THRESHOLD`], so a mate the search sees
/// still ranks above it and a table win is never reported as a mate in so many moves. The
/// evaluation inside the band pushes the winning side on (more material, men forward).
pub const TB_WIN: i32 = 20_000;
/// Scores from this up to [`WIN_THRESHOLD`] are wins proved by the endgame tables (and their
/// negations losses): [`TB_WIN`] less at most [`MAX_PLY`] plies and [`TB_EVAL_CLAMP`].
pub const TB_WIN_THRESHOLD: i32 = TB_WIN - 1_000;
/// The most the evaluation moves a table win's score, either way (hundredths of a man).
pub const TB_EVAL_CLAMP: i32 = 500;
/// The deepest ply searched; a table's value is stored in the transposition table as
/// searched this deep.
pub const MAX_PLY: usize = 128;
/// The most a learned evaluation scores a position, either way (hundredths of a man): far
/// below the table wins and mates, whatever the network says.
pub const EVALNET_LIMIT: i32 = 5_000;
/// Half-width of the first aspiration window, in hundredths of a man.
const ASPIRATION_WINDOW: i32 = 40;
/// Remaining depth from which late moves are reduced.
const LMR_DEPTH: i32 = 3;
/// Moves searched in full at a node before the rest may be reduced.
const LMR_MOVES: usize = 3;
/// The rank [`Searcher::rank`] gives the second killer: a move ranked below it is ordered by
/// history alone.
const KILLER_RANK: u64 = 1 << 39;
/// The longest line the table's best moves are followed for after the searched line.
const PV_LEN: usize = 32;

/// How far to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// Stop after about this many nodes.
    pub nodes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: 64,
            nodes: u64::MAX,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<Move>,
    /// Score for the side to move in hundredths of a man; beyond [`WIN_THRESHOLD`] a forced win.
    pub score: i32,
    /// The side to move's win probability estimated from the score.
    pub win_probability: f32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// Positions below the root whose value came from the endgame tables (0 without them).
    pub tb_hits: u64,
}

/// The score (hundredths of a man) that moves [`win_probability`]'s logistic curve by one
/// logit: a man up is about 62%.
pub const SCORE_PER_LOGIT: f32 = 200.0;

/// Converts a score to a win probability with a logistic curve (a man up is about 62%).
pub fn win_probability(score: i32) -> f32 {
    if score >= WIN_THRESHOLD {
        return 1.0;
    }
    if score <= -WIN_THRESHOLD {
        return 0.0;
    }
    1.0 / (1.0 + (-(score as f32) / SCORE_PER_LOGIT).exp())
}

/// A reusable searcher; keep it between moves so the table keeps what it learned.
#[derive(Debug)]
pub struct Searcher {
    /// Shared with `helpers`.
    table: Arc<Table>,
    /// The other threads' searchers, one fewer than the threads (none: the search is on the
    /// caller's thread alone, and replays exactly).
    helpers: Vec<Searcher>,
    /// Plies added to each iteration's depth (a helper's stagger; 0 for the main searcher).
    depth_offset: u32,
    killers: Vec<[Option<MoveKey>; 2]>,
    history: Vec<u32>,
    buffers: Vec<Vec<Move>>,
    /// Each ply's move ranks, beside its moves in `buffers`.
    ranks: Vec<Vec<u64>>,
    /// The best line found below each ply of the current path (a triangular PV table): the
    /// root's is the principal variation, whole even where the table has since lost entries.
    lines: Vec<Vec<Move>>,
    /// Keys of the positions on the current path and the game before it, for repetition.
    path: Vec<u64>,
    nodes: u64,
    /// Positions answered by `egdb` in this search.
    tb_hits: u64,
    node_limit: u64,
    aborted: bool,
    /// Whether late moves are reduced and the root searched in aspiration windows (off only
    /// to check the search against plain minimax).
    pruning: bool,
    /// The endgame tables probed below the root, if the caller handed any over.
    egdb: Option<Arc<Egdb>>,
    /// The learned evaluation, if the caller handed one over.
    evalnet: Option<Arc<EvalNet>>,
    /// The last completed iteration's best move, searched first at the root of the next (none
    /// in the first, where the table's move from an earlier search ranks first).
    root_first: Option<MoveKey>,
    /// A root move that beat `root_first` in the iteration under way, with its score and line:
    /// if the clock stops that iteration, it is a better answer than the completed one.
    unfinished_best: Option<(i32, Vec<Move>)>,
    /// Whether this search evaluates with `evalnet` (handed over, and for the root's variant).
    evalnet_on: bool,
    /// Each ply's first-layer sums of `evalnet` for the position on the path (empty without
    /// one).
    accumulators: Vec<Accumulator>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(16)
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `table_megabytes`.
    pub fn new(table_megabytes: usize) -> Searcher {
        Searcher {
            table: Arc::new(Table::new(table_megabytes)),
            helpers: Vec::new(),
            depth_offset: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 128 * 128],
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
            ranks: (0..=MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
            lines: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(16)).collect(),
            path: Vec::new(),
            nodes: 0,
            tb_hits: 0,
            node_limit: u64::MAX,
            aborted: false,
            pruning: true,
            egdb: None,
            evalnet: None,
            root_first: None,
            unfinished_best: None,
            evalnet_on: false,
            accumulators: Vec::new(),
        }
    }

    /// The same searcher searching on `threads` threads (at least one) with Lazy SMP (see the
    /// crate's documentation): the caller's and `threads - 1` helpers that share its table.
    /// The node limit then bounds each thread's nodes, and the result counts every thread's;
    /// with more than one thread a search does not replay exactly, so a caller that needs it
    /// to (node-limited searches, a seeded simulation) keeps one, or searches with
    /// [`Searcher::search_alone`].
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Searcher {
        self.set_threads(threads);
        self
    }

    /// [`Searcher::with_threads`] in place: the table, and what it learnt, are kept, and so are
    /// the helpers that remain (a settings reload that changes the threads).
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let index = self.helpers.len() + 1;
            self.helpers.push(Searcher {
                table: Arc::clone(&self.table),
                depth_offset: (index % 2) as u32,
                pruning: self.pruning,
                egdb: self.egdb.clone(),
                evalnet: self.evalnet.clone(),
                accumulators: self.accumulators.clone(),
                ..Searcher::new(0)
            });
        }
    }

    /// The threads a search runs on.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// The same searcher without late-move reductions or aspiration windows: it then scores
    /// exactly as plain minimax to the same depth, which a test checks; the pruning itself is
    /// checked by the tactics suite's known winning shots.
    #[must_use]
    pub fn without_pruning(mut self) -> Searcher {
        self.pruning = false;
        for helper in &mut self.helpers {
            helper.pruning = false;
        }
        self
    }

    /// Probes `egdb` below the root from now on (`None`: no tables, the default). A quiet
    /// position (no capture pending) at ply 1 or deeper with no more pieces than the tables
    /// hold then scores its exact value: a draw 0, a win [`TB_WIN`] less the ply plus the
    /// evaluation clamped to [`TB_EVAL_CLAMP`], a loss the negation. The root is never
    /// probed: it must choose a move, and the value alone scores every winning move alike
    /// (the caller plays the tables' own best move there). Other tables than before forget
    /// what the transposition table learnt, whose scores came from the old ones.
    pub fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>) {
        let same = match (&self.egdb, &egdb) {
            (None, None) => true,
            (Some(old), Some(new)) => Arc::ptr_eq(old, new),
            _ => false,
        };
        if !same {
            self.table.clear();
        }
        for helper in &mut self.helpers {
            helper.egdb.clone_from(&egdb);
        }
        self.egdb = egdb;
    }

    /// Scores quiet leaves with `evalnet` from now on, in positions of its variant (`None`: the
    /// hand-written [`evaluate`], the default). Another evaluation than before forgets what
    /// the transposition table learnt, whose scores came from the old one.
    pub fn set_evalnet(&mut self, evalnet: Option<Arc<EvalNet>>) {
        let same = match (&self.evalnet, &evalnet) {
            (None, None) => true,
            (Some(old), Some(new)) => Arc::ptr_eq(old, new),
            _ => false,
        };
        if same {
            return;
        }
        self.table.clear();
        self.accumulators = match &evalnet {
            Some(net) => (0..=MAX_PLY + 1).map(|_| net.accumulator()).collect(),
            None => Vec::new(),
        };
        for helper in &mut self.helpers {
            helper.set_evalnet(evalnet.clone());
        }
        self.evalnet = evalnet;
    }

    /// The learned evaluation, if any.
    pub fn evalnet(&self) -> Option<&Arc<EvalNet>> {
        self.evalnet.as_ref()
    }

    /// The endgame tables probed below the root, if any.
    pub fn egdb(&self) -> Option<&Arc<Egdb>> {
        self.egdb.as_ref()
    }

    /// Forgets everything learned (for a new game or reproducible measurements).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
        for helper in &mut self.helpers {
            helper.history.fill(0);
        }
    }

    /// Searches `position`. `history` holds the game's earlier positions since the last capture
    /// or man move (for repetition); `stop` ends the search early, keeping the last completed
    /// iteration, or a root move that beat its best in the stopped one (that iteration searches
    /// the last one's best move first, so a move that scores above it there is the better).
    pub fn search(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: Limits,
        stop: &AtomicBool,
    ) -> SearchResult {
        self.search_reporting(position, history, limits, stop, |_| {})
    }

    /// [`Searcher::search`] on the caller's thread alone, whatever [`Searcher::with_threads`]
    /// said: for a search that must replay exactly (a node limit and no clock), which helpers
    /// would make depend on the scheduler. It still reads and writes the table they share.
    pub fn search_alone(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: Limits,
        stop: &AtomicBool,
    ) -> SearchResult {
        let helpers = std::mem::take(&mut self.helpers);
        let result = self.search(position, history, limits, stop);
        self.helpers = helpers;
        result
    }

    /// [`Searcher::search`], handing each completed iteration's result to `on_iteration` as it
    /// is found, so that a caller can show the search's progress (the Hub protocol's `info`
    /// lines) while the search stays free of clocks and output. The last result reported is
    /// the one returned, but for its node count, which also counts an unfinished iteration.
    pub fn search_reporting(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&SearchResult),
    ) -> SearchResult {
        // Every thread stores this search's age: the helpers start after it is set.
        self.table.new_search();
        if self.helpers.is_empty() {
            return self.iterate(position, history, limits, stop, on_iteration);
        }
        // Raised when the main search ends, for whatever reason, so that the helpers end too.
        let finished = AtomicBool::new(false);
        let mut helpers = std::mem::take(&mut self.helpers);
        let mut result = thread::scope(|scope| {
            for helper in &mut helpers {
                let finished = &finished;
                scope.spawn(move || helper.iterate(position, history, limits, finished, |_| {}));
            }
            let result = self.iterate(position, history, limits, stop, on_iteration);
            finished.store(true, Ordering::Relaxed);
            result
        });
        for helper in &helpers {
            result.nodes += helper.nodes;
            result.tb_hits += helper.tb_hits;
        }
        self.helpers = helpers;
        result
    }

    /// Iterative deepening on this thread, the table's new search already begun; a helper
    /// starts `depth_offset` plies deeper, so that its iterations run ahead of the main one's.
    fn iterate(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&SearchResult),
    ) -> SearchResult {
        self.nodes = 0;
        self.tb_hits = 0;
        self.node_limit = limits.nodes;
        self.aborted = false;
        self.killers.fill([None; 2]);
        self.evalnet_on = self
            .evalnet
            .as_ref()
            .is_some_and(|net| net.variant() == position.variant());
        if let Some(net) = self.evalnet.as_deref().filter(|_| self.evalnet_on) {
            net.refresh(position, &mut self.accumulators[0]);
        }
        let root_moves = position.legal_moves();
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: 0,
            win_probability: 0.5,
            depth: 0,
            nodes: 0,
            pv: root_moves.first().copied().into_iter().collect(),
            tb_hits: 0,
        };
        if root_moves.is_empty() {
            result.score = -WIN;
            if position.variant().rules().goal == Goal::Lose {
                result.score = WIN;
            }
            result.win_probability = win_probability(result.score);
            return result;
        }
        let deepest = limits.depth.min(MAX_PLY as u32 - 8);
        for depth in 1 + self.depth_offset..=deepest {
            if depth > 1 && stop.load(Ordering::Relaxed) {
                break;
            }
            self.path.clear();
            self.path.extend(history.iter().map(key));
            self.root_first = result
                .best
                .filter(|_| result.depth > 0)
                .as_ref()
                .map(MoveKey::of);
            self.unfinished_best = None;
            let score = self.aspiration(position, depth as i32, result.score, stop);
            if self.aborted {
                // The stopped iteration searched the last one's best move first, so a move
                // that beat it there is the better answer, though its iteration is unfinished.
                if let Some((score, line)) = self.unfinished_best.take() {
                    result.best = line.first().copied();
                    result.score = score;
                    result.win_probability = win_probability(score);
                    result.pv = line;
                }
                break;
            }
            let pv = self.principal_variation(position);
            result = SearchResult {
                best: pv.first().copied().or(result.best),
                score,
                win_probability: win_probability(score),
                depth,
                nodes: self.nodes,
                pv,
                tb_hits: self.tb_hits,
            };
            on_iteration(&result);
            if score.abs() >= WIN_THRESHOLD {
                break;
            }
        }
        result.nodes = self.nodes;
        result.tb_hits = self.tb_hits;
        result
    }

    /// One iteration at the root, in a window around the last iteration's score (`guess`)
    /// that widens each time the score falls outside it: a narrow window cuts off more, and
    /// the score rarely moves far from one depth to the next. Without pruning, and for the
    /// first iterations or a win found, the window is the whole range.
    fn aspiration(
        &mut self,
        position: &Position,
        depth: i32,
        guess: i32,
        stop: &AtomicBool,
    ) -> i32 {
        let (mut alpha, mut beta) = (-WIN - 1, WIN + 1);
        let mut delta = ASPIRATION_WINDOW;
        if self.pruning && depth >= 4 && guess.abs() < WIN_THRESHOLD {
            alpha = guess - delta;
            beta = guess + delta;
        }
        loop {
            let score = self.negamax(position, depth, 0, alpha, beta, 0, stop);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -WIN - 1 {
                delta *= 2;
                alpha = (score - delta).max(-WIN - 1);
            } else if score >= beta && beta < WIN + 1 {
                delta *= 2;
                beta = (score + delta).min(WIN + 1);
            } else {
                return score;
            }
            // A win or loss in sight is searched with the whole window.
            if score.abs() >= WIN_THRESHOLD {
                (alpha, beta) = (-WIN - 1, WIN + 1);
            }
        }
    }

    fn should_stop(&mut self, stop: &AtomicBool) -> bool {
        if self.nodes >= self.node_limit
            || (self.nodes.is_multiple_of(1024) && stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// `reversible` is where on `path` the positions this one could repeat begin: a capture
    /// or a man's move can never be undone, so nothing before the last one can recur, and the
    /// repetition check reads only the king moves since.
    #[allow(clippy::too_many_arguments, reason = "the search state of one node")]
    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        reversible: usize,
        stop: &AtomicBool,
    ) -> i32 {
        // Once aborted, a search visits nothing more: a re-search its caller starts on the
        // way out would otherwise count nodes past the limit.
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        self.lines[ply].clear();
        if self.should_stop(stop) {
            return 0;
        }
        // A position seen before on this path (same side to move) is a draw by repetition. It
        // takes at least four reversible plies, so the key is not worked out before then.
        let since = &self.path[reversible..];
        if ply > 0 && since.len() >= 4 {
            let key = key(position);
            if since.iter().rev().skip(3).step_by(2).any(|&k| k == key) {
                return 0;
            }
        }
        if ply > 0
            && let Some(score) = self.probe_tables(position, ply)
        {
            return score;
        }
        // A quiet leaf is evaluated without building its moves (most nodes are leaves): the
        // rules only count them, and build them only when one must capture.
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let leaf = depth <= 0 || ply >= MAX_PLY;
        if leaf {
            let can_move = position.forced_captures_into(&mut moves);
            if moves.is_empty() && can_move {
                // A leaf where the opponent threatens a capture is looked at one ply further
                // (its replies searched to depth -1, where no threat extends again): the static
                // evaluation cannot see a piece about to be lost.
                if self.pruning
                    && depth == 0
                    && ply < MAX_PLY
                    && position.with_turn(!position.turn()).has_capture()
                {
                    position.legal_moves_into(&mut moves);
                } else {
                    self.buffers[ply] = moves;
                    return self.evaluate(position, ply);
                }
            }
            if moves.is_empty() {
                self.buffers[ply] = moves;
                return without_moves(position, ply);
            }
            if ply >= MAX_PLY {
                self.buffers[ply] = moves;
                return self.evaluate(position, ply);
            }
        }
        let key = key(position);
        // The table is asked before an inner node's moves are built: when it settles the
        // score they are never needed.
        let entry = self.table.probe(key);
        if let Some(score) = entry.and_then(|e| table_cutoff(&e, depth, ply, alpha, beta)) {
            self.buffers[ply] = moves;
            return score;
        }
        if !leaf {
            position.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.buffers[ply] = moves;
                return without_moves(position, ply);
            }
        }
        let score = self.node(
            position, &mut moves, key, entry, depth, ply, &mut alpha, beta, reversible, stop,
        );
        self.buffers[ply] = moves;
        score
    }

    /// The endgame tables' score of `position` at `ply` (see [`Searcher::set_egdb`]), stored
    /// in the transposition table as exact at every depth; `None` without tables, with more
    /// pieces than they hold, a capture pending, or a loss without a move, which the search
    /// scores as the mate it is.
    fn probe_tables(&mut self, position: &Position, ply: usize) -> Option<i32> {
        let egdb = self.egdb.as_deref()?;
        if position.occupied().count() > egdb.max_pieces() || position.has_capture() {
            return None;
        }
        let value = egdb.probe(position)?;
        let eval = self
            .evaluate(position, ply)
            .clamp(-TB_EVAL_CLAMP, TB_EVAL_CLAMP);
        let score = match value {
            Wdl::Draw => 0,
            Wdl::Win => TB_WIN - ply as i32 + eval,
            Wdl::Loss if position.count_legal_moves() == 0 => return None,
            Wdl::Loss => -TB_WIN + ply as i32 + eval,
        };
        self.tb_hits += 1;
        self.table.store(Entry {
            key: key(position),
            best: None,
            score: to_table(score, ply),
            depth: MAX_PLY as i32,
            bound: Bound::Exact,
        });
        Some(score)
    }

    /// Searches a node that has `moves` (at least one) and is not settled by the table's
    /// `entry` for it: each move in turn, best-ranked first, until one cuts off.
    #[allow(clippy::too_many_arguments, reason = "the search state of one node")]
    fn node(
        &mut self,
        position: &Position,
        moves: &mut [Move],
        key: u64,
        entry: Option<Entry>,
        depth: i32,
        ply: usize,
        alpha: &mut i32,
        beta: i32,
        reversible: usize,
        stop: &AtomicBool,
    ) -> i32 {
        let original_alpha = *alpha;
        let mut ranks = std::mem::take(&mut self.ranks[ply]);
        let table_move = match self.root_first {
            Some(first) if ply == 0 => Some(first),
            _ => entry.and_then(|e| e.best),
        };
        self.rank(moves, &mut ranks, table_move, ply);
        // A forced reply costs no depth: only one move, or a capture sequence under way.
        let next_depth = if moves.len() == 1 { depth } else { depth - 1 };
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        self.path.push(key);
        let kings = position.kings();
        for i in 0..moves.len() {
            // The best-ranked move left goes next: a cut-off usually comes early, so most of
            // the list is never sorted.
            pick_next(moves, &mut ranks, i);
            let mv = &moves[i];
            let mut child = *position;
            child.play_unchecked(mv);
            if self.evalnet_on
                && let Some(net) = self.evalnet.as_deref()
            {
                let (done, next) = self.accumulators.split_at_mut(ply + 1);
                net.update(position, &child, &done[ply], &mut next[0]);
            }
            let child_reversible = if mv.is_capture() || !kings.contains(mv.from()) {
                self.path.len()
            } else {
                reversible
            };
            let reduction = if self.pruning
                && next_depth == depth - 1
                && i >= LMR_MOVES
                && ranks[i] < KILLER_RANK
            {
                reduction(mv, &child, depth, i, beta - *alpha == 1)
            } else {
                0
            };
            let score = self.child(
                &child,
                i == 0,
                next_depth,
                reduction,
                ply,
                *alpha,
                beta,
                child_reversible,
                stop,
            );
            if self.aborted {
                self.path.pop();
                self.ranks[ply] = ranks;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(*mv);
            }
            if score > *alpha {
                *alpha = score;
                let (line, below) = self.lines.split_at_mut(ply + 1);
                line[ply].clear();
                line[ply].push(*mv);
                line[ply].extend_from_slice(&below[0]);
                if ply == 0 && i > 0 {
                    self.unfinished_best = Some((score, line[0].clone()));
                }
            }
            if *alpha >= beta {
                if !mv.is_capture() {
                    self.remember_cutoff(mv, ply, depth);
                }
                break;
            }
        }
        self.path.pop();
        self.ranks[ply] = ranks;
        let entry = Entry {
            key,
            best: best_move.as_ref().map(MoveKey::of),
            score: to_table(best_score, ply),
            depth,
            bound: bound(best_score, original_alpha, beta),
        };
        self.table.store(entry);
        best_score
    }

    /// Searches a child: the first move with the full window, the others with a null window
    /// first and again with the full one if they turn out better (principal-variation search);
    /// a reduced move first `reduction` plies shallower, kept only if it fails low there.
    #[allow(clippy::too_many_arguments, reason = "the search state of one node")]
    fn child(
        &mut self,
        child: &Position,
        first: bool,
        depth: i32,
        reduction: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        reversible: usize,
        stop: &AtomicBool,
    ) -> i32 {
        if first {
            return -self.negamax(child, depth, ply + 1, -beta, -alpha, reversible, stop);
        }
        if reduction > 0 {
            let reduced = -self.negamax(
                child,
                depth - reduction,
                ply + 1,
                -alpha - 1,
                -alpha,
                reversible,
                stop,
            );
            if reduced <= alpha {
                return reduced;
            }
        }
        let probe = -self.negamax(child, depth, ply + 1, -alpha - 1, -alpha, reversible, stop);
        if probe > alpha && probe < beta {
            -self.negamax(child, depth, ply + 1, -beta, -alpha, reversible, stop)
        } else {
            probe
        }
    }

    /// The static score of `position`, the position on the path at `ply`: the learned
    /// evaluation's (from the ply's accumulator) when this search uses one, else [`evaluate`].
    fn evaluate(&self, position: &Position, ply: usize) -> i32 {
        match self.evalnet.as_deref() {
            Some(net) if self.evalnet_on => {
                let logit = net.evaluate(&self.accumulators[ply], position.turn());
                ((logit * SCORE_PER_LOGIT).round() as i32).clamp(-EVALNET_LIMIT, EVALNET_LIMIT)
            }
            _ => evaluate(position),
        }
    }

    fn history_index(mv: &Move) -> usize {
        mv.from().bit() as usize * 128 + mv.to().bit() as usize
    }

    fn remember_cutoff(&mut self, mv: &Move, ply: usize, depth: i32) {
        let key = MoveKey::of(mv);
        let killers = &mut self.killers[ply];
        if killers[0] != Some(key) {
            killers[1] = killers[0];
            killers[0] = Some(key);
        }
        let slot = &mut self.history[Self::history_index(mv)];
        *slot = slot.saturating_add((depth * depth) as u32);
    }

    /// Ranks each move, higher first: the table move, then bigger captures, killers, and
    /// moves that cut off before. Worked out once a move, not once a comparison.
    fn rank(&self, moves: &[Move], ranks: &mut Vec<u64>, table_move: Option<MoveKey>, ply: usize) {
        let killers = self.killers[ply];
        ranks.clear();
        ranks.extend(moves.iter().map(|mv| {
            if mv.is_capture() {
                if table_move == Some(MoveKey::of(mv)) {
                    u64::MAX
                } else {
                    (1 << 40) + u64::from(mv.captured().count())
                }
            } else {
                let key = MoveKey::of(mv);
                if Some(key) == table_move {
                    u64::MAX
                } else if killers[0] == Some(key) {
                    (1 << 39) + 1
                } else if killers[1] == Some(key) {
                    KILLER_RANK
                } else {
                    u64::from(self.history[Self::history_index(mv)])
                }
            }
        }));
    }

    /// The root's best line of the iteration just completed, continued through the table's
    /// best moves where it stops short (a table hit below the root ends the line it saw).
    fn principal_variation(&self, position: &Position) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut current = *position;
        let mut seen = Vec::new();
        for mv in &self.lines[0] {
            if !current.is_legal(mv) {
                break;
            }
            pv.push(*mv);
            seen.push(key(&current));
            current.play_unchecked(mv);
        }
        while pv.len() < PV_LEN
            && !seen.contains(&key(&current))
            && let Some(entry) = self.table.probe(key(&current))
        {
            let Some(best) = entry.best else { break };
            let Some(mv) = current
                .legal_moves()
                .into_iter()
                .find(|m| MoveKey::of(m) == best)
            else {
                break;
            };
            pv.push(mv);
            seen.push(key(&current));
            current.play_unchecked(&mv);
        }
        pv
    }
}

/// The score of a position whose side to move has no move, at `ply`: lost, or won where the
/// goal is to lose every piece.
fn without_moves(position: &Position, ply: usize) -> i32 {
    match position.variant().rules().goal {
        Goal::Win => -WIN + ply as i32,
        Goal::Lose => WIN - ply as i32,
    }
}

/// The score the table's `entry` settles for a node searched to `depth` at `ply` in the window
/// `alpha..beta`, if it does: deep enough, and exact or a bound outside the window. Never at
/// the root, whose move the search must choose itself.
fn table_cutoff(entry: &Entry, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    if entry.depth < depth || ply == 0 {
        return None;
    }
    let score = from_table(entry.score, ply);
    match entry.bound {
        Bound::Exact => Some(score),
        Bound::Lower if score >= beta => Some(score),
        Bound::Upper if score <= alpha => Some(score),
        _ => None,
    }
}

/// What a node's best score says of its value, searched in (`alpha`, `beta`).
fn bound(best_score: i32, alpha: i32, beta: i32) -> Bound {
    if best_score >= beta {
        Bound::Lower
    } else if best_score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// How many plies shallower the `index`th move at a node of `depth` is searched first
/// (late-move reductions), for a late move that is neither the table move nor a killer:
/// ordering put the likely best first, and a reduced move that beats alpha is searched
/// again in full. Not reduced: captures, crownings, and a move that offers the opponent a
/// capture, where draughts' shots begin. Away from the principal variation (`null_window`)
/// the latest moves lose two plies.
fn reduction(mv: &Move, child: &Position, depth: i32, index: usize, null_window: bool) -> i32 {
    if depth < LMR_DEPTH || mv.is_capture() || mv.promotes() || child.has_capture() {
        0
    } else if null_window && index >= 2 * LMR_MOVES && depth >= 2 * LMR_DEPTH {
        2
    } else {
        1
    }
}

/// Swaps the best-ranked of `moves[i..]` into place `i` (the first best, so the order is the
/// same on every run).
fn pick_next(moves: &mut [Move], ranks: &mut [u64], i: usize) {
    let mut best = i;
    for j in i + 1..ranks.len() {
        if ranks[j] > ranks[best] {
            best = j;
        }
    }
    if best != i {
        moves.swap(i, best);
        ranks.swap(i, best);
    }
}

/// Win scores (mates and table wins) are stored relative to the node so they stay right at
/// another ply.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -TB_WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -TB_WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A helper without the network would store hand-written scores in the shared table for
    /// the main thread to read, whichever came first: the threads or the network.
    #[test]
    fn every_helper_holds_the_network_handed_over() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../models/russian-eval.onnx"
        );
        let net = Arc::new(EvalNet::load(std::path::Path::new(path)).unwrap());
        let mut later = Searcher::new(1);
        later.set_evalnet(Some(Arc::clone(&net)));
        later.set_threads(3);
        let mut earlier = Searcher::new(1).with_threads(3);
        earlier.set_evalnet(Some(net));
        for searcher in [&later, &earlier] {
            assert_eq!(searcher.helpers.len(), 2);
            for helper in &searcher.helpers {
                assert!(helper.evalnet.is_some());
                assert_eq!(helper.accumulators.len(), MAX_PLY + 2);
            }
        }
        earlier.set_evalnet(None);
        assert!(earlier.helpers.iter().all(|h| h.evalnet.is_none()));
    }
}
