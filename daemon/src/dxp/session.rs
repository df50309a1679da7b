//! A DXP session over any byte stream, as the follower (the side that listens and accepts
//! game requests) or the initiator (the side that connects and asks for games). Both play a
//! game the same way: on their turn they search and send the move, or end the game when the
//! rules have; on the peer's turn they check the peer's move against the rules. During a
//! search the peer is still read, so a chat, a game end, a back request or a closed
//! connection is answered at once, the search stopped by its flag.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context as _, bail};
use engine_protocols::dxp::board::{self, VARIANT};
use engine_protocols::dxp::message::{
    AcceptCode, BackCode, EndReason, GameRequest, Message, Side, StopCode, VERSION,
};
use engine_protocols::hub::message::Level;
use rules::{Color, Game, GameResult, Move, Outcome, Position};
use search::Limits;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, sleep_until, timeout};

use super::connection::{Connection, Incoming};
use crate::hub::engine::{self, Answer, Player, SearchJob};
use crate::hub::time_control;

/// How long a game end waits for the peer's confirmation before the session goes on without
/// it: a peer that never confirms must not hang the session.
const CONFIRMATION_WAIT: Duration = Duration::from_secs(10);

/// How this side plays.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The robot's level, 1 to 5.
    pub strength: u8,
    /// The time for one move; with a game clock from the request, at most its share.
    pub move_time: Duration,
    /// The name sent in game requests and accepts.
    pub name: String,
}

/// How one game went, for the log and the connecting side's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// The colour this side played.
    pub ours: Color,
    /// The peer's name.
    pub opponent: String,
    /// Plies played.
    pub plies: usize,
    /// How it ended, in words.
    pub ending: String,
}

/// Plays the follower's side on `stream`: answers game requests and plays each accepted game,
/// until the peer closes the connection. Returns the games played.
pub async fn follow<S>(stream: S, settings: &Settings) -> io::Result<Vec<GameSummary>>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut session = Session::new(stream, settings, Role::Follower);
    let mut games = Vec::new();
    let mut pending = None;
    loop {
        let request = match pending.take() {
            Some(request) => request,
            None => match session.conn.receive().await? {
                None => return Ok(games),
                Some(Incoming::Message(Message::GameRequest(request))) => request,
                Some(Incoming::Message(Message::Chat(text))) => {
                    tracing::info!("DXP chat: {text}");
                    continue;
                }
                // A late confirmation of a game already over.
                Some(Incoming::Message(Message::GameEnd { .. })) => continue,
                Some(other) => {
                    tracing::warn!("DXP: {other:?} outside a game, ignored");
                    continue;
                }
            },
        };
        let Some(mut record) = session.accept(&request).await? else {
            continue;
        };
        let end = session.play(&mut record).await?;
        let summary = record.summary(&request.name, &end);
        tracing::info!(
            "DXP game against {} over after {} plies: {}",
            summary.opponent,
            summary.plies,
            summary.ending
        );
        games.push(summary);
        match end {
            GameEnd::Over(_) => {}
            GameEnd::PeerLeft => return Ok(games),
            GameEnd::NewRequest(request) => pending = Some(request),
        }
    }
}

/// Plays the initiator's side on `stream`: asks for `games` games from the starting position,
/// this side playing `first` in the first and the colours alternating, then closes the
/// connection. Fails when the follower refuses a game or leaves before the games are played.
pub async fn initiate<S>(
    stream: S,
    settings: &Settings,
    games: u32,
    first: Color,
) -> anyhow::Result<Vec<GameSummary>>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut session = Session::new(stream, settings, Role::Initiator);
    let mut played = Vec::new();
    for number in 0..games {
        let ours = if number % 2 == 0 { first } else { !first };
        session.stop = if number + 1 == games {
            StopCode::NoMoreGames
        } else {
            StopCode::NextGameWelcome
        };
        let request = GameRequest {
            version: VERSION.to_owned(),
            name: settings.name.clone(),
            follower: (!ours).into(),
            minutes: 0,
            moves: 0,
            position: None,
        };
        session
            .conn
            .send(&Message::GameRequest(request))
            .await
            .context("sending a game request")?;
        let opponent = session.await_accept().await?;
        tracing::info!(
            "DXP game {} against {opponent}: checkerbot plays {ours}",
            number + 1
        );
        let mut record = Record::new(Position::new(VARIANT), ours, Clock::default());
        session.player_new_game();
        let end = session.play(&mut record).await.context("playing a game")?;
        let summary = record.summary(&opponent, &end);
        tracing::info!(
            "DXP game against {} over after {} plies: {}",
            summary.opponent,
            summary.plies,
            summary.ending
        );
        played.push(summary);
        if let GameEnd::PeerLeft = end {
            bail!(
                "{opponent} closed the connection during game {}",
                number + 1
            );
        }
    }
    // The follower may have closed first, after the last game end.
    let _ = session.conn.close().await;
    Ok(played)
}

