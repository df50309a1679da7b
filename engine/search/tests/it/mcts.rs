//! Monte Carlo tree search: finds wins, agrees with alpha-beta on clear tactics, keeps its
//! counts straight, replays with a seed, reuses its tree and respects its limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rules::{Position, Variant, fen};
use search::mcts::{Evaluator, HeuristicEvaluator, Mcts, MctsConfig, MctsLimits, RootNoise};
use search::{Limits, Searcher};

use testkit::{Lcg, random_game};

fn limits(playouts: u32, temperature: f32) -> MctsLimits {
    MctsLimits {
        playouts,
        temperature,
    }
}

fn search(position: Position, playouts: u32) -> search::mcts::MctsResult {
    let stop = AtomicBool::new(false);
    Mcts::new(position, MctsConfig::default())
        .search(&mut HeuristicEvaluator, limits(playouts, 0.0), &stop)
        .expect("the position has moves")
}

#[test]
fn finds_a_forced_capture_win() {
    // Two captures: c1 takes both black men (black cannot move: a win), g3 takes only f4.
    let position = fen::parse(Variant::Russian, "W:Wc1,g3:Bd2,f4").unwrap();
    assert_eq!(position.legal_moves().len(), 2);
    let result = search(position, 200);
    let mut after = position;
    after.play_unchecked(&result.best);
    assert!(after.legal_moves().is_empty(), "{result:?}");
    assert!(result.v > 0.99, "{result:?}");
    assert_eq!(result.pv.first(), Some(&result.best));

    // Giveaway turns it round: the side that cannot move wins, so taking both men loses and
    // g3 is the move.
    let giveaway = fen::parse(Variant::RussianGiveaway, "W:Wc1,g3:Bd2,f4").unwrap();
    let result = search(giveaway, 200);
    let mut after = giveaway;
    after.play_unchecked(&result.best);
    assert!(!after.legal_moves().is_empty(), "{result:?}");
}

#[test]
fn with_more_playouts_agrees_with_alpha_beta_on_a_clear_shot() {
    let stop = AtomicBool::new(false);
    let mut rng = Lcg(11);
    let mut compared = 0;
    for game_no in 0..40 {
        let game = random_game(Position::new(Variant::Russian), &mut rng, 14 + game_no % 20);
        let position = *game.position();
        let moves = position.legal_moves();
        if game.outcome().is_some() || moves.len() < 2 {
            continue;
        }
        // Score every move with alpha-beta; keep positions where one move is clearly best.
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|mv| {
                let mut child = position;
                child.play_unchecked(mv);
                let limits = Limits {
                    depth: 6,
                    nodes: u64::MAX,
                };
                -Searcher::new(1).search(&child, &[], limits, &stop).score
            })
            .collect();
        let best_score = *scores.iter().max().unwrap();
        let best = scores.iter().position(|&s| s == best_score).unwrap();
        scores.sort_unstable();
        if best_score < scores[scores.len() - 2] + 150 {
            continue;
        }
        let result = search(position, 3000);
        assert_eq!(
            result.best, moves[best],
            "game {game_no}: {position:?} visits {:?}",
            result.visits
        );
        compared += 1;
    }
    println!("mcts agreed with alpha-beta in {compared} clear positions");
    assert!(compared >= 3, "only {compared} clear positions");
}

#[test]
fn visits_sum_to_playouts_and_temperature_zero_picks_the_most_visited() {
    let position = Position::new(Variant::Russian);
    for (playouts, batch) in [(1, 1), (37, 8), (500, 8), (500, 1), (250, 64)] {
        let stop = AtomicBool::new(false);
        let config = MctsConfig {
            batch,
            ..MctsConfig::default()
        };
        let mut mcts = Mcts::new(position, config);
        let a = mcts
            .search(&mut HeuristicEvaluator, limits(playouts, 0.0), &stop)
            .unwrap();
        let total: u32 = a.visits.iter().map(|(_, n)| n).sum();
        assert_eq!(total, playouts);
        assert_eq!(mcts.root_visits(), playouts);
        let most = a.visits.iter().map(|(_, n)| *n).max().unwrap();
        let chosen = a.visits.iter().find(|(mv, _)| *mv == a.best).unwrap().1;
        assert_eq!(chosen, most);
        assert!((0.0..=1.0).contains(&a.v));
        let again = Mcts::new(position, config)
            .search(&mut HeuristicEvaluator, limits(playouts, 0.0), &stop)
            .unwrap();
        assert_eq!(a, again);
    }
}

