//! The people at the simulated board: they set it up, play the visitor's moves with their
//! hands, put the robot's piece right when asked, and press the button, all through the
//! simulated board controller.

use std::time::Duration;

use hal::device::ButtonId;
use hal::sim::board::SimBoardHandle;
use rules::Position;
use tokio::sync::{broadcast, watch};

use super::visitor::{HINT_HOLD, Turn, Visitor};
use super::world::PhysicalBoard;
use crate::robot::VisibleState;
use host::Waiting;

/// How long people take, in the simulation's clock.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// Setting up the pieces for a new game.
    pub setup: Duration,
    /// The visitor thinking about a move.
    pub visitor_move: Duration,
    /// Putting the robot's piece right.
    pub board_fix: Duration,
    /// How long a visitor waits for the robot to react to a press before pressing again.
    pub patience: Duration,
}

/// Plays the people's part until the robot stops, or the visitor leaves: then it asks the robot
/// to stop through `shutdown` and returns true. When the people fail (a script line that
/// cannot be read, say) the robot is asked to stop too, so the error reaches the caller at
/// once rather than leaving the robot to wait for a visitor who is gone.
pub async fn act(
    stage: watch::Receiver<VisibleState>,
    world: PhysicalBoard,
    board: SimBoardHandle,
    visitor: Visitor,
    pace: Pace,
    shutdown: broadcast::Sender<()>,
) -> anyhow::Result<bool> {
    let acted = act_until_done(stage, world, board, visitor, pace, &shutdown).await;
    if acted.is_err() {
        let _ = shutdown.send(());
    }
    acted
}

async fn act_until_done(
    mut stage: watch::Receiver<VisibleState>,
    mut world: PhysicalBoard,
    board: SimBoardHandle,
    mut visitor: Visitor,
    pace: Pace,
    shutdown: &broadcast::Sender<()>,
) -> anyhow::Result<bool> {
    loop {
        match tokio::time::timeout(pace.patience, stage.changed()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => break,
            Err(_) => {
                // Nothing happened since the last press (it was lost with the link, say): a
                // person presses again.
                let waiting = stage.borrow().waiting;
                if matches!(
                    waiting,
                    Waiting::VisitorMove | Waiting::BoardFix(_) | Waiting::TakeBack(_)
                ) {
                    board.press(ButtonId::CONFIRM);
                }
                continue;
            }
        }
        let VisibleState {
            waiting,
            position,
            set_up,
            ..
        } = stage.borrow_and_update().clone();
        match waiting {
            Waiting::Setup => {
                // A board the robot set up (or the last one left ready) needs nothing; a game
                // that starts meanwhile is not set up again. The position is the next game's
                // start, or the one the operator asked for.
                let start = set_up;
                if world.occupancy() == start.occupied() {
                    continue;
                }
                tokio::time::sleep(pace.setup).await;
                if stage.borrow().waiting == Waiting::Setup {
                    world.set(&start);
                }
            }
            Waiting::VisitorMove => {
                if visitor.is_person() {
                    eprintln!("{position}");
                }
                tokio::time::sleep(pace.visitor_move).await;
                // A hint first, perhaps both its steps; the visitor then plays as they meant to.
                if world.occupancy() == position.occupied() {
                    let mut steps = 0;
                    while steps < 2 && visitor.wants_hint() {
                        board.hold(ButtonId::CONFIRM, HINT_HOLD).await;
                        tokio::time::sleep(pace.visitor_move).await;
                        steps += 1;
                    }
                }
                if play_turn(&mut visitor, &position, &mut world, &board, shutdown).await? {
                    return Ok(true);
                }
            }
            Waiting::BoardFix(expected) => {
                // The robot's move is on the board wrongly: the visitor puts it right.
                tokio::time::sleep(pace.board_fix).await;
                world.fix(expected);
                board.press(ButtonId::CONFIRM);
            }
            // A person or a script decides for themselves, with their hands and the button.
            Waiting::TakeBack(_) if !visitor.follows_chances() => {
                if play_turn(&mut visitor, &position, &mut world, &board, shutdown).await? {
                    return Ok(true);
                }
            }
            Waiting::TakeBack(before) if visitor.takes_back() => {
                // The pieces go back; the robot's read of the board takes the move back.
                tokio::time::sleep(pace.board_fix).await;
                world.set_squares(before);
            }
            Waiting::TakeBack(_) => {
                tokio::time::sleep(pace.visitor_move).await;
                board.press(ButtonId::CONFIRM);
            }
            Waiting::Robot | Waiting::Paused => {}
        }
    }
    Ok(false)
}

/// The visitor's turn with the hands and the button; true when the visitor left instead (and
/// the robot was asked to stop).
async fn play_turn(
    visitor: &mut Visitor,
    position: &Position,
    world: &mut PhysicalBoard,
    board: &SimBoardHandle,
    shutdown: &broadcast::Sender<()>,
) -> anyhow::Result<bool> {
    match visitor.take_turn(position, world, board).await? {
        Turn::Pressed => {
            board.press(ButtonId::CONFIRM);
            Ok(false)
        }
        Turn::Left => {
            eprintln!("the visitor left");
            let _ = shutdown.send(());
            Ok(true)
        }
    }
}
