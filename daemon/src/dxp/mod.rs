//! `checkerbot dxp`: the robot's player behind DXP, the `DamExchange` protocol, for International
//! draughts against another program over TCP: as the follower, listening for game requests
//! (what pydraughts' `DXPEngine` and DXP tournament programs connect to), or as the
//! initiator, connecting to a listening program and asking for games.
//!
//! The messages, positions and moves are `engine_protocols::dxp`'s; `connection` carries
//! them over a stream, and `session` plays the games over any reader and writer, so tests run
//! it in-process. The player and its time budget are the Hub engine's (`hub::engine`,
//! `hub::time_control`).

mod connection;
mod session;

use std::io::Write as _;
use std::time::Duration;

use anyhow::Context as _;
use rules::Color;
use tokio::net::{TcpListener, TcpStream};

pub use session::{GameSummary, Settings, follow, initiate};

/// The port DXP programs listen on by convention.
pub const DEFAULT_PORT: u16 = 27531;

/// The name this side gives in game requests and accepts.
pub const NAME: &str = "checkerbot";

/// Arguments of `checkerbot dxp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Listen for game requests at this address (the default: 127.0.0.1:27531, this machine
    /// only). Port 0 takes a free one; the address listened at is printed.
    #[arg(long, value_name = "ADDR:PORT", conflicts_with = "connect")]
    listen: Option<String>,
    /// Connect to a program listening at this address and ask it for games.
    #[arg(long, value_name = "HOST:PORT")]
    connect: Option<String>,
    /// The robot's level, 1 to 5 (5: its strongest, alpha-beta).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=5))]
    level: u8,
    /// Milliseconds for each move (at most the share of a game clock a request gives).
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    move_time_ms: u64,
    /// With --connect: the games to ask for, the colours alternating.
    #[arg(long, default_value_t = 1, requires = "connect")]
    games: u32,
    /// With --connect: the colour checkerbot plays in the first game.
    #[arg(long, value_enum, default_value_t = Side::White, requires = "connect")]
    color: Side,
}

/// A colour on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Side {
    White,
    Black,
}

/// Plays DXP games until stopped (listening) or until the games asked for are played
/// (connecting).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let settings = Settings {
        strength: args.level,
        move_time: Duration::from_millis(args.move_time_ms),
        name: NAME.to_owned(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let result = runtime.block_on(async {
        if let Some(address) = &args.connect {
            let first = match args.color {
                Side::White => Color::White,
                Side::Black => Color::Black,
            };
            connect(address, &settings, args.games, first).await
        } else {
            let default = format!("127.0.0.1:{DEFAULT_PORT}");
            listen(args.listen.as_deref().unwrap_or(&default), settings).await
        }
    });
    // A search may still hold a blocking thread; do not wait for it.
    runtime.shutdown_background();
    result
}

/// Serves every connection to `address` as a follower, each in a task of its own, until the
/// process is stopped (Ctrl-C, SIGTERM: nothing is lost, no game is kept).
async fn listen(address: &str, settings: Settings) -> anyhow::Result<()> {
    let listener = TcpListener::bind(address)
        .await
        .with_context(|| format!("listening at {address}"))?;
    let local = listener
        .local_addr()
        .context("reading the address listened at")?;
    println!("checkerbot dxp: listening on {local}");
    std::io::stdout().flush().context("writing to stdout")?;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // A connection that failed before it was accepted; the next may not.
                tracing::warn!("DXP: accepting a connection failed: {error}");
                continue;
            }
        };
        tracing::info!("DXP: connection from {peer}");
        // Moves are small messages that must go out at once.
        let _ = stream.set_nodelay(true);
        let settings = settings.clone();
        tokio::spawn(async move {
            match follow(stream, &settings).await {
                Ok(games) => tracing::info!("DXP: {peer} left after {} games", games.len()),
                Err(error) => tracing::warn!("DXP: the connection from {peer} failed: {error}"),
            }
        });
    }
}

/// Connects to `address`, plays `games` games and prints how each went.
async fn connect(
    address: &str,
    settings: &Settings,
    games: u32,
    first: Color,
) -> anyhow::Result<()> {
    let stream = TcpStream::connect(address)
        .await
        .with_context(|| format!("connecting to {address}"))?;
    let _ = stream.set_nodelay(true);
    let played = initiate(stream, settings, games, first)
        .await
        .with_context(|| format!("playing DXP with {address}"))?;
    for (number, game) in played.iter().enumerate() {
        println!(
            "game {}: checkerbot ({}) against {}, {} plies: {}",
            number + 1,
            game.ours,
            game.opponent,
            game.plies,
            game.ending
        );
    }
    Ok(())
}
