//! `checkerbot-lab book`: builds level 5's opening book (`player::book`) from deep searches of
//! the common openings.
//!
//! From the initial position, every legal move of each position is searched to the same node
//! budget; the moves within `--margin` of the best (at most `--width` of them) go into the book,
//! and the positions after them are searched in turn, for both sides, to `--plies` plies. A
//! position with one legal move (a forced capture) is passed through without a line. The
//! common openings are exactly those the good moves lead to; a visitor's weak move leaves the
//! book, and the search takes over where it should.
//!
//! Every position is searched by a fresh searcher, so its moves and scores depend on the
//! position alone: the book is the same for any number of `--threads`, and a rebuild with the
//! same options writes the same file.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context as _;
use evalnet::EvalNet;
use player::book::{BookMove, OpeningBook};
use rules::{Move, Position, Variant};
use search::{Limits, Searcher};

/// The transposition table of each position's searcher, MB: as the robot's.
const TABLE_MB: usize = 16;

/// Arguments of `checkerbot-lab book`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose openings to search.
    #[arg(long)]
    variant: Variant,
    /// How many plies from the initial position the book reaches.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    plies: u32,
    /// Nodes each move's search may visit.
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1_000..))]
    nodes: u64,
    /// Moves scored within this many hundredths of a man of the best are kept and followed.
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(i32).range(0..=500))]
    margin: i32,
    /// The most moves kept in a position (the best ones).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=20))]
    width: u64,
    /// Positions searched at once (each by its own searcher); the book does not depend on it.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// A learned evaluation (`models/<variant>-eval.onnx`) to score the leaves with, as level 5
    /// does; without it, the hand-written evaluation.
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
    /// The file to write (the robot reads `<models_dir>/<variant>-book.txt`).
    #[arg(long)]
    out: PathBuf,
}

/// Builds the book and writes it to `--out`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let evalnet = match &args.eval {
        Some(path) => Some(crate::learned_eval::open(path, args.variant)?),
        None => None,
    };
    let mut book = OpeningBook::new(args.variant);
    let mut seen: HashSet<Position> = HashSet::new();
    let start = Position::new(args.variant);
    seen.insert(start);
    let mut frontier = vec![start];
    for ply in 0..args.plies {
        let scored = score_all(&frontier, args, evalnet.as_ref());
        let mut next = Vec::new();
        for (position, moves) in frontier.iter().zip(scored) {
            let followed: Vec<Move> = match moves {
                Scored::Forced(mv) => vec![mv],
                Scored::Over => Vec::new(),
                Scored::Choice(kept) => {
                    let followed = kept.iter().map(|book_move| book_move.mv).collect();
                    book.insert(*position, kept);
                    followed
                }
            };
            for mv in followed {
                let after = position.play(&mv).expect("a legal move");
                if seen.insert(after) {
                    next.push(after);
                }
            }
        }
        eprintln!(
            "ply {}: {} positions searched, {} in the book, {:.0} s",
            ply + 1,
            frontier.len(),
            book.len(),
            started.elapsed().as_secs_f64()
        );
        frontier = next;
    }
    let eval = match &args.eval {
        Some(path) => format!(
            " --eval {}",
            path.file_name()
                .unwrap_or(path.as_os_str())
                .to_string_lossy()
        ),
        None => String::new(),
    };
    let comments = [
        format!(
            "built by: checkerbot-lab book --variant {} --plies {} --nodes {} --margin {} \
             --width {}{eval}",
            args.variant.name(),
            args.plies,
            args.nodes,
            args.margin,
            args.width
        ),
        "each line: a position (FEN), then its good moves, each with a deep search's score \
         (hundredths of a man, for the side to move)"
            .to_owned(),
    ];
    std::fs::write(&args.out, book.write(&comments))
        .with_context(|| format!("writing {}", args.out.display()))?;
    eprintln!(
        "{} positions written to {} in {:.0} s",
        book.len(),
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What a position's search found.
enum Scored {
    /// No legal move: the game is over there.
    Over,
    /// One legal move: nothing to choose.
    Forced(Move),
    /// The good moves, best first.
    Choice(Vec<BookMove>),
}

/// Every position of `frontier` scored, in its order, by `args.threads` workers.
fn score_all(frontier: &[Position], args: &Args, evalnet: Option<&Arc<EvalNet>>) -> Vec<Scored> {
    let threads = (args.threads as usize).min(frontier.len()).max(1);
    let mut results: Vec<Option<Scored>> = (0..frontier.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                scope.spawn(move || {
                    frontier
                        .iter()
                        .enumerate()
                        .skip(worker)
                        .step_by(threads)
                        .map(|(index, position)| (index, score(position, args, evalnet)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            for (index, scored) in worker.join().expect("a book worker panicked") {
                results[index] = Some(scored);
            }
        }
    });
    results
        .into_iter()
        .map(|scored| scored.expect("every position scored"))
        .collect()
}

/// `position`'s legal moves, each searched to `args.nodes` by one fresh searcher; the best
/// `args.width` within `args.margin` of the best.
fn score(position: &Position, args: &Args, evalnet: Option<&Arc<EvalNet>>) -> Scored {
    let moves = position.legal_moves();
    match moves.as_slice() {
        [] => return Scored::Over,
        [only] => return Scored::Forced(*only),
        _ => {}
    }
    let mut searcher = Searcher::new(TABLE_MB);
    searcher.set_evalnet(evalnet.cloned());
    let never = AtomicBool::new(false);
    let limits = Limits {
        depth: 64,
        nodes: args.nodes,
    };
    let mut scored: Vec<BookMove> = moves
        .iter()
        .map(|mv| {
            let after = position.play(mv).expect("a legal move");
            let reply = searcher.search(&after, &[*position], limits, &never);
            BookMove {
                mv: *mv,
                score: -reply.score,
            }
        })
        .collect();
    // Best first; equal scores keep the legal moves' order, so the file is reproducible.
    scored.sort_by_key(|book_move| -book_move.score);
    let best = scored[0].score;
    scored.retain(|book_move| book_move.score >= best - args.margin);
    scored.truncate(args.width as usize);
    Scored::Choice(scored)
}
