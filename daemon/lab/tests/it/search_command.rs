//! `checkerbot-lab search` as a script drives it: `--json` answers one object whose move is
//! legal, `--moves` makes the search see a repetition, `--move-time-ms` stops the search, and
//! a bad position, move or option is an error that names it, with exit status 1 (2 for an
//! option the command line does not know).

use std::process::Command;

use rules::{Variant, fen, notation};
use serde_json::Value;

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn search(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot-lab"))
        .arg("search")
        .args(args)
        .output()
        .expect("checkerbot-lab runs");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn json(args: &[&str]) -> Value {
    let run = search(args);
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {}", run.stdout);
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]))
}

/// A middle-game position with a choice of moves.
const MIDDLE: &str = "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba5,a7,b6,b8,c7,d6,d8,e7,f6,g7,h6,h8";

#[test]
fn json_answer_has_every_field_and_a_legal_move() {
    let answer = json(&[
        "--variant",
        "russian",
        "--fen",
        MIDDLE,
        "--nodes",
        "20000",
        "--json",
    ]);
    let position = fen::parse(Variant::Russian, MIDDLE).unwrap();
    let text = answer["move"].as_str().expect("a move");
    let mv = notation::parse_move(&position, text).expect("a legal move");
    assert_eq!(notation::move_text(Variant::Russian, &mv), text);
    let squares = |key: &str| -> Vec<String> {
        answer[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key} is an array: {answer}"))
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    let path: Vec<String> = mv
        .path()
        .map(|sq| notation::square_name(Variant::Russian, sq))
        .collect();
    assert_eq!(squares("path"), path);
    assert_eq!(squares("captures").len(), mv.captured().count() as usize);
    let pv = squares("pv");
    assert_eq!(pv.first().map(String::as_str), Some(text), "{answer}");
    for key in ["score", "depth", "nodes", "nps", "time_ms"] {
        assert!(answer[key].is_number(), "{key}: {answer}");
    }
    let v = answer["v"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&v), "{answer}");
    assert!(answer["depth"].as_u64().unwrap() >= 1);
    // The node budget is the only limit: no default depth caps it.
    let nodes = answer["nodes"].as_u64().unwrap();
    assert!((20_000..20_100).contains(&nodes), "{answer}");
}

#[test]
fn no_legal_move_is_a_null_move() {
    let answer = json(&["--variant", "russian", "--fen", "W:Wa1:Bb2,c3", "--json"]);
    assert!(answer["move"].is_null(), "{answer}");
    assert_eq!(answer["pv"], serde_json::json!([]));
}

#[test]
fn moves_after_the_fen_let_the_search_see_a_repetition() {
    // One king against two: a king down, unless White can repeat the position.
    let start = "W:WKa1:BKc7,Kh2";
    let fresh = json(&[
        "--variant",
        "russian",
        "--fen",
        start,
        "--depth",
        "6",
        "--json",
    ]);
    assert!(fresh["score"].as_i64().unwrap() < -100, "{fresh}");
    let repeated = json(&[
        "--variant",
        "russian",
        "--fen",
        start,
        "--moves",
        "a1-b2",
        "c7-b8",
        "b2-a1",
        "b8-c7",
        "--depth",
        "6",
        "--json",
    ]);
    assert_eq!(repeated["move"], "a1-b2", "{repeated}");
    assert_eq!(repeated["score"], 0, "a repetition is a draw: {repeated}");
}

#[test]
fn move_time_stops_an_otherwise_unlimited_search() {
    let answer = json(&[
        "--variant",
        "russian",
        "--fen",
        MIDDLE,
        "--move-time-ms",
        "200",
        "--json",
    ]);
    assert!(answer["depth"].as_u64().unwrap() >= 1, "{answer}");
    assert!(answer["move"].is_string(), "{answer}");
}

#[test]
fn text_answer_stays_the_default() {
    let run = search(&["--variant", "russian", "--depth", "4"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut lines = run.stdout.lines();
    assert!(lines.next().unwrap().starts_with("best "), "{}", run.stdout);
    assert!(lines.next().unwrap().starts_with("pv "), "{}", run.stdout);
}

#[test]
fn bad_input_is_named_with_exit_status_1_or_2() {
    let bad_fen = search(&["--variant", "russian", "--fen", "W:Wz9:Bb8", "--json"]);
    assert_eq!(bad_fen.code, Some(1));
    assert!(bad_fen.stderr.contains("--fen"), "{}", bad_fen.stderr);
    assert!(bad_fen.stdout.is_empty(), "{}", bad_fen.stdout);

    let illegal = search(&[
        "--variant",
        "russian",
        "--moves",
        "c3-d4",
        "c3-d4",
        "--json",
    ]);
    assert_eq!(illegal.code, Some(1));
    assert!(
        illegal.stderr.contains("move 2") && illegal.stderr.contains("c3-d4"),
        "{}",
        illegal.stderr
    );

    let garbled = search(&["--variant", "russian", "--moves", "c3-d4", "zz"]);
    assert_eq!(garbled.code, Some(1));
    assert!(
        garbled.stderr.contains("move 2 (\"zz\")"),
        "{}",
        garbled.stderr
    );

    let option = search(&["--variant", "russian", "--move-time", "100"]);
    assert_eq!(option.code, Some(2));
    assert!(option.stderr.contains("--move-time"), "{}", option.stderr);

    let value = search(&["--variant", "russian", "--nodes", "many"]);
    assert_eq!(value.code, Some(2));
    assert!(value.stderr.contains("--nodes"), "{}", value.stderr);
}

#[test]
fn egdb_tables_prove_a_win_below_the_root() {
    // White's king on g1 must take the man on c5, leaving three kings against one off the
    // main diagonal: a win the evaluation alone scores as a couple of kings up.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lab-search-egdb-{}", std::process::id()));
    egdb::build(Variant::Russian, 4, Some(&dir), &mut |_| {}).unwrap();
    let start = "W:WKa1,Kc1,Kg1:BKh4,c5";
    let args = [
        "--variant",
        "russian",
        "--fen",
        start,
        "--depth",
        "4",
        "--json",
    ];
    let plain = json(&args);
    assert!(plain["score"].as_i64().unwrap() < 19_000, "{plain}");
    assert_eq!(plain["tb_hits"], 0, "{plain}");
    let dir_text = dir.to_str().unwrap();
    let proved = json(&[&args[..], &["--egdb", dir_text, "--egdb-pieces", "4"]].concat());
    let score = proved["score"].as_i64().unwrap();
    assert!((19_000..29_000).contains(&score), "{proved}");
    assert!(proved["tb_hits"].as_u64().unwrap() > 0, "{proved}");
    let egdb_args = ["--egdb", dir_text, "--egdb-pieces", "4"];
    let text = search(&[&args[..args.len() - 1], &egdb_args].concat());
    assert!(text.stdout.contains(" table hits"), "{}", text.stdout);
    let missing = search(&[&args[..6], &["--egdb", "/nonexistent/egdb"]].concat());
    assert_eq!(missing.code, Some(1), "{}", missing.stderr);
    assert!(
        missing.stderr.contains("/nonexistent/egdb"),
        "{}",
        missing.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