/// Which side of the protocol this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Follower,
    Initiator,
}

/// How a game ended.
#[derive(Debug)]
enum GameEnd {
    /// With game-end messages, for this reason.
    Over(String),
    /// The peer closed the connection.
    PeerLeft,
    /// The peer asked for a new game instead of going on (a follower only).
    NewRequest(GameRequest),
}

/// What a turn of this side came to.
enum Turn {
    /// The move found, and the seconds it took.
    Move(Move, u16),
    /// A message from the peer stopped the search.
    Interrupted(Incoming),
    /// The peer closed the connection.
    PeerLeft,
}

/// The game as this side knows it: the start and the moves played since.
#[derive(Debug)]
struct Record {
    /// `positions[0]` is the start, `positions[i + 1]` follows `moves[i]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    ours: Color,
    clock: Clock,
}

/// The game clock a request gives, as this side spends it.
#[derive(Debug, Default)]
struct Clock {
    /// Minutes for the whole game, 0 for none.
    minutes: u16,
    /// Moves in that time, 0 for no limit.
    moves: u16,
    used: Duration,
    our_moves: u16,
}

impl Clock {
    /// The time for this side's next move: the move time, or the clock's share if shorter.
    fn budget(&self, move_time: Duration) -> Duration {
        if self.minutes == 0 {
            return move_time;
        }
        let left = (f64::from(self.minutes) * 60.0 - self.used.as_secs_f64()).max(0.0);
        let level = Level {
            time: Some(left),
            moves: (self.moves > 0)
                .then(|| u32::from(self.moves.saturating_sub(self.our_moves).max(1))),
            ..Level::default()
        };
        time_control::budget(&level).map_or(move_time, |share| share.min(move_time))
    }
}

impl Record {
    fn new(start: Position, ours: Color, clock: Clock) -> Record {
        Record {
            positions: vec![start],
            moves: Vec::new(),
            ours,
            clock,
        }
    }

    fn position(&self) -> Position {
        *self.positions.last().expect("a record holds its start")
    }

    fn play(&mut self, mv: Move) {
        let mut next = self.position();
        next.play_unchecked(&mv);
        self.moves.push(mv);
        self.positions.push(next);
    }

    /// The rules' verdict: replayed, since a game's draw rules need its history, and the
    /// first verdict holds even if the peer played on.
    fn outcome(&self) -> Option<Outcome> {
        let mut game = Game::from_position(self.positions[0]);
        for mv in &self.moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        game.outcome()
    }

    /// The positions before the current one since the last capture or man move, for the
    /// repetition rule.
    fn history(&self) -> Vec<Position> {
        let mut from = self.moves.len();
        while from > 0 && !engine::irreversible(&self.positions[from - 1], &self.moves[from - 1]) {
            from -= 1;
        }
        self.positions[from..self.moves.len()].to_vec()
    }

    /// Goes back to move `number` with `side` to move, counting the start's first move as
    /// move 1; false when that is not a position of this game (not yet played, or before the
    /// start).
    fn take_back_to(&mut self, number: u16, side: Side) -> bool {
        let first_black = usize::from(self.positions[0].turn() == Color::Black);
        let Some(ply) = (usize::from(number) * 2 + usize::from(side == Side::Black))
            .checked_sub(2 + first_black)
        else {
            return false;
        };
        if ply > self.moves.len() {
            return false;
        }
        self.moves.truncate(ply);
        self.positions.truncate(ply + 1);
        true
    }

