//! The arm that moves pieces: a Dobot Magician or a custom controller driving steppers.

use std::future::Future;

use crate::ErrorType;

/// A tool position in the arm's base frame: millimetres with x forward, y left and z up (z = 0
/// near the mounting plane), and `r` the tool rotation in degrees.
///
/// This is the Dobot's own coordinate system, so poses pass to its firmware unchanged; a custom
/// controller converts them to joint angles on the host.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose {
    /// Forward from the base axis, mm.
    pub x: f32,
    /// Left of the base axis, mm.
    pub y: f32,
    /// Up from the mounting plane, mm.
    pub z: f32,
    /// Tool rotation, degrees.
    pub r: f32,
}

/// How the tool travels to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Lift to the configured safe height, travel, and lower onto the target: the only way to
    /// cross a board with pieces standing on it.
    Jump,
    /// The fastest path, interpolated per joint; the tool does not follow a straight line.
    Joint,
    /// A straight line, for short approaches where the path must be predictable.
    Linear,
}

/// The alarms an arm has raised, as a set of the device's alarm codes (0..=255).
///
/// Codes are the device's own (for the Dobot, the bit numbers of its alarm state); the set only
/// says whether any is active and which, so the daemon can log them and decide to clear them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ArmAlarms {
    bits: [u64; 4],
}

impl ArmAlarms {
    /// No alarm is active.
    pub const fn none() -> ArmAlarms {
        ArmAlarms { bits: [0; 4] }
    }

    /// The set holding exactly these codes.
    pub fn from_codes(codes: impl IntoIterator<Item = u8>) -> ArmAlarms {
        let mut alarms = ArmAlarms::none();
        for code in codes {
            alarms.insert(code);
        }
        alarms
    }

    /// Marks an alarm as active.
    pub fn insert(&mut self, code: u8) {
        self.bits[usize::from(code / 64)] |= 1 << (code % 64);
    }

    /// Whether an alarm is active.
    pub const fn contains(&self, code: u8) -> bool {
        self.bits[(code / 64) as usize] & (1 << (code % 64)) != 0
    }

    /// Whether no alarm is active, so the arm may move.
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&word| word == 0)
    }

    /// The active codes, lowest first.
    pub fn codes(&self) -> impl Iterator<Item = u8> + use<> {
        let alarms = *self;
        (0..=u8::MAX).filter(move |&code| alarms.contains(code))
    }
}

/// An arm with a suction tool and a command queue.
///
/// Motion and suction commands are queued: each call returns once the device has accepted the
/// command, and the device runs them in order. [`Arm::wait_until_idle`] waits for the queue to
/// drain. This matches the Dobot's firmware queue and lets a pick-and-place be sent as one
/// sequence (move, suction on, move, suction off) without a round trip between steps.
pub trait Arm: ErrorType {
    /// Queues the homing run, which finds the joints' reference positions. Needed after power-up
    /// and after the arm lost steps.
    fn home(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Queues a move of the tool to `target`.
    fn move_to(
        &mut self,
        target: Pose,
        motion: Motion,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Queues switching the suction on (pick) or off (release), in order with the moves.
    fn set_suction(&mut self, on: bool) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Queues the move to the resting pose (out of the visitor's way and the board's view), with
    /// the suction off. The pose itself is the implementation's configuration.
    fn park(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Waits until every command queued so far has been executed.
    fn wait_until_idle(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Stops at once and discards the queue, for recovering from a stuck queue or an alarm.
    /// The pose afterwards is wherever the arm stopped.
    fn abort(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// Where the tool is now.
    fn pose(&mut self) -> impl Future<Output = Result<Pose, Self::Error>> + Send;

    /// The alarms the arm has raised; a Dobot refuses to move while any is active.
    fn alarms(&mut self) -> impl Future<Output = Result<ArmAlarms, Self::Error>> + Send;

    /// Clears every alarm. An alarm whose cause remains is raised again by the device.
    fn clear_alarms(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

impl<T: Arm + ?Sized> Arm for &mut T {
    fn home(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::home(self)
    }

    fn move_to(
        &mut self,
        target: Pose,
        motion: Motion,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::move_to(self, target, motion)
    }

    fn set_suction(&mut self, on: bool) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::set_suction(self, on)
    }

    fn park(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::park(self)
    }

    fn wait_until_idle(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::wait_until_idle(self)
    }

    fn abort(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::abort(self)
    }

    fn pose(&mut self) -> impl Future<Output = Result<Pose, Self::Error>> + Send {
        T::pose(self)
    }

    fn alarms(&mut self) -> impl Future<Output = Result<ArmAlarms, Self::Error>> + Send {
        T::alarms(self)
    }

    fn clear_alarms(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        T::clear_alarms(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alarm_codes_cover_the_whole_byte_range() {
        let alarms = ArmAlarms::from_codes([0, 63, 64, 255]);
        assert!(!alarms.is_empty());
        assert!(alarms.contains(64));
        assert!(!alarms.contains(65));
        assert_eq!(alarms.codes().collect::<Vec<_>>(), [0, 63, 64, 255]);
        assert!(ArmAlarms::none().is_empty());
        assert_eq!(ArmAlarms::none().codes().count(), 0);
    }
}
