//! PDN: round trips in every variant, files written by pydraughts, and bad input.

use proptest::prelude::*;
use rules::pdn::{self, PdnError, PdnErrorKind};
use rules::{Color, EndReason, Game, GameResult, Outcome, Position, Variant, fen, notation};

use testkit::{Lcg, random_game};

/// A start position reached by `plies` random moves from the initial one.
fn random_start(variant: Variant, rng: &mut Lcg, plies: usize) -> Position {
    *random_game(Position::new(variant), rng, plies).position()
}

fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let mv = notation::parse_move(game.position(), text).unwrap();
        game.play(&mv).unwrap();
    }
}

fn read_one(text: &str) -> pdn::PdnGame {
    let mut games = pdn::read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

fn read_err(text: &str) -> PdnError {
    match pdn::read(text) {
        Ok(games) => panic!("expected an error, read {} games from\n{text}", games.len()),
        Err(e) => e,
    }
}

#[test]
fn random_games_round_trip_in_every_variant() {
    let mut rng = Lcg(0x5eed);
    for variant in Variant::ALL {
        let mut text = String::new();
        let mut expected = Vec::new();
        for i in 0..12 {
            // Some games start from the middle of another, with either side to move.
            let start = if i % 3 == 2 {
                random_start(variant, &mut rng, 10 + i)
            } else {
                Position::new(variant)
            };
            let mut game = random_game(start, &mut rng, 40 + 25 * i);
            if i == 4 && game.outcome().is_none() {
                game.decide(Outcome {
                    result: GameResult::Win(Color::Black),
                    reason: EndReason::Resignation,
                });
            }
            let one = pdn::write(&game, &[("Event", "round trip"), ("Round", &i.to_string())]);
            // Movetext is wrapped; tag pairs take one line each, however long.
            for line in one.lines().filter(|l| !l.starts_with('[')) {
                assert!(line.chars().count() <= 80, "{variant}: long line {line:?}");
            }
            assert_eq!(
                one.contains("[FEN "),
                *game.start() != Position::new(variant),
                "{one}"
            );
            // Each game alone, and all of them in one text.
            let back = read_one(&one);
            assert_eq!(back.game.variant(), variant, "{one}");
            assert_eq!(back.game.start(), game.start(), "{one}");
            assert_eq!(back.game.moves(), game.moves(), "{one}");
            assert_eq!(back.game.position(), game.position(), "{one}");
            assert_eq!(back.result(), game.outcome().map(|o| o.result), "{one}");
            assert_eq!(back.tag("Round"), Some(i.to_string().as_str()));
            text.push_str(&one);
            expected.push(game);
        }
        let plies: usize = expected.iter().map(|g| g.moves().len()).sum();
        assert!(plies > 300, "{variant}: only {plies} plies in all");
        let games = pdn::read(&text).unwrap();
        assert_eq!(games.len(), expected.len());
        for (back, game) in games.iter().zip(&expected) {
            assert_eq!(back.game.moves(), game.moves());
            assert_eq!(back.game.position(), game.position());
        }
    }
}

/// The files in tests/data/pdn were written by pydraughts (see generate.py there); each
/// `.final-fen` holds, one line per game, the position pydraughts reached at the end.
#[test]
fn reads_what_pydraughts_writes() {
    let files = [
        (
            "russian",
            Variant::Russian,
            include_str!("../data/pdn/russian.pdn"),
            include_str!("../data/pdn/russian.final-fen"),
        ),
        (
            "brazilian",
            Variant::Brazilian,
            include_str!("../data/pdn/brazilian.pdn"),
            include_str!("../data/pdn/brazilian.final-fen"),
        ),
        (
            "english",
            Variant::English,
            include_str!("../data/pdn/english.pdn"),
            include_str!("../data/pdn/english.final-fen"),
        ),
        (
            "italian",
            Variant::Italian,
            include_str!("../data/pdn/italian.pdn"),
            include_str!("../data/pdn/italian.final-fen"),
        ),
        (
            "international",
            Variant::International,
            include_str!("../data/pdn/international.pdn"),
            include_str!("../data/pdn/international.final-fen"),
        ),
    ];
    for (name, variant, text, finals) in files {
        let games = pdn::read(text).unwrap_or_else(|e| panic!("{name}.pdn: {e}"));
        let finals: Vec<&str> = finals.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(games.len(), finals.len(), "{name}");
        let mut from_fen = 0;
        for (i, (game, final_fen)) in games.iter().zip(&finals).enumerate() {
            let what = format!("{name}.pdn game {}", i + 1);
            assert_eq!(game.game.variant(), variant, "{what}");
            assert!(!game.game.moves().is_empty(), "{what}");
            let expected = fen::parse(variant, final_fen).unwrap();
            assert_eq!(
                fen::write(game.game.position()),
                fen::write(&expected),
                "{what}: final position"
            );
            if *game.game.start() != Position::new(variant) {
                from_fen += 1;
            }
            // Where both pydraughts and the engine say the game is over, they agree on how.
            if let (Some(ours), Some(theirs)) = (game.game.outcome(), game.result()) {
                assert_eq!(ours.result, theirs, "{what}: result");
            }
            // And writing it again reads back the same.
            let again = read_one(&pdn::write(&game.game, &[]));
            assert_eq!(again.game.moves(), game.game.moves(), "{what}");
        }
        assert!(from_fen >= 1, "{name}: no game starts from a FEN position");
    }
}

#[test]
fn writes_the_roster_game_type_and_numbered_moves() {
    let mut game = Game::new(Variant::Russian);
    play(&mut game, &["c3-d4", "f6-g5", "g3-f4"]);
    let text = pdn::write(
        &game,
        &[
            ("White", "checkerbot"),
            ("Black", "Say \"hi\" \\o/"),
            ("Annotator", "me"),
            ("FEN", "ignored"),
        ],
    );
    assert_eq!(
        text,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"checkerbot\"]\n\
         [Black \"Say \\\"hi\\\" \\\\o/\"]\n[Result \"*\"]\n[GameType \"25\"]\n\
         [Annotator \"me\"]\n\n1. c3-d4 f6-g5 2. g3-f4 *\n\n"
    );
    let back = read_one(&text);
    assert_eq!(back.tag("Black"), Some("Say \"hi\" \\o/"));
    assert_eq!(back.result, "*");
    assert_eq!(back.game.moves(), game.moves());
}

#[test]
fn marks_and_comments_follow_their_moves_and_read_back_as_the_same_game() {
    let mut game = Game::new(Variant::Russian);
    play(&mut game, &["c3-d4", "f6-g5", "g3-h4", "g7-f6"]);
    let notes = [
        pdn::MoveNote {
            ply: 1,
            mark: None,
            comment: Some("v 0.52".to_owned()),
        },
        pdn::MoveNote {
            ply: 2,
            mark: Some(pdn::MoveMark::Blunder),
            comment: Some("blunder {0.48 -> 0.10}".to_owned()),
        },
    ];
    let text = pdn::write_annotated(&game, &[], &notes);
    assert!(
        text.ends_with("1. c3-d4 f6-g5 {v 0.52} 2. g3-h4?? {blunder (0.48 -> 0.10)} g7-f6 *\n\n"),
        "{text}"
    );
    assert_eq!(read_one(&text).game.moves(), game.moves());
}

#[test]
fn writes_results_variant_tag_and_second_player_first() {
    // English: Black moves first and is numbered as the first player.
    let mut game = Game::new(Variant::English);
    play(&mut game, &["11-15", "23-19"]);
    game.decide(Outcome {
        result: GameResult::Draw,
        reason: EndReason::Agreement,
    });
    let text = pdn::write(&game, &[]);
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
    assert!(text.ends_with("\n1. 11-15 23-19 1/2-1/2\n\n"), "{text}");

    // Russian from a position with Black to move: "1..." and a FEN tag.
    let start = fen::parse(Variant::Russian, "B:Wc3,e3:Bf6,h8").unwrap();
    let mut game = Game::from_position(start);
    play(&mut game, &["f6-g5", "e3-f4"]);
    let text = pdn::write(&game, &[("Result", "not a result")]);
    assert!(text.contains("[FEN \"B:Wc3,e3:Bf6,h8\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.ends_with("\n1... f6-g5 2. e3-f4 *\n\n"), "{text}");

    // A win by the rules.
    let start = fen::parse(Variant::Russian, "W:Wc3:Bd4").unwrap();
    let mut game = Game::from_position(start);
    play(&mut game, &["c3:e5"]);
    let text = pdn::write(&game, &[]);
    assert!(
        text.contains("[Result \"1-0\"]") && text.ends_with("1. c3xe5 1-0\n\n"),
        "{text}"
    );

    // Giveaway has no GameType number of its own.
    let game = Game::new(Variant::RussianGiveaway);
    let text = pdn::write(&game, &[]);
    assert!(
        text.contains("[GameType \"25\"]\n[Variant \"russian-giveaway\"]"),
        "{text}"
    );
    assert_eq!(read_one(&text).game.variant(), Variant::RussianGiveaway);
}

#[test]
fn reads_comments_variations_nags_and_annotations() {
    let text = "% an escaped line\n\
        [Event \"annotated\"]\n\
        [GameType \"25,W,8,8,A0,0\"]\n\
        [Result \"1-0\"]\n\
        \n\
        {A comment (with parentheses) and [brackets]} 1.c3-d4! f6-e5?! $2 ; to the end of the line\n\
        2. d4xf6 (2. b2-c3 {inside} (2. a3-b4 h6-g5) e5xc3) 2... g7xe5 3. g3-f4 !? \n\
        3... e5xg3 ?? 4. h2xf4 1-0\n";
    let game = read_one(text);
    assert_eq!(game.tag("Event"), Some("annotated"));
    assert_eq!(game.result, "1-0");
    assert_eq!(game.result(), Some(GameResult::Win(Color::White)));
    let mut expected = Game::new(Variant::Russian);
    play(
        &mut expected,
        &[
            "c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4", "e5:g3", "h2:f4",
        ],
    );
    assert_eq!(game.game.moves(), expected.moves());
}

#[test]
fn reads_several_games_and_result_styles() {
    let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\
        [GameType \"20\"]\n1. 32-28 18-23 0-2\n\
        [GameType \"20\"]\n1. 33-28 1-1\n\
        1. 31-27 17-22 ½-½ 1. 34-30 *";
    let games = pdn::read(text).unwrap();
    let results: Vec<_> = games.iter().map(|g| g.result.as_str()).collect();
    assert_eq!(results, ["2-0", "0-2", "1-1", "½-½", "*"]);
    assert_eq!(games[0].result(), Some(GameResult::Win(Color::White)));
    assert_eq!(games[1].result(), Some(GameResult::Win(Color::Black)));
    assert_eq!(games[2].result(), Some(GameResult::Draw));
    assert_eq!(games[0].game.moves().len(), 4);
    // Games without tags are International by default.
    assert!(
        games
            .iter()
            .all(|g| g.game.variant() == Variant::International)
    );
    // A game that ends at the next game's tags takes its result from the Result tag.
    let games = pdn::read("[Result \"0-1\"]\n1. 32-28\n[Event \"b\"]\n1. 33-29 *").unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, "0-1");
    assert_eq!(games[1].tag("Event"), Some("b"));
}

#[test]
fn reads_with_a_default_variant_and_variant_tags() {
    let text = "1. 11-15 23-19 2. 8-11 22-17 *";
    let game = pdn::read_with_default(text, Variant::English)
        .unwrap()
        .remove(0);
    assert_eq!(game.game.variant(), Variant::English);
    assert_eq!(game.game.moves().len(), 4);
    // Without the default this is International, where 11-15 is not a move for White.
    let error = read_err(text);
    assert!(
        matches!(error.kind, PdnErrorKind::Move { number: 1, .. }),
        "{error}"
    );
    // Tags win over the default; a Variant tag wins over GameType.
    let text = "[GameType \"25\"]\n[Variant \"russian-giveaway\"]\n1. c3-d4 *";
    let game = pdn::read_with_default(text, Variant::English)
        .unwrap()
        .remove(0);
    assert_eq!(game.game.variant(), Variant::RussianGiveaway);
    let game = read_one("[GameType \"26\"]\n[Variant \"Frisian\"]\n1. c3-d4 *");
    assert_eq!(game.game.variant(), Variant::Brazilian);
}

#[test]
fn bad_moves_name_the_game_the_move_number_and_the_token() {
    let text = "[GameType \"25\"]\n1. c3-d4 f6-g5 *\n\n[GameType \"25\"]\n[Event \"two\"]\n\n\
        1. c3-d4 f6-g5\n2. c3-b4 g5-h4 *\n";
    let error = read_err(text);
    assert_eq!(error.game, 2);
    assert_eq!(error.line, 8);
    let PdnErrorKind::Move { number, token, .. } = &error.kind else {
        panic!("{error:?}")
    };
    assert_eq!((*number, token.as_str()), (2, "c3-b4"));
    let message = error.to_string();
    assert!(
        message.contains("game 2") && message.contains("move 2"),
        "{message}"
    );
    assert!(
        message.contains("c3-b4") && message.contains("no piece on c3"),
        "{message}"
    );

    // Not move syntax at all.
    let error = read_err("[GameType \"25\"]\n1. c3-d4 f6-g5 2. hello *");
    assert!(error.to_string().contains("\"hello\""), "{error}");
    // Without move numbers, the number is counted.
    let error = read_err("[GameType \"25\"]\nc3-d4 f6-g5 g3-f4 a7-a6 *");
    assert!(
        matches!(error.kind, PdnErrorKind::Move { number: 2, .. }),
        "{error}"
    );
    // A compulsory capture ignored.
    let error = read_err("[GameType \"25\"]\n1. c3-d4 f6-e5 2. a3-b4 *");
    assert!(
        error.to_string().contains("capture is compulsory"),
        "{error}"
    );
}

#[test]
fn malformed_pdn_gives_errors() {
    let cases: [(&str, &str); 10] = [
        ("[GameType \"24\"]\n1. 22-18 *", "game type 24"),
        ("[GameType \"russian\"]\n1. c3-d4 *", "GameType \"russian\""),
        (
            "[GameType \"25\"]\n[FEN \"X:Wa1\"]\n1. a1-b2 *",
            "FEN \"X:Wa1\"",
        ),
        ("[GameType \"25\"]\n1. c3-d4 {never closed", "never closed"),
        ("[GameType \"25\"]\n1. c3-d4 (1. a3-b4 *", "variation"),
        ("[GameType \"25\"]\n1. c3-d4 ) f6-g5 *", "\")\""),
        ("[GameType 25]\n1. c3-d4 *", "[GameType 25]"),
        ("[Event \"no end\n1. c3-d4 *", "closing quote"),
        (
            "[GameType \"25\"]\n[FEN \"W:Wc3:Bd4\"]\n1. c3:e5 d4-c3 *",
            "already over",
        ),
        (
            "[GameType \"25\"]\n1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5:h6 *",
            "e3:c5:h6",
        ),
    ];
    for (text, needle) in cases {
        let error = read_err(text);
        assert_eq!(error.game, 1, "{text}");
        let message = error.to_string();
        assert!(message.contains(needle), "{text:?}: {message}");
    }
}

#[test]
fn the_iterator_reads_on_past_a_bad_game() {
    let text = "[GameType \"25\"]\n1. c3-d4 zz 2. a3-b4 *\n\
        [GameType \"25\"]\n1. c3-d4 (1. a3-b4\n\
        [GameType \"25\"]\n[Bad tag]\n1. e3-f4 *\n\
        [GameType \"25\"]\n1. g3-h4 *\n";
    let results: Vec<Result<pdn::PdnGame, PdnError>> =
        pdn::games(text, Variant::International).collect();
    assert_eq!(results.len(), 4, "{results:?}");
    assert!(matches!(&results[0], Err(e) if e.game == 1));
    assert!(matches!(&results[1], Err(e) if e.game == 2));
    assert!(matches!(&results[2], Err(e) if e.game == 3 && e.line == 6));
    let last = results[3].as_ref().unwrap();
    assert_eq!(last.game.moves().len(), 1);

    // An error at the result token itself: the next game is still there.
    let text = "[GameType \"24\"]\n*\n[GameType \"25\"]\n1. c3-d4 *\n";
    let results: Vec<_> = pdn::games(text, Variant::International).collect();
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results[0].is_err());
    assert_eq!(
        results[1].as_ref().unwrap().game.variant(),
        Variant::Russian
    );
}

#[test]
fn empty_and_comment_only_texts_hold_no_games() {
    assert!(pdn::read("").unwrap().is_empty());
    assert!(
        pdn::read("  \n\n{just a comment}\n; and a line\n")
            .unwrap()
            .is_empty()
    );
    // Tags alone make a game without moves.
    let game = read_one("[GameType \"21\"]\n");
    assert_eq!(game.game.variant(), Variant::English);
    assert!(game.game.moves().is_empty());
}

#[test]
fn display_writes_a_game_back() {
    let text = "[Event \"e\"]\n[GameType \"26\"]\n[Result \"0-1\"]\n1. c3-d4 f6-g5 0-1\n";
    let game = read_one(text);
    let again = read_one(&game.to_string());
    assert_eq!(again.tag("Event"), Some("e"));
    assert_eq!(again.result, "0-1");
    assert_eq!(again.game.moves(), game.game.moves());
    assert_eq!(again.game.variant(), Variant::Brazilian);
}

/// Words that make up PDN, for generating texts that get past the lexer.
const PIECES: &[&str] = &[
    "[GameType \"25\"]",
    "[GameType \"20\"]",
    "[GameType \"21,B,8,8,N1,0\"]",
    "[FEN \"W:Wc3:Bd4\"]",
    "[FEN \"B:W31-35:B1-5\"]",
    "[Variant \"russian-giveaway\"]",
    "[Event \"x\"]",
    "[",
    "]",
    "\"",
    "1.",
    "2...",
    "12.",
    "c3-d4",
    "f6-g5",
    "c3:e5",
    "32-28",
    "19-23",
    "28x19",
    "11-15",
    "x",
    "-",
    "{",
    "}",
    "(",
    ")",
    "$1",
    "!",
    "?!",
    "1-0",
    "0-1",
    "1/2-1/2",
    "2-0",
    "*",
    "%",
    ";",
    "\n",
    " ",
    "\\",
    "é",
    "½",
    "…",
];

proptest! {
    #[test]
    fn read_never_panics_on_any_text(text in any::<String>()) {
        let _ = pdn::read(&text);
        let _ = pdn::games(&text, Variant::Russian).count();
    }

    #[test]
    fn read_never_panics_on_pdn_like_text(
        picks in proptest::collection::vec(0..PIECES.len(), 0..60),
        spaces in proptest::collection::vec(any::<bool>(), 60),
    ) {
        let mut text = String::new();
        for (i, pick) in picks.into_iter().enumerate() {
            text.push_str(PIECES[pick]);
            if spaces[i] {
                text.push(' ');
            }
        }
        let _ = pdn::read(&text);
        for variant in [Variant::Russian, Variant::English] {
            let _ = pdn::read_with_default(&text, variant);
            let _ = pdn::games(&text, variant).count();
        }
    }

    #[test]
    fn read_never_panics_on_odd_tags(
        game_type in "[0-9, A-Z]{0,12}",
        fen_text in "[WBKwbk0-9a-m:,. HF-]{0,60}",
        moves in "[0-9a-m:x. -]{0,40}",
    ) {
        let text = format!("[GameType \"{game_type}\"]\n[FEN \"{fen_text}\"]\n{moves} *");
        let _ = pdn::read(&text);
        let text = format!("[FEN \"{fen_text}\"]\n{moves} *");
        for variant in Variant::ALL {
            let _ = pdn::read_with_default(&text, variant);
        }
    }
}
