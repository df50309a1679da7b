#![allow(
    clippy::float_cmp,
    reason = "a Brain's v is compared with the same computation done again: exact"
)]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use checkerbot_config::Settings;
use rules::{Game, Move, Position, Variant};

use network::calibration::ValueCalibration;

use super::{ALTERNATIVES_NODES, Brain, Player, Thought, model_name, near_equal_choice};
use crate::adaptive::AGREEMENT_MIN;
use crate::levels::{LEVEL_5_CALIBRATION, Level};
use crate::rng::SplitMix;

fn settings(level: u8, models: Option<&str>) -> Settings {
    let mut settings = Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Fixed(level);
    if let Some(dir) = models {
        settings.paths.models_dir = Some(dir.into());
    }
    settings
}

/// Plays `plies` plies of a game where the brain answers a fixed sequence of "visitor" moves
/// (the first legal move), returning the brain's thoughts.
fn play(brain: &mut Brain, plies: usize) -> Vec<Thought> {
    let mut game = Game::new(Variant::Russian);
    let mut thoughts = Vec::new();
    let stop = AtomicBool::new(false);
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let mv = if ply % 2 == 0 {
            let positions = game.positions();
            let thought = brain
                .think(game.position(), &positions[..positions.len() - 1], &stop)
                .expect("a position with moves gets a move");
            assert!(game.position().legal_moves().contains(&thought.mv));
            assert!((0.0..=1.0).contains(&thought.v));
            let mv = thought.mv;
            thoughts.push(thought);
            mv
        } else {
            game.position().legal_moves()[0]
        };
        game.play(&mv).unwrap();
    }
    thoughts
}

#[test]
fn the_brain_can_move_to_a_worker_thread() {
    fn send<T: Send>() {}
    send::<Brain>();
}

#[test]
fn without_a_model_it_plays_alpha_beta_and_says_why() {
    let mut brain = Brain::new(&settings(3, Some("/nonexistent/models")), 1);
    assert!(!brain.uses_network());
    let text = brain.describe();
    assert!(
        text.starts_with("alpha-beta depth 4 (level 3; no network: "),
        "{text}"
    );
    assert!(
        text.contains("/nonexistent/models/russian-gen2.onnx not found"),
        "{text}"
    );
    let thoughts = play(&mut brain, 12);
    assert_eq!(thoughts.len(), 6);
    assert!(thoughts.iter().all(|t| t.playouts_or_nodes > 0));
    assert_eq!(thoughts[0].pv.first(), Some(&thoughts[0].mv));
}

