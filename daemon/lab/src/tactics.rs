//! `checkerbot-lab tactics`: the tactics suite (Russian positions with a winning shot, in
//! `engine/search/tests/data/tactics-russian.txt`) run at level 5's settings, and the miner
//! that composed it from games of a weak player.
//!
//! The miner plays games from seeded random openings with a weak alpha-beta (depth 2, some
//! moves random), and keeps a position when a deep search finds a move that wins at least two
//! pieces within a few plies (the note says when it starts with a
//! sacrifice: a quiet move the opponent must take), while a depth-2 search plays something else, and every other move
//! scores at least [`UNIQUE_MARGIN`] less; a deeper search must then agree.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use player::rng::SplitMix;
use rules::{Color, Game, Move, Position, Variant, fen, notation};
use search::{Limits, Searcher, WIN_THRESHOLD, evaluate};

/// The suite's file in the repository.
const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../engine/search/tests/data/tactics-russian.txt"
);

/// How much worse every other move must score for the shot to be the only solution.
const UNIQUE_MARGIN: i32 = 150;
/// Pieces a shot must win, in hundredths: two.
const MIN_GAIN: i32 = 200;
/// The shot's gain is counted within this many plies of its line.
const WITHIN_PLIES: usize = 12;

/// Arguments of `checkerbot-lab tactics`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Run the suite with level 5's search and print the solve rate and mean time.
    Run {
        /// The suite (default: engine/search/tests/data/tactics-russian.txt).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Time per position in milliseconds (level 5 searches until its move time).
        #[arg(long, value_name = "MS")]
        move_time_ms: Option<u64>,
        /// Node budget per position.
        #[arg(long)]
        nodes: Option<u64>,
        /// A learned evaluation (`models/russian-eval.onnx`) to search with, as level 5 does.
        #[arg(long, value_name = "FILE")]
        eval: Option<PathBuf>,
    },
    /// Compose a suite by mining games of a weak player (see the module's documentation).
    Mine {
        /// Positions to find.
        #[arg(long, default_value_t = 60)]
        positions: usize,
        /// Seed of the games' openings and random moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Depth of the search that finds the shot.
        #[arg(long, default_value_t = 14)]
        depth: u32,
        /// Depth of the search that must agree.
        #[arg(long, default_value_t = 16)]
        verify_depth: u32,
        /// Keep shots that a depth-2 search finds too (the note says so).
        #[arg(long)]
        allow_shallow: bool,
        /// Where to write the suite.
        #[arg(long)]
        out: PathBuf,
    },
}

/// One position of the suite.
struct Problem {
    position: Position,
    solution: Move,
    line: String,
}

fn read_suite(path: &std::path::Path) -> anyhow::Result<Vec<Problem>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut problems = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen_text), Some(move_text)) = (fields.next(), fields.next()) else {
            bail!(
                "{}:{}: expected FEN | move | note",
                path.display(),
                number + 1
            );
        };
        let position = fen::parse(Variant::Russian, fen_text)
            .with_context(|| format!("{}:{}", path.display(), number + 1))?;
        let solution = notation::parse_move(&position, move_text)
            .with_context(|| format!("{}:{}", path.display(), number + 1))?;
        problems.push(Problem {
            position,
            solution,
            line: line.to_owned(),
        });
    }
    Ok(problems)
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Run {
            file,
            move_time_ms,
            nodes,
            eval,
        } => run_suite(
            file.as_deref().unwrap_or(std::path::Path::new(SUITE)),
            *move_time_ms,
            *nodes,
            eval.as_deref(),
        ),
        Command::Mine {
            positions,
            seed,
            depth,
            verify_depth,
            allow_shallow,
            out,
        } => mine(
            *positions,
            *seed,
            *depth,
            *verify_depth,
            *allow_shallow,
            out,
        ),
    }
}