#[test]
fn same_seed_same_sample_and_temperature_spreads_choices() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let run = |seed: u64| {
        let config = MctsConfig {
            seed,
            ..MctsConfig::default()
        };
        let mut mcts = Mcts::new(position, config);
        (0..12)
            .map(|_| {
                mcts.search(&mut HeuristicEvaluator, limits(40, 1.0), &stop)
                    .unwrap()
                    .best
            })
            .collect::<Vec<_>>()
    };
    let a = run(5);
    assert_eq!(a, run(5));
    // With tau = 1 and 40+ visits spread over 7 moves, twelve draws are not all the same move.
    assert!(a.iter().any(|mv| *mv != a[0]), "{a:?}");
    // High temperature only picks moves that were visited.
    let result = Mcts::new(position, MctsConfig::default())
        .search(&mut HeuristicEvaluator, limits(3, 100.0), &stop)
        .unwrap();
    let visited = result
        .visits
        .iter()
        .find(|(mv, _)| *mv == result.best)
        .unwrap();
    assert!(visited.1 > 0);
}

#[test]
fn tree_reuse_keeps_visits_after_advance() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let mut mcts = Mcts::new(position, MctsConfig::default());
    let first = mcts
        .search(&mut HeuristicEvaluator, limits(600, 0.0), &stop)
        .unwrap();
    let reply = first.pv[1];
    assert!(mcts.advance(&first.best).unwrap());
    let kept = mcts.root_visits();
    // The child's visits less the one that evaluated it.
    let best_visits = first
        .visits
        .iter()
        .find(|(m, _)| *m == first.best)
        .unwrap()
        .1;
    assert_eq!(kept, best_visits - 1);
    assert!(kept > 0);
    let mut expected = position;
    expected.play_unchecked(&first.best);
    assert_eq!(*mcts.root(), expected);

    // Before any new playout, the kept tree already points at the reply it had found.
    let kept_result = mcts
        .search(&mut HeuristicEvaluator, limits(0, 0.0), &stop)
        .unwrap();
    assert_eq!(
        kept_result.best, reply,
        "the reused tree already pointed at the reply"
    );
    let second = mcts
        .search(&mut HeuristicEvaluator, limits(100, 0.0), &stop)
        .unwrap();
    let total: u32 = second.visits.iter().map(|(_, n)| n).sum();
    assert_eq!(total, kept + 100);

    // An illegal move is refused and the tree stays.
    let before = mcts.root_visits();
    assert!(mcts.advance(&first.best).is_err());
    assert_eq!(mcts.root_visits(), before);
    // A legal move never visited starts afresh.
    let unvisited = second
        .visits
        .iter()
        .find(|(_, n)| *n == 0)
        .map(|(mv, _)| *mv);
    if let Some(mv) = unvisited {
        assert!(!mcts.advance(&mv).unwrap());
        assert_eq!(mcts.root_visits(), 0);
    }
}

/// Sets the stop flag after a number of batches, as the daemon's timer would.
struct StopAfter<'a> {
    calls: usize,
    stop: &'a AtomicBool,
    batch_sizes: Vec<usize>,
}

impl Evaluator for StopAfter<'_> {
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)> {
        self.batch_sizes.push(positions.len());
        if self.batch_sizes.len() >= self.calls {
            self.stop.store(true, Ordering::Relaxed);
        }
        HeuristicEvaluator.evaluate(positions)
    }
}

#[test]
fn stop_flag_ends_the_search_between_batches() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let mut evaluator = StopAfter {
        calls: 4,
        stop: &stop,
        batch_sizes: Vec::new(),
    };
    let result = Mcts::new(position, MctsConfig::default())
        .search(&mut evaluator, limits(100_000, 0.0), &stop)
        .unwrap();
    let total: u32 = result.visits.iter().map(|(_, n)| n).sum();
    // One call for the root, three batches of at most 8.
    assert_eq!(evaluator.batch_sizes.len(), 4);
    assert!(evaluator.batch_sizes.iter().all(|&n| (1..=8).contains(&n)));
    // Virtual loss spreads a round's walks over different leaves; without it every walk after
    // the first would run into the first one's leaf and each batch would hold one position.
    assert!(
        evaluator.batch_sizes[1..].iter().sum::<usize>() >= 15,
        "{:?}",
        evaluator.batch_sizes
    );
    assert_eq!(
        total as usize,
        evaluator.batch_sizes[1..].iter().sum::<usize>()
    );
    assert!(position.is_legal(&result.best));

    // Already stopped: no playouts, the move comes from the priors.
    let result = Mcts::new(position, MctsConfig::default())
        .search(&mut HeuristicEvaluator, limits(100_000, 0.0), &stop)
        .unwrap();
    assert!(result.visits.iter().all(|(_, n)| *n == 0));
    assert!(position.is_legal(&result.best));
    assert!(result.pv.is_empty());
}

