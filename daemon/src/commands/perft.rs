//! `checkerbot perft`: leaf count and speed of the move generator.

use std::time::Instant;

use anyhow::Context as _;
use rules::{Position, Variant, fen};

/// Arguments of `checkerbot perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// Plies to search.
    #[arg(long)]
    depth: u32,
    /// Start from this position instead of the initial one.
    #[arg(long)]
    fen: Option<String>,
    /// Also print the leaf count below each legal move.
    #[arg(long)]
    divide: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let position = match &args.fen {
        Some(text) => fen::parse(args.variant, text).with_context(|| format!("--fen {text:?}"))?,
        None => Position::new(args.variant),
    };
    let started = Instant::now();
    let leaves = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (mv, count) in rules::divide(&position, args.depth) {
            println!("{} {count}", rules::notation::move_text(args.variant, &mv));
            total += count;
        }
        total
    } else {
        rules::perft(&position, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "perft {} depth {}: {leaves} leaves in {seconds:.3} s ({:.1} M leaves/s)",
        args.variant,
        args.depth,
        leaves as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}
