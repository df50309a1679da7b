//! Take-backs: the robot holds its reply to a blunder and offers to take it back; the board
//! back where it was takes it back, a press on the board as it is goes on.

use emotions::{Language, Millis, Mind, Settings};
use rules::Bitboard;
use rules::recognition::outcome;

use super::coach_tests::{a_game_from_the_start_with_a_blunder, after_the_blunder_with, mv, reply};
use super::tests::{finished_record, logs, said};
use super::{
    Action, AdviceKind, BoardLighting, CoachSettings, Event, Host, LightColour, LightMode,
    LogEvent, Waiting,
};

fn advice_kinds(actions: &[Action]) -> Vec<AdviceKind> {
    logs(actions)
        .into_iter()
        .filter_map(|e| match e {
            LogEvent::Advice { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect()
}

fn moves_arm(actions: &[Action]) -> bool {
    actions.iter().any(|a| matches!(a, Action::MoveArm { .. }))
}

fn squares(names: &[&str]) -> Bitboard {
    names
        .iter()
        .map(|name| rules::notation::parse_square(rules::Variant::Russian, name).unwrap())
        .collect()
}

/// The blunder c3-d4 of `coach_tests`, with the default coach: a take-back on offer.
fn offered(language: Language) -> (Host, Vec<Action>) {
    after_the_blunder_with(language, CoachSettings::default(), false)
}

#[test]
fn a_blunder_is_not_answered_but_offered_back_with_what_it_allows_in_every_language() {
    let cases = [
        (
            Language::English,
            "Careful: now I can take your pieces, from square e5 over d4 and b4. You may take \
             that move back: put the piece back on square c3, then try another move. Or press \
             the button to go on.",
        ),
        (
            Language::Russian,
            "Осторожно: теперь я могу бить с поля e5 через d4 и b4. Этот ход можно взять \
             назад: верните шашку на поле c3, а потом попробуйте другой ход. Или нажмите \
             кнопку, чтобы продолжить.",
        ),
        (
            Language::Ukrainian,
            "Обережно: тепер я можу бити з поля e5 через d4 та b4. Цей хід можна взяти назад: \
             поверніть шашку на поле c3, а потім спробуйте інший хід. Або натисніть кнопку, \
             щоб продовжити.",
        ),
    ];
    for (language, sentence) in cases {
        let (host, actions) = offered(language);
        assert!(!moves_arm(&actions), "{actions:?}");
        assert_eq!(said(&actions), [sentence], "{language:?}");
        assert_eq!(advice_kinds(&actions), [AdviceKind::Blunder]);
        let before = squares(&["c3", "b4", "h2", "e5", "g7"]);
        assert_eq!(host.waiting_for(), Waiting::TakeBack(before));
        // The piece goes back from d4 to c3, and the capture it allows shows: from e5 over d4
        // (to be cleared, so red) and b4.
        assert_eq!(
            host.lighting(),
            BoardLighting::take_back(
                squares(&["d4"]),
                squares(&["c3"]),
                squares(&["e5", "d4", "b4"])
            )
        );
        let lit: Vec<(String, LightColour, LightMode)> = host
            .lighting()
            .lit()
            .into_iter()
            .map(|light| {
                let name = rules::notation::square_name(rules::Variant::Russian, light.square);
                (name, light.colour, light.mode)
            })
            .collect();
        let expected = [
            ("c3", LightColour::Green, LightMode::Blinking),
            ("b4", LightColour::White, LightMode::On),
            ("d4", LightColour::Red, LightMode::Blinking),
            ("e5", LightColour::White, LightMode::On),
        ];
        for (square, colour, mode) in expected {
            assert!(
                lit.contains(&(square.to_owned(), colour, mode)),
                "{square}: {lit:?}"
            );
        }
        assert_eq!(lit.len(), expected.len(), "{lit:?}");
        assert!(host.wants_board_scans());
    }
}

#[test]
fn the_board_back_where_it_was_takes_the_move_back_and_the_record_keeps_only_the_move_played() {
    let (mut host, _) = offered(Language::English);
    let before = host.game().positions()[host.game().moves().len() - 1];
    let actions = host.handle(Event::Scan(before.occupied()), Millis(7_000));
    assert_eq!(advice_kinds(&actions), [AdviceKind::TakeBack]);
    assert_eq!(host.waiting_for(), Waiting::VisitorMove);
    assert_eq!(*host.game().position(), before);
    assert!(host.lighting().is_dark());
    // Another move, and the game goes on.
    let other = mv(&before, "b4-a5");
    let actions = host.handle(Event::Button(outcome(&before, &other)), Millis(8_000));
    assert!(actions.iter().any(|a| matches!(a, Action::Search { .. })));
    let record = finished_record(&mut host, 9_000);
    let pdn = record.pdn(&[]);
    // PDN wraps long lines; the words are what count.
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "2. b4-a5 {c3-d4 taken back (blunder: the visitor's expected score 0.50 -> 0.05)}"
        ),
        "{pdn}"
    );
    assert!(!pdn.contains("c3-d4??"), "{pdn}");
}

#[test]
fn a_press_on_the_board_as_it_is_goes_on_and_the_robot_answers() {
    let (mut host, _) = offered(Language::English);
    let board = host.game().position().occupied();
    let actions = host.handle(Event::Button(board), Millis(7_000));
    assert!(moves_arm(&actions), "{actions:?}");
    // The blunder was rated and said once, at the offer.
    assert!(advice_kinds(&actions).is_empty());
    assert_eq!(host.waiting_for(), Waiting::Robot);
}

#[test]
fn another_move_pressed_from_the_old_position_takes_back_and_plays_it() {
    let (mut host, _) = offered(Language::English);
    let before = host.game().positions()[host.game().moves().len() - 1];
    let other = mv(&before, "b4-a5");
    let actions = host.handle(Event::Button(outcome(&before, &other)), Millis(7_000));
    assert_eq!(advice_kinds(&actions), [AdviceKind::TakeBack]);
    assert!(actions.iter().any(|a| matches!(a, Action::Search { .. })));
    assert_eq!(host.game().moves().last(), Some(&other));
}

#[test]
fn a_blunder_played_again_after_its_take_back_is_answered() {
    let (mut host, _) = offered(Language::English);
    let before = host.game().positions()[host.game().moves().len() - 1];
    host.handle(Event::Scan(before.occupied()), Millis(7_000));
    let blunder = mv(&before, "c3-d4");
    host.handle(Event::Button(outcome(&before, &blunder)), Millis(8_000));
    let position = *host.game().position();
    let capture = mv(&position, "e5:c3:a5");
    let actions = host.handle(Event::SearchDone(reply(capture, 0.95)), Millis(9_000));
    assert!(moves_arm(&actions), "{actions:?}");
    assert_eq!(advice_kinds(&actions), [AdviceKind::Blunder]);
}

#[test]
fn with_the_coach_off_only_a_forgiving_level_offers_a_take_back() {
    let off = CoachSettings {
        enabled: false,
        ..CoachSettings::default()
    };
    let (_, actions) = after_the_blunder_with(Language::English, off, false);
    assert!(moves_arm(&actions));
    assert!(advice_kinds(&actions).is_empty());
    let (host, actions) = after_the_blunder_with(Language::English, off, true);
    assert!(!moves_arm(&actions));
    assert_eq!(advice_kinds(&actions), [AdviceKind::Blunder]);
    assert!(matches!(host.waiting_for(), Waiting::TakeBack(_)));
    // Without take-backs, no level offers one.
    let never = CoachSettings {
        take_backs: false,
        ..off
    };
    let (_, actions) = after_the_blunder_with(Language::English, never, true);
    assert!(moves_arm(&actions));
}

#[test]
fn after_two_take_backs_at_one_turn_the_next_blunder_there_is_answered() {
    let (mut host, _) = offered(Language::English);
    let before = host.game().positions()[host.game().moves().len() - 1];
    host.handle(Event::Scan(before.occupied()), Millis(7_000));
    let blunder_at_this_turn = |host: &mut Host, text: &str, at: u64| {
        host.handle(
            Event::Button(outcome(&before, &mv(&before, text))),
            Millis(at),
        );
        let answer = host.game().position().legal_moves()[0];
        host.handle(Event::SearchDone(reply(answer, 0.9)), Millis(at + 1_000))
    };
    let second = blunder_at_this_turn(&mut host, "b4-c5", 8_000);
    assert!(
        !moves_arm(&second),
        "the second blunder is offered back: {second:?}"
    );
    host.handle(Event::Scan(before.occupied()), Millis(10_000));
    // TAKE_BACKS_PER_TURN offers at this turn: the third blunder is answered.
    let third = blunder_at_this_turn(&mut host, "h2-g3", 11_000);
    assert!(moves_arm(&third), "the third is answered: {third:?}");
    assert_eq!(advice_kinds(&third), [AdviceKind::Blunder]);
}

#[test]
fn every_move_taken_back_at_a_ply_is_noted_on_the_move_finally_played() {
    let (mut host, _) = offered(Language::English);
    let before = host.game().positions()[host.game().moves().len() - 1];
    host.handle(Event::Scan(before.occupied()), Millis(7_000));
    // A second blunder at the same turn, offered and taken back too.
    let second = mv(&before, "b4-c5");
    host.handle(Event::Button(outcome(&before, &second)), Millis(8_000));
    let after = *host.game().position();
    let answer = after.legal_moves()[0];
    let actions = host.handle(Event::SearchDone(reply(answer, 0.9)), Millis(9_000));
    assert!(!moves_arm(&actions), "{actions:?}");
    host.handle(Event::Scan(before.occupied()), Millis(10_000));
    let last = mv(&before, "b4-a5");
    host.handle(Event::Button(outcome(&before, &last)), Millis(11_000));
    let record = finished_record(&mut host, 12_000);
    assert_eq!(record.moves.last(), Some(&last));
    let flat = record
        .pdn(&[])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains(
            "2. b4-a5 {c3-d4 taken back (blunder: the visitor's expected score 0.50 -> 0.05); \
             b4-c5 taken back (blunder: the visitor's expected score 0.50 -> 0.10)}"
        ),
        "{flat}"
    );
}

