//! When the loop thinks on the visitor's time: as `play.ponder` says, and never on the loop's
//! own thread (a `--fast` simulation on the paused clock must replay exactly).

use super::{LoopConfig, ThinkOn};

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
