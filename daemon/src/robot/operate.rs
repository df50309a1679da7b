//! What the operator page asks of the robot, carried out inside the game loop between two
//! events, so a command never races the game: it sees the host, the arm and the voice as the
//! loop left them, and its effects reach every observer in order.

use emotions::{Attitude, Category, LineRequest};
use sounds::Language;
use tokio::sync::{mpsc, oneshot};

use super::{PieceMover, Robot, Workers};
use hal::device::{BoardLights, BoardSensor, Face};
use host::{Action, Device, LogEvent, OperatorAction, Refused};

/// One thing the operator asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorCommand {
    /// End the game in progress unfinished; the next starts when the board is set up.
    NewGame,
    /// Stop the game where it is.
    Pause,
    /// Go on after a pause.
    GoOn,
    /// The robot gives up the game.
    Resign,
    /// Take back the visitor's last move (and the robot's reply).
    TakeBack,
    /// Settle an ambiguous press: the candidate with this label.
    Resolve(String),
    /// Send the arm to its resting pose.
    Park,
    /// Say a line of this category now.
    TestVoice(Category),
    /// Change settings, applied exactly like a reload of the settings file.
    Adjust(Adjustment),
    /// Play the next game from this position (FEN), set up by the arm or by people; a game in
    /// progress ends unfinished. The robot plays `robot`, or by default the settings' colour
    /// (the side not to move when colours alternate).
    SetUp {
        /// The position, as FEN, in the next game's variant.
        fen: String,
        /// The robot's colour in that game.
        robot: Option<rules::Color>,
    },
}

/// The settings the page changes; `None` keeps the current value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Adjustment {
    /// `play.level`.
    pub level: Option<checkerbot_config::PlayLevel>,
    /// `emotions.attitude`.
    pub attitude: Option<Attitude>,
    /// `sounds.language`.
    pub language: Option<Language>,
    /// `sounds.volume`.
    pub volume: Option<f32>,
    /// `emotions.announce_moves`.
    pub announce_moves: Option<emotions::AnnounceMoves>,
    /// `coach.enabled`.
    pub coach_enabled: Option<bool>,
    /// `coach.hints_per_game`.
    pub hints_per_game: Option<u32>,
    /// `coach.take_backs`.
    pub take_backs: Option<bool>,
    /// `game.reset_board`.
    pub reset_board: Option<bool>,
}

impl Adjustment {
    /// `settings` with these changes.
    pub fn applied_to(
        &self,
        settings: &checkerbot_config::Settings,
    ) -> checkerbot_config::Settings {
        let mut next = settings.clone();
        if let Some(level) = self.level {
            next.play.level = level;
        }
        if let Some(attitude) = self.attitude {
            next.emotions.attitude = attitude;
        }
        if let Some(language) = self.language {
            next.sounds.language = language;
        }
        if let Some(volume) = self.volume {
            next.sounds.volume = volume;
        }
        if let Some(announce_moves) = self.announce_moves {
            next.emotions.announce_moves = announce_moves;
        }
        if let Some(enabled) = self.coach_enabled {
            next.coach.enabled = enabled;
        }
        if let Some(hints) = self.hints_per_game {
            next.coach.hints_per_game = hints;
        }
        if let Some(take_backs) = self.take_backs {
            next.coach.take_backs = take_backs;
        }
        if let Some(reset_board) = self.reset_board {
            next.game.reset_board = reset_board;
        }
        next
    }
}

/// How a command went.
pub type OperatorReply = Result<Done, Refused>;

/// A command carried out.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    /// What happened, for the operator.
    pub message: String,
    /// The settings in force after an [`OperatorCommand::Adjust`].
    pub settings: Option<Box<checkerbot_config::Settings>>,
}

impl Done {
    fn said(message: &str) -> Done {
        Done {
            message: message.to_owned(),
            settings: None,
        }
    }
}

/// A command and where its outcome goes.
#[derive(Debug)]
pub struct Request {
    /// What is asked.
    pub command: OperatorCommand,
    /// The answer; dropped unanswered only when the robot stops.
    pub reply: oneshot::Sender<OperatorReply>,
}

/// The loop's end of the operator's channel, and the settings in force (which commands change).
pub(super) struct OperatorLink {
    pub(super) requests: mpsc::UnboundedReceiver<Request>,
    pub(super) settings: checkerbot_config::Settings,
}

/// Waits for the next request, forever when there is no operator page.
pub(super) async fn next_request(link: &mut Option<OperatorLink>) -> Option<Request> {
    match link {
        Some(link) => link.requests.recv().await,
        None => std::future::pending().await,
    }
}