#[test]
fn a_corrupt_model_gives_alpha_beta_with_the_reason() {
    let dir = std::env::temp_dir().join(format!("checkerbot-brain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("russian-gen2.onnx"), b"not a model").unwrap();
    let brain = Brain::new(&settings(3, dir.to_str()), 1);
    assert!(!brain.uses_network());
    let text = brain.describe();
    // Either the library is missing, or it is there and refuses the file: both name a cause.
    assert!(
        text.contains("russian-gen2.onnx") || text.contains("ONNX Runtime"),
        "{text}"
    );
}

#[test]
fn a_seed_replays_and_another_seed_plays_differently_at_a_random_level() {
    let run = |seed| {
        let mut brain = Brain::new(&settings(1, Some("/nonexistent")), seed);
        play(&mut brain, 40)
            .into_iter()
            .map(|t| t.mv)
            .collect::<Vec<_>>()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

#[test]
fn reconfiguring_changes_the_level_and_the_variant() {
    let mut brain = Brain::new(&settings(3, Some("/nonexistent")), 1);
    let mut changed = settings(1, Some("/nonexistent"));
    brain.reconfigure(&changed);
    assert!(
        brain
            .describe()
            .starts_with("alpha-beta depth 1, 70% random moves (level 1")
    );
    changed.game.variant = Variant::Brazilian;
    brain.reconfigure(&changed);
    assert!(
        brain.describe().contains("brazilian-gen1.onnx"),
        "{}",
        brain.describe()
    );
    let position = Position::new(Variant::Brazilian);
    let thought = brain
        .think(&position, &[], &AtomicBool::new(false))
        .unwrap();
    assert!(position.legal_moves().contains(&thought.mv));
}

#[test]
fn level_5_plays_alpha_beta_by_design_without_a_warning_reason() {
    let brain = Brain::new(&settings(5, None), 1);
    // The shipped models' folder has the opening book.
    let described = brain.describe();
    assert!(
        described.starts_with("alpha-beta until the move time (level 5); opening book of "),
        "{described}"
    );
}

#[test]
fn play_threads_reach_level_5s_search_and_follow_a_reload() {
    let mut two = settings(5, Some("/nonexistent"));
    two.play.threads = 2;
    let mut brain = Brain::new(&two, 1);
    assert_eq!(brain.threads(), 2);
    assert!(
        brain
            .describe()
            .contains("alpha-beta until the move time on 2 threads"),
        "{}",
        brain.describe()
    );
    let position = Position::new(Variant::Russian);
    let thought = brain
        .think(&position, &[], &AtomicBool::new(false))
        .unwrap();
    assert!(position.legal_moves().contains(&thought.mv));

    let mut one = two.clone();
    one.play.threads = 1;
    brain.reconfigure(&one);
    assert_eq!(brain.threads(), 1);
    assert!(
        !brain.describe().contains("threads"),
        "{}",
        brain.describe()
    );

    // A simulation on a paused clock stays on one thread through a reload that asks for more.
    let mut replaying = Brain::new(&two, 1).on_one_thread();
    assert_eq!(replaying.threads(), 1);
    replaying.reconfigure(&two);
    assert_eq!(replaying.threads(), 1);
}

#[test]
fn hints_and_the_coachs_scoring_replay_exactly_on_a_brain_with_threads() {
    // A hint and the coach's scores are node-limited: on two threads they would count the
    // helper's nodes and depend on the scheduler.
    let mut two = settings(5, Some("/nonexistent"));
    two.play.threads = 2;
    let one = settings(5, Some("/nonexistent"));
    let position = Position::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    let mut threaded = Brain::new(&two, 1);
    let mut plain = Brain::new(&one, 1);
    assert_eq!(
        threaded.hint(&position, &[], &stop),
        plain.hint(&position, &[], &stop)
    );
    let after = position.play(&position.legal_moves()[0]).unwrap();
    assert_eq!(
        threaded.alternatives(&after, &[position]),
        plain.alternatives(&after, &[position])
    );
}

#[test]
fn a_raised_stop_still_gives_a_legal_move_at_once() {
    let mut brain = Brain::new(&settings(5, Some("/nonexistent")), 1);
    let position = Position::new(Variant::Russian);
    let started = Instant::now();
    let thought = brain.think(&position, &[], &AtomicBool::new(true)).unwrap();
    assert!(started.elapsed().as_secs_f64() < 1.0);
    assert!(position.legal_moves().contains(&thought.mv));
}

#[test]
fn a_finished_game_has_no_move() {
    let mut brain = Brain::new(&settings(3, Some("/nonexistent")), 1);
    let lost = rules::fen::parse(Variant::Russian, "W:W:B1").unwrap();
    assert!(lost.legal_moves().is_empty());
    assert!(brain.think(&lost, &[], &AtomicBool::new(false)).is_none());
}

/// A level plays the newest of its generations that the variant has, the oldest's path named
/// when none is there (so the warning says which file is missing).
#[test]
fn a_level_plays_the_newest_generation_shipped_for_the_variant() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = [
        "russian-gen1",
        "russian-gen2",
        "russian-gen3",
        "russian-gen4",
        "pool-gen2",
        "pool-gen3",
        "english-gen2",
    ];
    for name in shipped {
        std::fs::write(dir.path().join(format!("{name}.onnx")), "").unwrap();
    }
    let chosen = |variant: Variant, level: u8| {
        let mut settings = settings(level, dir.path().to_str());
        settings.game.variant = variant;
        super::source(&settings, crate::levels::level(level))
            .model
            .map(|m| m.file_name().unwrap().to_string_lossy().into_owned())
    };
    assert_eq!(crate::levels::level(4).generations, [4, 3, 2]);
    assert_eq!(
        chosen(Variant::Russian, 3).as_deref(),
        Some("russian-gen4.onnx")
    );
    assert_eq!(
        chosen(Variant::Russian, 4).as_deref(),
        Some("russian-gen4.onnx")
    );
    assert_eq!(
        chosen(Variant::Russian, 1).as_deref(),
        Some("russian-gen1.onnx")
    );
    assert_eq!(chosen(Variant::Pool, 3).as_deref(), Some("pool-gen3.onnx"));
    assert_eq!(
        chosen(Variant::English, 4).as_deref(),
        Some("english-gen2.onnx")
    );
    assert_eq!(
        chosen(Variant::Italian, 3).as_deref(),
        Some("italian-gen2.onnx")
    );
    assert_eq!(chosen(Variant::Russian, 5), None);
}

/// Whether the development copy of ONNX Runtime (`scripts/install-deps`) or `ORT_DYLIB_PATH`
/// is there; says why a test is skipped when not.
fn onnxruntime_installed() -> bool {
    let lib = checkerbot_config::PathSettings::source_onnxruntime_dir();
    let installed = lib.is_dir() || std::env::var_os("ORT_DYLIB_PATH").is_some();
    if !installed {
        eprintln!(
            "skipped: no ONNX Runtime in {} (run scripts/install-deps)",
            lib.display()
        );
    }
    installed
}

/// The shipped networks through the development copy of ONNX Runtime (`scripts/install-deps`).
#[test]
fn the_shipped_networks_play_when_the_library_is_installed() {
    if !onnxruntime_installed() {
        return;
    }
    for level in [1, 3] {
        let mut brain = Brain::new(&settings(level, None), 3);
        let text = brain.describe();
        let model = model_name(Variant::Russian, crate::levels::level(level).generations[0]);
        assert!(
            text.starts_with(&format!("network {model} via ONNX Runtime ")),
            "{text}"
        );
        let first = play(&mut brain, 20);
        let expected = crate::levels::level(level)
            .playouts_in(Variant::Russian)
            .unwrap();
        assert!(
            first
                .iter()
                .all(|t| t.playouts_or_nodes == u64::from(expected))
        );
        // The same seed replays the same game.
        let mut again = Brain::new(&settings(level, None), 3);
        assert_eq!(first, play(&mut again, 20));
    }
    // The network levels report the v of the map their model carries for them.
    for level in [1, 2, 3, 4] {
        let (v, raw) = network_v(&settings(level, None), true);
        assert_ne!(v, raw, "level {level}");
    }
    // A model without a map for the level reports its raw v: gen2 has one for level 4, where
    // it was fitted, but none for level 3, where only gen3's was (a map fits one network).
    let gen2_only = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        shipped_models().join("russian-gen2.onnx"),
        gen2_only.path().join("russian-gen2.onnx"),
    )
    .unwrap();
    for (level, mapped) in [(3, false), (4, true)] {
        let settings = settings(level, gen2_only.path().to_str());
        let text = Brain::new(&settings, 3).describe();
        assert!(text.contains("russian-gen2"), "{text}");
        assert_eq!(!text.contains("raw v"), mapped, "{text}");
        let (v, raw) = network_v(&settings, mapped);
        assert_eq!(v != raw, mapped, "level {level} with gen2: {raw} -> {v}");
    }
}

/// On the bigger boards the careful levels search their own, larger budget (a position there
/// has more moves), and say so; the gentle ones keep theirs.
#[test]
fn the_bigger_boards_search_their_own_playouts() {
    if !onnxruntime_installed() {
        return;
    }
    for variant in [Variant::International, Variant::Canadian] {
        for level in [2, 3] {
            let mut settings = settings(level, None);
            settings.game.variant = variant;
            let mut brain = Brain::new(&settings, 3);
            let expected = crate::levels::level(level).playouts_in(variant).unwrap();
            let on_8x8 = crate::levels::level(level)
                .playouts_in(Variant::Russian)
                .unwrap();
            assert_eq!(expected == on_8x8, level == 2, "{variant:?} level {level}");
            let text = brain.describe();
            assert!(text.contains(&format!(" {expected} playouts")), "{text}");
            let position = Position::new(variant);
            let thought = brain
                .think(&position, &[], &AtomicBool::new(false))
                .expect("the initial position has moves");
            assert_eq!(thought.playouts_or_nodes, u64::from(expected), "{text}");
        }
    }
}

fn shipped_models() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

/// A network brain's first v and raw v with White a man up, checked to be the model's map for
/// the level (when `mapped`) of the raw v.
fn network_v(settings: &Settings, mapped: bool) -> (f32, f32) {
    let mut brain = Brain::new(settings, 1);
    let Player::Network { evaluator, .. } = &brain.player else {
        panic!("level {}: {}", settings.play.level, brain.describe());
    };
    let map = super::network_calibration(evaluator, brain.level);
    assert_eq!(map.is_some(), mapped, "level {}", settings.play.level);
    let thought = brain
        .think(&a_man_up(), &[], &AtomicBool::new(false))
        .unwrap();
    let expected = map.map_or(thought.raw_v, |map| map.apply(thought.raw_v));
    assert_eq!(thought.v, expected, "level {}", settings.play.level);
    (thought.v, thought.raw_v)
}

/// A Russian position with White a man up, so alpha-beta's raw v is neither even nor proven.
fn a_man_up() -> Position {
    rules::fen::parse(
        Variant::Russian,
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11",
    )
    .unwrap()
}

/// The first thought's v in `position` of an alpha-beta brain made from `settings` and
/// `adjust`ed, and of the same brain without its level's map.
fn with_and_without_the_map(
    settings: &Settings,
    adjust: impl Fn(&mut Level),
    position: &Position,
) -> (f32, f32) {
    let stop = AtomicBool::new(false);
    let think = |calibrated: bool| {
        let mut brain = Brain::new(settings, 1);
        adjust(&mut brain.level);
        assert!(!brain.uses_network());
        if !calibrated {
            brain.level.alpha_beta_calibration = ValueCalibration::IDENTITY;
        }
        brain.think(position, &[], &stop).unwrap()
    };
    let (with, without) = (think(true), think(false));
    assert_eq!(with.mv, without.mv, "the map changes v, not the play");
    assert_eq!(with.raw_v, without.v, "the raw v is the v before the map");
    assert_eq!(without.raw_v, without.v);
    (with.v, without.v)
}

#[test]
fn level_5_reports_its_calibrated_v() {
    // A depth instead of the clock, so both searches see the same tree.
    let depth_4 = |level: &mut Level| level.fallback_depth = Some(4);
    // Without a models folder: the hand-written evaluation, whose map is the level's (with the
    // learned one, the file's: `brain_evaluation_tests.rs`).
    let (v, raw) =
        with_and_without_the_map(&settings(5, Some("/nonexistent")), depth_4, &a_man_up());
    assert!(raw > 0.55 && raw < 0.95, "raw {raw}");
    assert_eq!(v, LEVEL_5_CALIBRATION.apply(raw));
    assert!(
        v > raw + 0.05,
        "a man up at level 5 is nearly won: {raw} -> {v}"
    );
}

#[test]
fn the_alpha_beta_stand_ins_report_their_own_calibrated_v() {
    for level in [1, 2, 3, 4] {
        let stand_in = settings(level, Some("/nonexistent"));
        assert!(!Brain::new(&stand_in, 1).uses_network());
        let no_random = |level: &mut Level| level.fallback_random = 0.0;
        let (v, raw) = with_and_without_the_map(&stand_in, no_random, &a_man_up());
        let searched = search::Searcher::new(16).search(
            &a_man_up(),
            &[],
            search::Limits {
                depth: crate::levels::level(level).fallback_depth.unwrap(),
                nodes: crate::levels::UNTIMED_NODES,
            },
            &AtomicBool::new(false),
        );
        assert_eq!(raw, searched.win_probability, "level {level}");
        // The stand-in's own map, not the network's: they were fitted on different players.
        let map = crate::levels::level(level).alpha_beta_calibration;
        assert_eq!(v, map.apply(raw), "level {level}");
        assert_ne!(v, raw, "level {level}");
    }
}

/// The networks `models/` ships, by file stem, with the levels whose v map each carries
/// (`models/README.md`, "Shipped networks" and "Calibration of v"): both generations the
/// levels use in every variant, the stronger gen3 of every 8x8 variant and Russian's gen4,
/// which only level 4 plays (Russian gen2 carries none for level 3, where gen3 plays; the
/// other gen2 and Russian gen3 keep the maps they had before a newer generation); and level
/// 5's learned evaluation (every variant), with its map for level 5.
const SHIPPED_NETWORKS: [(&str, &[u8]); 31] = [
    ("brazilian-eval", &[5]),
    ("brazilian-gen1", &[1, 2]),
    ("brazilian-gen2", &[3, 4]),
    ("brazilian-gen3", &[3, 4]),
    ("canadian-eval", &[5]),
    ("canadian-gen1", &[1, 2]),
    ("canadian-gen2", &[3, 4]),
    ("english-eval", &[5]),
    ("english-gen1", &[1, 2]),
    ("english-gen2", &[3, 4]),
    ("english-gen3", &[3, 4]),
    ("international-eval", &[5]),
    ("international-gen1", &[1, 2]),
    ("international-gen2", &[3, 4]),
    ("italian-eval", &[5]),
    ("italian-gen1", &[1, 2]),
    ("italian-gen2", &[3, 4]),
    ("italian-gen3", &[3, 4]),
    ("pool-eval", &[5]),
    ("pool-gen1", &[1, 2]),
    ("pool-gen2", &[3, 4]),
    ("pool-gen3", &[3, 4]),
    ("russian-eval", &[5]),
    ("russian-gen1", &[1, 2]),
    ("russian-gen2", &[4]),
    ("russian-gen3", &[3, 4]),
    ("russian-gen4", &[3, 4]),
    ("russian-giveaway-eval", &[5]),
    ("russian-giveaway-gen1", &[1, 2]),
    ("russian-giveaway-gen2", &[3, 4]),
    ("russian-giveaway-gen3", &[3, 4]),
];

/// Every file in `models/` loads for the variant and generation its name gives (its metadata
/// must name that variant and the encoding), carries maps for the levels listed and only for
/// levels that play its generation, and plays a legal first move, so a stale or misnamed
/// network fails here rather than silently turning the robot into alpha-beta. A learned
/// evaluation (`<variant>-eval.onnx`) must load as one, for the variant its name gives.
#[test]
fn every_shipped_network_loads_for_the_variant_its_name_gives() {
    if !onnxruntime_installed() {
        return;
    }
    let dir = shipped_models();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "onnx") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
        if let Some(variant) = stem.strip_suffix("-eval") {
            let net = evalnet::EvalNet::load(&path).unwrap_or_else(|err| panic!("{stem}: {err}"));
            assert_eq!(net.variant().name(), variant, "{stem}.onnx");
            let maps: network::calibration::LevelCalibrations = net
                .metadata(network::calibration::META_CALIBRATION)
                .unwrap_or_default()
                .parse()
                .unwrap();
            found.push((stem, maps.iter().map(|(level, _)| level).collect()));
            continue;
        }
        let (variant, generation) = stem
            .rsplit_once("-gen")
            .and_then(|(v, g)| Some((v.parse::<Variant>().ok()?, g.parse::<u8>().ok()?)))
            .unwrap_or_else(|| panic!("{stem}.onnx is not named <variant>-gen<N>.onnx"));
        let level = (1..=5)
            .find(|&n| crate::levels::level(n).generations.contains(&generation))
            .unwrap_or_else(|| panic!("{stem}.onnx: no level uses generation {generation}"));
        // Alone in a folder, so that the level cannot prefer a newer generation.
        let alone = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(&path, alone.path().join(path.file_name().unwrap())).unwrap();
        let mut settings = settings(level, alone.path().to_str());
        settings.game.variant = variant;
        let mut brain = Brain::new(&settings, 1);
        let text = brain.describe();
        assert!(
            text.starts_with(&format!("network {stem} via ONNX Runtime ")),
            "{text}"
        );
        let Player::Network { evaluator, .. } = &brain.player else {
            unreachable!("{text}");
        };
        let mapped: Vec<u8> = evaluator
            .network()
            .calibrations()
            .iter()
            .map(|(level, _)| level)
            .collect();
        for &level in &mapped {
            let plays = crate::levels::level(level)
                .generations
                .contains(&generation);
            assert!(
                plays,
                "{stem}.onnx has a map for level {level}, which never plays it"
            );
        }
        let position = Position::new(variant);
        let thought = brain
            .think(&position, &[], &AtomicBool::new(false))
            .unwrap();
        assert!(position.legal_moves().contains(&thought.mv), "{stem}");
        found.push((stem, mapped));
    }
    found.sort();
    let expected: Vec<(String, Vec<u8>)> = SHIPPED_NETWORKS
        .iter()
        .map(|(stem, levels)| ((*stem).to_owned(), levels.to_vec()))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn variety_draws_only_among_near_equal_moves_and_from_the_seed() {
    let moves = Position::new(Variant::Russian).legal_moves();
    let (a, b, c) = (moves[0], moves[1], moves[2]);
    let visits = [(a, 100), (b, 85), (c, 50)];
    let drawn: Vec<Move> = (0..64)
        .map(|seed| near_equal_choice(&visits, a, 0.8, &mut SplitMix::new(seed)))
        .collect();
    assert!(drawn.iter().all(|&mv| mv == a || mv == b), "{drawn:?}");
    assert!(
        drawn.contains(&a) && drawn.contains(&b),
        "both near-equal moves are drawn"
    );
    let again: Vec<Move> = (0..64)
        .map(|seed| near_equal_choice(&visits, a, 0.8, &mut SplitMix::new(seed)))
        .collect();
    assert_eq!(drawn, again, "a seed draws the same");
    // A clear best move is always played.
    let clear = [(a, 100), (b, 60), (c, 40)];
    for seed in 0..16 {
        assert_eq!(
            near_equal_choice(&clear, a, 0.8, &mut SplitMix::new(seed)),
            a
        );
    }
}

/// An adaptive brain's picture of a visitor after `plies` plies against it, where the visitor
/// plays what `pick` chooses among its moves scored by the coach's short search.
fn adaptive_against(plies: usize, pick: fn(&[(Move, f32)]) -> Move) -> (Brain, Vec<Thought>) {
    let mut settings = Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Adaptive;
    let mut brain = Brain::new(&settings, 1);
    // Raised: level 5's full search answers at once, so the test does not wait for a clock;
    // the adaptive level's scoring of the moves is not stopped.
    let stop = AtomicBool::new(true);
    let mut game = Game::new(Variant::Russian);
    let mut thoughts = Vec::new();
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let mv = if ply % 2 == 0 {
            let thought = brain.think(game.position(), history, &stop).unwrap();
            assert!(game.position().legal_moves().contains(&thought.mv));
            assert!((0.0..=1.0).contains(&thought.v));
            let mv = thought.mv;
            thoughts.push(thought);
            mv
        } else {
            pick(&brain.alternatives(game.position(), history))
        };
        game.play(&mv).unwrap();
    }
    (brain, thoughts)
}

