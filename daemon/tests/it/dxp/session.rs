//! The DXP session in-process, over in-memory pipes, against a scripted peer: a game request
//! accepted and one refused with the right code, moves both ways checked against the rules,
//! an illegal or unreadable move from the peer ending the game with a game end, a back
//! request taking moves back, chat and over-long messages not disturbing the game, a peer that
//! leaves ending the session at once, and the two sides of checkerbot playing each other.
//! Times are bounded generously: these tests check behaviour, not speed.

use std::io;
use std::time::Duration;

use checkerbot::dxp::{GameSummary, Settings, follow, initiate};
use engine_protocols::dxp::board;
use engine_protocols::dxp::message::{AcceptCode, BackCode, Message, MoveMessage, parse};
use rules::{Color, Position, Variant};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _, DuplexStream};
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout};

/// Long enough for any answer on a loaded machine; a test that waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(20);

fn settings(move_time_ms: u64) -> Settings {
    Settings {
        strength: 5,
        move_time: Duration::from_millis(move_time_ms),
        name: "checkerbot".to_owned(),
    }
}

/// The scripted peer's side of an in-process follower session.
struct Peer {
    stream: Option<DuplexStream>,
    received: Vec<u8>,
    session: JoinHandle<io::Result<Vec<GameSummary>>>,
}

impl Peer {
    fn start(move_time_ms: u64) -> Peer {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let settings = settings(move_time_ms);
        let session = tokio::spawn(async move { follow(theirs, &settings).await });
        Peer {
            stream: Some(ours),
            received: Vec::new(),
            session,
        }
    }

    async fn send_bytes(&mut self, bytes: &[u8]) {
        let stream = self.stream.as_mut().expect("still connected");
        stream.write_all(bytes).await.unwrap();
    }

    async fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\0").as_bytes()).await;
    }

    /// The next message's text.
    async fn text(&mut self) -> String {
        loop {
            if let Some(end) = self.received.iter().position(|&b| b == 0) {
                let message: Vec<u8> = self.received.drain(..=end).collect();
                return String::from_utf8(message[..end].to_vec()).unwrap();
            }
            let mut buffer = [0; 256];
            let stream = self.stream.as_mut().expect("still connected");
            let read = timeout(PATIENCE, stream.read(&mut buffer))
                .await
                .expect("the engine answers")
                .unwrap();
            assert!(read > 0, "the engine closed the connection");
            self.received.extend_from_slice(&buffer[..read]);
        }
    }

    async fn message(&mut self) -> Message {
        let text = self.text().await;
        parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    /// The engine's move, checked legal in `position`, which it is played in.
    async fn engine_move(&mut self, position: &mut Position) {
        let Message::Move(mv) = self.message().await else {
            panic!("not a move");
        };
        let mv = board::parse_move(position, &mv).unwrap_or_else(|e| panic!("{e}"));
        position.play_unchecked(&mv);
    }

    /// Plays the first legal move of `position` for the peer.
    async fn play_first_legal(&mut self, position: &mut Position) {
        let mv = position.legal_moves()[0];
        let message = Message::Move(board::write_move(position, &mv, 0));
        self.send(&message.to_string()).await;
        position.play_unchecked(&mv);
    }

    /// Closes the connection; the session's games once it ended.
    async fn leave(mut self) -> Vec<GameSummary> {
        drop(self.stream.take());
        timeout(PATIENCE, self.session)
            .await
            .expect("the session ends when the peer leaves")
            .unwrap()
            .unwrap()
    }
}

/// A game request from the usual start, checkerbot playing `follower` (`W` or `Z`).
fn request(follower: char) -> String {
    format!("R01{:<32}{follower}000000A", "scripted peer")
}

fn accepted(message: &Message) -> bool {
    matches!(message, Message::GameAccept { name, code: AcceptCode::Accepted } if name == "checkerbot")
}

#[tokio::test]
async fn a_request_is_accepted_and_moves_go_both_ways_until_the_peers_game_end() {
    let mut peer = Peer::start(50);
    // A request cut in pieces, as a socket may deliver it, and chat before and during play.
    let text = request('W');
    peer.send("CHello").await;
    peer.send_bytes(&text.as_bytes()[..20]).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    peer.send_bytes(&text.as_bytes()[20..]).await;
    peer.send_bytes(b"\0").await;
    assert!(accepted(&peer.message().await));
    peer.send("CThinking?").await;
    let mut position = Position::new(Variant::International);
    for _ in 0..6 {
        peer.engine_move(&mut position).await;
        peer.play_first_legal(&mut position).await;
    }
    peer.engine_move(&mut position).await;
    peer.send("E01").await;
    assert!(matches!(peer.message().await, Message::GameEnd { .. }));
    let games = peer.leave().await;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].ours, Color::White);
    assert_eq!(games[0].plies, 13);
    assert!(games[0].ending.contains("the peer ended it"), "{games:?}");
}

#[tokio::test]
async fn requests_it_cannot_play_are_refused_with_their_code_and_the_next_one_accepted() {
    let mut peer = Peer::start(50);
    let code = |message: Message| match message {
        Message::GameAccept { code, .. } => code,
        other => panic!("{other:?} is not an accept"),
    };
    peer.send(&format!("R02{:<32}W000000A", "future peer"))
        .await;
    assert_eq!(code(peer.message().await), AcceptCode::WrongVersion);
    // A white man on square 1, White's crowning row: no legal position.
    let crowned = format!("w{}{}", "e".repeat(29), "z".repeat(20));
    peer.send(&format!("R01{:<32}W000000BW{crowned}", "peer"))
        .await;
    assert_eq!(code(peer.message().await), AcceptCode::Declined);
    // White to move without pieces: the game is over before it starts.
    let lost = format!("{}{}", "z".repeat(20), "e".repeat(30));
    peer.send(&format!("R01{:<32}W000000BW{lost}", "peer"))
        .await;
    assert_eq!(code(peer.message().await), AcceptCode::Declined);
    peer.send(&request('Z')).await;
    assert!(accepted(&peer.message().await));
    let games = peer.leave().await;
    assert_eq!(games.len(), 1, "the game accepted, then left");
}

