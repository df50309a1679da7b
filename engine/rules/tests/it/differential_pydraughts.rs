//! Differential test of legal-move generation against pydraughts, an independent implementation.
//!
//! `engine/testkit/oracle/pydraughts_games.py` plays seeded random games with pydraughts 0.6.7 and writes,
//! for every position reached, pydraughts' FEN and its legal moves as (from, to, captured squares)
//! in algebraic names of the physical board. This test reads each FEN with [`fen::parse`] and
//! compares the set of our legal moves with pydraughts' set, for Russian, Brazilian, English,
//! Italian and International (pydraughts' "standard").
//!
//! pydraughts is installed into a virtual environment under `CARGO_TARGET_TMPDIR` on first use
//! (this needs `python3` with the `venv` module, and the Python package index or a local wheel
//! source that pip can reach). Games are played in shards of 50, as many Python processes at a
//! time as there are CPUs.
//!
//! pydraughts is slow: about 3 to 5 ms per position on 8x8 boards and 10 ms on 10x10 on the
//! 2-core machine this was tuned on, where the default run (500 games of each variant, about
//! 168,000 positions) takes about 16 CPU-minutes, eight minutes on two idle cores. The
//! environment variables below change the run, e.g. `DIFF_PYDRAUGHTS_GAMES=50` for a quick look:
//!
//! - `DIFF_PYDRAUGHTS_GAMES`: games per variant (default 500);
//! - `DIFF_PYDRAUGHTS_MAX_PLIES`: plies after which a game is cut off (default 150);
//! - `DIFF_PYDRAUGHTS_SEED`: the seed (default 1);
//! - `DIFF_PYDRAUGHTS_VARIANTS`: a comma-separated list of pydraughts' variant names to play
//!   (default all: `standard,russian,brazilian,italian,english`);
//! - `DIFF_PYDRAUGHTS_JOBS`: Python processes at a time (default: available parallelism);
//! - `PYTHON3`: the interpreter that creates the virtual environment (default `python3`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rules::{SquareNotation, Variant, fen, notation};

use serde_json::Value;

const SCRIPT: &str = testkit::PYDRAUGHTS_GAMES;

/// pydraughts' variant names, and ours.
const VARIANTS: [(&str, &str); 5] = [
    ("standard", "international"),
    ("russian", "russian"),
    ("brazilian", "brazilian"),
    ("italian", "italian"),
    ("english", "english"),
];

const DEFAULT_GAMES: usize = 500;
const DEFAULT_MAX_PLIES: usize = 150;
const DEFAULT_SEED: u64 = 1;
/// Games per Python process.
const SHARD_GAMES: usize = 50;
/// Mismatches after which the run stops.
const MAX_MISMATCHES: usize = 10;

/// A move as both sides describe it: from, to, captured squares sorted.
type MoveKey = (String, String, Vec<String>);

fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    let text = std::env::var(name).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
    )
}

/// Games `first..first + count` of one variant, played by one Python process.
#[derive(Debug, Clone)]
struct Shard {
    pyd_variant: &'static str,
    variant: Variant,
    first: usize,
    count: usize,
}

#[derive(Debug, Default, Clone)]
struct Stats {
    games: usize,
    positions: usize,
    moves: usize,
    capture_positions: usize,
    positions_with_kings: usize,
    /// pydraughts entries repeating an earlier (from, to, captures) of the same position.
    pydraughts_duplicates: usize,
    /// Our moves repeating an earlier (from, to, captures): in Russian, paths that differ in
    /// whether the man is crowned on the way.
    our_duplicates: usize,
}

impl Stats {
    fn add(&mut self, other: &Stats) {
        self.games += other.games;
        self.positions += other.positions;
        self.moves += other.moves;
        self.capture_positions += other.capture_positions;
        self.positions_with_kings += other.positions_with_kings;
        self.pydraughts_duplicates += other.pydraughts_duplicates;
        self.our_duplicates += other.our_duplicates;
    }
}

struct Run {
    python: PathBuf,
    seed: u64,
    max_plies: usize,
    queue: Mutex<VecDeque<Shard>>,
    stats: Mutex<BTreeMap<&'static str, Stats>>,
    mismatches: Mutex<Vec<String>>,
    stop: AtomicBool,
}

impl Run {
    fn reproduce(&self, shard: &Shard, game: usize) -> String {
        format!(
            "{} {SCRIPT} --variant {} --first-game {game} --games 1 --seed {} --max-plies {}",
            self.python.display(),
            shard.pyd_variant,
            self.seed,
            self.max_plies
        )
    }