#[test]
fn a_full_tree_ends_the_search() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let config = MctsConfig {
        max_nodes: 300,
        ..MctsConfig::default()
    };
    let mut mcts = Mcts::new(position, config);
    let result = mcts
        .search(&mut HeuristicEvaluator, limits(10_000, 0.0), &stop)
        .unwrap();
    // Checked between batches: at most one batch of new nodes past the cap.
    assert!(
        (300..300 + 8).contains(&mcts.node_count()),
        "{}",
        mcts.node_count()
    );
    let total: u32 = result.visits.iter().map(|(_, n)| n).sum();
    assert!(total < 10_000);
    assert!(position.is_legal(&result.best));
}

/// Answers nonsense: wrong lengths, NaN and out-of-range values.
struct Broken;

impl Evaluator for Broken {
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)> {
        positions
            .iter()
            .skip(1)
            .map(|_| (vec![f32::NAN, -1.0], 7.0))
            .collect()
    }
}

/// Puts all prior on the first legal move and calls every position even.
struct Blinkered;

impl Evaluator for Blinkered {
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)> {
        positions
            .iter()
            .map(|p| {
                let mut priors = vec![0.0; p.count_legal_moves()];
                priors[0] = 1.0;
                (priors, 0.5)
            })
            .collect()
    }
}

#[test]
fn root_noise_makes_self_play_try_moves_the_network_rules_out() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let others = |noise: Option<RootNoise>, seed: u64| {
        let config = MctsConfig {
            seed,
            root_noise: noise,
            ..MctsConfig::default()
        };
        let result = Mcts::new(position, config)
            .search(&mut Blinkered, limits(200, 0.0), &stop)
            .unwrap();
        let visits: Vec<u32> = result.visits.iter().map(|(_, n)| *n).collect();
        (visits[1..].iter().sum::<u32>(), visits)
    };
    for seed in 0..4 {
        assert_eq!(
            others(None, seed).0,
            0,
            "without noise only the favoured move is searched"
        );
    }
    let noise = Some(RootNoise {
        alpha: 0.3,
        fraction: 0.25,
    });
    let tried: u32 = (0..4).map(|seed| others(noise, seed).0).sum();
    assert!(tried > 0, "noise never tried another move");
    assert_eq!(others(noise, 9).1, others(noise, 9).1, "a seed replays");
    assert_ne!(others(noise, 1).1, others(noise, 2).1, "seeds differ");
}

