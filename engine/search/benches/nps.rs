//! Alpha-beta's speed on one core: nodes per second from the start position and three
//! middle-game positions, each searched from a fresh searcher to a node budget.
//!
//! `cargo bench -p search --bench nps` prints each position's depth, nodes, time and speed, and
//! the speed over all four. A plain harness: the figures are what matters. `NPS_NODES=N` sets
//! another budget a position, so that `valgrind --tool=callgrind` (which counts instructions,
//! stable on a shared machine, but runs fifty times slower) profiles a short search.
//! `NPS_THREADS=N` searches with Lazy SMP on N threads (the node budget is then each
//! thread's, and the nodes counted are all threads'). `NPS_EVAL=FILE` searches with that
//! learned evaluation (`models/russian-eval.onnx`) instead of the hand-written one.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use evalnet::EvalNet;
use rules::{Position, Variant, fen};
use search::{Limits, Searcher};

/// Nodes per position (about a second) unless `NPS_NODES` says otherwise.
const NODES: u64 = 5_000_000;

/// Middle-game positions from the tactics suite's games (`tests/data/tactics-russian.txt`).
const MIDDLE: [&str; 3] = [MIDDLE_1, MIDDLE_2, MIDDLE_3];
const MIDDLE_1: &str = "W:Wa1,b4,c1,c3,d2,e1,h2,h4:Ba5,a7,b6,d6,d8,f2,f4,g5,h6,h8";
const MIDDLE_2: &str = "B:Wb4,c1,e1,e3,f2,f4,g3,h4:Ba5,b8,c5,d6,f6,g7,h6,h8";
const MIDDLE_3: &str = "B:Wa1,b4,c1,d2,e3,f2,f4,g1,g3:Ba5,b8,c5,d6,e5,f8,h8";

fn main() {
    let nodes = std::env::var("NPS_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(NODES);
    let threads = std::env::var("NPS_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let evalnet = std::env::var_os("NPS_EVAL").map(|path| {
        let net = EvalNet::load(path.as_ref()).unwrap_or_else(|err| panic!("NPS_EVAL: {err}"));
        Arc::new(net)
    });
    let limits = Limits { depth: 64, nodes };
    let mut all_nodes = 0u64;
    let mut all_seconds = 0.0;
    let mut positions = vec![("start".to_owned(), Position::new(Variant::Russian))];
    for (i, text) in MIDDLE.iter().enumerate() {
        let position = fen::parse(Variant::Russian, text).expect(text);
        positions.push((format!("middle {}", i + 1), position));
    }
    for (name, position) in positions {
        let started = Instant::now();
        let mut searcher = Searcher::new(16).with_threads(threads);
        searcher.set_evalnet(evalnet.clone());
        let result = searcher.search(&position, &[], limits, &AtomicBool::new(false));
        let seconds = started.elapsed().as_secs_f64();
        all_nodes += result.nodes;
        all_seconds += seconds;
        println!(
            "{name:<9} depth {:>2} nodes {:>8} in {seconds:.3} s: {:.2} M nodes/s",
            result.depth,
            result.nodes,
            result.nodes as f64 / seconds / 1e6
        );
    }
    println!(
        "all       {all_nodes} nodes in {all_seconds:.3} s: {:.2} M nodes/s",
        all_nodes as f64 / all_seconds / 1e6
    );
}
