//! Monte Carlo tree search with PUCT, as the reference robot played (in the style of `AlphaZero`).
//!
//! Each playout walks down the tree choosing the edge with the largest
//! `Q(s,a) + c_puct * P(s,a) * sqrt(sum_b N(s,b)) / (1 + N(s,a))`, evaluates the new leaf with an
//! [`Evaluator`] (a network, or [`HeuristicEvaluator`] when none is loaded) and adds the leaf's
//! value to every edge on the way back, flipping the point of view at each ply.
//!
//! Leaves are evaluated in batches because a network answers a batch of positions for little
//! more than the price of one: up to [`MctsConfig::batch`] leaves are collected per round, each
//! walk adding a *virtual loss* (a visit with no value) to its path so that the next walk of the
//! round is pushed elsewhere. The real value replaces the virtual loss when the batch returns.
//!
//! Like the alpha-beta [`Searcher`](super::Searcher) this module reads no clock and does no I/O:
//! the caller gives a playout limit and a `stop` flag (set from a timer), so a search with the
//! same seed and evaluator replays exactly.
//!
//! **Values** are win probabilities in `0..=1` for the side to move. A position with no legal
//! move is scored by the rules: 0 for the side to move, or 1 in giveaway ([`Goal::Lose`]).
//!
//! **A forced move is walked through**: a leaf below the root with one legal move is expanded
//! without asking the evaluator, and the walk goes on to the first position with a choice (or
//! an end). The networks learn only from positions with a choice (`checkerbot-lab datagen` and
//! `selfplay` write no others), so a value asked in the middle of a capture sequence was one
//! they had never been taught; walking through also lets a playout see an exchange to its end.
//!
//! **A repeated position is a draw** (value 0.5), as in the alpha-beta search: a node whose
//! position stood earlier on its walk from the root, or in the game before the root (given by
//! [`Mcts::set_history`]), with the same side to move. Repeating once is enough, because a side
//! that gains by repeating can repeat again until the rules' threefold repetition ends the
//! game; so a side that is winning does not shuffle its king into a draw, and a side that is
//! losing looks for one. The move-count rules are not detected in the tree; the game itself
//! ([`rules::Game`]) still declares those draws.

use std::sync::atomic::{AtomicBool, Ordering};

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

use crate::{dirichlet, evaluate, win_probability};
use rules::Goal;
use rules::Move;
use rules::{PlayError, Position};

/// Judges positions for the search: a prior over the legal moves and a value.
///
/// Batched so that a network can evaluate many leaves in one call.
pub trait Evaluator {
    /// For each position, its priors over `position.legal_moves()` (in that order) and its
    /// value: the side to move's win probability in `0..=1`.
    ///
    /// The search only asks about positions that have legal moves. Answers that do not fit
    /// (a wrong number of priors, non-finite numbers, a short result) are repaired by the search
    /// (uniform priors, value 0.5) rather than trusted, because a broken model must not stop
    /// the game.
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)>;
}

/// The fallback evaluator: uniform priors and the hand-written evaluation's win probability.
///
/// Lets the robot play MCTS (and its difficulty levels) when no network can be loaded.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeuristicEvaluator;

impl Evaluator for HeuristicEvaluator {
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)> {
        positions
            .iter()
            .map(|position| {
                let n = position.count_legal_moves().max(1);
                (vec![1.0 / n as f32; n], win_probability(evaluate(position)))
            })
            .collect()
    }
}

/// Settings that stay the same for a whole game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    /// Exploration weight `c_puct`. Values here are in `0..=1`, half the range of `AlphaZero`'s
    /// `-1..=1`, so a given number explores about twice as much as it would there.
    pub c_puct: f32,
    /// Most leaves evaluated in one [`Evaluator::evaluate`] call.
    pub batch: usize,
    /// Seed of the generator that samples moves when the temperature is above zero.
    pub seed: u64,
    /// The search ends early once the tree holds this many nodes (checked between batches).
    /// A node with its moves takes about 650 bytes on 8x8 (300,000 nodes: 200 MB resident),
    /// and the heuristic evaluator makes over 400,000 a second, so a time-limited search needs
    /// this cap on memory. The default, 500,000, is about 330 MB.
    pub max_nodes: usize,
    /// Dirichlet noise mixed into the root's priors at every search: for self-play, where it
    /// makes the search try moves the network undervalues. `None` (the default) for play.
    pub root_noise: Option<RootNoise>,
}

