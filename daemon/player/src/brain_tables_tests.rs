//! The endgame tables in the brain: level 5 plays a won ending from them and wins it in the
//! tables' distance, level 3 does not consult them; without usable tables (no folder, a damaged file) it says why and
//! searches as before.
#![allow(
    clippy::float_cmp,
    reason = "a table's v is one of three exact constants"
)]

use std::path::Path;
use std::sync::atomic::AtomicBool;

use checkerbot_config::{PlayLevel, Settings};
use egdb::Material;
use rules::game::{EndReason, Game, GameResult};
use rules::{Color, Position, Variant, fen};

use super::Brain;

/// Three kings against one, White to move: a win in 7 plies by the tables.
const THREE_KINGS: &str = "W:WKa1,Kc1,Ke1:BKh4";

fn settings(level: PlayLevel, egdb_dir: Option<&Path>) -> Settings {
    let mut settings = Settings::default();
    settings.play.level = level;
    settings.paths.models_dir = Some("/nonexistent/models".into());
    if let Some(dir) = egdb_dir {
        settings.play.egdb_dir = dir.to_path_buf();
    }
    settings
}

fn position(text: &str) -> Position {
    fen::parse(Variant::Russian, text).unwrap()
}

#[test]
fn level_5_plays_a_won_ending_from_the_tables_and_wins_it_in_their_distance() {
    // Every table of up to 4 pieces with distances (about 5 s optimised).
    let dir = tempfile::tempdir().unwrap();
    let egdb = egdb::build(Variant::Russian, 4, Some(dir.path()), &mut |_| {}).unwrap();
    let mut brain = Brain::new(&settings(PlayLevel::Fixed(5), Some(dir.path())), 1);
    assert_eq!(brain.endgame_tables(), Some(Ok(4)));
    assert!(
        brain
            .describe()
            .ends_with("; endgame tables up to 4 pieces"),
        "{}",
        brain.describe()
    );

    let start = position(THREE_KINGS);
    let (_, distance) = egdb.probe_distance(&start).unwrap();
    assert_eq!(distance, 7);
    let stop = AtomicBool::new(false);
    let thought = brain.think(&start, &[], &stop).unwrap();
    assert_eq!(Some(thought.mv), egdb.best_move(&start));
    assert_eq!(thought.v, 1.0);
    assert_eq!(thought.raw_v, 1.0);
    assert_eq!(thought.pv, [thought.mv]);
    assert_eq!(
        thought.playouts_or_nodes, 0,
        "the tables' move is not searched"
    );

    // Both sides played by the brain: the win by the shortest way against the longest
    // resistance, the lone king's side told it is lost.
    let mut game = Game::from_position(start);
    let mut plies = 0;
    while game.outcome().is_none() {
        let positions = game.positions();
        let (now, before) = positions.split_last().unwrap();
        let thought = brain.think(now, before, &stop).unwrap();
        let expected = if now.turn() == Color::White { 1.0 } else { 0.0 };
        assert_eq!(thought.v, expected, "ply {plies}");
        game.play(&thought.mv).unwrap();
        plies += 1;
        assert!(plies <= distance, "not won within {distance} plies");
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.result, GameResult::Win(Color::White), "{outcome:?}");
    assert_eq!(outcome.reason, EndReason::NoPieces, "{outcome:?}");
    assert_eq!(plies, distance);

    // Below level 5 the tables are not consulted: the level's own search plays.
    let mut level_3 = Brain::new(&settings(PlayLevel::Fixed(3), Some(dir.path())), 1);
    assert_eq!(level_3.endgame_tables(), Some(Ok(4)));
    let thought = level_3.think(&start, &[], &stop).unwrap();
    assert!(thought.playouts_or_nodes > 0, "level 3 searches");
    assert!(start.legal_moves().contains(&thought.mv));
}

/// The same brain without tables, asked with the stop already raised (so the search is
/// short and replays exactly): what a brain whose tables could not be used must answer.
fn searched_without_tables(start: &Position) -> super::Thought {
    let mut plain = Brain::new(&settings(PlayLevel::Fixed(5), None), 1);
    assert_eq!(plain.endgame_tables(), None);
    plain.think(start, &[], &AtomicBool::new(true)).unwrap()
}

#[test]
fn a_missing_folder_is_said_and_the_brain_searches() {
    let missing = Path::new("/nonexistent/checkerbot-egdb");
    let mut brain = Brain::new(&settings(PlayLevel::Fixed(5), Some(missing)), 1);
    let Some(Err(reason)) = brain.endgame_tables() else {
        panic!("{:?}", brain.endgame_tables());
    };
    assert!(reason.contains("/nonexistent/checkerbot-egdb"), "{reason}");
    assert!(reason.contains("not a folder"), "{reason}");
    assert!(
        brain.describe().contains("no endgame tables: "),
        "{}",
        brain.describe()
    );
    let start = position(THREE_KINGS);
    let thought = brain.think(&start, &[], &AtomicBool::new(true)).unwrap();
    assert_eq!(thought, searched_without_tables(&start));
}

