//! `checkerbot-lab datagen`: training positions labelled by alpha-beta, for `training/train.py`.
//!
//! Games of alpha-beta against itself, varied so that the network sees more than one line:
//! each game starts with a few random plies, the first moves after them are drawn from a
//! softmax over the searched scores of every root move, and later a small share of moves is
//! random (visitors blunder, and the value head must know what a blunder leads to). Every
//! position with a choice is written with
//!
//! - a **policy target** from the scores of all root moves (each searched `depth - 1` plies
//!   after the move): a softmax with temperature [`Args::policy_temperature`], so near-equal
//!   moves share the target instead of an arbitrary one taking it all;
//! - the search's **win probability** for the side to move and the **game result** from the
//!   side to move's view, stored separately so that the trainer chooses the blend.
//!
//! With `--value-only` (the data for a learned evaluation), each position is searched once to
//! the label depth instead of once per root move: its best move is played (and is the policy
//! target, all of it), and with `--quiet-only` only positions where the side to move has no
//! capture are written, the positions a search evaluates statically. This is several times
//! faster, and the opening's random plies and the blunders give the variety.
//!
//! The records' layout: [`crate::training_record`].

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use network::policy::PolicyMap;
use rules::{Game, GameResult, Move, Position, Variant};
use search::{Limits, Searcher, win_probability};

use crate::learned_eval;
use crate::training_record::{Sample, write_games};
use player::rng::SplitMix;

/// Arguments of `checkerbot-lab datagen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// Positions to write.
    #[arg(long)]
    positions: u64,
    /// Search depth of the labels, in plies, at least 2 (each root move is searched one ply less).
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Seed of the games; runs with other seeds can be concatenated.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The file to write (replaced).
    #[arg(long)]
    out: PathBuf,
    /// Most random plies at the start of a game (the number is drawn from 0..=N).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Plies after the opening whose move is drawn from the softmax of the root scores.
    #[arg(long, default_value_t = 20)]
    sampled_plies: usize,
    /// Share of later moves played at random.
    #[arg(long, default_value_t = 0.04)]
    blunders: f64,
    /// Temperature of the policy target and of the sampled moves, in hundredths of a man.
    #[arg(long, default_value_t = 40.0)]
    policy_temperature: f32,
    /// Longest game in plies; longer ones count as draws.
    #[arg(long, default_value_t = 250)]
    max_plies: usize,
    /// One search per position to `--depth`, its best move the policy target (see above).
    #[arg(long)]
    value_only: bool,
    /// Only positions where the side to move has no capture are written.
    #[arg(long)]
    quiet_only: bool,
    /// The search labels with this learned evaluation (an `<variant>-eval.onnx`, see
    /// `training/train_eval.py`) instead of the hand-written one: the next generation's
    /// teacher.
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.depth >= 2, "--depth must be at least 2");
    let geometry = args.variant.geometry();
    let map = PolicyMap::new(geometry);
    let mut rng = SplitMix::new(args.seed);
    let mut searcher = Searcher::new(32);
    if let Some(path) = &args.eval {
        searcher.set_evalnet(Some(learned_eval::open(path, args.variant)?));
    }
    let summary = write_games(&args.out, args.positions, || {
        play_game(args, &map, &mut searcher, &mut rng)
    })?;
    println!("labelled at depth {}: {summary}", args.depth);
    Ok(())
}

/// Plays one game and labels its positions; returns them and the result.
fn play_game(
    args: &Args,
    map: &PolicyMap,
    searcher: &mut Searcher,
    rng: &mut SplitMix,
) -> anyhow::Result<(Vec<Sample>, GameResult)> {
    let mut game = Game::new(args.variant);
    let random = rng.below(args.random_plies as usize + 1);
    let mut samples = Vec::new();
    let stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.moves().len() < args.max_plies {
        let position = *game.position();
        let moves = position.legal_moves();
        let ply = game.moves().len();
        if ply < random || moves.len() == 1 {
            let mv = moves[rng.below(moves.len())];
            game.play(&mv)?;
            continue;
        }
        let positions = game.positions().to_vec();
        if args.value_only {
            let limits = Limits {
                depth: args.depth,
                nodes: u64::MAX,
            };
            let found = searcher.search(&position, &positions, limits, &stop);
            let best = found.best.unwrap_or(moves[0]);
            if !(args.quiet_only && position.has_capture()) {
                let mut policy = vec![0.0; map.len()];
                if let Some(i) = map.index(position.turn(), &best) {
                    policy[i] = 1.0;
                }
                samples.push(Sample {
                    position,
                    policy,
                    search_v: win_probability(found.score),
                });
            }
            let mv = if rng.chance(args.blunders) {
                moves[rng.below(moves.len())]
            } else {
                best
            };
            game.play(&mv)?;
            continue;
        }
        let scores = root_scores(searcher, &positions, &moves, args.depth, &stop);
        let best_score = scores.iter().copied().max().unwrap_or(0);
        let weights = softmax(&scores, args.policy_temperature);
        let mut policy = vec![0.0; map.len()];
        for (mv, w) in moves.iter().zip(&weights) {
            if let Some(i) = map.index(position.turn(), mv) {
                policy[i] += w;
            }
        }
        samples.push(Sample {
            position,
            policy,
            search_v: win_probability(best_score),
        });
        let mv = if ply < random + args.sampled_plies {
            sample(&moves, &weights, rng)
        } else if rng.chance(args.blunders) {
            moves[rng.below(moves.len())]
        } else {
            let top = scores
                .iter()
                .position(|&s| s == best_score)
                .unwrap_or_default();
            moves[top]
        };
        game.play(&mv)?;
    }
    let result = game.outcome().map_or(GameResult::Draw, |o| o.result);
    Ok((samples, result))
}

/// The score of each root move for the side to move: `-search(child, depth - 1)`.
fn root_scores(
    searcher: &mut Searcher,
    positions: &[Position],
    moves: &[Move],
    depth: u32,
    stop: &AtomicBool,
) -> Vec<i32> {
    let position = positions[positions.len() - 1];
    moves
        .iter()
        .map(|mv| {
            let mut child = position;
            child.play_unchecked(mv);
            // A child without moves is scored by the rules inside `search`.
            let limits = Limits {
                depth: depth - 1,
                nodes: u64::MAX,
            };
            -searcher.search(&child, positions, limits, stop).score
        })
        .collect()
}

/// Probabilities proportional to `exp(score / temperature)`.
fn softmax(scores: &[i32], temperature: f32) -> Vec<f32> {
    let max = scores.iter().copied().max().unwrap_or(0);
    let weights: Vec<f32> = scores
        .iter()
        .map(|&s| ((s - max) as f32 / temperature.max(1e-3)).exp())
        .collect();
    let total: f32 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

fn sample(moves: &[Move], weights: &[f32], rng: &mut SplitMix) -> Move {
    let mut draw = (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
    for (mv, w) in moves.iter().zip(weights) {
        if draw < *w {
            return *mv;
        }
        draw -= w;
    }
    moves[moves.len() - 1]
}
