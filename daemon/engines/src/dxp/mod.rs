//! A DXP engine (the `DamExchange` protocol, International only): a program that listens for
//! games on a TCP port, such as Kingsrow, Scan's DXP mode or `checkerbot dxp`, as the robot's
//! player. The robot is the initiator; the engine is the follower.
//!
//! The client plays one DXP game in step with the robot's game. At each move it is asked for,
//! it looks at how the position came about:
//!
//! - The engine's last move and then one legal move of the opponent's lead to it: that move is
//!   sent (`M`), the engine's answer awaited.
//! - Anything else (the first move, a new game, a take-back, a move the robot played itself
//!   while the engine was failing or resting): the game going on is ended (`E`, and its
//!   confirmation awaited) and a new one asked for (`R`) from the position as it is, the
//!   engine playing the side to move; the engine's accept (`A`) is awaited, then its move.
//!
//! DXP has no stop and no time a move: the engine keeps its own time (a game request gives no
//! game clock), and it is taken to hang when its move has not come within the robot's move time
//! and a [`grace`] after it (from the moment the caller raises its stop flag at the latest).
//! The answer is read against the position by its from and to squares and its captured
//! squares, in any order, as `checkerbot dxp` reads a peer's move.
//!
//! Faults: no connection, or a refused game, is [`FaultKind::Start`]; a closed connection
//! [`FaultKind::Died`]; no move in time [`FaultKind::Hung`]; a move that is not legal
//! [`FaultKind::IllegalMove`]; a game end, a move that cannot be read or a message out of place
//! where the move was due [`FaultKind::Protocol`]. After a fault in a game the connection is
//! closed, since neither side can know where the other stands, and the next move connects
//! again; a connection the engine closed between two moves is opened again without a fault,
//! since no move was lost. Chat is logged.

mod link;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use checkerbot_config::EngineSpec;
use engine_protocols::dxp::board::{self, VARIANT};
use engine_protocols::dxp::framing::Incoming;
use engine_protocols::dxp::message::{
    AcceptCode, BackCode, EndReason, GameRequest, Message, StopCode, VERSION,
};
use player::{EngineFault, ExternalEngine, FaultKind};
use rules::{Color, Move, Position};

use self::link::{Heard, Link};
use crate::grace;

/// The name the robot gives in its game requests.
pub const NAME: &str = "checkerbot";

/// How long a connection may take: a host on the exhibition's network answers in
/// milliseconds, one that does not answer in seconds is not there.
pub const CONNECT_TIME: Duration = Duration::from_secs(3);

/// How long the engine may take to accept a game: loading an evaluation or an opening book
/// takes a program a second or two, as Hub's greeting does.
pub const ACCEPT_TIME: Duration = Duration::from_secs(10);

/// How long a game end waits for the engine's confirmation before the connection is closed
/// and a fresh one opened instead: a new game must not wait long behind an old one.
const CONFIRMATION_TIME: Duration = Duration::from_secs(2);

/// How often a wait for a move looks at the caller's stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

/// An engine at a DXP address, connected at its first move.
#[derive(Debug)]
pub struct DxpEngine {
    name: String,
    /// Where it listens, as the settings name it.
    spec: EngineSpec,
    host: String,
    port: u16,
    move_time: Duration,
    link: Option<Link>,
    /// The game on the link: the position after the engine's last move, the opponent to
    /// move. `None`: no game is on.
    game: Option<Position>,
    /// The engine's name, from its game accept.
    peer: String,
}

impl DxpEngine {
    /// The engine `spec` names (a `dxp:` one), asked for moves of `move_time` each.
    ///
    /// # Panics
    ///
    /// When `spec` is not a `dxp:` engine: [`crate::start`] chooses the client by its kind.
    pub fn new(spec: &EngineSpec, move_time: Duration) -> DxpEngine {
        let EngineSpec::Dxp { host, port } = spec else {
            panic!("a DXP engine from {spec}, which names another protocol");
        };
        DxpEngine {
            name: spec.program_name(),
            spec: spec.clone(),
            host: host.clone(),
            port: *port,
            move_time,
            link: None,
            game: None,
            peer: String::new(),
        }
    }

    /// Connects, asks for a game from the start with the engine as Black (so that it waits
    /// for a move rather than thinks), ends it and closes: what `checkerbot doctor` checks.
    /// Says where it connected and how the engine names itself.
    pub fn check(mut self) -> Result<String, EngineFault> {
        self.request_game(&Position::new(VARIANT), Color::Black)?;
        let address = self.link.as_ref().map(Link::address);
        let address = address.map_or_else(String::new, |address| address.to_string());
        self.end_game(StopCode::NoMoreGames);
        Ok(format!(
            "connects to {address} and accepts a game as {:?}",
            self.peer
        ))
    }

    fn fault(&self, kind: FaultKind, detail: impl Into<String>) -> EngineFault {
        EngineFault {
            engine: self.name.clone(),
            kind,
            detail: detail.into(),
        }
    }

