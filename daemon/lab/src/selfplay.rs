//! `checkerbot-lab selfplay`: training positions from a network's games against itself, the
//! refinement step after the alpha-beta bootstrap of `checkerbot-lab datagen` (as `AlphaZero`
//! learned, here on two CPU cores).
//!
//! The network plays both sides with MCTS (the robot's search, its tree kept from move to
//! move) and Dirichlet noise mixed into each root's priors so that moves it undervalues still
//! get searched. Each game starts with a few random plies; the next moves are drawn in
//! proportion to their visits (temperature 1), later ones are the most visited. Every position
//! with a choice is written with
//!
//! - a **policy target**: the root's visit counts, normalised (moves that share a policy index
//!   add their visits, `network::policy::target`);
//! - the search's **win probability** for the side to move and the **game result** from its
//!   view, in the same records as `datagen` ([`crate::training_record`]), so `training/train.py`
//!   reads both and files of the two commands can be concatenated.
//!
//! A failed network evaluation stops the run with the error: the robot falls back to a
//! heuristic mid-game, but training data made that way would teach the next network nonsense.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Context as _;
use network::policy::{PolicyMap, target};
use network::runtime::{Network, NetworkEvaluator};
use rules::{Game, GameResult, Variant};
use search::mcts::{Mcts, MctsConfig, MctsLimits, RootNoise};

use crate::training_record::{Sample, write_games};
use player::rng::SplitMix;

/// Arguments of `checkerbot-lab selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// The network that plays (an ONNX model made for the variant, see `models/README.md`).
    #[arg(long)]
    model: PathBuf,
    /// ONNX Runtime library to load (default: the robot's search, see `models/README.md`).
    #[arg(long)]
    onnxruntime: Option<PathBuf>,
    /// Positions to write.
    #[arg(long)]
    positions: u64,
    /// MCTS playouts per move (visits kept from the previous move come on top).
    #[arg(long, default_value_t = 400)]
    playouts: u32,
    /// Seed of the games; runs with other seeds can be concatenated.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The file to write (replaced).
    #[arg(long)]
    out: PathBuf,
    /// Most random plies at the start of a game (the number is drawn from 0..=N).
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Plies after the opening whose move is drawn in proportion to its visits.
    #[arg(long, default_value_t = 16)]
    sampled_plies: usize,
    /// Concentration of the root noise (smaller: on fewer moves).
    #[arg(long, default_value_t = 0.3)]
    noise_alpha: f32,
    /// Weight of the root noise in the priors, 0 for none.
    #[arg(long, default_value_t = 0.25)]
    noise_fraction: f32,
    /// Longest game in plies; longer ones count as draws.
    #[arg(long, default_value_t = 250)]
    max_plies: usize,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    anyhow::ensure!(args.playouts >= 1, "--playouts must be at least 1");
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.noise_fraction),
        "--noise-fraction must be between 0 and 1"
    );
    let dylib = args.onnxruntime.clone().or_else(|| player::dylib(None));
    let network = Network::load(dylib.as_deref(), &args.model, args.variant)
        .with_context(|| format!("loading the network {}", args.model.display()))?;
    eprintln!(
        "self-play with {} ({})",
        args.model.display(),
        network.library().display()
    );
    let mut evaluator = NetworkEvaluator::new(network);
    let map = PolicyMap::new(args.variant.geometry());
    let mut rng = SplitMix::new(args.seed);
    let summary = write_games(&args.out, args.positions, || {
        play_game(args, &map, &mut evaluator, &mut rng)
    })?;
    println!("{} playouts a move: {summary}", args.playouts);
    Ok(())
}

/// Plays one game of the network against itself and labels its positions.
fn play_game(
    args: &Args,
    map: &PolicyMap,
    evaluator: &mut NetworkEvaluator,
    rng: &mut SplitMix,
) -> anyhow::Result<(Vec<Sample>, GameResult)> {
    let mut game = Game::new(args.variant);
    let random = rng.below(args.random_plies as usize + 1);
    let config = MctsConfig {
        seed: rng.next_u64(),
        root_noise: (args.noise_fraction > 0.0).then_some(RootNoise {
            alpha: args.noise_alpha,
            fraction: args.noise_fraction,
        }),
        ..MctsConfig::default()
    };
    let mut tree = Mcts::new(*game.position(), config);
    let stop = AtomicBool::new(false);
    let mut samples = Vec::new();
    while game.outcome().is_none() && game.moves().len() < args.max_plies {
        let position = *game.position();
        let moves = position.legal_moves();
        let ply = game.moves().len();
        let mv = if ply < random || moves.len() == 1 {
            moves[rng.below(moves.len())]
        } else {
            let temperature = if ply < random + args.sampled_plies {
                1.0
            } else {
                0.0
            };
            let limits = MctsLimits {
                playouts: args.playouts,
                temperature,
            };
            let found = tree
                .search(evaluator, limits, &stop)
                .context("the search found no move in a position with moves")?;
            if let Some(error) = evaluator.take_error() {
                return Err(error).context("the network failed during self-play");
            }
            // The search reports visits in `legal_moves()` order, as `moves` is.
            let visits: Vec<u32> = found.visits.iter().map(|(_, n)| *n).collect();
            samples.push(Sample {
                position,
                policy: target(map, &position, &moves, &visits),
                search_v: found.v,
            });
            found.best
        };
        game.play(&mv)?;
        if tree.advance(&mv).is_err() {
            tree.reset(*game.position());
        }
    }
    let result = game.outcome().map_or(GameResult::Draw, |o| o.result);
    Ok((samples, result))
}