#[test]
fn the_adaptive_level_learns_what_the_visitors_moves_cost() {
    let best = |scored: &[(Move, f32)]| scored.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
    let worst =
        |scored: &[(Move, f32)]| scored.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
    let (careful, _) = adaptive_against(30, best);
    let (careless, _) = adaptive_against(30, worst);
    let careful = careful.adaptive_visitor_cost().unwrap();
    let careless = careless.adaptive_visitor_cost().unwrap();
    assert!(
        careful < 25.0,
        "a visitor playing the best move: {careful} ({careless})"
    );
    // Soon every move of theirs loses, and beyond the cap nothing more is counted.
    assert!(
        careless > 50.0,
        "a visitor playing the worst move: {careless}"
    );
}

#[test]
fn the_adaptive_level_replays_from_its_seed_and_says_what_it_plays() {
    let first = |scored: &[(Move, f32)]| scored[0].0;
    let (brain, once) = adaptive_against(20, first);
    let (_, again) = adaptive_against(20, first);
    let moves = |thoughts: &[Thought]| thoughts.iter().map(|t| t.mv).collect::<Vec<_>>();
    assert_eq!(moves(&once), moves(&again));
    assert_eq!(brain.level(), checkerbot_config::PlayLevel::Adaptive);
    assert!(
        brain.describe().starts_with("adaptive: "),
        "{}",
        brain.describe()
    );
    let mut brain = brain;
    brain.reconfigure(&settings(2, Some("/nonexistent")));
    assert_eq!(brain.level(), checkerbot_config::PlayLevel::Fixed(2));
    assert_eq!(brain.adaptive_visitor_cost(), None);
}

