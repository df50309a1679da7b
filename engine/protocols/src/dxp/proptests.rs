//! DXP's parser and deframer against arbitrary input: they never panic, what this side writes
//! reads back as it was meant and fits the protocol's 127 characters, and every move of
//! random games goes through a move message and back unchanged.

use proptest::prelude::*;
use rules::Position;

use super::board::{self, VARIANT};
use super::framing::{Deframer, Frame, MAX_MESSAGE_BYTES, frame};
use super::message::*;

/// Text made of the protocol's own pieces, so that most reach the fields' checks.
fn dxp_like_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("R01".to_owned()),
        Just("A".to_owned()),
        Just("M".to_owned()),
        Just("E".to_owned()),
        Just("B".to_owned()),
        Just("K".to_owned()),
        Just("C".to_owned()),
        Just("W".to_owned()),
        Just("Z".to_owned()),
        "[0-9]{1,6}",
        "[ewzWZ]{1,50}",
        " {1,32}",
        "\\PC{0,4}",
    ];
    prop::collection::vec(piece, 0..10).prop_map(|pieces| pieces.concat())
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

/// A name as the protocol allows it: printable ASCII, no leading or trailing blank.
fn name() -> impl Strategy<Value = String> {
    "[!-~]([ -~]{0,30}[!-~])?|"
}

fn message() -> impl Strategy<Value = Message> {
    let square = 1u8..=50;
    prop_oneof![
        "[ -~]{0,126}".prop_map(Message::Chat),
        (
            name(),
            side(),
            0u16..1000,
            0u16..1000,
            proptest::option::of((side(), "[ewzWZ]{50}"))
        )
            .prop_map(|(name, follower, minutes, moves, position)| {
                Message::GameRequest(GameRequest {
                    version: VERSION.to_owned(),
                    name,
                    follower,
                    minutes,
                    moves,
                    position: position.map(|(to_move, squares)| StartPosition { to_move, squares }),
                })
            }),
        (
            name(),
            prop_oneof![
                Just(AcceptCode::Accepted),
                Just(AcceptCode::WrongVersion),
                Just(AcceptCode::Declined),
                Just(AcceptCode::NoGames)
            ]
        )
            .prop_map(|(name, code)| Message::GameAccept { name, code }),
        (
            0u16..10000,
            square.clone(),
            square.clone(),
            prop::collection::vec(square, 0..=MAX_CAPTURES)
        )
            .prop_map(|(seconds, from, to, captured)| Message::Move(MoveMessage {
                seconds,
                from,
                to,
                captured
            })),
        (
            prop_oneof![
                Just(EndReason::Unknown),
                Just(EndReason::SenderLoses),
                Just(EndReason::Draw),
                Just(EndReason::SenderWins)
            ],
            prop_oneof![Just(StopCode::NextGameWelcome), Just(StopCode::NoMoreGames)]
        )
            .prop_map(|(reason, stop)| Message::GameEnd { reason, stop }),
        (1u16..1000, side())
            .prop_map(|(move_number, side)| Message::BackRequest { move_number, side }),
        prop_oneof![
            Just(BackCode::Accepted),
            Just(BackCode::NotSupported),
            Just(BackCode::Continue)
        ]
        .prop_map(Message::BackAccept),
    ]
}

proptest! {
    #[test]
    fn any_text_parses_or_is_refused_without_a_panic(text in "\\PC*|.*") {
        if let Ok(message) = parse(&text) {
            // Whatever was read, this side writes it back as a message the protocol allows.
            let written = message.to_string();
            prop_assert!(parse(&written).is_ok(), "{text:?} -> {written:?}");
        }
    }

    #[test]
    fn protocol_like_text_parses_or_is_refused_with_a_reason(text in dxp_like_text()) {
        match parse(&text) {
            Ok(message) => {
                let written = message.to_string();
                prop_assert!(parse(&written).is_ok(), "{text:?} -> {written:?}");
            }
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
    }

    #[test]
    fn what_this_side_writes_reads_back_the_same_and_fits(message in message()) {
        let text = message.to_string();
        prop_assert!(!text.is_empty() && text.len() <= MAX_MESSAGE_BYTES, "{text:?}");
        prop_assert!(text.bytes().all(|b| (1..=127).contains(&b)), "{text:?}");
        prop_assert_eq!(parse(&text), Ok(message));
    }

    #[test]
    fn any_bytes_in_any_pieces_deframe_without_a_panic(
        chunks in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..300), 0..8)
    ) {
        let mut deframer = Deframer::new();
        for chunk in &chunks {
            deframer.push(chunk);
            while let Some(frame) = deframer.next_frame() {
                if let Frame::Message(text) = frame {
                    prop_assert!(!text.contains('\0'));
                    let _ = parse(&text);
                }
            }
        }
    }

    #[test]
    fn messages_split_anywhere_come_out_whole(
        messages in prop::collection::vec(message(), 1..6),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let bytes: Vec<u8> = messages.iter().flat_map(|m| frame(&m.to_string())).collect();
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
        at.push(0);
        at.push(bytes.len());
        at.sort_unstable();
        let mut deframer = Deframer::new();
        let mut read = Vec::new();
        for pair in at.windows(2) {
            deframer.push(&bytes[pair[0]..pair[1]]);
            while let Some(frame) = deframer.next_frame() {
                let Frame::Message(text) = frame else {
                    return Err(TestCaseError::fail("a message within the limit refused"));
                };
                read.push(parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?);
            }
        }
        prop_assert_eq!(read, messages);
    }

    #[test]
    fn every_move_of_random_games_goes_through_a_message_and_back(
        choices in prop::collection::vec(any::<prop::sample::Index>(), 1..120)
    ) {
        let mut position = Position::new(VARIANT);
        let start = board::write_position(&position);
        prop_assert_eq!(board::parse_position(&start), Ok(position));
        for choice in choices {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = *choice.get(&moves);
            let message = Message::Move(board::write_move(&position, &mv, 1));
            let Ok(Message::Move(read)) = parse(&message.to_string()) else {
                return Err(TestCaseError::fail(format!("{message} does not read back")));
            };
            prop_assert_eq!(board::parse_move(&position, &read), Ok(mv));
            position.play_unchecked(&mv);
            let written = board::write_position(&position);
            prop_assert_eq!(board::parse_position(&written), Ok(position));
        }
    }
}
