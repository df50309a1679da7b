//! `checkerbot-lab`: the developers' tools that make and measure the robot's players (training
//! data, strength matches, the alpha-beta search) and listen to the robot's explanations. They share the daemon's player crate, so a
//! level measured here is the level a visitor meets, but they are not part of the shipped
//! package. How they are used: `training/README.md`.

mod book;
mod datagen;
mod egdb;
mod learned_eval;
mod match_games;
mod say;
mod search;
mod selfplay;
mod tactics;
mod training_record;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Training and measurement tools for checkerbot's players.
#[derive(Debug, Parser)]
#[command(name = "checkerbot-lab", version, about)]
struct Cli {
    #[command(subcommand)]
    command: LabCommand,
}

#[derive(Debug, Subcommand)]
enum LabCommand {
    /// Let the alpha-beta player choose a move and show its line.
    Search(search::Args),
    /// Run the tactics suite at level 5's settings, or mine a new one from games.
    Tactics(tactics::Args),
    /// Say what the robot says about a press, and write it to a WAV file with the speaker's
    /// own code (listening without a sound card; see scripts/listen).
    Say(say::Args),
    /// Play games between two players and report the score (strength measurements).
    Match(match_games::Args),
    /// Write alpha-beta-labelled positions for training a network (see training/README.md).
    Datagen(datagen::Args),
    /// Write positions from a network's MCTS games against itself, to refine it (see
    /// training/README.md).
    Selfplay(selfplay::Args),
    /// Build the endgame tables, or probe them (see docs/egdb.md).
    Egdb(egdb::Args),
    /// Build level 5's opening book from deep searches of the common openings.
    Book(book::Args),
}

fn main() -> ExitCode {
    // The player's warnings (no network, so alpha-beta) go to stderr; RUST_LOG shows more.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let result = match Cli::parse().command {
        LabCommand::Search(args) => search::run(&args),
        LabCommand::Tactics(args) => tactics::run(&args),
        LabCommand::Match(args) => match_games::run(&args),
        LabCommand::Say(args) => say::run(&args),
        LabCommand::Datagen(args) => datagen::run(&args),
        LabCommand::Selfplay(args) => selfplay::run(&args),
        LabCommand::Egdb(args) => egdb::run(&args),
        LabCommand::Book(args) => book::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("checkerbot-lab: {err:#}");
            ExitCode::FAILURE
        }
    }
}