/// `AlphaZero`'s exploration noise: the root's priors become
/// `(1 - fraction) * prior + fraction * Dirichlet(alpha)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootNoise {
    /// Concentration; smaller puts the noise on fewer moves (`AlphaZero` used 0.3 for chess).
    pub alpha: f32,
    /// Weight of the noise, in `0..=1` (`AlphaZero`: 0.25).
    pub fraction: f32,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            c_puct: 1.25,
            batch: 8,
            seed: 0,
            max_nodes: 500_000,
            root_noise: None,
        }
    }
}

/// How much to search for one move, and how to choose it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsLimits {
    /// New playouts for this search (visits kept from earlier moves come on top).
    pub playouts: u32,
    /// Temperature `tau`: the move is drawn with probability proportional to `N^(1/tau)`;
    /// zero (or less) plays the most visited move. Difficulty levels raise it to play weaker.
    pub temperature: f32,
}

impl Default for MctsLimits {
    fn default() -> MctsLimits {
        MctsLimits {
            playouts: 800,
            temperature: 0.0,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsResult {
    /// The move to play (sampled with the temperature).
    pub best: Move,
    /// The side to move's win probability: the mean value of the most visited move, or the
    /// evaluator's value of the root when nothing was visited. The mean over all moves would be
    /// dragged down by exploratory moves the robot is not going to play.
    pub v: f32,
    /// The most visited line from the root.
    pub pv: Vec<Move>,
    /// Visits of each root move, in `legal_moves()` order.
    pub visits: Vec<(Move, u32)>,
}

/// Where a node stands in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Created by a walk, not yet evaluated.
    New,
    /// Waiting in the current batch.
    Pending,
    /// Evaluated, with edges.
    Expanded,
    /// No legal move, or a repeated position: the value is the rules' verdict.
    Terminal,
}

#[derive(Debug, Clone)]
struct Edge {
    mv: Move,
    prior: f32,
    /// Visits, virtual ones included while a batch is out.
    visits: u32,
    /// Sum of values for the side that plays this move.
    total: f32,
    child: Option<u32>,
}

impl Edge {
    fn mean(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.total / self.visits as f32)
    }
}

#[derive(Debug, Clone)]
struct Node {
    position: Position,
    state: State,
    /// The evaluator's (or the rules') value for the side to move here.
    value: f32,
    edges: Vec<Edge>,
    /// Sum of the edges' visits.
    visits: u32,
    /// Sum of the edges' totals.
    total: f32,
}

impl Node {
    fn new(position: Position) -> Node {
        Node {
            position,
            state: State::New,
            value: 0.5,
            edges: Vec::new(),
            visits: 0,
            total: 0.0,
        }
    }

    /// Mean value for the side to move, its own evaluation counted as one visit. Used as the
    /// first-play value of unvisited edges: a new move is assumed as good as the node so far.
    fn mean(&self) -> f32 {
        (self.value + self.total) / (1 + self.visits) as f32
    }
}

/// A walk's end, before its value is known.
enum Leaf {
    /// A position to evaluate.
    Evaluate(u32, Vec<Move>),
    /// A position the rules have already scored.
    Scored(f32),
    /// Another walk of this round is already waiting on this leaf.
    Collision,
}

/// A walk from the root: (node, edge) pairs.
type Path = Vec<(u32, u32)>;

/// A leaf in the current batch: its node, its legal moves and the walk that reached it.
type Waiting = (u32, Vec<Move>, Path);

/// The search tree, kept between moves.
#[derive(Debug)]
pub struct Mcts {
    config: MctsConfig,
    /// Node 0 is the root.
    nodes: Vec<Node>,
    rng: SplitMix64,
    /// The game's positions before the root that a position in the tree could repeat.
    history: Vec<Position>,
}

const ROOT: u32 = 0;

impl Mcts {
    /// An empty tree rooted at `position`.
    pub fn new(position: Position, config: MctsConfig) -> Mcts {
        Mcts {
            config,
            nodes: vec![Node::new(position)],
            rng: SplitMix64::from_seed(config.seed.to_le_bytes()),
            history: Vec::new(),
        }
    }

