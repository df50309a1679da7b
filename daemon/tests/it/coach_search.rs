//! The coach against the robot's real search: positions with a known blunder give the right
//! rating and a sentence naming the right squares, in three languages
//! (`tests/data/known-blunders.txt`).

use std::sync::atomic::AtomicBool;

use emotions::{Language, Millis, Mind, Settings};
use host::{Action, CoachSettings, Event, Host, LogEvent, SearchReply};
use rules::recognition::outcome;
use rules::{Color, Position, Variant, fen, notation};

/// The robot's search at level 5, as the daemon runs it, untimed so it replays exactly.
fn search(brain: &mut player::Brain, position: &Position) -> SearchReply {
    let thought = brain
        .think(position, &[], &AtomicBool::new(false))
        .expect("the position has a move");
    SearchReply {
        mv: thought.mv,
        v: thought.v,
        pv: thought.pv,
        think_ms: 0,
    }
}

/// What the coach logs after the visitor's move in `case`, in `language`.
fn advice(case: &[&str; 3], language: Language) -> (String, Vec<String>, String) {
    let [fen_text, robot_move, visitor_move] = *case;
    let mut settings = checkerbot_config::Settings::default();
    settings.play.level = checkerbot_config::PlayLevel::Fixed(5);
    let mut brain = player::Brain::new(&settings, 1);
    let start = fen::parse(Variant::Russian, fen_text).unwrap();
    let (mut host, _) = Host::at_robots_turn(
        start,
        Color::Black,
        Mind::new(Settings::default(), 1),
        Millis(0),
    );
    host.set_language(language);
    host.set_coach(CoachSettings {
        take_backs: false,
        ..CoachSettings::default()
    });
    let forced = notation::parse_move(&start, robot_move).unwrap();
    assert_eq!(
        start.legal_moves(),
        [forced],
        "{fen_text}: the robot's only move"
    );
    let reply = search(&mut brain, &start);
    host.handle(Event::SearchDone(reply), Millis(1_000));
    host.handle(Event::ArmDone(outcome(&start, &forced)), Millis(2_000));
    let position = *host.game().position();
    let blunder = notation::parse_move(&position, visitor_move).unwrap();
    host.handle(Event::Button(outcome(&position, &blunder)), Millis(3_000));
    let after = *host.game().position();
    let reply = search(&mut brain, &after);
    let actions = host.handle(Event::SearchDone(reply), Millis(4_000));
    actions
        .iter()
        .find_map(|action| match action {
            Action::Log(LogEvent::Advice {
                kind,
                squares,
                text,
                ..
            }) => Some((kind.as_str().to_owned(), squares.clone(), text.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{fen_text} {visitor_move}: not rated: {actions:?}"))
}

#[test]
fn known_blunders_are_rated_and_explained_with_their_squares_in_every_language() {
    let text = include_str!("../data/known-blunders.txt");
    let mut lines = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .peekable();
    let mut cases = 0;
    while let Some(heading) = lines.next() {
        let fields: Vec<&str> = heading.split('|').map(str::trim).collect();
        let [fen_text, robot_move, visitor_move, rating, squares] = fields[..] else {
            panic!("expected 5 fields: {heading}")
        };
        let mut squares: Vec<String> = squares.split_whitespace().map(str::to_owned).collect();
        squares.sort();
        for language in Language::ALL {
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("{heading}: no {language} line"));
            let want = line
                .strip_prefix(&format!("{}: ", language.code()))
                .unwrap_or_else(|| panic!("{heading}: expected the {language} line: {line}"));
            let (kind, mut named, said) = advice(&[fen_text, robot_move, visitor_move], language);
            named.sort();
            assert_eq!(kind, rating, "{heading}");
            assert_eq!(named, squares, "{heading}");
            assert_eq!(said, want, "{heading} ({language})");
        }
        cases += 1;
    }
    assert!(cases >= 1, "no case read");
}
