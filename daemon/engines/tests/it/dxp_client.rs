//! The DXP client against `checkerbot dxp --listen` over loopback TCP: moves, a whole game, a
//! take-back and a new game from a set-up position, each of the last two a new DXP game; and
//! `daemon/tests/engines/dxp_proxy.py` in front of it as an engine that closes the connection,
//! never answers, answers an illegal move or refuses the game, each a fault naming the engine,
//! after which the next move is played again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use checkerbot_config::EngineSpec;
use external_engines::dxp::DxpEngine;
use player::{ExternalEngine as _, FaultKind};
use rules::{Game, Position, Variant};
use testkit::Lcg;
use testkit::listening::{self, Listening};

/// The client's move time; the listener is told a tenth of it, so that it always answers in
/// time on a loaded machine.
const MOVE_TIME: Duration = Duration::from_millis(300);

/// `checkerbot dxp`'s binary, or `None` (the test is skipped, saying so) when it is not built.
fn checkerbot() -> Option<PathBuf> {
    testkit::workspace_binary("checkerbot")
}

/// `checkerbot dxp --listen 127.0.0.1:0`, logging each game to `log`.
fn listener(checkerbot: &Path, log: &str) -> Listening {
    let mut command = Command::new(checkerbot);
    command
        .args(["dxp", "--listen", "127.0.0.1:0", "--move-time-ms", "30"])
        .env("RUST_LOG", "info");
    Listening::start(command, &testkit::scratch_dir().join(log))
}

/// `dxp_proxy.py MODE N` in front of `upstream`.
fn proxy(mode: &str, n: u32, upstream: &Listening, log: &str) -> Listening {
    listening::dxp_proxy(mode, n, upstream.port, &testkit::scratch_dir().join(log))
}

fn engine_at(port: u16) -> DxpEngine {
    let spec = EngineSpec::parse(&format!("dxp:127.0.0.1:{port}")).unwrap();
    DxpEngine::new(&spec, MOVE_TIME)
}

fn not_stopped() -> AtomicBool {
    AtomicBool::new(false)
}

/// The games `checkerbot dxp` accepted, from its log.
fn games_accepted(log: &str) -> usize {
    std::fs::read_to_string(testkit::scratch_dir().join(log))
        .unwrap()
        .matches("DXP game from checkerbot")
        .count()
}

/// Plays `game` on with the engine on its side (the side to move) against a seeded random
/// mover, until the rules end it or `plies` more plies are played.
fn play_on(engine: &mut DxpEngine, game: &mut Game, rng: &mut Lcg, plies: usize) {
    let ours = game.position().turn();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        let position = *game.position();
        let mv = if position.turn() == ours {
            let positions = game.positions();
            let history = &positions[..positions.len() - 1];
            engine
                .choose(&position, history, &not_stopped())
                .unwrap_or_else(|fault| panic!("{fault} at {}", rules::fen::write(&position)))
        } else {
            let moves = position.legal_moves();
            moves[rng.below(moves.len())]
        };
        game.play(&mv).unwrap();
    }
}

#[test]
fn checkerbot_dxp_plays_a_whole_game_then_a_take_back_and_a_set_up_position_start_new_games() {
    let Some(checkerbot) = checkerbot() else {
        return;
    };
    let log = "dxp-client-games.log";
    let listening = listener(&checkerbot, log);
    let mut engine = engine_at(listening.port);
    assert_eq!(
        engine.describe(),
        format!("dxp:127.0.0.1:{}, 300 ms a move", listening.port)
    );
    let mut rng = Lcg(11);

    // A whole game, the engine White: level 5 beats a random mover well within 300 plies.
    let mut game = Game::new(Variant::International);
    play_on(&mut engine, &mut game, &mut rng, 300);
    assert!(game.outcome().is_some(), "{} plies", game.positions().len());
    assert_eq!(games_accepted(log), 1);

    // A few moves of another game, then back two plies: the engine to move again, in a
    // position it has seen, which is not where its game stands.
    let mut game = Game::new(Variant::International);
    play_on(&mut engine, &mut game, &mut rng, 8);
    assert_eq!(games_accepted(log), 2);
    let positions = game.positions();
    let earlier = positions[positions.len() - 3];
    let mv = engine
        .choose(&earlier, &positions[..positions.len() - 3], &not_stopped())
        .unwrap();
    assert!(earlier.legal_moves().contains(&mv));
    assert_eq!(games_accepted(log), 3);

    // A set-up position with Black to move: a game request carrying it, the engine Black.
    let set_up =
        rules::fen::parse(Variant::International, "B:W27,28,32,33,K45:B12,13,17,19").unwrap();
    let mut game = Game::from_position(set_up);
    play_on(&mut engine, &mut game, &mut rng, 6);
    assert_eq!(games_accepted(log), 4);
}

/// The first move through `mode`'s proxy is played, the second is a fault of `kind` naming
/// the engine and saying `said`, and the move after it is played again (a new game on a new
/// connection).
fn fault_then_recovery(mode: &str, kind: FaultKind, said: &str) {
    let Some(checkerbot) = checkerbot() else {
        return;
    };
    let upstream = listener(&checkerbot, &format!("dxp-client-{mode}-engine.log"));
    let proxy = proxy(mode, 2, &upstream, &format!("dxp-client-{mode}-proxy.log"));
    let mut engine = engine_at(proxy.port);
    let start = Position::new(Variant::International);
    let first = engine.choose(&start, &[], &not_stopped()).unwrap();
    let later = start.play(&first).unwrap();
    let now = later.play(&later.legal_moves()[0]).unwrap();
    let fault = engine
        .choose(&now, &[start, later], &not_stopped())
        .unwrap_err();
    assert_eq!(fault.engine, format!("dxp:127.0.0.1:{}", proxy.port));
    assert_eq!(fault.kind, kind, "{fault}");
    assert!(fault.detail.contains(said), "{fault}");
    let again = engine
        .choose(&now, &[start, later], &not_stopped())
        .unwrap_or_else(|fault| panic!("after {mode}: {fault}"));
    assert!(now.legal_moves().contains(&again));
}

#[test]
fn an_engine_that_closes_the_connection_mid_game_died_and_is_connected_again() {
    fault_then_recovery("close", FaultKind::Died, "closed the connection");
}

#[test]
fn an_engine_that_never_answers_hung_and_is_connected_again() {
    fault_then_recovery("silent", FaultKind::Hung, "no move within 1.3 s");
}

#[test]
fn an_engine_that_answers_an_illegal_move_is_refused_and_connected_again() {
    fault_then_recovery("illegal", FaultKind::IllegalMove, "1-2 is not a legal move");
}

#[test]
fn a_refused_game_is_a_start_fault_with_the_reason_and_the_next_request_is_played() {
    let Some(checkerbot) = checkerbot() else {
        return;
    };
    let upstream = listener(&checkerbot, "dxp-client-refuse-engine.log");
    let proxy = proxy("refuse", 1, &upstream, "dxp-client-refuse-proxy.log");
    let mut engine = engine_at(proxy.port);
    let start = Position::new(Variant::International);
    let fault = engine.choose(&start, &[], &not_stopped()).unwrap_err();
    assert_eq!(fault.kind, FaultKind::Start, "{fault}");
    let said = "dxp_proxy refused the game: not this game, another one is welcome";
    assert!(fault.detail.contains(said), "{fault}");
    assert_eq!(fault.engine, format!("dxp:127.0.0.1:{}", proxy.port));
    let mv = engine.choose(&start, &[], &not_stopped()).unwrap();
    assert!(start.legal_moves().contains(&mv));
}