fn run_suite(
    path: &std::path::Path,
    move_time_ms: Option<u64>,
    nodes: Option<u64>,
    eval: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    if move_time_ms.is_none() && nodes.is_none() {
        bail!("give --move-time-ms, --nodes or both");
    }
    let evalnet = eval
        .map(|path| crate::learned_eval::open(path, Variant::Russian))
        .transpose()?;
    let problems = read_suite(path)?;
    let limits = Limits {
        depth: 64,
        nodes: nodes.unwrap_or(u64::MAX),
    };
    let mut solved = 0;
    let mut total_time = Duration::ZERO;
    let mut total_nodes = 0u64;
    for (i, problem) in problems.iter().enumerate() {
        let started = Instant::now();
        let result =
            crate::search::with_deadline(move_time_ms.map(Duration::from_millis), |stop| {
                let mut searcher = Searcher::new(16);
                searcher.set_evalnet(evalnet.clone());
                searcher.search(&problem.position, &[], limits, stop)
            });
        let elapsed = started.elapsed();
        total_time += elapsed;
        total_nodes += result.nodes;
        if result.best == Some(problem.solution) {
            solved += 1;
        } else {
            let played = result.best.map_or_else(
                || "none".to_owned(),
                |m| notation::move_text(Variant::Russian, &m),
            );
            println!(
                "missed #{}: played {played} (depth {}) | {}",
                i + 1,
                result.depth,
                problem.line
            );
        }
    }
    let n = problems.len().max(1);
    println!(
        "solved {solved}/{} ({:.0}%), mean {:.0} ms and {:.0} k nodes a position ({}{})",
        problems.len(),
        100.0 * solved as f64 / n as f64,
        total_time.as_secs_f64() * 1000.0 / n as f64,
        total_nodes as f64 / n as f64 / 1000.0,
        move_time_ms.map_or_else(String::new, |ms| format!("{ms} ms")),
        nodes.map_or_else(String::new, |nodes| format!(
            "{}{nodes} nodes",
            if move_time_ms.is_some() { ", " } else { "" }
        )),
    );
    Ok(())
}

/// Pieces for the side to move against the opponent's, in hundredths (a king counts as a
/// man: crowning alone is no shot).
fn material(position: &Position) -> i32 {
    let of = |c: Color| position.pieces(c).count() as i32 * 100;
    of(position.turn()) - of(!position.turn())
}

/// What the root's side gains along `line` within [`WITHIN_PLIES`]: the material it holds at
/// the line's last quiet position there (its turn, no capture to make), against the root's.
fn gain_along(root: &Position, line: &[Move]) -> i32 {
    let us = root.turn();
    let base = material(root);
    let mut gain = i32::MIN;
    let mut position = *root;
    for (ply, mv) in line.iter().enumerate().take(WITHIN_PLIES) {
        position.play_unchecked(mv);
        if ply % 2 == 0 || position.has_capture() {
            continue;
        }
        let ours = if position.turn() == us {
            material(&position)
        } else {
            -material(&position)
        };
        gain = ours - base;
    }
    gain
}

fn limits(depth: u32, nodes: u64) -> Limits {
    Limits { depth, nodes }
}

/// The score of the best move other than `best`, each searched to `depth - 1`.
fn second_best(position: &Position, best: &Move, depth: u32, nodes: u64) -> i32 {
    let stop = AtomicBool::new(false);
    let mut second = -search::WIN;
    for mv in position.legal_moves() {
        if mv == *best {
            continue;
        }
        let child = position.play(&mv).expect("a legal move");
        let mut searcher = Searcher::new(16);
        let score = -searcher
            .search(&child, &[*position], limits(depth - 1, nodes), &stop)
            .score;
        second = second.max(score);
    }
    second
}