    /// A fault after which the connection cannot go on: it is closed, and the next move
    /// connects again.
    fn broken(&mut self, kind: FaultKind, detail: impl Into<String>) -> EngineFault {
        self.drop_link();
        self.fault(kind, detail)
    }

    fn drop_link(&mut self) {
        if let Some(mut link) = self.link.take() {
            link.close();
        }
        self.game = None;
    }

    /// Sends a message on the link (which must be open); a failure closes it.
    fn send(&mut self, message: &Message) -> Result<(), EngineFault> {
        let link = self.link.as_mut().expect("the link is open");
        link.send(message)
            .map_err(|error| self.broken(FaultKind::Died, format!("sending {message:?}: {error}")))
    }

    /// Reads what the engine sent since its last move, without waiting: chat is logged, a
    /// connection it closed is forgotten (the next move opens another, no move was lost), a
    /// message with no place between two moves is a fault.
    fn listen_between_moves(&mut self) -> Result<(), EngineFault> {
        while let Some(link) = &mut self.link {
            match link.receive(Instant::now()) {
                Heard::Nothing => return Ok(()),
                Heard::Closed(why) => {
                    if self.game.is_some() {
                        tracing::warn!(
                            "the external engine {} ended its game between two moves ({why}); \
                             connecting again",
                            self.name
                        );
                    }
                    self.drop_link();
                }
                Heard::Message(Incoming::Message(Message::Chat(text))) => {
                    tracing::info!("the external engine {} says: {text}", self.name);
                }
                Heard::Message(other) => {
                    return Err(self.broken(
                        FaultKind::Protocol,
                        format!("{other:?} on the opponent's turn"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Ends the game on the link and waits a little for the engine's confirmation; a link
    /// without one is closed, as is one after the last game (`stop`).
    fn end_game(&mut self, stop: StopCode) {
        self.game = None;
        let Some(link) = &mut self.link else { return };
        let end = Message::GameEnd {
            reason: EndReason::Unknown,
            stop,
        };
        if link.send(&end).is_err() {
            self.drop_link();
            return;
        }
        let until = Instant::now() + CONFIRMATION_TIME;
        loop {
            match link.receive(until) {
                Heard::Message(Incoming::Message(Message::GameEnd { .. })) => break,
                Heard::Message(Incoming::Message(Message::Chat(text))) => {
                    tracing::info!("the external engine {} says: {text}", self.name);
                }
                Heard::Message(other) => {
                    tracing::debug!("{}: {other:?} after a game end, ignored", self.name);
                }
                Heard::Nothing | Heard::Closed(_) => {
                    self.drop_link();
                    return;
                }
            }
        }
        if stop == StopCode::NoMoreGames {
            self.drop_link();
        }
    }

    /// Connects if needed, asks for a game from `start` with the engine playing `engine`,
    /// and waits for its accept.
    fn request_game(&mut self, start: &Position, engine: Color) -> Result<(), EngineFault> {
        if self.link.is_none() {
            let link = Link::connect(&self.host, self.port, CONNECT_TIME).map_err(|error| {
                self.fault(
                    FaultKind::Start,
                    format!("connecting to {}:{}: {error}", self.host, self.port),
                )
            })?;
            tracing::debug!("{}: connected to {}", self.name, link.address());
            self.link = Some(link);
        }
        let request = GameRequest {
            version: VERSION.to_owned(),
            name: NAME.to_owned(),
            follower: engine.into(),
            minutes: 0,
            moves: 0,
            position: (*start != Position::new(VARIANT)).then(|| board::write_position(start)),
        };
        self.send(&Message::GameRequest(request))?;
        let until = Instant::now() + ACCEPT_TIME;
        loop {
            let link = self.link.as_mut().expect("the link is open");
            match link.receive(until) {
                Heard::Message(Incoming::Message(Message::GameAccept { name, code })) => {
                    if code != AcceptCode::Accepted {
                        // It said no and the session goes on: the next move asks again.
                        return Err(self.fault(
                            FaultKind::Start,
                            format!("{name} refused the game: {}", code.describe()),
                        ));
                    }
                    self.peer = name;
                    return Ok(());
                }
                Heard::Message(Incoming::Message(Message::Chat(text))) => {
                    tracing::info!("the external engine {} says: {text}", self.name);
                }
                // A late confirmation of the game before.
                Heard::Message(Incoming::Message(Message::GameEnd { .. })) => {}
                Heard::Message(other) => {
                    return Err(self.broken(
                        FaultKind::Protocol,
                        format!("{other:?} instead of a game accept"),
                    ));
                }
                Heard::Nothing => {
                    let waited = ACCEPT_TIME.as_secs();
                    return Err(self.broken(
                        FaultKind::Start,
                        format!("no game accept within {waited} s"),
                    ));
                }
                Heard::Closed(why) => {
                    return Err(self.broken(
                        FaultKind::Died,
                        format!("{why}, before it answered the game request"),
                    ));
                }
            }
        }
    }

    /// The engine's move in `position`, within the move time and a grace.
    fn await_move(&mut self, position: &Position, stop: &AtomicBool) -> Result<Move, EngineFault> {
        let allowed = self.move_time + grace(self.move_time);
        let mut deadline = Instant::now() + allowed;
        let mut stopped = false;
        loop {
            let now = Instant::now();
            if !stopped && stop.load(Ordering::Relaxed) {
                stopped = true;
                deadline = deadline.min(now + grace(self.move_time));
            }
            let link = self.link.as_mut().expect("the link is open");
            let heard = link.receive(deadline.min(now + STOP_POLL));
            let message = match heard {
                Heard::Nothing if Instant::now() >= deadline => {
                    let waited = allowed.as_secs_f64();
                    return Err(self.broken(
                        FaultKind::Hung,
                        format!("no move within {waited:.1} s; disconnected"),
                    ));
                }
                Heard::Nothing => continue,
                Heard::Closed(why) => {
                    return Err(self.broken(FaultKind::Died, format!("{why}, during its move")));
                }
                Heard::Message(Incoming::Message(message)) => message,
                Heard::Message(Incoming::Unreadable { text, error }) if text.starts_with('M') => {
                    return Err(self.broken(
                        FaultKind::Protocol,
                        format!("a move that cannot be read, {text:?} ({error})"),
                    ));
                }
                Heard::Message(other) => {
                    tracing::warn!("{}: {other:?} ignored", self.name);
                    continue;
                }
            };
            match message {
                Message::Move(answer) => {
                    return board::parse_move(position, &answer).map_err(|error| {
                        let fen = rules::fen::write(position);
                        self.broken(FaultKind::IllegalMove, format!("{error} (position {fen})"))
                    });
                }
                Message::Chat(text) => {
                    tracing::info!("the external engine {} says: {text}", self.name);
                }
                Message::BackRequest { .. } => {
                    // The robot's game is the robot's: it is not taken back from the engine.
                    self.send(&Message::BackAccept(BackCode::NotSupported))?;
                }
                Message::GameEnd { reason, .. } => {
                    // Confirmed, as the protocol asks; the session may go on with a new game.
                    self.game = None;
                    self.send(&Message::GameEnd {
                        reason: EndReason::Unknown,
                        stop: StopCode::NextGameWelcome,
                    })?;
                    return Err(self.fault(
                        FaultKind::Protocol,
                        format!(
                            "it ended the game ({}) instead of moving",
                            reason.describe()
                        ),
                    ));
                }
                other => {
                    return Err(self.broken(
                        FaultKind::Protocol,
                        format!("{other:?} where its move was due"),
                    ));
                }
            }
        }
    }

    /// One move: the opponent's move sent, or a new game asked for, then the engine's move.
    fn play(&mut self, position: &Position, stop: &AtomicBool) -> Result<Move, EngineFault> {
        self.listen_between_moves()?;
        let step = self.game.and_then(|after| {
            after
                .legal_moves()
                .into_iter()
                .find(|mv| after.play(mv).is_ok_and(|next| next == *position))
                .map(|mv| (after, mv))
        });
        if let Some((before, mv)) = step {
            self.send(&Message::Move(board::write_move(&before, &mv, 0)))?;
        } else {
            if self.game.is_some() {
                self.end_game(StopCode::NextGameWelcome);
            }
            self.request_game(position, position.turn())?;
            tracing::info!(
                "the external engine {} ({}) plays {} from {}",
                self.name,
                self.peer,
                position.turn(),
                rules::fen::write(position)
            );
        }
        let mv = self.await_move(position, stop)?;
        let mut after = *position;
        after.play_unchecked(&mv);
        self.game = Some(after);
        Ok(mv)
    }
}

impl ExternalEngine for DxpEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        format!("{}, {} ms a move", self.spec, self.move_time.as_millis())
    }

    fn choose(
        &mut self,
        position: &Position,
        _history: &[Position],
        stop: &AtomicBool,
    ) -> Result<Move, EngineFault> {
        if position.variant() != VARIANT {
            return Err(self.fault(
                FaultKind::Start,
                format!("DXP plays {VARIANT} only, not {}", position.variant()),
            ));
        }
        self.play(position, stop)
    }
}

impl Drop for DxpEngine {
    /// Ends the game going on, so that the engine is free for the next robot.
    fn drop(&mut self) {
        if self.game.is_some() {
            self.end_game(StopCode::NoMoreGames);
        }
        self.drop_link();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_where_nothing_listens_is_a_start_fault_naming_it() {
        // A port just freed: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .unwrap()
            .port();
        let spec = EngineSpec::parse(&format!("dxp:127.0.0.1:{port}")).unwrap();
        let mut engine = DxpEngine::new(&spec, Duration::from_millis(100));
        let fault = engine
            .choose(&Position::new(VARIANT), &[], &AtomicBool::new(false))
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Start);
        assert!(
            fault.to_string().contains(&format!("dxp:127.0.0.1:{port}")),
            "{fault}"
        );
        let russian = Position::new(rules::Variant::Russian);
        let fault = engine
            .choose(&russian, &[], &AtomicBool::new(false))
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Start);
        assert!(fault.detail.contains("international only"), "{fault}");
    }
}