    /// The game's positions before the root, oldest first: a position in the tree that repeats
    /// one of them is a draw. Call it before each [`Mcts::search`] of a game (nodes made
    /// earlier keep the verdict they were given, which stays true as the game goes on along
    /// the tree). Only the positions with as many pieces as the root are kept: captures are
    /// for good, so the others cannot come again.
    pub fn set_history(&mut self, history: &[Position]) {
        let pieces = self.root().occupied().count();
        self.history.clear();
        self.history.extend(
            history
                .iter()
                .filter(|position| position.occupied().count() == pieces),
        );
    }

    /// The settings.
    pub const fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The position searched.
    pub fn root(&self) -> &Position {
        &self.nodes[ROOT as usize].position
    }

    /// Visits of the root's moves, kept ones included.
    pub fn root_visits(&self) -> u32 {
        self.nodes[ROOT as usize].visits
    }

    /// Nodes in the tree (see [`MctsConfig::max_nodes`] for their size).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Forgets the tree and the history and searches `position` from now on (a new game, or a
    /// position not reached by [`Mcts::advance`]). The generator is not reseeded: a game stays
    /// one stream.
    pub fn reset(&mut self, position: Position) {
        self.nodes = vec![Node::new(position)];
        self.history.clear();
    }

    /// Plays `mv` at the root, keeping the subtree below it and its visits.
    ///
    /// Returns whether anything was kept. An illegal move leaves the tree as it was.
    pub fn advance(&mut self, mv: &Move) -> Result<bool, PlayError> {
        let next = self.root().play(mv)?;
        let child = self.nodes[ROOT as usize]
            .edges
            .iter()
            .find(|e| e.mv == *mv)
            .and_then(|e| e.child);
        let before = *self.root();
        self.history.push(before);
        let Some(child) = child else {
            self.nodes = vec![Node::new(next)];
            return Ok(false);
        };
        // Copy the subtree into a fresh arena; the rest of the old tree is dropped.
        let mut old = std::mem::take(&mut self.nodes);
        let mut queue = vec![child];
        let mut next_index = 1u32;
        let mut head = 0;
        while head < queue.len() {
            let mut node = std::mem::replace(&mut old[queue[head] as usize], Node::new(next));
            for edge in &mut node.edges {
                if let Some(c) = edge.child {
                    queue.push(c);
                    edge.child = Some(next_index);
                    next_index += 1;
                }
            }
            self.nodes.push(node);
            head += 1;
        }
        // A repeated position is a draw below the root, but at the root the game goes on: it
        // is searched like any other (one without moves is scored again by the rules).
        let root = &mut self.nodes[ROOT as usize];
        if root.state == State::Terminal {
            root.state = State::New;
        }
        Ok(true)
    }

