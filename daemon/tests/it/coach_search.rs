//! The coach against the robot's real search: positions with a known blunder give the right
//! rating and a sentence naming the right squares, in three languages
//! (`tests/data/known-blunders.txt`).

use std::sync::atomic::AtomicBool;

use emotions::{Language, Millis, Mind, Settings};
use host::{Action, CoachSettings, Event, Host, LogEvent, SearchReply};
use rules::recognition::outcome;
use rules::{Color, Move, Position, Variant, fen, notation};

/// The robot's search at level 5, as the daemon runs it, untimed so it replays exactly.
fn search(brain: &mut player::Brain, position: &Position) -> SearchReply {
    let thought = brain
        .think(position, &[], &AtomicBool::new(false))
        .expect("the position has a move");
    SearchReply {
        mv: thought.mv,
        v: thought.v,
        raw_v: thought.raw_v,
        pv: thought.pv,
        think_ms: 0,
    }
}

/// One case of the file: the robot's forced move from `start`, the visitor's move after it,
/// and the robot's searches before and after the visitor's move (made once, said in every
/// language).
struct Case {
    start: Position,
    forced: Move,
    blunder: Move,
    before: SearchReply,
    after: SearchReply,
}

impl Case {
    /// Plays `robot_move` (the only legal one) and `visitor_move` from `fen_text`, searching
    /// as the robot does at level 5.
    fn searched(fen_text: &str, robot_move: &str, visitor_move: &str) -> Case {
        let mut settings = checkerbot_config::Settings::default();
        settings.play.level = checkerbot_config::PlayLevel::Fixed(5);
        let mut brain = player::Brain::new(&settings, 1);
        let start = fen::parse(Variant::Russian, fen_text).unwrap();
        let forced = notation::parse_move(&start, robot_move).unwrap();
        assert_eq!(
            start.legal_moves(),
            [forced],
            "{fen_text}: the robot's only move"
        );
        let before = search(&mut brain, &start);
        let position = start.play(&forced).unwrap();
        let blunder = notation::parse_move(&position, visitor_move).unwrap();
        let after = search(&mut brain, &position.play(&blunder).unwrap());
        Case {
            start,
            forced,
            blunder,
            before,
            after,
        }
    }

    /// What the coach logs after the visitor's move, in `language`: the rating, the squares
    /// and the sentence.
    fn advice(&self, language: Language) -> (String, Vec<String>, String) {
        let (mut host, _) = Host::at_robots_turn(
            self.start,
            Color::Black,
            Mind::new(Settings::default(), 1),
            Millis(0),
        );
        host.set_language(language);
        host.set_coach(CoachSettings {
            take_backs: false,
            ..CoachSettings::default()
        });
        host.handle(Event::SearchDone(self.before.clone()), Millis(1_000));
        host.handle(
            Event::ArmDone(outcome(&self.start, &self.forced)),
            Millis(2_000),
        );
        let position = *host.game().position();
        host.handle(
            Event::Button(outcome(&position, &self.blunder)),
            Millis(3_000),
        );
        let actions = host.handle(Event::SearchDone(self.after.clone()), Millis(4_000));
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
            .unwrap_or_else(|| panic!("{:?}: not rated: {actions:?}", self.blunder))
    }
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
        let case = Case::searched(fen_text, robot_move, visitor_move);
        for language in Language::ALL {
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("{heading}: no {language} line"));
            let want = line
                .strip_prefix(&format!("{}: ", language.code()))
                .unwrap_or_else(|| panic!("{heading}: expected the {language} line: {line}"));
            let (kind, mut named, said) = case.advice(language);
            named.sort();
            assert_eq!(kind, rating, "{heading}");
            assert_eq!(named, squares, "{heading}");
            assert_eq!(said, want, "{heading} ({language})");
        }
        cases += 1;
    }
    assert!(cases >= 4, "only {cases} cases read");
}