#[test]
fn the_coachs_alternatives_are_not_searched_again_to_measure_the_visitors_move() {
    let mut settings = Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Adaptive;
    let stop = AtomicBool::new(true);
    let nodes_of_second_move = |coach_first: bool| {
        let mut brain = Brain::new(&settings, 1);
        let mut game = Game::new(Variant::Russian);
        let first = brain.think(game.position(), &[], &stop).unwrap();
        game.play(&first.mv).unwrap();
        // Not the reply the robot expected: that one it would not measure at all.
        let visitor = game
            .position()
            .legal_moves()
            .into_iter()
            .find(|mv| first.pv.get(1) != Some(mv))
            .unwrap();
        game.play(&visitor).unwrap();
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        if coach_first {
            let (before, earlier) = history.split_last().unwrap();
            brain.alternatives(before, earlier);
        }
        brain
            .think(game.position(), history, &stop)
            .unwrap()
            .playouts_or_nodes
    };
    let searched_twice = nodes_of_second_move(false);
    let searched_once = nodes_of_second_move(true);
    assert!(
        searched_once < searched_twice,
        "{searched_once} nodes after the coach's search, {searched_twice} without"
    );
}

/// An adaptive brain, and a stop flag already raised: level 5's full search answers at once (a
/// few nodes), while the scoring searches, which are not stopped, show in the nodes counted
/// (tens of thousands).
fn adaptive_brain_at_once() -> (Brain, AtomicBool) {
    let mut settings = Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Adaptive;
    (Brain::new(&settings, 1), AtomicBool::new(true))
}

