//! `checkerbot-lab search`: the alpha-beta player's choice in a position, with its line and speed.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context as _;
use rules::{Position, Variant, fen, notation};
use search::{Limits, Searcher};

/// Arguments of `checkerbot-lab search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// Position to search (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Deepest iteration in plies.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Node budget.
    #[arg(long)]
    nodes: Option<u64>,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let position = match &args.fen {
        Some(text) => fen::parse(args.variant, text).with_context(|| format!("--fen {text:?}"))?,
        None => Position::new(args.variant),
    };
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes.unwrap_or(u64::MAX),
    };
    let started = Instant::now();
    let result = Searcher::default().search(&position, &[], limits, &AtomicBool::new(false));
    let seconds = started.elapsed().as_secs_f64();
    let text = |m| notation::move_text(args.variant, m);
    let pv: Vec<String> = result.pv.iter().map(text).collect();
    println!(
        "best {} score {} v {:.3} depth {} nodes {} in {seconds:.3} s ({:.2} M nodes/s)",
        result.best.as_ref().map_or_else(|| "none".to_owned(), text),
        result.score,
        result.win_probability,
        result.depth,
        result.nodes,
        result.nodes as f64 / seconds.max(1e-9) / 1e6
    );
    println!("pv {}", pv.join(" "));
    Ok(())
}
