//! PDN written by checkerbot (the robot's game archive) read back by pydraughts, an
//! independent reader: every move of every game must replay under pydraughts' rules, and a
//! game won on the board must be won for pydraughts too.
//!
//! Needs `python3` with `venv` and `PyPI` (see `testkit::python`), like the differential test.

use std::path::PathBuf;
use std::process::Command;

use rules::{Color, Game, GameResult, Position, Variant, pdn};
use serde_json::Value;

use testkit::{Lcg, random_game};

const SCRIPT: &str = testkit::PYDRAUGHTS_READ_PDN;

/// Variants pydraughts plays, with its names for them.
const VARIANTS: [(Variant, &str); 5] = [
    (Variant::Russian, "russian"),
    (Variant::Brazilian, "brazilian"),
    (Variant::International, "standard"),
    (Variant::English, "english"),
    (Variant::Italian, "italian"),
];

const GAMES_PER_VARIANT: usize = 20;

/// Random games, some played to their end, written as one PDN file the way the robot's archive
/// is (tags besides the roster included).
fn games(variant: Variant, seed: u64) -> Vec<Game> {
    let mut rng = Lcg(seed);
    (0..GAMES_PER_VARIANT)
        .map(|i| random_game(Position::new(variant), &mut rng, 60 + 15 * (i % 12)))
        .collect()
}

fn winner(game: &Game) -> Option<&'static str> {
    game.outcome().map(|outcome| match outcome.result {
        GameResult::Win(Color::White) => "white",
        GameResult::Win(Color::Black) => "black",
        GameResult::Draw => "draw",
    })
}

#[test]
fn pydraughts_replays_every_game_we_write() {
    let python = testkit::pydraughts_python();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pdn_pydraughts");
    std::fs::create_dir_all(&dir).unwrap();
    for (index, (variant, name)) in VARIANTS.into_iter().enumerate() {
        let games = games(variant, 0x9d_0000 + index as u64);
        let text: String = games
            .iter()
            .enumerate()
            .map(|(i, game)| {
                let id = format!("1796000000000-{i}");
                pdn::write(
                    game,
                    &[("Event", "checkerbot exhibition"), ("CheckerbotGame", &id)],
                )
            })
            .collect();
        let path = dir.join(format!("{name}.pdn"));
        std::fs::write(&path, &text).unwrap();
        let out = testkit::python::run(
            Command::new(&python).arg(SCRIPT).arg(&path),
            "reading our PDN with pydraughts",
        );
        let read: Vec<Value> = out
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(read.len(), games.len(), "{name}: every game is found");
        let mut decisive = 0;
        for (game, entry) in games.iter().zip(&read) {
            let context = || format!("{name} game {}: {entry}\n{text}", entry["game"]);
            assert_eq!(entry["variant"], name, "{}", context());
            assert_eq!(entry["error"], Value::Null, "{}", context());
            assert_eq!(entry["plies"], game.moves().len(), "{}", context());
            // Draw rules differ between implementations (pydraughts counts some from other
            // events); a game won on the board is won for everyone.
            if let Some(side @ ("white" | "black")) = winner(game) {
                decisive += 1;
                assert_eq!(entry["winner"], side, "{}", context());
                assert_eq!(entry["over"], true, "{}", context());
            }
        }
        assert!(decisive > 0, "{name}: some games were played to a win");
    }
}
