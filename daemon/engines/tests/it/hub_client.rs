use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use checkerbot_config::EngineSpec;
use external_engines::hub::HubEngine;
use player::{ExternalEngine as _, FaultKind};
use rules::{Position, Variant, notation};

fn scripted(arguments: &str) -> HubEngine {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/engines/scripted_hub.py");
    let spec = EngineSpec::parse(&format!("hub:python3 {} {arguments}", script.display())).unwrap();
    HubEngine::new(&spec, Duration::from_millis(100))
}

fn not_stopped() -> AtomicBool {
    AtomicBool::new(false)
}

#[test]
fn a_legal_move_is_read_and_an_illegal_one_is_a_fault_then_the_engine_starts_again() {
    let mut engine = scripted("a3-b4");
    let start = Position::new(Variant::Russian);
    let mv = engine.choose(&start, &[], &not_stopped()).unwrap();
    assert_eq!(mv, notation::parse_move(&start, "a3-b4").unwrap());
    let later = start.play(&mv).unwrap();
    let reply = later.legal_moves()[0];
    let after = later.play(&reply).unwrap();
    let fault = engine
        .choose(&after, &[start, later], &not_stopped())
        .unwrap_err();
    assert_eq!(fault.kind, FaultKind::IllegalMove);
    assert!(fault.to_string().contains("hub:scripted_hub.py"), "{fault}");
    assert!(fault.to_string().contains("9-13"), "{fault}");
    // A fresh process answers again.
    assert!(engine.choose(&start, &[], &not_stopped()).is_ok());
}

#[test]
fn an_engine_that_exits_mid_search_died_with_its_status() {
    let mut engine = scripted("exit");
    let fault = engine
        .choose(&Position::new(Variant::Russian), &[], &not_stopped())
        .unwrap_err();
    assert_eq!(fault.kind, FaultKind::Died);
    assert!(fault.detail.contains("exit status: 5"), "{fault}");
}

#[test]
fn a_search_without_a_move_and_an_endless_line_break_the_protocol() {
    let start = Position::new(Variant::Russian);
    let fault = scripted("no-move")
        .choose(&start, &[], &not_stopped())
        .unwrap_err();
    assert_eq!(fault.kind, FaultKind::Protocol);
    assert!(fault.detail.contains("no position"), "{fault}");
    let fault = scripted("flood")
        .choose(&start, &[], &not_stopped())
        .unwrap_err();
    assert_eq!(fault.kind, FaultKind::Protocol);
    assert!(fault.detail.contains("longer than"), "{fault}");
}

#[test]
fn an_engine_without_the_variant_is_refused_at_its_start() {
    let fault = scripted("a3-b4 plain")
        .choose(&Position::new(Variant::Russian), &[], &not_stopped())
        .unwrap_err();
    assert_eq!(fault.kind, FaultKind::Start);
    assert!(fault.detail.contains("does not play russian"), "{fault}");
    let id = scripted("a3-b4 plain")
        .greet(Variant::International)
        .unwrap();
    assert_eq!(id, "scripted 1");
}
