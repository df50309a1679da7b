//! Speed of the shipped networks, printed rather than asserted because the
//! machine's load varies. Ignored by default; run with
//!
//! ```sh
//! cargo test --release -p network -- bench:: --ignored --nocapture
//! ```
//!
//! Prints, for each `models/russian-gen*.onnx`: network evaluations per second through ONNX
//! Runtime at batch 1 and batch 32, and MCTS playouts per second with the network (batch 8, as
//! the robot searches) and with the heuristic evaluator for comparison.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use network::runtime::{Network, NetworkEvaluator};
use rules::Variant;
use search::mcts::{HeuristicEvaluator, Mcts, MctsConfig, MctsLimits};
use testkit::onnx::{current, wheel_library};
use testkit::random_positions;

/// Playouts per second of a search from a few middle-game positions.
fn playouts_per_second(mut evaluator: impl FnMut() -> Box<dyn search::mcts::Evaluator>) -> f64 {
    let starts = random_positions(200, 9);
    let (mut playouts, mut seconds) = (0u64, 0.0);
    for start in starts.iter().step_by(40) {
        let mut eval = evaluator();
        let mut mcts = Mcts::new(*start, MctsConfig::default());
        let limits = MctsLimits {
            playouts: 800,
            temperature: 0.0,
        };
        let started = Instant::now();
        mcts.search(eval.as_mut(), limits, &AtomicBool::new(false));
        seconds += started.elapsed().as_secs_f64();
        playouts += u64::from(mcts.root_visits());
    }
    playouts as f64 / seconds
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn print_network_and_mcts_speed() {
    let lib = wheel_library(&current());
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let batch = random_positions(320, 9);
    let heuristic = playouts_per_second(|| Box::new(HeuristicEvaluator));
    println!("MCTS with the heuristic evaluator: {heuristic:.0} playouts/s");
    for generation in 1..=9 {
        let path = models.join(format!("russian-gen{generation}.onnx"));
        if !path.exists() {
            continue;
        }
        let mut network = Network::load(Some(&lib), &path, Variant::Russian).unwrap();
        // Warm up: the first runs allocate.
        network.evaluate(&batch[..32]).unwrap();
        let started = Instant::now();
        for position in &batch {
            network.evaluate(std::slice::from_ref(position)).unwrap();
        }
        let single = batch.len() as f64 / started.elapsed().as_secs_f64();
        let started = Instant::now();
        for chunk in batch.chunks(32) {
            network.evaluate(chunk).unwrap();
        }
        let batched = batch.len() as f64 / started.elapsed().as_secs_f64();
        let playouts = playouts_per_second(|| {
            let network = Network::load(Some(&lib), &path, Variant::Russian).unwrap();
            Box::new(NetworkEvaluator::new(network))
        });
        println!(
            "russian-gen{generation}: {single:.0} evaluations/s at batch 1, {batched:.0} at batch 32; \
             MCTS {playouts:.0} playouts/s (batch 8)"
        );
    }
}