impl<B, M> Robot<B, M>
where
    B: BoardSensor + BoardLights + Face + Send,
    M: PieceMover,
{
    /// Takes commands from the operator page; `settings` are the ones in force now.
    pub fn operate_from(
        &mut self,
        requests: mpsc::UnboundedReceiver<Request>,
        settings: checkerbot_config::Settings,
    ) {
        self.operator = Some(OperatorLink { requests, settings });
    }

    /// Carries out one request and answers it.
    pub(super) async fn operate(
        &mut self,
        request: Request,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        let outcome = self.command(request.command, workers).await?;
        // The page may have gone away meanwhile; the command stands either way.
        let _ = request.reply.send(outcome);
        Ok(())
    }

    async fn command(
        &mut self,
        command: OperatorCommand,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<OperatorReply> {
        let now = self.now();
        let (actions, message) = match command {
            OperatorCommand::NewGame => (
                self.host.new_game(now),
                "the game was ended; set up the board for the next",
            ),
            OperatorCommand::Pause => (self.host.pause(), "paused"),
            OperatorCommand::GoOn => (self.host.go_on(now), "going on"),
            OperatorCommand::Resign => (self.host.resign(now), "the robot resigned"),
            OperatorCommand::TakeBack => {
                let before = *self.host.game().position();
                let taken = self.host.take_back();
                if taken.is_ok() {
                    self.stock_after_take_back(&before);
                }
                (
                    taken,
                    "taken back; put the pieces back and press the button",
                )
            }
            OperatorCommand::Resolve(label) => (self.host.resolve(&label, now), "move settled"),
            OperatorCommand::Park => return self.park().await,
            OperatorCommand::TestVoice(category) => return self.test_voice(category).await,
            OperatorCommand::Adjust(adjustment) => return self.adjust(&adjustment),
            OperatorCommand::SetUp { fen, robot } => {
                // Boxed: it plans and starts a reset, which would swell every loop's future.
                return Box::pin(self.set_up(&fen, robot, workers)).await;
            }
        };
        match actions {
            Ok(actions) => {
                self.dispatch(actions, workers).await?;
                self.publish()?;
                Ok(Ok(Done::said(message)))
            }
            Err(refused) => Ok(Err(refused)),
        }
    }

    /// After a take-back from `before`: the pieces the board gains came out of the rack, and
    /// those it loses (a king uncrowned) go beside it, so the arm's stock still says what is
    /// where once people have put the board back.
    fn stock_after_take_back(&mut self, before: &rules::Position) {
        let (returned, removed) = taken_back(before, self.host.game().position());
        if let Some(mover) = &mut self.mover {
            mover.taken_back(&returned, &removed);
        }
    }

    async fn park(&mut self) -> anyhow::Result<OperatorReply> {
        let Some(mover) = &mut self.mover else {
            return Ok(Err(Refused(
                "the arm is making the robot's move; try again when it has finished".to_owned(),
            )));
        };
        let result = mover.park().await;
        self.log(&LogEvent::Operator {
            action: OperatorAction::Park,
            detail: String::new(),
        })?;
        match result {
            Ok(()) => Ok(Ok(Done::said("the arm is parked"))),
            Err(err) => {
                let message = format!("parking failed: {err}");
                self.fault(Device::Arm, &message)?;
                Ok(Err(Refused(format!("arm: {message}"))))
            }
        }
    }

    async fn test_voice(&mut self, category: Category) -> anyhow::Result<OperatorReply> {
        let attitude = self
            .operator
            .as_ref()
            .map_or_else(Attitude::default, |link| link.settings.emotions.attitude);
        self.log(&LogEvent::Operator {
            action: OperatorAction::TestVoice,
            detail: category.as_str().to_owned(),
        })?;
        let request = LineRequest {
            category,
            attitude,
            mistake: None,
        };
        self.perform(Action::Say {
            request,
            explanation: None,
        })
        .await?;
        Ok(Ok(Done::said("said")))
    }

    fn adjust(&mut self, adjustment: &Adjustment) -> anyhow::Result<OperatorReply> {
        let Some(link) = &self.operator else {
            return Ok(Err(Refused("no operator link".to_owned())));
        };
        let next = adjustment.applied_to(&link.settings);
        let problems = next.validate();
        if !problems.is_empty() {
            let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Ok(Err(Refused(text.join("; "))));
        }
        self.log(&LogEvent::Operator {
            action: OperatorAction::Settings,
            detail: String::new(),
        })?;
        self.apply_settings(&next)?;
        Ok(Ok(Done {
            message: "applied".to_owned(),
            settings: Some(Box::new(next)),
        }))
    }
}

/// The pieces a take-back from `before` to `after` brings onto the board from beside it, and
/// those it takes off (what both hold stays on the board, moved perhaps).
fn taken_back(
    before: &rules::Position,
    after: &rules::Position,
) -> (Vec<hal::arm::Piece>, Vec<hal::arm::Piece>) {
    let pieces = |position: &rules::Position| -> Vec<hal::arm::Piece> {
        position
            .occupied()
            .into_iter()
            .filter_map(|sq| super::arm_squares::piece_at(position, sq))
            .collect()
    };
    let (mut returned, mut removed) = (pieces(after), pieces(before));
    returned.retain(|piece| {
        let kept = removed.iter().position(|other| other == piece);
        kept.map(|i| removed.swap_remove(i)).is_none()
    });
    (returned, removed)
}

#[cfg(test)]
mod tests {
    use hal::arm::{Piece, PieceColour};
    use rules::{Variant, fen};

    #[test]
    fn a_take_back_returns_the_captured_pieces_from_the_rack_and_uncrowns_a_king() {
        // Black's reply took White's man on d4; taking it back puts that man back.
        let before = fen::parse(Variant::Russian, "W:Wc3:Bc5,h8").unwrap();
        let after = fen::parse(Variant::Russian, "B:Wc3,d4:Be5,h8").unwrap();
        let (returned, removed) = super::taken_back(&before, &after);
        assert_eq!(returned, [Piece::man(PieceColour::White)]);
        assert!(removed.is_empty());
        // White's man crowned on h8 with a capture: the king leaves, the man and the black man
        // come back.
        let before = fen::parse(Variant::Russian, "B:WKh8:Ba3").unwrap();
        let after = fen::parse(Variant::Russian, "W:Wf6:Bg7,a3").unwrap();
        let (returned, removed) = super::taken_back(&before, &after);
        assert_eq!(
            returned,
            [
                Piece::man(PieceColour::White),
                Piece::man(PieceColour::Black)
            ]
        );
        assert_eq!(removed, [Piece::king(PieceColour::White)]);
    }
}