    /// Searches the root for `limits.playouts` new playouts, or until `stop` is set or the tree
    /// is full (both checked between batches), and chooses a move. `None` when the root has no legal move.
    pub fn search<E: Evaluator + ?Sized>(
        &mut self,
        evaluator: &mut E,
        limits: MctsLimits,
        stop: &AtomicBool,
    ) -> Option<MctsResult> {
        if self.nodes[ROOT as usize].state == State::New {
            // The root's own evaluation gives the first priors; it is not a playout.
            let moves = self.root().legal_moves();
            if moves.is_empty() {
                self.score_terminal(ROOT);
            } else {
                let answer = evaluator.evaluate(&[*self.root()]).into_iter().next();
                self.expand(ROOT, moves, answer);
            }
        }
        if self.nodes[ROOT as usize].state == State::Terminal {
            return None;
        }
        if let Some(noise) = self.config.root_noise {
            self.add_root_noise(noise);
        }
        let batch = self.config.batch.max(1);
        let mut done = 0u32;
        let mut pending: Vec<Waiting> = Vec::with_capacity(batch);
        while done < limits.playouts
            && self.nodes.len() < self.config.max_nodes
            && !stop.load(Ordering::Relaxed)
        {
            pending.clear();
            while pending.len() < batch && done + (pending.len() as u32) < limits.playouts {
                let mut path = Vec::new();
                match self.descend(&mut path) {
                    Leaf::Evaluate(node, moves) => pending.push((node, moves, path)),
                    Leaf::Scored(value) => {
                        self.backup(&path, value);
                        done += 1;
                    }
                    Leaf::Collision => {
                        self.revert(&path);
                        break;
                    }
                }
            }
            if pending.is_empty() {
                continue;
            }
            let positions: Vec<Position> = pending
                .iter()
                .map(|(node, _, _)| self.nodes[*node as usize].position)
                .collect();
            let mut answers = evaluator.evaluate(&positions).into_iter();
            for (node, moves, path) in pending.drain(..) {
                self.expand(node, moves, answers.next());
                let value = self.nodes[node as usize].value;
                self.backup(&path, value);
                done += 1;
            }
        }
        Some(self.result(limits.temperature))
    }

    /// Mixes fresh Dirichlet noise into the root's priors (see [`RootNoise`]).
    fn add_root_noise(&mut self, noise: RootNoise) {
        let fraction = noise.fraction.clamp(0.0, 1.0);
        let root = &mut self.nodes[ROOT as usize];
        let draws = dirichlet::sample(f64::from(noise.alpha), root.edges.len(), &mut self.rng);
        for (edge, draw) in root.edges.iter_mut().zip(draws) {
            edge.prior = (1.0 - fraction) * edge.prior + fraction * draw;
        }
    }

    /// Walks from the root to a leaf, adding a virtual loss to every edge on the way.
    fn descend(&mut self, path: &mut Path) -> Leaf {
        let mut current = ROOT;
        loop {
            let node = &self.nodes[current as usize];
            match node.state {
                State::Terminal => return Leaf::Scored(node.value),
                State::Pending => return Leaf::Collision,
                State::New => {
                    let moves = node.position.legal_moves();
                    if moves.is_empty() {
                        self.score_terminal(current);
                        return Leaf::Scored(self.nodes[current as usize].value);
                    }
                    if moves.len() > 1 || current == ROOT {
                        self.nodes[current as usize].state = State::Pending;
                        return Leaf::Evaluate(current, moves);
                    }
                    // A forced move (a capture, mostly): walk on through it, unasked.
                    self.expand(current, moves, None);
                }
                State::Expanded => {}
            }
            let e = self.select(current);
            let child = if let Some(child) = self.nodes[current as usize].edges[e].child {
                child
            } else {
                let node = &self.nodes[current as usize];
                let mut position = node.position;
                position.play_unchecked(&node.edges[e].mv);
                let repeated = self.repeats(position, current, path);
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(position));
                if repeated {
                    self.score_draw(child);
                }
                self.nodes[current as usize].edges[e].child = Some(child);
                child
            };
            let node = &mut self.nodes[current as usize];
            node.visits += 1;
            node.edges[e].visits += 1;
            path.push((current, e as u32));
            current = child;
        }
    }

