//! The controller as a [`Face`]: each call is one message, done when the controller accepts it.

use std::time::Duration;

use crate::controller::device::{ControllerDevice, DeviceError};
use crate::controller::message::Message;
use crate::device::{BrowAngles, Eyes, Face, NeckPose};

/// The protocol carries transitions as `u16` milliseconds; longer ones are clamped, which only
/// makes a transition of over a minute faster.
fn transition_ms(transition: Duration) -> u16 {
    u16::try_from(transition.as_millis()).unwrap_or(u16::MAX)
}

impl Face for ControllerDevice {
    async fn show_eyes(&mut self, eyes: Eyes) -> Result<(), DeviceError> {
        self.command(Message::Eyes(eyes)).await
    }

    async fn set_brows(
        &mut self,
        brows: BrowAngles,
        transition: Duration,
    ) -> Result<(), DeviceError> {
        self.command(Message::Brows {
            angles: brows,
            transition_ms: transition_ms(transition),
        })
        .await
    }

    async fn set_neck(&mut self, neck: NeckPose, transition: Duration) -> Result<(), DeviceError> {
        self.command(Message::Neck {
            pose: neck,
            transition_ms: transition_ms(transition),
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_are_whole_milliseconds_clamped_to_the_wire() {
        assert_eq!(transition_ms(Duration::from_micros(300_900)), 300);
        assert_eq!(transition_ms(Duration::from_secs(65)), 65_000);
        assert_eq!(transition_ms(Duration::from_secs(66)), u16::MAX);
    }
}
