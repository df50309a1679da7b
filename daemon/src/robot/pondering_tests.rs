//! When the loop thinks on the visitor's time: as `play.ponder` says, and never on the loop's
//! own thread (a `--fast` simulation on the paused clock must replay exactly).

use rules::{Game, Variant};

use super::{LoopConfig, PonderedOnce, ThinkOn};

fn ponders(ponder: bool, think_on: ThinkOn) -> bool {
    let mut settings = checkerbot_config::Settings::default();
    settings.play.ponder = ponder;
    LoopConfig::from_settings(&settings, None, 300, think_on).ponder
}

#[test]
fn the_loop_ponders_on_a_worker_thread_only_when_the_setting_says_so() {
    assert!(ponders(true, ThinkOn::Worker));
    assert!(!ponders(false, ThinkOn::Worker));
    assert!(!ponders(true, ThinkOn::LoopThread));
}

#[test]
fn each_position_is_pondered_once_a_game_and_a_new_game_ponders_its_start_again() {
    let start = *Game::new(Variant::Russian).position();
    let mut pondered = PonderedOnce::default();
    assert!(pondered.first_time(1, &start));
    assert!(
        !pondered.first_time(1, &start),
        "pondered twice in one game"
    );
    pondered.new_game();
    assert!(
        pondered.first_time(1, &start),
        "the next game's start, the same as the last one's, was not pondered"
    );
}
