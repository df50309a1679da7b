//! Runs the wizard against an arm: keys in, the wizard's requests carried out on the arm, the
//! screen redrawn after each. The same loop serves the terminal and scripted tests.

use std::collections::VecDeque;
use std::path::PathBuf;

use hal::arm::Point;
use hal::device::{Arm, Motion};
use tokio::sync::mpsc;

use super::wizard::{Key, Request, Wizard};

/// Where the wizard's text and saves go.
pub trait Console {
    /// Shows the wizard's screen.
    fn draw(&mut self, screen: &str);
    /// Saves the calibration text; returns where it went.
    fn save(&mut self, text: &str) -> anyhow::Result<PathBuf>;
}

/// Feeds keys from `keys` to `wizard` until it quits or the keys end, moving `arm` as asked.
pub async fn drive<A: Arm>(
    arm: &mut A,
    wizard: &mut Wizard,
    keys: &mut mpsc::UnboundedReceiver<Key>,
    console: &mut dyn Console,
) -> anyhow::Result<()> {
    match arm.pose().await {
        Ok(pose) => wizard.arrived(Point::from_pose(pose)),
        Err(err) => anyhow::bail!("the arm does not report its position: {err}"),
    }
    console.draw(&wizard.screen());
    let mut pending = VecDeque::new();
    loop {
        let key = match pending.pop_front() {
            Some(key) => key,
            None => match keys.recv().await {
                Some(key) => key,
                None => return Ok(()),
            },
        };
        match wizard.key(key) {
            Some(request @ (Request::Move(_) | Request::Turn(_) | Request::Home)) => {
                console.draw(&wizard.screen());
                let done = match request {
                    Request::Move(path) => follow(arm, &path, Motion::Linear).await,
                    Request::Turn(point) => follow(arm, &[point], Motion::Joint).await,
                    _ => home(arm).await,
                };
                match done {
                    Ok(pose) => wizard.arrived(pose),
                    Err(err) => {
                        // Stop the rest of the path before clearing alarms, as the game does.
                        let _ = arm.abort().await;
                        let _ = arm.clear_alarms().await;
                        let pose = arm.pose().await.ok().map(Point::from_pose);
                        wizard.arm_failed(&err.to_string(), pose);
                    }
                }
                // A held arrow key repeats faster than the arm moves: the jogs queued meanwhile
                // are dropped, so the arm stops when the key is released. Other keys stay.
                while let Ok(key) = keys.try_recv() {
                    if !key.is_jog() {
                        pending.push_back(key);
                    }
                }
            }
            Some(Request::Save(text)) => match console.save(&text) {
                Ok(path) => wizard.saved(&path.display().to_string()),
                Err(err) => wizard.save_failed(&format!("{err:#}")),
            },
            Some(Request::Quit) => return Ok(()),
            None => {}
        }
        console.draw(&wizard.screen());
    }
}

/// Homes the arm and returns where the tool ended.
async fn home<A: Arm>(arm: &mut A) -> Result<Point, A::Error> {
    arm.home().await?;
    arm.wait_until_idle().await?;
    arm.pose().await.map(Point::from_pose)
}

/// Moves the tool through `path`, in straight lines ([`Motion::Linear`]) or each joint straight
/// to its angle ([`Motion::Joint`]), and returns where it ended.
async fn follow<A: Arm>(arm: &mut A, path: &[Point], motion: Motion) -> Result<Point, A::Error> {
    for point in path {
        arm.move_to(point.to_pose(0.0), motion).await?;
    }
    arm.wait_until_idle().await?;
    arm.pose().await.map(Point::from_pose)
}
