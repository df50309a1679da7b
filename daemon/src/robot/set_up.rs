//! The loop's side of "set up this position" (the operator page): the FEN read for the next
//! game's variant, the host told (it ends a game in progress and keeps the position), and the
//! board set up by the arm with the reset's machinery when it has a rack, or by people, who
//! are told which squares to clear and to fill. The operator's answer says which squares the
//! rack and the reserve cannot fill, so they can bring those pieces.

use hal::device::{BoardLights, BoardSensor, Face};
use host::Refused;
use rules::{Color, Position, fen, notation};

use super::arm_squares;
use super::operate::{Done, OperatorReply};
use super::reset::ResetRun;
use super::{PieceMover, Robot, Workers};

impl<B, M> Robot<B, M>
where
    B: BoardSensor + BoardLights + Face + Send,
    M: PieceMover,
{
    /// Sets up the position `text` (FEN) for the next game, the robot playing `robot` (by
    /// default as [`host::Host::robot_for_set_up`] says). Refused, changing nothing, when the
    /// FEN cannot be read for the next game's variant (the answer names the token at fault),
    /// when the position has no move for the side to move, while the arm sets the board up,
    /// or while the robot's search or arm is at work on a game.
    pub(super) async fn set_up(
        &mut self,
        text: &str,
        robot: Option<Color>,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<OperatorReply> {
        if self.reset.is_some() {
            return Ok(Err(Refused(
                "the arm is setting the board up; try again when it has finished".to_owned(),
            )));
        }
        let variant = self.host.next_variant();
        let position = match fen::parse(variant, text) {
            Ok(position) => position,
            Err(err) => {
                return Ok(Err(Refused(format!(
                    "not a position of {variant} draughts: {err}"
                ))));
            }
        };
        let robot = robot.unwrap_or_else(|| self.host.robot_for_set_up(&position));
        let actions = match self.host.set_up(position, robot, self.now()) {
            Ok(actions) => actions,
            Err(refused) => return Ok(Err(refused)),
        };
        self.dispatch(actions, workers).await?;
        let same_board = self.host.game().variant().geometry().side() == variant.geometry().side();
        let by_arm = same_board && self.mover.as_ref().is_some_and(PieceMover::can_reset);
        let who = if robot == position.turn() {
            format!("the robot ({robot}) moves first")
        } else {
            format!("the visitor ({}) moves first", !robot)
        };
        let message = if by_arm {
            let short = self.squares_short_of(&position).await?;
            self.reset_wanted = true;
            self.maybe_start_reset(workers).await?;
            if short.is_empty() {
                format!("the arm sets the position up; then {who}")
            } else {
                format!(
                    "the rack and the reserve lack pieces for {}: the arm sets up the rest, \
                     then the robot asks for those squares; then {who}",
                    short.join(", ")
                )
            }
        } else {
            // People set it up: the robot names the squares, and the game's start logs the
            // position as set up by them.
            self.awaiting_fill = Some(fen::write(&position));
            if let Some(scan) = self.scan().await? {
                let actions = self.host.ask_for_set_up(scan, self.now());
                self.dispatch(actions, workers).await?;
            }
            format!(
                "set the position up by hand (the robot names the squares to change); then {who}"
            )
        };
        self.publish()?;
        Ok(Ok(Done {
            message,
            settings: None,
        }))
    }

    /// The squares of `target` the rack and the reserve have no piece for, as the board is
    /// now: empty when the arm can set it all up.
    async fn squares_short_of(&mut self, target: &Position) -> anyhow::Result<Vec<String>> {
        let (Some(scan), Some(mover)) = (self.scan().await?, self.mover.as_ref()) else {
            return Ok(Vec::new());
        };
        let run = ResetRun::new(self.host.game().position(), scan, *target);
        let Ok(outcome) = mover.plan_reset(&run.board, &run.target) else {
            return Ok(Vec::new());
        };
        let geometry = target.variant().geometry();
        Ok(outcome
            .empty_squares()
            .iter()
            .filter_map(|(square, _)| arm_squares::rules_square(geometry, *square))
            .map(|sq| notation::square_name(target.variant(), sq))
            .collect())
    }
}
