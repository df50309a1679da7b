//! Helpers shared by the engine crates' integration tests: a reproducible generator, random
//! games and positions, boards written as changes, the Python virtual environments of the oracle
//! tests, and servers under test that listen on a port they name.
//!
//! A crate rather than a `tests/support` module per crate, so the rules', search's and
//! network's tests share one copy.
#![warn(missing_docs)]

pub mod board;
pub mod listening;
pub mod onnx;
pub mod python;

/// pydraughts' player of seeded random games (one JSON line per position), for the
/// differential test of the move generator.
pub const PYDRAUGHTS_GAMES: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/oracle/pydraughts_games.py");
/// pydraughts' reader of PDN files (one JSON line per game), for the archive's tests.
pub const PYDRAUGHTS_READ_PDN: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/oracle/pydraughts_read_pdn.py");
/// The pydraughts release the oracles are written for.
pub const PYDRAUGHTS_VERSION: &str = "0.6.7";

/// The Python interpreter of a virtual environment holding pydraughts, made on first use.
pub fn pydraughts_python() -> PathBuf {
    python::venv(
        "pydraughts",
        &[&format!("pydraughts=={PYDRAUGHTS_VERSION}")],
    )
}

use std::path::PathBuf;

use rules::{Game, Position, Variant};

/// A small deterministic generator (Knuth's MMIX LCG), so a failing seed replays exactly.
#[derive(Debug, Clone)]
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays random legal moves from `start` until the game ends or `max_plies` were played.
pub fn random_game(start: Position, rng: &mut Lcg, max_plies: usize) -> Game {
    let mut game = Game::from_position(start);
    for _ in 0..max_plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let mv = moves[rng.below(moves.len())];
        game.play(&mv).expect("a generated move is legal");
    }
    game
}

/// `count` positions of Russian draughts from random play seeded by `seed`, restarting from
/// the initial position now and then so that openings and endgames both appear.
pub fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let mut position = Position::new(Variant::Russian);
    while out.len() < count {
        let moves = position.legal_moves();
        if moves.is_empty() || rng.below(50) == 0 {
            position = Position::new(Variant::Russian);
            continue;
        }
        out.push(position);
        position.play_unchecked(&moves[rng.below(moves.len())]);
    }
    out
}

/// A binary of the workspace's, built in the same folder as the test binaries' `deps/` (by
/// `cargo test` of the workspace, or `cargo build -p checkerbot` for `checkerbot`), for a
/// crate's tests that drive another crate's binary; `None`, saying why the test is skipped,
/// when it is not built.
pub fn workspace_binary(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let path = exe
        .ancestors()
        .nth(2)
        .expect("a test binary lies in target/<profile>/deps")
        .join(name);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "skipped: no {} (build it with cargo build -p {name})",
            path.display()
        );
        None
    }
}

/// The folder cargo gives integration tests for scratch files (`target/tmp`), found from the
/// running test binary (`target/<profile>/deps/<test>`), since `CARGO_TARGET_TMPDIR` is set
/// only when an integration test itself is compiled.
pub fn scratch_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let target = exe
        .ancestors()
        .nth(3)
        .expect("a test binary lies in target/<profile>/deps");
    target.join("tmp")
}
