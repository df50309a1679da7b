//! `checkerbot moves`: legal moves of FEN positions, as JSON lines (a contract tools rely on).

use std::io::{BufRead, BufWriter, Write};

use anyhow::Context as _;
use rules::{Position, SquareNotation, Variant, fen, notation};
use serde::Serialize;

/// Arguments of `checkerbot moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// Square names in the output (default: the variant's PDN notation).
    #[arg(long, value_enum)]
    notation: Option<super::NotationArg>,
}

#[derive(Debug, Serialize)]
struct MoveJson {
    from: String,
    to: String,
    captures: Vec<String>,
    path: Vec<String>,
    text: String,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Line<'a> {
    Moves { fen: &'a str, moves: Vec<MoveJson> },
    Error { fen: &'a str, error: String },
}

/// Runs the command: one output line per non-empty input line, errors included.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let notation = args
        .notation
        .map_or(args.variant.rules().notation, SquareNotation::from);
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in stdin.lines() {
        let line = line.context("reading stdin")?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let reply = match fen::parse(args.variant, text) {
            Ok(position) => Line::Moves {
                fen: text,
                moves: moves_json(&position, notation),
            },
            Err(err) => Line::Error {
                fen: text,
                error: err.to_string(),
            },
        };
        serde_json::to_writer(&mut out, &reply)?;
        out.write_all(b"\n")?;
        out.flush().context("writing stdout")?;
    }
    Ok(())
}

fn moves_json(position: &Position, notation: SquareNotation) -> Vec<MoveJson> {
    let variant = position.variant();
    let name = |sq| notation::square_name_in(variant, sq, notation);
    position
        .legal_moves()
        .iter()
        .map(|mv| MoveJson {
            from: name(mv.from()),
            to: name(mv.to()),
            captures: mv
                .captures_in_order(variant.geometry())
                .into_iter()
                .map(name)
                .collect(),
            path: mv.path().map(name).collect(),
            text: notation::move_text_in(variant, mv, notation),
        })
        .collect()
}