    fn summary(&self, opponent: &str, end: &GameEnd) -> GameSummary {
        GameSummary {
            ours: self.ours,
            opponent: opponent.to_owned(),
            plies: self.moves.len(),
            ending: match end {
                GameEnd::Over(why) => why.clone(),
                GameEnd::PeerLeft => "the peer closed the connection".to_owned(),
                GameEnd::NewRequest(_) => "the peer asked for a new game".to_owned(),
            },
        }
    }
}

struct Session<'a, S> {
    conn: Connection<S>,
    settings: &'a Settings,
    role: Role,
    /// The stop code of this side's game ends: whether it plays another game.
    stop: StopCode,
    /// Who searches; `None` until the first search, or after one failed.
    player: Option<Player>,
}

impl<'a, S: AsyncRead + AsyncWrite + Unpin> Session<'a, S> {
    fn new(stream: S, settings: &'a Settings, role: Role) -> Session<'a, S> {
        Session {
            conn: Connection::new(stream),
            settings,
            role,
            stop: StopCode::NextGameWelcome,
            player: None,
        }
    }

    /// Answers a game request: the game to play, or `None` when it was refused.
    async fn accept(&mut self, request: &GameRequest) -> io::Result<Option<Record>> {
        let refuse = |code| Message::GameAccept {
            name: self.settings.name.clone(),
            code,
        };
        if request.version != VERSION {
            tracing::warn!(
                "DXP: {} asks for protocol version {:?}; only {VERSION} is spoken, game refused",
                request.name,
                request.version
            );
            self.conn.send(&refuse(AcceptCode::WrongVersion)).await?;
            return Ok(None);
        }
        let start = match &request.position {
            None => Position::new(VARIANT),
            Some(start) => match board::parse_position(start) {
                Ok(position) => position,
                Err(error) => {
                    tracing::warn!("DXP: game from {} refused: {error}", request.name);
                    self.conn.send(&refuse(AcceptCode::Declined)).await?;
                    return Ok(None);
                }
            },
        };
        if start.count_legal_moves() == 0 {
            tracing::warn!(
                "DXP: game from {} refused: the side to move has no legal move",
                request.name
            );
            self.conn.send(&refuse(AcceptCode::Declined)).await?;
            return Ok(None);
        }
        let ours = Color::from(request.follower);
        // Logged before the answer, so that a peer which has its acceptance finds the game in
        // the log.
        tracing::info!(
            "DXP game from {}: checkerbot plays {ours}, {} minutes for {} moves",
            request.name,
            request.minutes,
            request.moves
        );
        self.conn.send(&refuse(AcceptCode::Accepted)).await?;
        self.player_new_game();
        let clock = Clock {
            minutes: request.minutes,
            moves: request.moves,
            ..Clock::default()
        };
        Ok(Some(Record::new(start, ours, clock)))
    }

    /// Waits for the answer to this side's game request: the follower's name when accepted.
    async fn await_accept(&mut self) -> anyhow::Result<String> {
        loop {
            match self
                .conn
                .receive()
                .await
                .context("waiting for a game accept")?
            {
                None => bail!(
                    "the follower closed the connection instead of answering the game request"
                ),
                Some(Incoming::Message(Message::GameAccept { name, code })) => {
                    if code == AcceptCode::Accepted {
                        return Ok(name);
                    }
                    bail!("{name} refused the game: {}", code.describe());
                }
                Some(Incoming::Message(Message::Chat(text))) => tracing::info!("DXP chat: {text}"),
                Some(other) => tracing::warn!("DXP: {other:?} before the game accept, ignored"),
            }
        }
    }

    /// A new game: the searcher forgets the last one's table (a weaker level keeps its
    /// player, which starts each search afresh).
    fn player_new_game(&mut self) {
        if let Some(Player::AlphaBeta(searcher)) = &mut self.player {
            searcher.clear();
        }
    }

    /// Plays a game to its end.
    async fn play(&mut self, record: &mut Record) -> io::Result<GameEnd> {
        loop {
            if record.position().turn() == record.ours {
                if let Some(outcome) = record.outcome() {
                    let (reason, words) = verdict(outcome, record.ours);
                    return self.end_game(reason, words).await;
                }
                let position = record.position();
                match self.think(record).await? {
                    Turn::Move(mv, seconds) => {
                        let message = board::write_move(&position, &mv, seconds);
                        self.conn.send(&Message::Move(message)).await?;
                        record.play(mv);
                    }
                    Turn::Interrupted(incoming) => {
                        if let Some(end) = self.on_incoming(record, incoming).await? {
                            return Ok(end);
                        }
                    }
                    Turn::PeerLeft => return Ok(GameEnd::PeerLeft),
                }
            } else {
                let Some(incoming) = self.conn.receive().await? else {
                    tracing::warn!(
                        "DXP: the peer closed the connection in the middle of a game, after {} plies",
                        record.moves.len()
                    );
                    return Ok(GameEnd::PeerLeft);
                };
                if let Some(end) = self.on_incoming(record, incoming).await? {
                    return Ok(end);
                }
            }
        }
    }

    /// Carries out what the peer sent during a game; `Some` when the game is over.
    async fn on_incoming(
        &mut self,
        record: &mut Record,
        incoming: Incoming,
    ) -> io::Result<Option<GameEnd>> {
        let message = match incoming {
            Incoming::Message(message) => message,
            Incoming::Unreadable { text, error } => {
                if text.starts_with('M') {
                    tracing::warn!(
                        "DXP: the peer's move {text:?} cannot be read ({error}); ending the game"
                    );
                    let words = format!("ended: the peer's move {text:?} could not be read");
                    return self.end_game(EndReason::Unknown, words).await.map(Some);
                }
                tracing::warn!("DXP: a message that cannot be read, ignored: {text:?} ({error})");
                return Ok(None);
            }
            Incoming::TooLong => {
                tracing::warn!("DXP: a message longer than the protocol allows, ignored");
                return Ok(None);
            }
        };
        match message {
            Message::Chat(text) => tracing::info!("DXP chat: {text}"),
            Message::Move(mv) => {
                let position = record.position();
                let text = board::move_text(&mv);
                if position.turn() == record.ours {
                    tracing::warn!(
                        "DXP: the peer played {text} on checkerbot's turn; ending the game"
                    );
                    let words = format!("ended: the peer played {text} out of turn");
                    return self.end_game(EndReason::Unknown, words).await.map(Some);
                }
                match board::parse_move(&position, &mv) {
                    Ok(mv) => {
                        tracing::debug!("DXP: the peer plays {text}");
                        record.play(mv);
                    }
                    Err(error) => {
                        tracing::warn!(
                            "DXP: the peer's move is refused, {error} (position {}); ending the game",
                            rules::fen::write(&position)
                        );
                        let words = format!("ended: the peer's move {text} was illegal");
                        return self.end_game(EndReason::Unknown, words).await.map(Some);
                    }
                }
            }
            Message::GameEnd { reason, stop } => {
                let confirmation = Message::GameEnd {
                    reason: EndReason::Unknown,
                    stop: self.stop,
                };
                self.conn.send(&confirmation).await?;
                let more = match stop {
                    StopCode::NextGameWelcome => "",
                    StopCode::NoMoreGames => ", no more games",
                };
                return Ok(Some(GameEnd::Over(format!(
                    "the peer ended it ({}{more})",
                    reason.describe()
                ))));
            }
            Message::BackRequest { move_number, side } => {
                let code = if record.take_back_to(move_number, side) {
                    tracing::info!(
                        "DXP: back to move {move_number} with {} to move, as the peer asked",
                        Color::from(side)
                    );
                    BackCode::Accepted
                } else {
                    tracing::warn!(
                        "DXP: the peer asked to go back to move {move_number}, which this game has not reached; going on"
                    );
                    BackCode::Continue
                };
                self.conn.send(&Message::BackAccept(code)).await?;
            }
            Message::GameRequest(request) => match self.role {
                Role::Follower => return Ok(Some(GameEnd::NewRequest(request))),
                Role::Initiator => tracing::warn!("DXP: a game request from the follower, ignored"),
            },
            Message::GameAccept { .. } | Message::BackAccept(_) => {
                tracing::warn!("DXP: {message:?} unasked for, ignored");
            }
        }
        Ok(None)
    }

    /// Ends the game with a game-end message and waits for the peer's confirmation.
    async fn end_game(&mut self, reason: EndReason, words: String) -> io::Result<GameEnd> {
        self.conn
            .send(&Message::GameEnd {
                reason,
                stop: self.stop,
            })
            .await?;
        let confirmed = timeout(CONFIRMATION_WAIT, async {
            loop {
                match self.conn.receive().await? {
                    None | Some(Incoming::Message(Message::GameEnd { .. })) => return Ok(None),
                    Some(Incoming::Message(Message::GameRequest(request))) => {
                        return Ok(Some(request));
                    }
                    Some(Incoming::Message(Message::Chat(text))) => {
                        tracing::info!("DXP chat: {text}");
                    }
                    Some(other) => tracing::debug!("DXP: {other:?} after the game end, ignored"),
                }
            }
        })
        .await;
        match confirmed {
            Ok(Ok(Some(request))) if self.role == Role::Follower => {
                Ok(GameEnd::NewRequest(request))
            }
            Ok(Ok(_)) => Ok(GameEnd::Over(words)),
            Ok(Err(error)) => Err(error),
            Err(_) => {
                tracing::warn!("DXP: the peer did not confirm the game end");
                Ok(GameEnd::Over(words))
            }
        }
    }

    /// Searches this side's move until the budget is spent, reading the peer meanwhile.
    async fn think(&mut self, record: &mut Record) -> io::Result<Turn> {
        let position = record.position();
        let legal = position.legal_moves();
        if let [only] = legal[..] {
            record.clock.our_moves += 1;
            return Ok(Turn::Move(only, 0));
        }
        let player = match self.player.take() {
            Some(player) => player,
            None => {
                engine::new_player(VARIANT, self.settings.strength).map_err(io::Error::other)?
            }
        };
        let job = SearchJob {
            position,
            history: record.history(),
            limits: Limits::default(),
            level: Level::default(),
            player,
        };
        let started = Instant::now();
        let deadline = started + record.clock.budget(self.settings.move_time);
        let stop = Arc::new(AtomicBool::new(false));
        let mut search = tokio::task::spawn_blocking({
            let stop = Arc::clone(&stop);
            move || job.run(&stop, |_| {})
        });
        let mut timed_out = false;
        let interrupted = loop {
            tokio::select! {
                biased;
                finished = &mut search => {
                    let (player, answer) = finished.map_err(io::Error::other)?;
                    self.player = Some(player);
                    let best = match answer {
                        Answer::Searched(result) => result.best,
                        Answer::Thought(thought) => thought.map(|t| t.mv),
                    };
                    let spent = started.elapsed();
                    record.clock.used += spent;
                    record.clock.our_moves += 1;
                    let seconds = u16::try_from(spent.as_secs()).unwrap_or(u16::MAX);
                    return Ok(Turn::Move(best.unwrap_or(legal[0]), seconds));
                }
                () = sleep_until(deadline), if !timed_out => {
                    stop.store(true, Ordering::Relaxed);
                    timed_out = true;
                }
                incoming = self.conn.receive() => match incoming? {
                    Some(Incoming::Message(Message::Chat(text))) => tracing::info!("DXP chat: {text}"),
                    other => break other,
                },
            }
        };
        stop.store(true, Ordering::Relaxed);
        record.clock.used += started.elapsed();
        if let Ok((player, _)) = search.await {
            self.player = Some(player);
        }
        if let Some(incoming) = interrupted {
            return Ok(Turn::Interrupted(incoming));
        }
        tracing::warn!("DXP: the peer closed the connection during checkerbot's search");
        Ok(Turn::PeerLeft)
    }
}

/// The game-end reason this side gives for the rules' verdict, and the verdict in words.
fn verdict(outcome: Outcome, ours: Color) -> (EndReason, String) {
    let why = outcome.reason;
    match outcome.result {
        GameResult::Win(winner) if winner == ours => {
            (EndReason::SenderWins, format!("checkerbot won: {why}"))
        }
        GameResult::Win(_) => (EndReason::SenderLoses, format!("checkerbot lost: {why}")),
        GameResult::Draw => (EndReason::Draw, format!("a draw: {why}")),
    }
}
