//! `checkerbot-lab search`: the alpha-beta player's choice in a position, with its line and
//! speed, as text or as one JSON object for a script.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use rules::{Move, Position, Variant, fen, notation};
use search::{Limits, Searcher};
use serde::Serialize;

/// The depth searched when no limit is given at all.
pub const DEFAULT_DEPTH: u32 = 12;

/// Arguments of `checkerbot-lab search`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "With none of --depth, --nodes and --move-time-ms the search stops at \
                        depth 12. A limit not given is no limit: --nodes 5000000 alone searches \
                        until 5,000,000 nodes, however deep. The search stops at the first limit \
                        reached, keeping the last completed iteration."
)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// Position to search (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from that position, in the variant's move text (`c3-d4`, `22-18`), so that
    /// the search sees repetitions; the position searched is the one after them.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Deepest iteration in plies (no limit if not given, unless no limit is given at all:
    /// then 12).
    #[arg(long)]
    depth: Option<u32>,
    /// Node budget (no limit if not given).
    #[arg(long)]
    nodes: Option<u64>,
    /// Time for the search in milliseconds, after which it stops (no limit if not given).
    #[arg(long, value_name = "MS")]
    move_time_ms: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// A folder of endgame tables (values, `checkerbot-lab egdb build`) to probe below the
    /// root, as level 5 does.
    #[arg(long, value_name = "DIR")]
    egdb: Option<PathBuf>,
    /// The most pieces of the `--egdb` tables to load.
    #[arg(long, default_value_t = 5, value_name = "N")]
    egdb_pieces: u32,
    /// A learned evaluation (`models/russian-eval.onnx`) to score the leaves with, as level 5
    /// does, instead of the hand-written one.
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
}

/// The JSON answer: one object on one line.
#[derive(Debug, Serialize)]
struct Answer {
    /// The move in the variant's notation; `null` when the side to move has none.
    #[serde(rename = "move")]
    best: Option<String>,
    /// Squares the moving piece stands on, from its start to where it ends.
    path: Vec<String>,
    /// Squares of the pieces it takes, in the order jumped.
    captures: Vec<String>,
    /// Hundredths of a man for the side to move; beyond 29,000 a forced win, from 19,000
    /// to 29,000 a win the endgame tables prove.
    score: i32,
    /// The side to move's win probability estimated from the score.
    v: f32,
    depth: u32,
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// The expected line, starting with the move.
    pv: Vec<String>,
    time_ms: u64,
    /// Positions below the root answered by the `--egdb` tables.
    tb_hits: u64,
}

/// The position to search and the game's positions before it (for repetitions), after playing
/// `moves` from `start`.
fn play_moves(start: Position, moves: &[String]) -> anyhow::Result<(Position, Vec<Position>)> {
    let mut position = start;
    let mut history = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let mv = notation::parse_move(&position, text).map_err(|err| {
            anyhow::anyhow!(
                "--moves: move {} ({text:?}) in {}: {err}",
                index + 1,
                fen::write(&position)
            )
        })?;
        history.push(position);
        position = position
            .play(&mv)
            .with_context(|| format!("--moves: move {} ({text:?})", index + 1))?;
    }
    Ok((position, history))
}

/// Runs `f` with a stop flag that a timer raises after `time` (never, when `None`).
pub(crate) fn with_deadline<T>(time: Option<Duration>, f: impl FnOnce(&AtomicBool) -> T) -> T {
    let stop = AtomicBool::new(false);
    let Some(time) = time else { return f(&stop) };
    let (done, wait) = mpsc::channel::<()>();
    let raise = &stop;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(time) {
                raise.store(true, Ordering::Relaxed);
            }
        });
        let out = f(&stop);
        drop(done);
        out
    })
}

/// The limits asked for: a limit not given is none, and with none given, depth 12.
fn limits(args: &Args) -> Limits {
    let unlimited = Limits {
        depth: u32::MAX,
        nodes: u64::MAX,
    };
    if args.depth.is_none() && args.nodes.is_none() && args.move_time_ms.is_none() {
        return Limits {
            depth: DEFAULT_DEPTH,
            ..unlimited
        };
    }
    Limits {
        depth: args.depth.unwrap_or(unlimited.depth),
        nodes: args.nodes.unwrap_or(unlimited.nodes),
    }
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let start = match &args.fen {
        Some(text) => fen::parse(args.variant, text).with_context(|| format!("--fen {text:?}"))?,
        None => Position::new(args.variant),
    };
    if args.depth == Some(0) {
        bail!("--depth 0: the search needs at least one ply");
    }
    let (position, history) = play_moves(start, &args.moves)?;
    let limits = limits(args);
    let mut searcher = Searcher::default();
    if let Some(dir) = &args.egdb {
        let tables = egdb::Egdb::open(dir, args.variant, args.egdb_pieces)?;
        searcher.set_egdb(Some(Arc::new(tables)));
    }
    if let Some(path) = &args.eval {
        searcher.set_evalnet(Some(crate::learned_eval::open(path, args.variant)?));
    }
    let started = Instant::now();
    let result = with_deadline(args.move_time_ms.map(Duration::from_millis), |stop| {
        searcher.search(&position, &history, limits, stop)
    });
    let elapsed = started.elapsed();
    let seconds = elapsed.as_secs_f64();
    let nps = result.nodes as f64 / seconds.max(1e-9);
    let variant = args.variant;
    let text = |m: &Move| notation::move_text(variant, m);
    let pv: Vec<String> = result.pv.iter().map(text).collect();
    if args.json {
        let name = |sq| notation::square_name(variant, sq);
        let answer = Answer {
            best: result.best.as_ref().map(text),
            path: result
                .best
                .iter()
                .flat_map(|m| m.path().map(name).collect::<Vec<_>>())
                .collect(),
            captures: result
                .best
                .iter()
                .flat_map(|m| m.captures_in_order(variant.geometry()))
                .map(name)
                .collect(),
            score: result.score,
            v: result.win_probability,
            depth: result.depth,
            nodes: result.nodes,
            nps: nps as u64,
            pv,
            time_ms: elapsed.as_millis() as u64,
            tb_hits: result.tb_hits,
        };
        println!("{}", serde_json::to_string(&answer)?);
        return Ok(());
    }
    println!(
        "best {} score {} v {:.3} depth {} nodes {} in {seconds:.3} s ({:.2} M nodes/s){}",
        result.best.as_ref().map_or_else(|| "none".to_owned(), text),
        result.score,
        result.win_probability,
        result.depth,
        result.nodes,
        nps / 1e6,
        if args.egdb.is_some() {
            format!(", {} table hits", result.tb_hits)
        } else {
            String::new()
        }
    );
    println!("pv {}", pv.join(" "));
    Ok(())
}
