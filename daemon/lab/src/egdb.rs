//! `checkerbot-lab egdb`: build the endgame tables (`build`) and ask them a position's value
//! (`probe`). See docs/egdb.md.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;
use rules::{Variant, fen};

/// Arguments of `checkerbot-lab egdb`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Solve every material of up to --pieces pieces and write one table file each to --out,
    /// printing each material's counts as it is solved (single-threaded).
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
    /// Print the value of a position for the side to move: win, draw or loss.
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
    println!("material        positions         wins        draws       losses  passes   seconds");
    let egdb = egdb::build(variant, pieces, Some(out), &mut |r| {
        total += r.positions;
        println!(
            "{:<12} {:>12} {:>12} {:>12} {:>12} {:>7} {:>9.2}",
            r.material.to_string(),
            r.positions,
            r.wins,
            r.draws,
            r.losses,
            r.passes,
            last.elapsed().as_secs_f64()
        );
        last = Instant::now();
    })
    .with_context(|| format!("building the {variant} tables into {}", out.display()))?;
    for table in egdb.tables() {
        bytes += table.file_len();
    }
    println!(
        "{} tables, {total} positions, {bytes} bytes in {}, {:.1} s",
        egdb.tables().count(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(dir: &std::path::Path, variant: Variant, pieces: u32, text: &str) -> anyhow::Result<()> {
    let position = fen::parse(variant, text).with_context(|| format!("reading {text:?}"))?;
    let egdb = egdb::Egdb::open(dir, variant, pieces)?;
    match egdb.probe(&position) {
        Some(value) => {
            println!("{value}");
            Ok(())
        }
        None => {
            anyhow::bail!("{text}: more than {pieces} pieces, or another variant than the tables'")
        }
    }
}