    /// The PUCT choice. `sqrt(N)` is taken of at least 1 so that the priors decide the first
    /// visit of a node instead of the order of the moves.
    fn select(&self, node: u32) -> usize {
        let node = &self.nodes[node as usize];
        let scale = self.config.c_puct * (node.visits.max(1) as f32).sqrt();
        let first_play = node.mean();
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, edge) in node.edges.iter().enumerate() {
            let q = edge.mean().unwrap_or(first_play);
            let score = q + scale * edge.prior / (1 + edge.visits) as f32;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Whether `position`, reached from node `parent` at the end of `path`, stood before on the
    /// walk from the root or in the game before it.
    fn repeats(&self, position: Position, parent: u32, path: &Path) -> bool {
        let on_walk = path
            .iter()
            .map(|&(node, _)| node)
            .chain([parent])
            .map(|node| &self.nodes[node as usize].position);
        self.history.iter().chain(on_walk).any(|p| *p == position)
    }

    /// A repeated position: a draw, whoever is to move.
    fn score_draw(&mut self, node: u32) {
        let node = &mut self.nodes[node as usize];
        node.state = State::Terminal;
        node.value = 0.5;
    }

    fn score_terminal(&mut self, node: u32) {
        let node = &mut self.nodes[node as usize];
        node.state = State::Terminal;
        node.value = match node.position.variant().rules().goal {
            Goal::Win => 0.0,
            Goal::Lose => 1.0,
        };
    }

    /// Gives a node its edges and value from the evaluator's answer, repairing what does not fit.
    fn expand(&mut self, node: u32, moves: Vec<Move>, answer: Option<(Vec<f32>, f32)>) {
        let (mut priors, value) = answer.unwrap_or_default();
        let sum: f32 = priors.iter().sum();
        if priors.len() != moves.len()
            || priors.iter().any(|p| !p.is_finite() || *p < 0.0)
            || !sum.is_finite()
            || sum <= 0.0
        {
            priors = vec![1.0; moves.len()];
        }
        let sum: f32 = priors.iter().sum();
        let node = &mut self.nodes[node as usize];
        node.edges = moves
            .into_iter()
            .zip(priors)
            .map(|(mv, prior)| Edge {
                mv,
                prior: prior / sum,
                visits: 0,
                total: 0.0,
                child: None,
            })
            .collect();
        node.value = if value.is_finite() {
            value.clamp(0.0, 1.0)
        } else {
            0.5
        };
        node.state = State::Expanded;
    }

    /// Adds a leaf's value (for its side to move) up the path, turning the virtual losses into
    /// real visits.
    fn backup(&mut self, path: &[(u32, u32)], leaf_value: f32) {
        let mut value = leaf_value;
        for &(node, edge) in path.iter().rev() {
            // The parent moved into the child: its value is the child's complement.
            value = 1.0 - value;
            let node = &mut self.nodes[node as usize];
            node.total += value;
            node.edges[edge as usize].total += value;
        }
    }

    /// Takes back a walk's virtual losses.
    fn revert(&mut self, path: &[(u32, u32)]) {
        for &(node, edge) in path {
            let node = &mut self.nodes[node as usize];
            node.visits -= 1;
            node.edges[edge as usize].visits -= 1;
        }
    }

    /// The most visited edge of a node; ties go to the higher prior, then the earlier move.
    fn most_visited(node: &Node) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, edge) in node.edges.iter().enumerate() {
            if best.is_none_or(|b| {
                let b = &node.edges[b];
                (edge.visits, edge.prior) > (b.visits, b.prior)
            }) {
                best = Some(i);
            }
        }
        best
    }

    fn result(&mut self, temperature: f32) -> MctsResult {
        let root = &self.nodes[ROOT as usize];
        let top = Self::most_visited(root).expect("an expanded root has moves");
        let chosen = if temperature > 0.0 && temperature.is_finite() && root.visits > 0 {
            let max = root.edges[top].visits as f64;
            let weights: Vec<f64> = root
                .edges
                .iter()
                .map(|e| (e.visits as f64 / max).powf(1.0 / temperature as f64))
                .collect();
            let total: f64 = weights.iter().sum();
            let mut draw = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
            let mut chosen = top;
            for (i, w) in weights.iter().enumerate() {
                if *w > 0.0 && draw < *w {
                    chosen = i;
                    break;
                }
                draw -= w;
            }
            chosen
        } else {
            top
        };
        let root = &self.nodes[ROOT as usize];
        let v = root.edges[top].mean().unwrap_or(root.value);
        let mut pv = Vec::new();
        let mut node = root;
        while let Some(i) = Self::most_visited(node) {
            let edge = &node.edges[i];
            if edge.visits == 0 {
                break;
            }
            pv.push(edge.mv);
            match edge.child {
                Some(c) => node = &self.nodes[c as usize],
                None => break,
            }
        }
        MctsResult {
            best: root.edges[chosen].mv,
            v,
            pv,
            visits: root.edges.iter().map(|e| (e.mv, e.visits)).collect(),
        }
    }
}
