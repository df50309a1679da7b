//! The command line: one subcommand per module, dispatched by [`run`].

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::{calibrate, commands, doctor, dxp, hub, run as run_command, sim};

/// A draughts-playing exhibition robot.
#[derive(Debug, Parser)]
#[command(name = "checkerbot", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: CliCommand,
}

#[derive(Debug, Subcommand)]
enum CliCommand {
    /// Count the leaves of the legal-move tree (checks and measures the rules engine).
    Perft(commands::perft::Args),
    /// Read one FEN per line on stdin, write its legal moves as one JSON object per line.
    Moves(commands::moves::Args),
    /// Run the whole robot against simulated hardware and a simulated visitor.
    Sim(sim::Args),
    /// Run the robot on its real devices (what systemd starts).
    Run(run_command::Args),
    /// Teach the arm where the board, the bin, the spare kings and its rest are (or check a
    /// calibration file with --check).
    Calibrate(calibrate::Args),
    /// Check the settings, state directory, calibration, devices, network, voice and audio,
    /// and say in plain words what is wrong.
    Doctor(doctor::Args),
    /// Serve the simulated board controller and virtual Dobot on pseudo-terminals, so `run`,
    /// `doctor` and `calibrate` can be tried at a desk (a developer's tool).
    SimDevices(sim::devices::Args),
    /// Play as an engine behind the Hub protocol (version 2, Scan's) on stdin and stdout, for
    /// the Hub GUI or a program that drives Hub engines.
    Hub(hub::Args),
    /// Play International draughts with another program over DXP (Dam Exchange),
    /// listening for its game requests or connecting to it.
    Dxp(dxp::Args),
}

/// Runs the command `cli` names; errors are printed on stderr with their context.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        CliCommand::Perft(args) => commands::perft::run(&args),
        CliCommand::Moves(args) => commands::moves::run(&args),
        CliCommand::Sim(args) => sim::run(&args),
        CliCommand::Run(args) => run_command::run(&args),
        CliCommand::Calibrate(args) => calibrate::run(
            &args,
            sim::dobot_rig::standalone_arm,
            sim::controller_rig::standalone_arm,
        ),
        CliCommand::Doctor(args) => return doctor::run(&args),
        CliCommand::SimDevices(args) => sim::devices::run(&args),
        CliCommand::Hub(args) => hub::run(&args),
        CliCommand::Dxp(args) => dxp::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("checkerbot: {err:#}");
            ExitCode::FAILURE
        }
    }
}