#[tokio::test]
async fn an_illegal_move_from_the_peer_ends_the_game_with_a_game_end() {
    let mut peer = Peer::start(50);
    peer.send(&request('Z')).await;
    assert!(accepted(&peer.message().await));
    // 1-2 is no move at all; the engine must not play on.
    peer.send("M0000010200").await;
    assert!(matches!(peer.message().await, Message::GameEnd { .. }));
    peer.send("E00").await;
    // An unreadable move in the next game ends it the same way.
    peer.send(&request('Z')).await;
    assert!(accepted(&peer.message().await));
    peer.send("M00003228").await;
    assert!(matches!(peer.message().await, Message::GameEnd { .. }));
    peer.send("E00").await;
    let games = peer.leave().await;
    assert_eq!(games.len(), 2);
    assert!(games[0].ending.contains("1-2 was illegal"), "{games:?}");
    assert!(games[1].ending.contains("could not be read"), "{games:?}");
    assert!(
        games.iter().all(|game| game.plies == 0),
        "no move of the peer was played"
    );
}

#[tokio::test]
async fn a_back_request_takes_moves_back_and_one_beyond_the_game_is_answered_continue() {
    let mut peer = Peer::start(50);
    peer.send(&request('Z')).await;
    assert!(accepted(&peer.message().await));
    let start = Position::new(Variant::International);
    let mut position = start;
    peer.play_first_legal(&mut position).await;
    peer.engine_move(&mut position).await;
    peer.send("B999W").await;
    assert_eq!(
        peer.message().await,
        Message::BackAccept(BackCode::Continue)
    );
    // Back to move 1, White to move: the start.
    peer.send("B001W").await;
    assert_eq!(
        peer.message().await,
        Message::BackAccept(BackCode::Accepted)
    );
    let mut position = start;
    let other = position.legal_moves()[1];
    let message = Message::Move(board::write_move(&position, &other, 0));
    peer.send(&message.to_string()).await;
    position.play_unchecked(&other);
    // The engine answers in the position after the new move, not the old one.
    peer.engine_move(&mut position).await;
    peer.send("E00").await;
    assert!(matches!(peer.message().await, Message::GameEnd { .. }));
    let games = peer.leave().await;
    assert_eq!(games[0].plies, 2);
}

#[tokio::test]
async fn over_long_and_unreadable_messages_are_refused_and_the_session_goes_on() {
    let mut peer = Peer::start(50);
    peer.send_bytes(&[b'C'; 1000]).await;
    peer.send_bytes(b"\0X\0A-not-a-message\0").await;
    peer.send(&request('W')).await;
    assert!(accepted(&peer.message().await));
    let mut position = Position::new(Variant::International);
    peer.engine_move(&mut position).await;
    peer.leave().await;
}

#[tokio::test]
async fn a_peer_that_leaves_mid_search_ends_the_session_at_once() {
    // A move time far beyond the test's wait: only the peer's leaving can end the search.
    let mut peer = Peer::start(60_000);
    peer.send(&request('W')).await;
    assert!(accepted(&peer.message().await));
    let started = Instant::now();
    let games = peer.leave().await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].plies, 0);
    assert!(
        games[0].ending.contains("closed the connection"),
        "{games:?}"
    );
}

#[tokio::test]
async fn checkerbot_as_initiator_plays_checkerbot_as_follower_to_the_end_of_each_game() {
    let (initiator_side, follower_side) = tokio::io::duplex(1 << 16);
    let follower = tokio::spawn(async move { follow(follower_side, &settings(20)).await });
    let played = timeout(
        Duration::from_mins(2),
        initiate(initiator_side, &settings(20), 2, Color::Black),
    )
    .await
    .expect("two games end")
    .expect("the follower accepts and plays them");
    let followed = timeout(PATIENCE, follower)
        .await
        .expect("the follower ends when the initiator leaves")
        .unwrap()
        .unwrap();
    assert_eq!(played.len(), 2);
    assert_eq!(followed.len(), 2);
    assert_eq!(played[0].ours, Color::Black);
    assert_eq!(played[1].ours, Color::White);
    for (ours, theirs) in played.iter().zip(&followed) {
        assert_eq!(ours.plies, theirs.plies, "both sides saw the same game");
        assert_eq!(theirs.ours, !ours.ours);
        assert!(ours.plies > 0);
        // Each game ends by the rules, said by the side left to move.
        let by_rules = |ending: &str| ["won", "lost", "a draw"].iter().any(|w| ending.contains(w));
        assert!(
            by_rules(&ours.ending) || by_rules(&theirs.ending),
            "{ours:?} {theirs:?}"
        );
    }
}

#[test]
fn a_move_message_names_squares_as_pydraughts_does() {
    let start = Position::new(Variant::International);
    let mv = rules::notation::parse_move(&start, "32-28").unwrap();
    assert_eq!(
        board::write_move(&start, &mv, 0),
        MoveMessage {
            seconds: 0,
            from: 32,
            to: 28,
            captured: vec![]
        }
    );
}
