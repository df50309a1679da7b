//! Thinking on the visitor's time ([`Brain::ponder`]): it ends when the flag is raised, and it
//! is idle where it cannot help.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use checkerbot_config::Settings;
use rules::{Game, Variant};

use super::Brain;
use crate::levels::UNTIMED_NODES;

fn brain_at(level: u8) -> Brain {
    let mut settings = Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Fixed(level);
    Brain::new(&settings, 7)
}

#[test]
fn pondering_ends_when_the_flag_is_raised_and_has_searched_meanwhile() {
    let mut brain = brain_at(5);
    let game = Game::new(Variant::Russian);
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        })
    };
    // Without the flag it would search the opening to its node cap, tens of seconds.
    let nodes = brain.ponder(game.position(), &[], &stop);
    raiser.join().unwrap();
    assert!(nodes > 0, "it searched nothing");
    assert!(nodes < UNTIMED_NODES, "it ran to its cap: {nodes} nodes");
}

#[test]
fn the_weaker_levels_do_not_ponder() {
    let game = Game::new(Variant::Russian);
    let stop = AtomicBool::new(false);
    for level in 1..=4 {
        let mut brain = brain_at(level);
        assert!(!brain.ponders(), "level {level}");
        assert_eq!(
            brain.ponder(game.position(), &[], &stop),
            0,
            "level {level}"
        );
    }
    assert!(brain_at(5).ponders());
}
