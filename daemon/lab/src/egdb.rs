//! `checkerbot-lab egdb`: build the endgame tables (`build`) and ask them a position's value,
//! its distance to the end of the game and the move that keeps it (`probe`). See
//! docs/egdb.md.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;
use rules::{Variant, fen, notation};

/// Arguments of `checkerbot-lab egdb`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Solve every material of up to --pieces pieces and write one table file and one
    /// distance file each to --out, printing each material's counts as it is solved
    /// (single-threaded).
    Build {
        /// Variant whose rules apply (russian only for now).
        #[arg(long)]
        variant: Variant,
        /// Most pieces on the board, both sides together.
        #[arg(long)]
        pieces: u32,
        /// Directory the tables are written to (created if missing).
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the value of a position for the side to move (win, draw or loss), the plies to
    /// the end of the game with perfect play, and the move that keeps the value.
    Probe {
        /// Directory of the tables.
        #[arg(long)]
        dir: PathBuf,
        /// Variant whose rules apply.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Most pieces the directory holds tables for.
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// The position, as FEN (`W:WKa1,Kc1,Ke1:BKh4`).
        fen: String,
    },
}

/// Runs `checkerbot-lab egdb`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Build {
            variant,
            pieces,
            out,
        } => build(*variant, *pieces, out),
        Command::Probe {
            dir,
            variant,
            pieces,
            fen,
        } => probe(dir, *variant, *pieces, fen),
    }
}

fn build(variant: Variant, pieces: u32, out: &std::path::Path) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut last = Instant::now();
    let mut total = 0u64;
    let mut bytes = 0u64;
    let mut longest = 0u8;
    let mut saturated = false;
    println!(
        "material        positions         wins        draws       losses  passes  levels  longest   seconds"
    );
    let egdb = egdb::build(variant, pieces, Some(out), &mut |r| {
        total += r.positions;
        longest = longest.max(r.max_distance);
        saturated |= r.saturated;
        println!(
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>7} {:>7} {:>8} {:>9.2}",
            r.material.to_string(),
            r.positions,
            r.wins,
            r.draws,
            r.losses,
            r.passes,
            r.levels,
            r.max_distance,
            last.elapsed().as_secs_f64()
        );
        last = Instant::now();
    })
    .with_context(|| format!("building the {variant} tables into {}", out.display()))?;
    let mut distance_bytes = 0u64;
    for table in egdb.tables() {
        bytes += table.file_len();
        distance_bytes += table.distance_file_len();
    }
    println!(
        "{} tables, {total} positions, {bytes} bytes of values and {distance_bytes} of distances \
         in {}, longest game {longest} plies{}, {:.1} s",
        egdb.tables().count(),
        out.display(),
        if saturated { " (saturated)" } else { "" },
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(dir: &std::path::Path, variant: Variant, pieces: u32, text: &str) -> anyhow::Result<()> {
    let position = fen::parse(variant, text).with_context(|| format!("reading {text:?}"))?;
    let egdb = egdb::Egdb::open_with_distances(dir, variant, pieces)?;
    match egdb.probe_distance(&position) {
        Some((value, plies)) => {
            // A draw has no distance to print: the game has no forced end.
            let line = match value {
                egdb::Wdl::Draw => value.to_string(),
                _ if plies == u32::from(egdb::SATURATED) => {
                    format!("{value} in {plies} or more plies")
                }
                _ => format!("{value} in {plies} plies"),
            };
            let mv = egdb.best_move(&position).map_or_else(
                || "no move".to_owned(),
                |mv| format!("best move {}", notation::move_text(variant, &mv)),
            );
            println!("{line}, {mv}");
            Ok(())
        }
        None => {
            anyhow::bail!("{text}: more than {pieces} pieces, or another variant than the tables'")
        }
    }
}