/// Whether the position holds a shot; returns its move and a note.
fn shot(
    position: &Position,
    depth: u32,
    verify_depth: u32,
    allow_shallow: bool,
) -> Option<(Move, String)> {
    let stop = AtomicBool::new(false);
    if position.legal_moves().len() < 2 {
        return None;
    }
    let shallow = Searcher::new(1).search(position, &[], limits(2, u64::MAX), &stop);
    // A cheap look first: most positions hold no shot, and a shot of a few plies shows at
    // depth 8 (captures cost no depth).
    let quick = Searcher::new(4).search(position, &[], limits(8, 300_000), &stop);
    let shallow_finds = quick.best == shallow.best;
    if (shallow_finds && !allow_shallow) || gain_along(position, &quick.pv) < MIN_GAIN {
        return None;
    }
    let deep = Searcher::new(16).search(position, &[], limits(depth, 4_000_000), &stop);
    let best = deep.best?;
    if (shallow.best == Some(best) && !allow_shallow) || deep.depth < depth || deep.pv.len() < 3 {
        return None;
    }
    let sacrifice = !best.is_capture() && deep.pv[1].is_capture();
    let gain = gain_along(position, &deep.pv);
    let eval = evaluate(position);
    if gain < MIN_GAIN || deep.score < eval + MIN_GAIN - 50 || deep.score >= WIN_THRESHOLD {
        return None;
    }
    let second = second_best(position, &best, depth, 2_000_000);
    if second > deep.score - UNIQUE_MARGIN {
        return None;
    }
    let verify = Searcher::new(64).search(position, &[], limits(verify_depth, 10_000_000), &stop);
    if verify.best != Some(best) || verify.score < deep.score - 100 {
        return None;
    }
    let text = |m: &Move| notation::move_text(Variant::Russian, m);
    let line: Vec<String> = deep.pv.iter().take(WITHIN_PLIES).map(text).collect();
    let mut note = String::new();
    let _ = write!(
        note,
        "{}wins {:.1} men; depth {} {:+} (next best {:+}), depth {} {:+}, depth 2 {}; line {}",
        if sacrifice { "sacrifice, " } else { "" },
        gain as f64 / 100.0,
        deep.depth,
        deep.score,
        second,
        verify.depth,
        verify.score,
        if shallow.best == Some(best) {
            "finds it too".to_owned()
        } else {
            format!(
                "plays {}",
                shallow.best.as_ref().map_or_else(String::new, text)
            )
        },
        line.join(" ")
    );
    Some((best, note))
}

/// A weak player's move: depth 2, a third of the moves random.
fn weak_move(position: &Position, rng: &mut SplitMix, searcher: &mut Searcher) -> Move {
    let moves = position.legal_moves();
    if rng.unit() < 0.3 {
        return moves[rng.below(moves.len())];
    }
    searcher
        .search(position, &[], limits(2, u64::MAX), &AtomicBool::new(false))
        .best
        .unwrap_or(moves[0])
}

fn mine(
    wanted: usize,
    seed: u64,
    depth: u32,
    verify_depth: u32,
    allow_shallow: bool,
    out: &std::path::Path,
) -> anyhow::Result<()> {
    let mut rng = SplitMix::new(seed);
    let mut weak = Searcher::new(1);
    let mut found: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut examined = 0usize;
    let started = Instant::now();
    let mut game_number = 0;
    while found.len() < wanted {
        game_number += 1;
        let mut game = Game::new(Variant::Russian);
        let opening = 4 + rng.below(5);
        let mut skip_until = 0;
        while game.outcome().is_none() {
            let position = *game.position();
            let ply = game.moves().len();
            let pieces =
                position.pieces(Color::White).count() + position.pieces(Color::Black).count();
            if ply >= opening && ply >= skip_until && pieces >= 8 {
                examined += 1;
                if examined.is_multiple_of(200) {
                    eprintln!(
                        "[{examined} positions, {} found, {:.0} s]",
                        found.len(),
                        started.elapsed().as_secs_f64()
                    );
                }
                if let Some((mv, note)) = shot(&position, depth, verify_depth, allow_shallow) {
                    let fen_text = fen::write(&position);
                    if seen.insert(fen_text.clone()) {
                        let line = format!(
                            "{fen_text} | {} | game {game_number} ply {ply}: {note}",
                            notation::move_text(Variant::Russian, &mv)
                        );
                        eprintln!(
                            "[{} after {examined} positions, {:.0} s] {line}",
                            found.len() + 1,
                            started.elapsed().as_secs_f64()
                        );
                        found.push(line);
                        skip_until = ply + 8;
                    }
                }
            }
            let mv = if ply < opening {
                let moves = position.legal_moves();
                moves[rng.below(moves.len())]
            } else {
                weak_move(&position, &mut rng, &mut weak)
            };
            game.play(&mv).context("a legal move")?;
        }
    }
    let mut text = format!(
        "# Russian draughts positions with a winning shot, mined by\n\
         #   checkerbot-lab tactics mine --positions {wanted} --seed {seed} --depth {depth} \
         --verify-depth {verify_depth}{} --out FILE\n\
         # ({examined} positions of {game_number} games examined). Each line: FEN | the shot's \
         first move | a note.\n",
        if allow_shallow {
            " --allow-shallow"
        } else {
            ""
        }
    );
    for line in &found {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(out, text).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "{} positions from {examined} examined in {game_number} games, {:.0} s",
        found.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