#[test]
fn a_damaged_table_is_said_with_its_file_and_fault_and_the_brain_searches() {
    let dir = tempfile::tempdir().unwrap();
    egdb::build(Variant::Russian, 3, Some(dir.path()), &mut |_| {}).unwrap();
    let name = Material::new(0, 2, 0, 1).file_name(Variant::Russian);
    let path = dir.path().join(&name);
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).unwrap();

    let mut brain = Brain::new(&settings(PlayLevel::Fixed(5), Some(dir.path())), 1);
    let Some(Err(reason)) = brain.endgame_tables() else {
        panic!("{:?}", brain.endgame_tables());
    };
    assert!(reason.contains(&name), "{reason}");
    assert!(reason.contains("corrupt"), "{reason}");
    // Two kings against one: within 3 pieces, so damaged tables would have answered it.
    let start = position("W:WKa1,Kc1:BKh4");
    let thought = brain.think(&start, &[], &AtomicBool::new(true)).unwrap();
    assert_eq!(thought, searched_without_tables(&start));
}

#[test]
fn other_variants_load_no_tables() {
    let mut settings = settings(PlayLevel::Fixed(5), Some(Path::new("/nonexistent/egdb")));
    settings.game.variant = Variant::Brazilian;
    assert_eq!(Brain::new(&settings, 1).endgame_tables(), None);
}

#[test]
fn a_reload_reads_the_tables_again_only_when_the_folder_changes() {
    let empty = tempfile::tempdir().unwrap();
    let mut brain = Brain::new(&settings(PlayLevel::Fixed(5), Some(empty.path())), 1);
    let Some(Err(reason)) = brain.endgame_tables() else {
        panic!("{:?}", brain.endgame_tables());
    };
    assert!(reason.contains("russian_0101.egdb: missing"), "{reason}");

    let built = tempfile::tempdir().unwrap();
    egdb::build(Variant::Russian, 3, Some(built.path()), &mut |_| {}).unwrap();
    brain.reconfigure(&settings(PlayLevel::Fixed(5), Some(built.path())));
    assert_eq!(brain.endgame_tables(), Some(Ok(3)));
    // The same folder at another level: kept, not read again (a file removed since is not
    // noticed).
    std::fs::remove_file(
        built
            .path()
            .join(Material::new(0, 1, 0, 1).file_name(Variant::Russian)),
    )
    .unwrap();
    brain.reconfigure(&settings(PlayLevel::Adaptive, Some(built.path())));
    assert_eq!(brain.endgame_tables(), Some(Ok(3)));
    brain.reconfigure(&settings(PlayLevel::Fixed(5), None));
    assert_eq!(brain.endgame_tables(), None);
}

#[test]
fn full_strength_searches_with_the_tables_below_the_root_and_the_weaker_levels_without() {
    let dir = tempfile::tempdir().unwrap();
    let egdb = egdb::build(Variant::Russian, 4, Some(dir.path()), &mut |_| {}).unwrap();
    let mut brain = Brain::new(&settings(PlayLevel::Fixed(5), Some(dir.path())), 1);
    assert!(
        brain.searcher.egdb().is_some(),
        "level 5 searches with them"
    );
    let adaptive = Brain::new(&settings(PlayLevel::Adaptive, Some(dir.path())), 1);
    assert!(
        adaptive.searcher.egdb().is_some(),
        "so does the adaptive level"
    );
    let mut level_3 = Brain::new(&settings(PlayLevel::Fixed(3), Some(dir.path())), 1);
    assert!(level_3.searcher.egdb().is_none(), "level 3 does not");
    level_3.reconfigure(&settings(PlayLevel::Fixed(5), Some(dir.path())));
    assert!(
        level_3.searcher.egdb().is_some(),
        "a reload to level 5 hands them over"
    );
    level_3.reconfigure(&settings(PlayLevel::Fixed(4), Some(dir.path())));
    assert!(
        level_3.searcher.egdb().is_none(),
        "and one to level 4 takes them back"
    );
    let root_only =
        Brain::new(&settings(PlayLevel::Fixed(5), Some(dir.path())), 1).without_search_tables();
    assert!(
        root_only.searcher.egdb().is_none(),
        "the lab's root-only player"
    );
    assert!(root_only.tables.best_move(&position(THREE_KINGS)).is_some());

    // Five pieces, beyond the tables, so searched: White must take the man on d2, and every
    // way of taking it leaves three kings against one, which the tables value below the root.
    let start = position("W:WKa1,Kc1,Ke1:BKh4,d2");
    assert_eq!(brain.tables.best_move(&start).map(|found| found.mv), None);
    let stop = AtomicBool::new(true);
    let thought = brain.think(&start, &[], &stop).unwrap();
    assert!(thought.playouts_or_nodes > 0, "searched");
    let after = start.play(&thought.mv).unwrap();
    assert_eq!(
        egdb.probe(&after),
        Some(egdb::Wdl::Loss),
        "{}",
        fen::write(&after)
    );
    assert_eq!(thought.raw_v, 1.0, "a table win is certain");
    let plain = searched_without_tables(&start);
    assert!(
        plain.raw_v < 0.99,
        "the evaluation alone is not sure: {plain:?}"
    );
}