    fn mismatch(&self, message: String) {
        let mut mismatches = self.mismatches.lock().unwrap();
        mismatches.push(message);
        if mismatches.len() >= MAX_MISMATCHES {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    fn worker(&self) {
        /// Stops the other workers when this one panics, so that the failure shows at once.
        struct StopOnPanic<'a>(&'a AtomicBool);
        impl Drop for StopOnPanic<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.store(true, Ordering::SeqCst);
                }
            }
        }
        let _guard = StopOnPanic(&self.stop);
        while !self.stop.load(Ordering::SeqCst) {
            let Some(shard) = self.queue.lock().unwrap().pop_front() else {
                return;
            };
            let stats = self.play(&shard);
            self.stats
                .lock()
                .unwrap()
                .entry(shard.pyd_variant)
                .or_default()
                .add(&stats);
        }
    }

    /// Plays one shard and checks every position as pydraughts writes it.
    fn play(&self, shard: &Shard) -> Stats {
        let mut child = Command::new(&self.python)
            .arg(SCRIPT)
            .args(["--variant", shard.pyd_variant])
            .args(["--first-game", &shard.first.to_string()])
            .args(["--games", &shard.count.to_string()])
            .args(["--seed", &self.seed.to_string()])
            .args(["--max-plies", &self.max_plies.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {SCRIPT}: {e}"));
        let mut stderr = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut stats = Stats::default();
        // The next (game, ply) expected: games run in order, plies from 0 without gaps.
        let mut expected = (shard.first, 0);
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            if self.stop.load(Ordering::SeqCst) {
                let _ = child.kill();
                let _ = child.wait();
                return stats;
            }
            let line = line.expect("reading the oracle's output");
            let record: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("bad JSON line from the oracle ({e}): {line}"));
            let game = record["game"].as_u64().expect("game") as usize;
            let ply = record["ply"].as_u64().expect("ply") as usize;
            if (game, ply) != expected {
                assert!(
                    ply == 0 && game == expected.0 + 1 && expected.1 > 0,
                    "{}: expected game {} ply {}, got game {game} ply {ply}",
                    shard.pyd_variant,
                    expected.0,
                    expected.1
                );
            }
            if ply == 0 {
                stats.games += 1;
            }
            expected = (game, ply + 1);
            assert_eq!(record["variant"], shard.pyd_variant);
            self.check(shard, game, ply, &record, &mut stats);
        }
        let status = child.wait().expect("waiting for the oracle");
        let stderr = stderr.join().unwrap();
        assert!(
            status.success(),
            "{} failed ({status}) on games {}..{}:\n{stderr}",
            self.reproduce(shard, shard.first),
            shard.first,
            shard.first + shard.count
        );
        assert_eq!(
            stats.games,
            shard.count,
            "{}: games {}..{} printed {} games\n{stderr}",
            shard.pyd_variant,
            shard.first,
            shard.first + shard.count,
            stats.games
        );
        stats
    }

    fn check(&self, shard: &Shard, game: usize, ply: usize, record: &Value, stats: &mut Stats) {
        let variant = shard.variant;
        let fen_text = record["fen"].as_str().expect("fen");
        stats.positions += 1;
        if fen_text.contains('K') {
            stats.positions_with_kings += 1;
        }

        let mut theirs: BTreeSet<MoveKey> = BTreeSet::new();
        for mv in record["moves"].as_array().expect("moves") {
            let name = |v: &Value| v.as_str().expect("square name").to_owned();
            let mut captures: Vec<String> = mv["captures"]
                .as_array()
                .expect("captures")
                .iter()
                .map(name)
                .collect();
            captures.sort();
            if !theirs.insert((name(&mv["from"]), name(&mv["to"]), captures)) {
                stats.pydraughts_duplicates += 1;
            }
        }
        stats.moves += theirs.len();
        if theirs.iter().any(|(_, _, c)| !c.is_empty()) {
            stats.capture_positions += 1;
        }

        let position = match fen::parse(variant, fen_text) {
            Ok(position) => position,
            Err(e) => {
                self.mismatch(format!(
                    "{variant} game {game} ply {ply}: \
                     cannot read pydraughts' FEN {fen_text:?}: {e}\n  \
                     reproduce: {}",
                    self.reproduce(shard, game)
                ));
                return;
            }
        };
        let name = |sq| notation::square_name_in(variant, sq, SquareNotation::Algebraic);
        let mut ours: BTreeSet<MoveKey> = BTreeSet::new();
        for mv in position.legal_moves() {
            let mut captures: Vec<String> = mv.captured().into_iter().map(name).collect();
            captures.sort();
            if !ours.insert((name(mv.from()), name(mv.to()), captures)) {
                stats.our_duplicates += 1;
            }
        }

        if ours != theirs {
            let show = |set: BTreeSet<&MoveKey>| {
                set.into_iter()
                    .map(|(from, to, captures)| {
                        if captures.is_empty() {
                            format!("{from}-{to}")
                        } else {
                            format!("{from}x{to} (takes {})", captures.join(","))
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            self.mismatch(format!(
                "{variant} game {game} ply {ply}: FEN {fen_text}\n  \
                 (ours: {})\n  \
                 only ours:       [{}]\n  \
                 only pydraughts: [{}]\n  \
                 both:            {} moves\n  \
                 reproduce: {}",
                fen::write_in(&position, SquareNotation::Algebraic),
                show(ours.difference(&theirs).collect()),
                show(theirs.difference(&ours).collect()),
                ours.intersection(&theirs).count(),
                self.reproduce(shard, game)
            ));
        }
    }
}

/// The games to play per variant, and the shards that play them.
fn plan(games_override: Option<usize>) -> (BTreeMap<&'static str, usize>, VecDeque<Shard>) {
    let only: Option<Vec<String>> = std::env::var("DIFF_PYDRAUGHTS_VARIANTS")
        .ok()
        .map(|list| list.split(',').map(|v| v.trim().to_owned()).collect());
    if let Some(only) = &only {
        for name in only {
            assert!(
                VARIANTS.iter().any(|(v, _)| v == name),
                "DIFF_PYDRAUGHTS_VARIANTS: unknown variant {name:?}"
            );
        }
    }

    // International first: its shards are the longest, so the others fill in around them.
    let mut planned = BTreeMap::new();
    let mut queue = VecDeque::new();
    for (pyd_variant, ours) in VARIANTS {
        if only
            .as_ref()
            .is_some_and(|only| !only.iter().any(|v| v == pyd_variant))
        {
            continue;
        }
        let variant: Variant = ours.parse().unwrap();
        let games = games_override.unwrap_or(DEFAULT_GAMES);
        planned.insert(pyd_variant, games);
        for first in (0..games).step_by(SHARD_GAMES) {
            queue.push_back(Shard {
                pyd_variant,
                variant,
                first,
                count: SHARD_GAMES.min(games - first),
            });
        }
    }

    (planned, queue)
}

#[test]
fn legal_moves_agree_with_pydraughts() {
    let started = Instant::now();
    let python = testkit::pydraughts_python();
    let games_override: Option<usize> = env_number("DIFF_PYDRAUGHTS_GAMES");
    let max_plies = env_number("DIFF_PYDRAUGHTS_MAX_PLIES").unwrap_or(DEFAULT_MAX_PLIES);
    let seed = env_number("DIFF_PYDRAUGHTS_SEED").unwrap_or(DEFAULT_SEED);
    let jobs = env_number("DIFF_PYDRAUGHTS_JOBS")
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, usize::from))
        .max(1);

    let (planned, queue) = plan(games_override);

    let run = Run {
        python,
        seed,
        max_plies,
        queue: Mutex::new(queue),
        stats: Mutex::new(BTreeMap::new()),
        mismatches: Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| run.worker());
        }
    });

    let stats = run.stats.into_inner().unwrap();
    let mismatches = run.mismatches.into_inner().unwrap();
    println!(
        "pydraughts {}, seed {seed}, max plies {max_plies}, {jobs} processes, {:.1} s",
        testkit::PYDRAUGHTS_VERSION,
        started.elapsed().as_secs_f64()
    );
    for (variant, s) in &stats {
        println!(
            "{variant:>9}: {} games, {} positions, {} moves, {} positions with captures, \
             {} with kings; duplicates: pydraughts {}, ours {}",
            s.games,
            s.positions,
            s.moves,
            s.capture_positions,
            s.positions_with_kings,
            s.pydraughts_duplicates,
            s.our_duplicates
        );
    }
    assert!(
        mismatches.is_empty(),
        "{} position(s) where our legal moves differ from pydraughts'{}:\n\n{}",
        mismatches.len(),
        if mismatches.len() >= MAX_MISMATCHES {
            " (stopped early)"
        } else {
            ""
        },
        mismatches.join("\n\n")
    );
    for (variant, games) in planned {
        let s = stats.get(variant).cloned().unwrap_or_default();
        assert_eq!(s.games, games, "{variant}: games checked");
        // Random games last dozens of plies; far fewer positions means the oracle is broken.
        assert!(
            s.positions >= 20 * games,
            "{variant}: only {} positions in {games} games",
            s.positions
        );
        assert!(
            s.capture_positions > 0,
            "{variant}: no position with a capture"
        );
    }
}
