//! `checkerbot match`: games between two players, to measure playing strength.
//!
//! Colours alternate every game and each pair of games starts from the same randomly chosen
//! opening (a few random plies from the seed), so both players get both sides of it.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use engine::search::{Limits, Searcher};

use crate::rng::SplitMix;
use engine::{Game, GameResult, Move, Variant};

/// Arguments of `checkerbot match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long, value_parser = super::parse_variant)]
    variant: Variant,
    /// First player: `random`, `depth:N` or `nodes:N` (alpha-beta).
    #[arg(long)]
    first: PlayerSpec,
    /// Second player, same forms.
    #[arg(long)]
    second: PlayerSpec,
    /// Games to play (colours alternate).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Random plies at the start of each pair of games.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed for openings and random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Longest game in plies before it is called a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
}

/// A player in a match.
#[derive(Debug, Clone, Copy)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// Alpha-beta to a fixed depth.
    Depth(u32),
    /// Alpha-beta with a node budget.
    Nodes(u64),
}

impl FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let bad = || format!("{s:?}: expected random, depth:N or nodes:N");
        match s.split_once(':') {
            None if s == "random" => Ok(PlayerSpec::Random),
            Some(("depth", n)) => n.parse().map(PlayerSpec::Depth).map_err(|_| bad()),
            Some(("nodes", n)) => n.parse().map(PlayerSpec::Nodes).map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Depth(d) => write!(f, "depth:{d}"),
            PlayerSpec::Nodes(n) => write!(f, "nodes:{n}"),
        }
    }
}

struct Player {
    spec: PlayerSpec,
    searcher: Searcher,
}

impl Player {
    fn choose(&mut self, game: &Game, rng: &mut SplitMix) -> Move {
        let moves = game.position().legal_moves();
        let limits = match self.spec {
            PlayerSpec::Random => return moves[rng.below(moves.len())],
            PlayerSpec::Depth(depth) => Limits {
                depth,
                nodes: u64::MAX,
            },
            PlayerSpec::Nodes(nodes) => Limits { depth: 64, nodes },
        };
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        self.searcher
            .search(game.position(), history, limits, &AtomicBool::new(false))
            .best
            .unwrap_or(moves[0])
    }
}

/// Runs the command and prints one line per game and a summary.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut rng = SplitMix::new(args.seed);
    let mut players = [
        Player {
            spec: args.first,
            searcher: Searcher::new(8),
        },
        Player {
            spec: args.second,
            searcher: Searcher::new(8),
        },
    ];
    let mut tally = [0u32; 3]; // first wins, draws, second wins
    let mut opening = Vec::new();
    for index in 0..args.games {
        if index % 2 == 0 {
            opening = random_opening(args.variant, args.opening_plies, &mut rng);
        }
        // Even games: the first player takes the side that moves first.
        let first_side = args.variant.rules().first;
        let sides = if index % 2 == 0 {
            [first_side, !first_side]
        } else {
            [!first_side, first_side]
        };
        let mut game = Game::new(args.variant);
        for mv in &opening {
            game.play(mv)?;
        }
        for player in &mut players {
            player.searcher.clear();
        }
        while game.outcome().is_none() && game.moves().len() < args.max_plies {
            let turn = game.position().turn();
            let who = usize::from(sides[1] == turn);
            let mv = players[who].choose(&game, &mut rng);
            game.play(&mv)?;
        }
        // Index into the tally: 0 the first player won, 1 draw, 2 the second player won.
        let (verdict, label) = match game.outcome().map_or(GameResult::Draw, |o| o.result) {
            GameResult::Win(color) if color == sides[0] => (0, "first wins"),
            GameResult::Win(_) => (2, "second wins"),
            GameResult::Draw => (1, "draw"),
        };
        tally[verdict] += 1;
        println!(
            "game {:>3}: first plays {:<5} {label} after {} plies",
            index + 1,
            sides[0].name(),
            game.moves().len()
        );
    }
    let first_score = f64::from(tally[0]) + f64::from(tally[1]) / 2.0;
    println!(
        "{} vs {} in {}: {} wins, {} draws, {} losses for the first; score {first_score:.1}-{:.1}",
        args.first,
        args.second,
        args.variant,
        tally[0],
        tally[1],
        tally[2],
        f64::from(args.games) - first_score
    );
    Ok(())
}

fn random_opening(variant: Variant, plies: u32, rng: &mut SplitMix) -> Vec<Move> {
    let mut game = Game::new(variant);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.position().legal_moves();
        let mv = legal[rng.below(legal.len())];
        game.play(&mv).expect("a legal move");
        moves.push(mv);
    }
    moves
}
