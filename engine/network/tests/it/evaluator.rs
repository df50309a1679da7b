//! The network as the MCTS evaluator: priors and values equal what the network
//! says through the shared-index rule, batches equal single evaluations, a search with the
//! network replays from its seed, and a failing evaluation falls back to the heuristic with
//! its error kept for one log line. Uses the tiny generated model of `network_runtime.rs`.

use std::sync::atomic::AtomicBool;

use network::policy::priors;
use network::runtime::{Network, NetworkError, NetworkEvaluator};
use rules::{Position, Variant};
use search::mcts::{Evaluator, HeuristicEvaluator, Mcts, MctsConfig, MctsLimits};
use testkit::onnx::{current, model, wheel_library};
use testkit::random_positions;

fn network() -> Network {
    let lib = wheel_library(&current());
    let path = model("good", &[]);
    Network::load(Some(&lib), &path, Variant::Russian).expect("the test model loads")
}

#[test]
fn answers_are_the_networks_priors_and_values() {
    let mut reference = network();
    let mut evaluator = NetworkEvaluator::new(network());
    let batch = random_positions(40, 3);
    let answers = evaluator.evaluate(&batch);
    assert_eq!(answers.len(), batch.len());
    let raw = reference.evaluate(&batch).unwrap();
    for (i, (position, (prior, value))) in batch.iter().zip(&answers).enumerate() {
        let moves = position.legal_moves();
        assert_eq!(prior.len(), moves.len(), "one prior per legal move");
        let expected = priors(reference.policy_map(), position, &moves, raw.policy(i));
        for (a, b) in prior.iter().zip(&expected) {
            assert!((a - b).abs() < 1e-6, "prior {a} vs {b}");
        }
        let sum: f32 = prior.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "priors sum to {sum}");
        assert!((value - raw.value(i)).abs() < 1e-6);
        assert!((0.0..=1.0).contains(value));
    }
    // One at a time gives what the batch gave.
    for (position, (prior, value)) in batch.iter().zip(&answers).take(8) {
        let one = evaluator.evaluate(std::slice::from_ref(position));
        assert!((one[0].1 - value).abs() < 1e-5);
        assert!(
            one[0]
                .0
                .iter()
                .zip(prior)
                .all(|(a, b)| (a - b).abs() < 1e-5)
        );
    }
    assert!(evaluator.evaluate(&[]).is_empty());
    assert_eq!(evaluator.evaluated(), 48);
    assert_eq!(evaluator.runs(), 9);
    assert!(evaluator.take_error().is_none());
}

#[test]
fn a_search_with_the_network_plays_legal_moves_and_replays_from_its_seed() {
    let run = || {
        let mut evaluator = NetworkEvaluator::new(network());
        let config = MctsConfig {
            batch: 16,
            seed: 7,
            ..MctsConfig::default()
        };
        let start = random_positions(30, 11)[29];
        let mut mcts = Mcts::new(start, config);
        let limits = MctsLimits {
            playouts: 300,
            temperature: 1.0,
        };
        let result = mcts
            .search(&mut evaluator, limits, &AtomicBool::new(false))
            .expect("the position has moves");
        assert!(start.legal_moves().contains(&result.best));
        let visits: u32 = result.visits.iter().map(|(_, n)| n).sum();
        assert_eq!(visits, 300);
        assert!(evaluator.evaluated() > 0 && evaluator.evaluated() <= 301);
        (result.best, result.visits, result.v.to_bits())
    };
    assert_eq!(run(), run());
}

#[test]
fn a_failing_evaluation_falls_back_to_the_heuristic_and_keeps_the_first_error() {
    let mut evaluator = NetworkEvaluator::new(network());
    // A Brazilian position is refused by a Russian network: the evaluation fails.
    let foreign = [Position::new(Variant::Brazilian)];
    let answer = evaluator.evaluate(&foreign);
    assert_eq!(answer, HeuristicEvaluator.evaluate(&foreign));
    assert!(matches!(
        evaluator.take_error(),
        Some(NetworkError::WrongVariant { .. })
    ));
    assert!(evaluator.take_error().is_none(), "the error is taken once");
    assert!(!evaluator.gave_up());
    for _ in 1..NetworkEvaluator::MAX_FAILURES {
        evaluator.evaluate(&foreign);
    }
    assert!(evaluator.gave_up());
    // Once given up, even good positions get the heuristic's answers.
    let russian = random_positions(4, 1);
    assert_eq!(
        evaluator.evaluate(&russian),
        HeuristicEvaluator.evaluate(&russian)
    );
    assert_eq!(evaluator.evaluated(), 0);
}