/// A careful visitor who answers with the reply the adaptive level's full search expected: that
/// reply costs nothing, and while the robot is not ahead its next move is the full search alone,
/// without the few hundredths of a second of scoring every move.
#[test]
fn the_adaptive_level_takes_the_reply_it_expected_as_free_and_then_does_not_score() {
    let (mut brain, stop) = adaptive_brain_at_once();
    let mut game = Game::new(Variant::Russian);
    let mut after_expected = None;
    let (mut unscored, mut expected) = (0, 0);
    for _ in 0..30 {
        if game.outcome().is_some() {
            break;
        }
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let thought = brain.think(game.position(), history, &stop).unwrap();
        if after_expected.take().is_some() {
            expected += 1;
            if thought.playouts_or_nodes < ALTERNATIVES_NODES / 10 {
                unscored += 1;
            }
        }
        game.play(&thought.mv).unwrap();
        if game.outcome().is_some() {
            break;
        }
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let reply = match thought.pv.get(1) {
            Some(&reply) if game.position().legal_moves().contains(&reply) => {
                after_expected = Some(reply);
                reply
            }
            _ => {
                let scored = brain.alternatives(game.position(), history);
                scored.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0
            }
        };
        game.play(&reply).unwrap();
    }
    let cost = brain.adaptive_visitor_cost().unwrap();
    assert!(cost < 25.0, "the visitor's mean cost {cost}");
    assert!(expected >= 5, "{expected} expected replies");
    assert!(
        unscored * 2 >= expected,
        "{unscored} of {expected} moves after an expected reply went unscored"
    );
}

