//! `checkerbot datagen`: training positions labelled by alpha-beta, for `training/train.py`.
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
//! Records are fixed-size, little-endian, without a header, so files from parallel runs (other
//! seeds) can simply be concatenated. On a `side x side` board with `P` policy indices:
//!
//! | bytes | content |
//! |-------|---------|
//! | `4 * side * side / 8` | planes 0-3 of `engine::network::encoding`, one bit per cell, cell `i` of plane `k` at bit `k * side * side + i`, least significant bit first |
//! | `P` | policy target, `round(255 * p)` per index |
//! | 4 | `f32` search win probability for the side to move |
//! | 4 | `f32` game result for the side to move: 1, 0.5 or 0 |
//!
//! Russian: 32 + 280 + 8 = 320 bytes per position.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context as _;
use engine::network::encoding::{PLANES, input_len, write_planes};
use engine::network::policy::PolicyMap;
use engine::search::{Limits, Searcher, win_probability};
use engine::{Color, Game, GameResult, Move, Position, Variant};

use crate::rng::SplitMix;

/// Arguments of `checkerbot datagen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long, value_parser = super::parse_variant)]
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
}

/// One labelled position.
struct Sample {
    position: Position,
    policy: Vec<f32>,
    search_v: f32,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.depth >= 2, "--depth must be at least 2");
    let file =
        File::create(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let geometry = args.variant.geometry();
    let map = PolicyMap::new(geometry);
    let mut rng = SplitMix::new(args.seed);
    let mut searcher = Searcher::new(32);
    let started = Instant::now();
    let (mut written, mut games) = (0u64, 0u64);
    let mut results = [0u64; 3];
    while written < args.positions {
        let (samples, result) = play_game(args, &map, &mut searcher, &mut rng)?;
        games += 1;
        results[match result {
            GameResult::Win(Color::White) => 0,
            GameResult::Draw => 1,
            GameResult::Win(Color::Black) => 2,
        }] += 1;
        for sample in samples {
            if written == args.positions {
                break;
            }
            let score = match result {
                GameResult::Draw => 0.5,
                GameResult::Win(color) if color == sample.position.turn() => 1.0,
                GameResult::Win(_) => 0.0,
            };
            write_record(&mut out, &sample, score)
                .with_context(|| format!("writing {}", args.out.display()))?;
            written += 1;
            if written % 10_000 == 0 {
                eprintln!(
                    "{written} positions from {games} games in {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    out.flush()
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "{written} positions from {games} games (white {} / draw {} / black {}) at depth {} in {:.1} s -> {}",
        results[0],
        results[1],
        results[2],
        args.depth,
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
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

fn write_record(
    out: &mut impl std::io::Write,
    sample: &Sample,
    result: f32,
) -> std::io::Result<()> {
    let geometry = sample.position.variant().geometry();
    let cells = geometry.side() * geometry.side();
    let mut planes = vec![0.0; input_len(geometry)];
    write_planes(&sample.position, &mut planes);
    let mut bits = vec![0u8; (PLANES - 1) * cells / 8];
    for (i, v) in planes[..(PLANES - 1) * cells].iter().enumerate() {
        if *v > 0.5 {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    out.write_all(&bits)?;
    let policy: Vec<u8> = sample
        .policy
        .iter()
        .map(|p| (p * 255.0).round().clamp(0.0, 255.0) as u8)
        .collect();
    out.write_all(&policy)?;
    out.write_all(&sample.search_v.to_le_bytes())?;
    out.write_all(&result.to_le_bytes())
}