#[test]
fn never_returns_an_illegal_move() {
    let stop = AtomicBool::new(false);
    let mut rng = Lcg(3);
    let mut checked = 0;
    for variant in [
        Variant::Russian,
        Variant::English,
        Variant::International,
        Variant::RussianGiveaway,
        Variant::Italian,
    ] {
        for game_no in 0..6 {
            let game = random_game(Position::new(variant), &mut rng, 10 + game_no * 15);
            let position = *game.position();
            let mut mcts = Mcts::new(
                position,
                MctsConfig {
                    seed: game_no as u64,
                    ..MctsConfig::default()
                },
            );
            let result = mcts.search(&mut HeuristicEvaluator, limits(120, 0.7), &stop);
            let broken = Mcts::new(position, MctsConfig::default()).search(
                &mut Broken,
                limits(60, 0.0),
                &stop,
            );
            if position.legal_moves().is_empty() {
                assert!(result.is_none() && broken.is_none());
                continue;
            }
            for result in [result.unwrap(), broken.unwrap()] {
                assert!(position.is_legal(&result.best), "{variant} {position:?}");
                assert!((0.0..=1.0).contains(&result.v));
                let mut line = position;
                for mv in &result.pv {
                    assert!(line.is_legal(mv), "{variant} pv {position:?}");
                    line.play_unchecked(mv);
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} searches checked");
}

/// Prints the speed with the fallback evaluator (`--nocapture`); `MCTS_BENCH_PLAYOUTS` sets a
/// longer run than the default, which stays small so the suite stays fast.
#[test]
fn heuristic_playouts_per_second() {
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let playouts = std::env::var("MCTS_BENCH_PLAYOUTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let config = MctsConfig {
        max_nodes: usize::MAX,
        ..MctsConfig::default()
    };
    let mut mcts = Mcts::new(position, config);
    let start = Instant::now();
    let result = mcts
        .search(&mut HeuristicEvaluator, limits(playouts, 0.0), &stop)
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "mcts heuristic: {playouts} playouts in {seconds:.3} s = {:.0} playouts/s, {} nodes",
        f64::from(playouts) / seconds,
        mcts.node_count()
    );
    assert!(position.is_legal(&result.best));
    let total: u32 = result.visits.iter().map(|(_, n)| n).sum();
    assert_eq!(total, playouts);
}

/// Three kings and a man against a lone king: Black loses whatever it does, but for a move
/// back into a position of the game, which is a draw.
const LONE_KING: &str = "B:WKa1,Kc1,Ke1,g3:BKd8";

#[test]
fn a_losing_side_steers_into_a_repetition_and_a_winning_side_avoids_one() {
    let stop = AtomicBool::new(false);
    let lone = fen::parse(Variant::Russian, LONE_KING).unwrap();
    let moves = lone.legal_moves();
    assert!(moves.len() > 3);
    for mv in &moves {
        let repeated = lone.play(mv).unwrap();
        let mut mcts = Mcts::new(lone, MctsConfig::default());
        mcts.set_history(&[repeated]);
        let result = mcts
            .search(&mut HeuristicEvaluator, limits(400, 0.0), &stop)
            .unwrap();
        assert_eq!(result.best, *mv, "the only move that does not lose");
        assert!((result.v - 0.5).abs() < 1e-6, "a repetition is a draw");
    }

    // White, to move after Black's king went to c7, wins unless it shuffles back into a
    // position the game had.
    let after = lone.play(&mv(&lone, "d8-c7")).unwrap();
    let baseline = search(after, 400).best;
    let repeated = after.play(&baseline).unwrap();
    let mut mcts = Mcts::new(after, MctsConfig::default());
    mcts.set_history(&[repeated, lone]);
    let result = mcts
        .search(&mut HeuristicEvaluator, limits(400, 0.0), &stop)
        .unwrap();
    assert_ne!(result.best, baseline, "the move that repeats is avoided");
    assert!(result.v > 0.9, "{}", result.v);
}

#[test]
fn a_repeated_position_reached_in_the_game_is_searched_again_at_the_root() {
    let stop = AtomicBool::new(false);
    let lone = fen::parse(Variant::Russian, LONE_KING).unwrap();
    let back = mv(&lone, "d8-c7");
    let repeated = lone.play(&back).unwrap();
    let mut mcts = Mcts::new(lone, MctsConfig::default());
    mcts.set_history(&[repeated]);
    let result = mcts
        .search(&mut HeuristicEvaluator, limits(200, 0.0), &stop)
        .unwrap();
    assert_eq!(result.best, back);
    // The game goes on into the repeated position: there it is White's turn to search, and
    // the draw it was below the root does not end the search.
    assert!(mcts.advance(&back).unwrap());
    mcts.set_history(&[repeated, lone]);
    let reply = mcts
        .search(&mut HeuristicEvaluator, limits(200, 0.0), &stop)
        .expect("White has moves");
    assert!(repeated.legal_moves().contains(&reply.best));
}

fn mv(position: &Position, text: &str) -> rules::Move {
    rules::notation::parse_move(position, text).unwrap()
}

/// Fails the test when asked about a position with fewer than two legal moves.
struct OnlyChoices {
    asked: usize,
}

impl Evaluator for OnlyChoices {
    fn evaluate(&mut self, positions: &[Position]) -> Vec<(Vec<f32>, f32)> {
        for position in positions {
            let n = position.count_legal_moves();
            assert!(
                n >= 2,
                "asked about a position with {n} moves: {position:?}"
            );
        }
        self.asked += positions.len();
        HeuristicEvaluator.evaluate(positions)
    }
}

#[test]
fn forced_moves_are_walked_through_not_evaluated() {
    // Games full of forced captures: the evaluator is asked only where there is a choice, and
    // every playout still counts.
    let mut rng = Lcg(7);
    for variant in [Variant::Russian, Variant::International, Variant::English] {
        for game_no in 0..5 {
            let position =
                *random_game(Position::new(variant), &mut rng, 10 + game_no * 8).position();
            if position.count_legal_moves() < 2 {
                continue;
            }
            let mut evaluator = OnlyChoices { asked: 0 };
            let stop = AtomicBool::new(false);
            let result = Mcts::new(position, MctsConfig::default())
                .search(&mut evaluator, limits(300, 0.0), &stop)
                .expect("the position has moves");
            assert!(position.is_legal(&result.best));
            let playouts: u32 = result.visits.iter().map(|(_, n)| n).sum();
            assert_eq!(playouts, 300, "{variant:?}");
            assert!(evaluator.asked <= 301, "{variant:?}: {}", evaluator.asked);
        }
    }
}