/// A visitor who keeps answering with the reply the adaptive level's full search expected plays
/// like level 5, and meets level 5: once enough of their replies were expected, even a reply
/// the robot did not expect is neither measured nor followed by scoring, so all of the robot's
/// time goes to its search.
#[test]
fn a_visitor_who_plays_the_replies_level_5_expects_meets_level_5_unscored() {
    let (mut brain, stop) = adaptive_brain_at_once();
    let mut game = Game::new(Variant::Russian);
    let mut expected_replies = 0;
    let mut surprised = false;
    let mut after_surprise = Vec::new();
    while game.outcome().is_none() && after_surprise.len() < 3 {
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let thought = brain.think(game.position(), history, &stop).unwrap();
        if surprised {
            after_surprise.push(thought.playouts_or_nodes);
        }
        game.play(&thought.mv).unwrap();
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let expected = thought.pv.get(1).filter(|reply| moves.contains(reply));
        let reply = match expected {
            // Well past the fewest replies the robot reads: now one it did not expect.
            Some(&expected)
                if expected_replies >= AGREEMENT_MIN + 4 && !surprised && moves.len() > 1 =>
            {
                surprised = true;
                *moves.iter().find(|&&mv| mv != expected).unwrap()
            }
            Some(&expected) => {
                if moves.len() > 1 {
                    expected_replies += 1;
                }
                expected
            }
            None => {
                let positions = game.positions();
                let history = &positions[..positions.len() - 1];
                let scored = brain.alternatives(game.position(), history);
                scored.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0
            }
        };
        game.play(&reply).unwrap();
    }
    assert!(
        surprised,
        "{expected_replies} expected replies in the whole game"
    );
    assert!(
        after_surprise
            .iter()
            .all(|&nodes| nodes < ALTERNATIVES_NODES / 10),
        "nodes of the robot's moves after the unexpected reply: {after_surprise:?}"
    );
    assert!(
        brain
            .describe()
            .starts_with("adaptive: plays level 5's alpha-beta"),
        "{}",
        brain.describe()
    );
}
