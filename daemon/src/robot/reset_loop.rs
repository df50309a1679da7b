//! The loop's side of setting the board up after a game: starting a reset when a game ends,
//! a batch of carries at a time on the arm's worker, the scan after each, a pause while a hand
//! is in the board, and the end, logged as `board_reset` (and `position_set_up` when the arm
//! finished it). The belief about the board and the batches are `reset.rs`'s.

use hal::arm::ResetOutcome;
use hal::device::{BoardLights, BoardSensor, Face};
use host::{Device, LogEvent, ResetResult, SetUpBy, Waiting};
use rules::notation;

use super::arm_squares;
use super::reset::{AfterBatch, ResetRun};
use super::{PieceMover, Robot, Workers};

impl<B, M> Robot<B, M>
where
    B: BoardSensor + BoardLights + Face + Send,
    M: PieceMover,
{
    /// Starts setting the board up when a game has ended, the settings ask for it, the arm
    /// is free and has a rack. A board of another size than the next game's is left alone.
    pub(super) async fn maybe_start_reset(
        &mut self,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        if !self.reset_wanted
            || self.reset.is_some()
            || self.host.waiting_for() != Waiting::Setup
            || workers.moving.is_some()
        {
            return Ok(());
        }
        let Some(mover) = &self.mover else {
            return Ok(());
        };
        self.reset_wanted = false;
        if !mover.can_reset() {
            tracing::warn!(
                "the board is to be set up but the calibration has no [rack]: the visitor or \
                 the operator sets it up"
            );
            return self.ask_people_to_set_up(workers).await;
        }
        let finished = *self.host.game().position();
        let target = self.host.next_start();
        if finished.variant().geometry().side() != target.variant().geometry().side() {
            tracing::warn!("the next game is played on another board: it is set up by hand");
            return Ok(());
        }
        let Some(scan) = self.scan().await? else {
            return Ok(());
        };
        if let Some(stock) = self.mover.as_ref().and_then(PieceMover::stock) {
            let rack: String = stock
                .rack()
                .iter()
                .map(|slot| if slot.is_some() { '●' } else { '·' })
                .collect();
            tracing::debug!("resetting with the rack as the robot knows it: {rack}");
        }
        self.reset = Some(ResetRun::new(&finished, scan, target));
        let actions = self.host.begin_reset(self.now());
        self.dispatch(actions, workers).await?;
        self.next_batch(workers).await
    }

    /// People set up the next game's position when it is not the start (a puzzle): the robot
    /// names the squares to change.
    async fn ask_people_to_set_up(&mut self, workers: &mut Workers<M>) -> anyhow::Result<()> {
        let target = self.host.next_start();
        if target == rules::Position::new(target.variant()) {
            return Ok(());
        }
        let Some(scan) = self.scan().await? else {
            return Ok(());
        };
        self.awaiting_fill = Some(rules::fen::write(&target));
        let actions = self.host.ask_for_set_up(scan, self.now());
        self.dispatch(actions, workers).await
    }

    /// Plans from what the robot believes stands where and sends the next batch to the arm,
    /// or ends the reset when nothing is left to carry.
    async fn next_batch(&mut self, workers: &mut Workers<M>) -> anyhow::Result<()> {
        let (Some(run), Some(mover)) = (&mut self.reset, &self.mover) else {
            return Ok(());
        };
        if run.max_batches > 0 && run.batches >= run.max_batches {
            let reason = format!(
                "the board still differed from the plan after {} batches",
                run.batches
            );
            return self.end_reset(ResetResult::Failed, reason, workers).await;
        }
        let mut outcome = mover.plan_reset(&run.board, &run.target);
        if let Ok(ResetOutcome::Short { .. }) = outcome {
            let again = run.slots_to_try_again();
            if !again.is_empty() {
                let mover = self.mover.as_mut().expect("checked above");
                for (slot, piece) in again {
                    tracing::info!("the reset is short: trying {slot} again");
                    mover.restore_slot(slot, piece);
                }
                outcome = mover.plan_reset(&run.board, &run.target);
            }
        }
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(err) => {
                return self
                    .end_reset(ResetResult::Failed, err.to_string(), workers)
                    .await;
            }
        };
        let batch = run.next_batch(&outcome);
        if batch.is_empty() {
            let result = match outcome {
                ResetOutcome::Complete(_) if run.is_done() => ResetResult::Done,
                ResetOutcome::Complete(_) => ResetResult::Failed,
                ResetOutcome::Short { .. } => ResetResult::Short,
            };
            let reason = if result == ResetResult::Failed {
                "the board does not show the position although nothing is left to carry".to_owned()
            } else {
                String::new()
            };
            return self.end_reset(result, reason, workers).await;
        }
        let mut mover = self.mover.take().expect("checked above");
        workers.moving = Some(tokio::spawn(async move {
            let result = mover.carry(batch).await;
            (mover, result)
        }));
        Ok(())
    }

    /// The arm finished a batch (`result`: how it went): the scan says which carries were
    /// made; the next batch follows, or the reset waits for a hand to leave the board.
    pub(super) async fn batch_done(
        &mut self,
        result: Result<(), String>,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        if let Err(err) = &result {
            self.fault(Device::Arm, err)?;
        }
        let Some(scan) = self.scan().await? else {
            let reason = "the board could not be read after the arm's carries".to_owned();
            return self.end_reset(ResetResult::Failed, reason, workers).await;
        };
        let (Some(run), Some(mover)) = (&mut self.reset, &mut self.mover) else {
            return Ok(());
        };
        let geometry = run.target_position.variant().geometry();
        let made = mover.confirm(&arm_squares::occupied(geometry, scan));
        let arm_failed = result.is_err();
        tracing::debug!(batch = ?run.batch, ?made, arm_failed, "a batch of the reset is over");
        let interrupted = if let Err(err) = result {
            if run.arm_failed(err) {
                let reason = format!("the arm failed: {}", run.arm_failures.1);
                return self.end_reset(ResetResult::Failed, reason, workers).await;
            }
            run.interrupted_carry(scan)
        } else {
            run.arm_worked();
            None
        };
        let (empty, next) = run.after_batch(scan, &made, arm_failed);
        if let Some(carry) = interrupted {
            // The cup may still hold the piece of the carry the failure cut short: it goes
            // back where it came from (or, if the cup is empty, is picked there and put back).
            tracing::info!("putting back what the arm may hold, at {:?}", carry.from);
            run.batch = vec![carry];
            let mut mover = self.mover.take().expect("checked above");
            workers.moving = Some(tokio::spawn(async move {
                let result = mover.carry(vec![carry]).await;
                (mover, result)
            }));
            return Ok(());
        }
        for slot in empty {
            tracing::info!("{slot} gave nothing twice: it is taken to be empty");
            if let Some(piece) = mover.forget_slot(slot) {
                run.doubt_slot(slot, piece);
            }
        }
        match next {
            AfterBatch::Go => self.next_batch(workers).await,
            AfterBatch::HandInBoard => {
                tracing::info!(
                    "the board changed where the arm did not reach: waiting until it is still"
                );
                Ok(())
            }
        }
    }

    /// Whether the loop must read the board for the reset: a hand was in it.
    pub(super) fn reset_settling(&self) -> bool {
        self.reset
            .as_ref()
            .is_some_and(|run| run.settling.is_some())
    }

    /// A read of the board while a hand was in it: once it is still, the reset plans again.
    pub(super) async fn reset_poll(&mut self, workers: &mut Workers<M>) -> anyhow::Result<()> {
        let Some(scan) = self.scan().await? else {
            return Ok(());
        };
        let still = self.reset.as_mut().is_some_and(|run| run.settle(scan));
        if still {
            self.next_batch(workers).await?;
        }
        Ok(())
    }

    /// Ends the reset with `result`: logs it, and hands the board back to the host, which
    /// starts the next game at once or asks for the squares still to fill. After the last
    /// game of a bounded run, no game is started.
    async fn end_reset(
        &mut self,
        result: ResetResult,
        reason: String,
        workers: &mut Workers<M>,
    ) -> anyhow::Result<()> {
        let Some(run) = self.reset.take() else {
            return Ok(());
        };
        let variant = run.target_position.variant();
        let (missing, _) = run.differences();
        let squares = missing
            .into_iter()
            .map(|sq| notation::square_name(variant, sq))
            .collect();
        self.log(&LogEvent::BoardReset {
            result,
            pieces_moved: run.moved,
            duration_ms: run.started.elapsed().as_millis() as u64,
            squares,
            reason,
            replans: run.replans,
        })?;
        let fen = rules::fen::write(&run.target_position);
        if result == ResetResult::Done {
            self.log(&LogEvent::PositionSetUp {
                fen,
                by: SetUpBy::Robot,
            })?;
        } else {
            self.awaiting_fill = Some(fen);
        }
        let last_game = self
            .config
            .games
            .is_some_and(|games| self.records.games_done >= games);
        if !last_game {
            let actions = self.host.end_reset(run.scan, self.now());
            self.dispatch(actions, workers).await?;
        }
        self.publish()
    }
}
