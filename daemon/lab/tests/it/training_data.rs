//! `checkerbot-lab datagen` and `checkerbot-lab selfplay` write training records that
//! `training/data.py` can read: every record decodes to a position with a choice of moves, its
//! policy target lies on those moves' indices and sums to one, its labels are in range; a seed
//! replays the same file; a wrong model is refused before anything is written.

use std::path::{Path, PathBuf};
use std::process::Command;

use network::policy::PolicyMap;
use rules::{Color, Position, Variant, fen};

const SIDE: usize = 8;
const POLICY: usize = 280;
/// Planes 0-3 as bits, the policy bytes, two `f32`.
const RECORD: usize = 4 * SIDE * SIDE / 8 + POLICY + 8;

fn checkerbot(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_checkerbot-lab"))
        .args(args)
        .output()
        .expect("checkerbot-lab runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("training-data");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Whether the development copy of ONNX Runtime (`scripts/install-deps`) or `ORT_DYLIB_PATH`
/// is there; says why a test is skipped when not.
fn onnxruntime_installed() -> bool {
    let lib = checkerbot_config::PathSettings::source_onnxruntime_dir();
    let installed = lib.is_dir() || std::env::var_os("ORT_DYLIB_PATH").is_some();
    if !installed {
        eprintln!("skipped: no ONNX Runtime in {}", lib.display());
    }
    installed
}

/// The position a record's planes show, with the side to move (the viewer) as White: the
/// encoding turns Black's positions so that this twin has the same planes and policy indices.
fn decode(planes: &[u8]) -> Position {
    let mut lists: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for plane in 0..4 {
        for cell in 0..SIDE * SIDE {
            let bit = plane * SIDE * SIDE + cell;
            if planes[bit / 8] & (1 << (bit % 8)) == 0 {
                continue;
            }
            let (row, col) = (cell / SIDE, cell % SIDE);
            assert_eq!((row + col) % 2, 0, "a piece on a light cell");
            let king = if plane % 2 == 1 { "K" } else { "" };
            let file = char::from(b'a' + col as u8);
            lists[plane / 2].push(format!("{king}{file}{}", row + 1));
        }
    }
    let text = format!("W:W{}:B{}", lists[0].join(","), lists[1].join(","));
    fen::parse(Variant::Russian, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Checks every record of a file and returns how many there are.
fn check_records(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(
        bytes.len() % RECORD,
        0,
        "{}: a partial record",
        path.display()
    );
    let map = PolicyMap::new(Variant::Russian.geometry());
    let mut results = Vec::new();
    for record in bytes.chunks(RECORD) {
        let (planes, rest) = record.split_at(4 * SIDE * SIDE / 8);
        let (policy, labels) = rest.split_at(POLICY);
        let position = decode(planes);
        let moves = position.legal_moves();
        assert!(moves.len() >= 2, "a position without a choice was written");
        let allowed: Vec<usize> = moves
            .iter()
            .map(|mv| {
                map.index(Color::White, mv)
                    .expect("every move has an index")
            })
            .collect();
        let mut total = 0u32;
        for (index, &p) in policy.iter().enumerate() {
            assert!(
                p == 0 || allowed.contains(&index),
                "{}: target on index {index}, no legal move there",
                fen::write(&position)
            );
            total += u32::from(p);
        }
        // Each byte is rounded from 255 * p, so the sum is 255 give or take half a unit per move.
        let slack = moves.len() as u32;
        assert!(
            (255 - slack..=255 + slack).contains(&total),
            "policy target sums to {total}/255"
        );
        let search_v = f32::from_le_bytes(labels[..4].try_into().unwrap());
        let result = f32::from_le_bytes(labels[4..].try_into().unwrap());
        assert!((0.0..=1.0).contains(&search_v), "search v {search_v}");
        assert!([0.0, 0.5, 1.0].contains(&result), "result {result}");
        results.push(result);
    }
    assert!(
        results.iter().any(|r| (*r - 0.5).abs() > 0.25),
        "no decided game among {} records",
        results.len()
    );
    results.len()
}

/// Runs `command` (without `--seed` and `--out`) with seed 5 twice and seed 6 once, checks the
/// records, that the seed replays the same file and that another seed gives another one.
fn check_replays(name: &str, command: &[&str], says: &str) {
    let write = |file: &str, seed: &str| {
        let out = scratch(&format!("{name}-{file}.bin"));
        let args = [command, &["--seed", seed, "--out", out.to_str().unwrap()]].concat();
        let (ok, text) = checkerbot(&args);
        assert!(ok, "{text}");
        assert!(text.contains(says), "{text}");
        out
    };
    let a = write("a", "5");
    assert_eq!(check_records(&a), 150);
    let again = write("b", "5");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&again).unwrap());
    let other = write("c", "6");
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&other).unwrap());
}

#[test]
fn datagen_records_fit_their_positions_and_replay_from_the_seed() {
    let command = [
        "datagen",
        "--variant",
        "russian",
        "--positions",
        "150",
        "--depth",
        "3",
    ];
    check_replays("datagen", &command, "150 positions from");
}

#[test]
fn selfplay_records_fit_their_positions_and_replay_from_the_seed() {
    if !onnxruntime_installed() {
        return;
    }
    let model = models().join("russian-gen1.onnx");
    let command = [
        "selfplay",
        "--variant",
        "russian",
        "--positions",
        "150",
        "--playouts",
        "24",
        "--model",
        model.to_str().unwrap(),
    ];
    check_replays(
        "selfplay",
        &command,
        "24 playouts a move: 150 positions from",
    );
}

#[test]
fn selfplay_refuses_a_wrong_model_and_keeps_the_file_it_would_replace() {
    let out = scratch("kept.bin");
    std::fs::write(&out, "earlier data").unwrap();
    let run = |model: &Path| {
        checkerbot(&[
            "selfplay",
            "--variant",
            "russian",
            "--positions",
            "10",
            "--model",
            model.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let missing = models().join("russian-gen99.onnx");
    let (ok, text) = run(&missing);
    assert!(!ok);
    assert!(text.contains("russian-gen99.onnx"), "{text}");
    if onnxruntime_installed() {
        let (ok, text) = run(&models().join("brazilian-gen1.onnx"));
        assert!(!ok);
        assert!(text.contains("brazilian"), "{text}");
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier data");
}
