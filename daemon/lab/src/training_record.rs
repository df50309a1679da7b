//! The training record that `checkerbot-lab datagen` and `checkerbot-lab selfplay` write and
//! `training/data.py` reads: one labelled position.
//!
//! Records are fixed-size, little-endian, without a header, so files from parallel runs (other
//! seeds, or both commands) can simply be concatenated. On a `side x side` board with `P`
//! policy indices:
//!
//! | bytes | content |
//! |-------|---------|
//! | `4 * side * side / 8` | planes 0-3 of `network::encoding`, one bit per cell, cell `i` of plane `k` at bit `k * side * side + i`, least significant bit first |
//! | `P` | policy target, `round(255 * p)` per index |
//! | 4 | `f32` search win probability for the side to move |
//! | 4 | `f32` game result for the side to move: 1, 0.5 or 0 |
//!
//! Russian: 32 + 280 + 8 = 320 bytes per position.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;
use network::encoding::{PLANES, input_len, write_planes};
use rules::{Color, GameResult, Position};

/// One labelled position, waiting for its game's result.
pub struct Sample {
    /// The position, from which the planes are written.
    pub position: Position,
    /// The policy target over the variant's policy indices (sums to 1).
    pub policy: Vec<f32>,
    /// The search's win probability for the side to move.
    pub search_v: f32,
}

impl Sample {
    /// Writes the record, with the game's `result` seen from the side to move.
    pub fn write(&self, out: &mut impl std::io::Write, result: GameResult) -> std::io::Result<()> {
        let score: f32 = match result {
            GameResult::Draw => 0.5,
            GameResult::Win(color) if color == self.position.turn() => 1.0,
            GameResult::Win(_) => 0.0,
        };
        let geometry = self.position.variant().geometry();
        let cells = geometry.side() * geometry.side();
        let mut planes = vec![0.0; input_len(geometry)];
        write_planes(&self.position, &mut planes);
        let mut bits = vec![0u8; (PLANES - 1) * cells / 8];
        for (i, v) in planes[..(PLANES - 1) * cells].iter().enumerate() {
            if *v > 0.5 {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        out.write_all(&bits)?;
        let policy: Vec<u8> = self
            .policy
            .iter()
            .map(|p| (p * 255.0).round().clamp(0.0, 255.0) as u8)
            .collect();
        out.write_all(&policy)?;
        out.write_all(&self.search_v.to_le_bytes())?;
        out.write_all(&score.to_le_bytes())
    }
}

/// Plays games with `play` until `path` holds `positions` positions (the last game's surplus is
/// left out), and says what the file holds.
pub fn write_games(
    path: &Path,
    positions: u64,
    mut play: impl FnMut() -> anyhow::Result<(Vec<Sample>, GameResult)>,
) -> anyhow::Result<String> {
    let mut file = RecordFile::create(path, positions)?;
    while file.wants_more() {
        let (samples, result) = play()?;
        file.add_game(&samples, result)?;
    }
    file.finish()
}

/// A file of records being written, game by game, up to a number of positions.
struct RecordFile {
    out: BufWriter<File>,
    path: PathBuf,
    limit: u64,
    written: u64,
    games: u64,
    /// White wins, draws, black wins.
    results: [u64; 3],
    started: Instant,
}

impl RecordFile {
    /// Creates (or replaces) `path`, to hold `limit` positions.
    fn create(path: &Path, limit: u64) -> anyhow::Result<RecordFile> {
        let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
        Ok(RecordFile {
            out: BufWriter::new(file),
            path: path.to_path_buf(),
            limit,
            written: 0,
            games: 0,
            results: [0; 3],
            started: Instant::now(),
        })
    }

    /// Whether another game is needed.
    fn wants_more(&self) -> bool {
        self.written < self.limit
    }

    /// Writes a finished game's positions (those that still fit), and reports progress every
    /// 10,000 positions on standard error.
    fn add_game(&mut self, samples: &[Sample], result: GameResult) -> anyhow::Result<()> {
        self.games += 1;
        self.results[match result {
            GameResult::Win(Color::White) => 0,
            GameResult::Draw => 1,
            GameResult::Win(Color::Black) => 2,
        }] += 1;
        for sample in samples {
            if !self.wants_more() {
                break;
            }
            sample
                .write(&mut self.out, result)
                .with_context(|| format!("writing {}", self.path.display()))?;
            self.written += 1;
            if self.written.is_multiple_of(10_000) {
                eprintln!(
                    "{} positions from {} games in {:.0} s",
                    self.written,
                    self.games,
                    self.started.elapsed().as_secs_f64()
                );
            }
        }
        Ok(())
    }

    /// Flushes the file and says what it holds.
    fn finish(mut self) -> anyhow::Result<String> {
        self.out
            .flush()
            .with_context(|| format!("writing {}", self.path.display()))?;
        Ok(format!(
            "{} positions from {} games (white {} / draw {} / black {}) in {:.1} s -> {}",
            self.written,
            self.games,
            self.results[0],
            self.results[1],
            self.results[2],
            self.started.elapsed().as_secs_f64(),
            self.path.display()
        ))
    }
}
