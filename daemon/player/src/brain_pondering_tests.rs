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

/// A stop flag and the thread that raises it after `delay`, as the visitor's press would.
fn flag_raised_after(delay: Duration) -> (Arc<AtomicBool>, std::thread::JoinHandle<()>) {
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            stop.store(true, Ordering::Relaxed);
        })
    };
    (stop, raiser)
}

#[test]
fn pondering_ends_when_the_flag_is_raised_and_has_searched_meanwhile() {
    let mut brain = brain_at(5);
    let game = Game::new(Variant::Russian);
    let (stop, raiser) = flag_raised_after(Duration::from_millis(100));
    // Without the flag it would search the opening to its node cap, tens of seconds.
    let nodes = brain.ponder(game.position(), &[], &stop).nodes;
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
            brain.ponder(game.position(), &[], &stop).nodes,
            0,
            "level {level}"
        );
    }
    assert!(brain_at(5).ponders());
}

/// A level-5 brain whose book (in `models`) holds the position after each of the visitor's
/// first moves but those `left_out`.
fn brain_with_a_book_of_every_first_reply(models: &std::path::Path, left_out: usize) -> Brain {
    use crate::book::{BookMove, OpeningBook, book_path};
    let mut settings = Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Fixed(5);
    settings.paths.models_dir = Some(models.to_path_buf());
    let start = *Game::new(Variant::Russian).position();
    let mut book = OpeningBook::new(Variant::Russian);
    for mv in start.legal_moves().iter().skip(left_out) {
        let after = start.play(mv).unwrap();
        let reply = after.legal_moves()[0];
        book.insert(
            after,
            vec![BookMove {
                mv: reply,
                score: 0,
            }],
        );
    }
    std::fs::write(book_path(&settings, Variant::Russian), book.write(&[])).unwrap();
    Brain::new(&settings, 7)
}

#[test]
fn level_5_does_not_ponder_where_its_book_answers_every_move_of_the_visitor() {
    let dir = tempfile::tempdir().unwrap();
    let start = *Game::new(Variant::Russian).position();
    let mut brain = brain_with_a_book_of_every_first_reply(dir.path(), 0);
    // Never raised: were it to search, it would run to its node cap.
    let done = brain.ponder(&start, &[], &AtomicBool::new(false));
    assert!(done.book, "{done:?}");
    assert_eq!(done.nodes, 0, "it searched although the book answers");

    // One move of the visitor leads out of the book: the search has work to warm.
    let mut brain = brain_with_a_book_of_every_first_reply(dir.path(), 1);
    let (stop, raiser) = flag_raised_after(Duration::from_millis(100));
    let done = brain.ponder(&start, &[], &stop);
    raiser.join().unwrap();
    assert!(!done.book && done.nodes > 0, "{done:?}");
}