#[test]
fn a_take_back_on_offer_at_a_restart_is_offered_again_and_noted_once() {
    let (host, offer) = a_game_from_the_start_with_a_blunder(CoachSettings::default());
    assert_eq!(advice_kinds(&offer), [AdviceKind::Blunder]);
    let snapshot = host.snapshot().unwrap();
    let resume = |snapshot: &crate::Snapshot| {
        Host::resume(
            crate::RobotColor::Alternate,
            Mind::new(Settings::default(), 1),
            snapshot,
            Millis(0),
        )
    };
    let (mut resumed, actions) = resume(&snapshot).unwrap();
    // The same offer, said and lit again, without a second rating.
    assert_eq!(resumed.waiting_for(), host.waiting_for());
    assert!(matches!(resumed.waiting_for(), Waiting::TakeBack(_)));
    assert_eq!(said(&actions), said(&offer));
    assert!(!said(&actions).is_empty());
    assert_eq!(resumed.lighting(), host.lighting());
    assert!(advice_kinds(&actions).is_empty(), "{actions:?}");
    // Going on plays the answer the robot held.
    let board = resumed.game().position().occupied();
    let actions = resumed.handle(Event::Button(board), Millis(7_000));
    let played = actions.iter().find_map(|a| match a {
        Action::MoveArm { mv, .. } => Some(rules::notation::move_text(rules::Variant::Russian, mv)),
        _ => None,
    });
    assert_eq!(played.as_deref(), Some("g5-f4"), "{actions:?}");
    let pdn = finished_record(&mut resumed, 9_000).pdn(&[]);
    assert_eq!(pdn.matches("g3-h4??").count(), 1, "{pdn}");
    assert_eq!(pdn.matches("blunder:").count(), 1, "{pdn}");
    // An offer whose line does not fit the game, or after a move that was no blunder, is
    // refused, and the journal is set aside.
    let mut illegal = snapshot.clone();
    illegal.take_back_offer.as_mut().unwrap().line = vec!["g5-h4".to_owned()];
    let err = resume(&illegal).unwrap_err().to_string();
    assert!(
        err.contains("the take-back on offer: the robot's line: g5-h4"),
        "{err}"
    );
    let mut unrated = snapshot;
    unrated.ratings.clear();
    let err = resume(&unrated).unwrap_err().to_string();
    assert!(err.contains("not rated a blunder"), "{err}");
}
