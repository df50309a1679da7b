//! Arm time of a board reset: the planned order against a naive one.
//!
//! Resets the end positions of 100 seeded random games (seeds 0 to 99, cycling through the
//! eight variants; each game played move by move through the planner with the rack, as
//! `hal/tests/it/arm_reset.rs` does) to their variant's start position, once in the planned
//! order (greedy nearest carry, then or-opt and 2-opt) and once in the naive order (the
//! carries in the order of the board squares they touch, row by row from a1). Prints the
//! mean estimated arm time of each, the mean saving, and the planner's own run time. Run with
//! `cargo bench -p hal --bench reset`.

use std::time::{Duration, Instant};

#[path = "../tests/it/planner_rig/mod.rs"]
mod planner_rig;
#[path = "../tests/it/reset_rig/mod.rs"]
mod reset_rig;

use hal::arm::{ResetOrder, plan_reset};

fn main() {
    let ends = reset_rig::end_positions();
    let (mut planned_s, mut naive_s, mut carries) = (0.0, 0.0, 0);
    let plies: usize = ends.iter().map(|(end, _)| end.plies).sum();
    let mut savings = Vec::with_capacity(ends.len());
    let mut planning = Duration::ZERO;
    let mut by_variant: Vec<(String, f64, f64, usize)> = Vec::new();
    for (end, calibration) in &ends {
        let target = reset_rig::layout(&rules::Position::new(end.variant));
        let started = Instant::now();
        let planned = plan_reset(
            calibration,
            &end.board,
            &end.stock,
            &target,
            ResetOrder::Shortest,
            calibration.motion(),
        )
        .expect("every end position resets");
        planning += started.elapsed();
        let naive = plan_reset(
            calibration,
            &end.board,
            &end.stock,
            &target,
            ResetOrder::BoardOrder,
            calibration.motion(),
        )
        .expect("every end position resets");
        let (fast, slow) = (planned.plan().duration_s(), naive.plan().duration_s());
        planned_s += fast;
        naive_s += slow;
        carries += planned.plan().carries().len();
        savings.push(slow - fast);
        let name = format!("{:?}", end.variant);
        match by_variant.iter_mut().find(|(n, ..)| *n == name) {
            Some(entry) => {
                entry.1 += fast;
                entry.2 += slow;
                entry.3 += 1;
            }
            None => by_variant.push((name, fast, slow, 1)),
        }
    }
    let count = ends.len() as f64;
    let mean_saving = savings.iter().sum::<f64>() / count;
    let least = savings.iter().copied().fold(f64::INFINITY, f64::min);
    let most = savings.iter().copied().fold(0.0, f64::max);
    println!(
        "reset benchmark: {} end positions of random games (8 variants, {:.0} plies on \
         average), reset to the start position on the test calibrations",
        ends.len(),
        plies as f64 / count
    );
    println!(
        "  carries per reset {:.1}; arm time per reset: planned {:.1} s, naive (board order) \
         {:.1} s",
        carries as f64 / count,
        planned_s / count,
        naive_s / count
    );
    println!(
        "  mean saving {:.1} s ({:.1} %); per reset from {:.1} s to {:.1} s",
        mean_saving,
        100.0 * mean_saving / (naive_s / count),
        least,
        most
    );
    for (name, fast, slow, n) in &by_variant {
        let n = *n as f64;
        println!(
            "  {name:<16} planned {:6.1} s, naive {:6.1} s, saving {:4.1} %",
            fast / n,
            slow / n,
            100.0 * (slow - fast) / slow
        );
    }
    println!(
        "  planning time: {:.2} ms per reset (planned order)",
        planning.as_secs_f64() * 1e3 / count
    );
}
