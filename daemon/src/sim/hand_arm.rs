//! A simulated arm that moves the magnets on the simulated board directly, taking the time a
//! real pick-and-place takes; with `--faults` a pick sometimes fails and the piece stays.

use std::fmt;
use std::time::Duration;

use engine::{Move, Position};

use super::world::World;
use crate::rng::SplitMix;
use crate::robot::PieceMover;

/// The simulated arm.
#[derive(Debug)]
pub struct HandArm {
    world: World,
    rng: SplitMix,
    failed_pick: f64,
    /// Time per piece carried (own piece, each captured piece).
    per_piece: Duration,
}

impl HandArm {
    /// An arm over `world` whose picks fail with probability `failed_pick`.
    pub fn new(world: World, seed: u64, failed_pick: f64, per_piece: Duration) -> HandArm {
        HandArm {
            world,
            rng: SplitMix::new(seed),
            failed_pick,
            per_piece,
        }
    }
}

/// The suction cup did not hold the piece: nothing moved.
#[derive(Debug)]
pub struct FailedPick(String);

impl fmt::Display for FailedPick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "failed pick for {}: the piece stayed where it was",
            self.0
        )
    }
}

impl std::error::Error for FailedPick {}

impl PieceMover for HandArm {
    type Error = FailedPick;

    async fn make_move(&mut self, _before: &Position, mv: &Move) -> Result<(), FailedPick> {
        let pieces = 1 + mv.captured().count();
        tokio::time::sleep(self.per_piece * pieces).await;
        if self.rng.chance(self.failed_pick) {
            return Err(FailedPick(engine::notation::move_text(
                self.world.variant(),
                mv,
            )));
        }
        self.world.play(mv);
        Ok(())
    }

    async fn park(&mut self) -> Result<(), FailedPick> {
        Ok(())
    }
}
