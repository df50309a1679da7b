//! Arm travel time per game, optimised errand order against the capture path order.
//!
//! Plays 100 seeded games of Russian draughts as a robot meets them: six random plies for
//! variety, then both sides play alpha-beta to depth 4 (a visitor who sees a few moves ahead,
//! so captures come as in real games, not in random chaos); the robot plays Black on the
//! example calibration (`hal/data/calibration.example.toml`) with four spare kings per game. Every
//! robot move is planned both ways; the estimated durations are summed per game and the mean
//! saving printed, with the planner's own run time. Run with
//! `cargo bench -p hal --bench planner`.

use std::time::{Duration, Instant};

#[path = "../tests/it/planner_rig/mod.rs"]
mod planner_rig;

use std::sync::atomic::AtomicBool;

use hal::arm::{Calibration, CaptureOrder, KingReserve, plan_move};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rules::{Color, Position, Variant};
use search::{Limits, Searcher};

use planner_rig::robot_move;

const GAMES: u64 = 100;
const MOVE_CAP: usize = 300;
const SPARE_KINGS: usize = 4;
/// Random plies at the start of each game.
const OPENING_PLIES: usize = 6;
/// How deep both players search after the opening.
const DEPTH: u32 = 4;

#[derive(Default)]
struct Totals {
    optimised_s: f64,
    naive_s: f64,
    robot_moves: usize,
    captures: usize,
    crownings: usize,
    best_move_saving_s: f64,
    capture_moves: usize,
    capture_optimised_s: f64,
    capture_naive_s: f64,
    planning: Duration,
    plans: u32,
}

/// The move played at `ply`: random in the opening, alpha-beta's at [`DEPTH`] after it.
/// `history` keeps the positions since the last capture or man move, for repetitions.
fn choose(
    ply: usize,
    rng: &mut Xoshiro256PlusPlus,
    searcher: &mut Searcher,
    position: &Position,
    history: &mut Vec<Position>,
) -> rules::Move {
    let moves = position.legal_moves();
    let mv = if ply < OPENING_PLIES {
        moves[(rng.next_u64() % moves.len() as u64) as usize]
    } else {
        let limits = Limits {
            depth: DEPTH,
            ..Limits::default()
        };
        let found = searcher.search(position, history, limits, &AtomicBool::new(false));
        found
            .best
            .expect("a position with legal moves has a best move")
    };
    let resets = mv.is_capture()
        || position
            .piece_at(mv.from())
            .is_some_and(|piece| piece.role == rules::Role::Man);
    if resets {
        history.clear();
    } else {
        history.push(*position);
    }
    mv
}

fn main() {
    let text = include_str!("../data/calibration.example.toml");
    let calibration = Calibration::from_toml(text).expect("the example calibration is valid");
    let motion = *calibration.motion();
    let mut totals = Totals::default();
    let mut per_game_savings = Vec::new();
    for seed in 0..GAMES {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Position::new(Variant::Russian);
        let mut reserve = KingReserve::full(SPARE_KINGS);
        let (mut game_optimised, mut game_naive) = (0.0, 0.0);
        let mut searcher = Searcher::new(16);
        let mut history = Vec::new();
        for ply in 0..MOVE_CAP {
            if position.legal_moves().is_empty() {
                break;
            }
            let mv = choose(ply, &mut rng, &mut searcher, &position, &mut history);
            if position.turn() == Color::Black {
                let arm_move = robot_move(&position, &mv);
                let started = Instant::now();
                let plan = |order| plan_move(&calibration, &arm_move, &reserve, order, &motion);
                let optimised = plan(CaptureOrder::Shortest).expect("legal moves are on the board");
                totals.planning += started.elapsed();
                totals.plans += 1;
                let naive = plan(CaptureOrder::PathOrder).expect("legal moves are on the board");
                let (fast, slow) = (optimised.duration_s(&motion), naive.duration_s(&motion));
                game_optimised += fast;
                game_naive += slow;
                totals.best_move_saving_s = totals.best_move_saving_s.max(slow - fast);
                totals.robot_moves += 1;
                if !arm_move.captured.is_empty() {
                    totals.capture_moves += 1;
                    totals.capture_optimised_s += fast;
                    totals.capture_naive_s += slow;
                }
                totals.captures += arm_move.captured.len();
                if optimised.king_slot().is_some() {
                    reserve.take();
                }
                totals.crownings += usize::from(arm_move.promotes);
            }
            position = position.play(&mv).expect("a legal move");
        }
        totals.optimised_s += game_optimised;
        totals.naive_s += game_naive;
        per_game_savings.push(game_naive - game_optimised);
    }
    let games = GAMES as f64;
    let mean_saving = per_game_savings.iter().sum::<f64>() / games;
    let worst_game = per_game_savings
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    let best_game = per_game_savings.iter().copied().fold(0.0, f64::max);
    println!(
        "arm plan benchmark: {GAMES} Russian games (alpha-beta depth {DEPTH} after \
         {OPENING_PLIES} random plies), robot plays Black, example calibration"
    );
    println!(
        "  robot moves {} ({:.1} per game), captured pieces {}, crownings {}",
        totals.robot_moves,
        totals.robot_moves as f64 / games,
        totals.captures,
        totals.crownings
    );
    println!(
        "  arm time per game: optimised {:.1} s, path order {:.1} s",
        totals.optimised_s / games,
        totals.naive_s / games
    );
    println!(
        "  mean saving per game: {:.2} s ({:.1} %); per game from {:.2} s to {:.2} s; \
         best single move {:.2} s",
        mean_saving,
        100.0 * mean_saving / (totals.naive_s / games),
        worst_game,
        best_game,
        totals.best_move_saving_s
    );
    println!(
        "  on the {} capturing moves: {:.2} s vs {:.2} s per move, saving {:.1} %",
        totals.capture_moves,
        totals.capture_optimised_s / totals.capture_moves as f64,
        totals.capture_naive_s / totals.capture_moves as f64,
        100.0 * (totals.capture_naive_s - totals.capture_optimised_s) / totals.capture_naive_s
    );
    println!(
        "  planning time: {:.1} us per move (optimised order)",
        totals.planning.as_secs_f64() * 1e6 / f64::from(totals.plans)
    );
}
