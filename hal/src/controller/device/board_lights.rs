//! The controller as [`BoardLights`]: a `SquareLights` message, for a controller that announced
//! lights in a version 2 session.

use crate::controller::codes::Capabilities;
use crate::controller::device::{ControllerDevice, DeviceError};
use crate::controller::message::{Message, MessageType};
use crate::device::{BoardLights, SquareLights};

impl BoardLights for ControllerDevice {
    /// A controller has lights when it says so in a session whose version has the message: a
    /// version 1 controller never gets one.
    fn has_lights(&self) -> bool {
        self.welcome.version >= MessageType::SquareLights.since()
            && self
                .welcome
                .capabilities
                .contains(Capabilities::BOARD_LIGHTS)
    }

    async fn show_lights(&mut self, lights: SquareLights) -> Result<(), DeviceError> {
        if !self.has_lights() {
            return Err(DeviceError::NoLights);
        }
        if self.welcome.board != Some(lights.size()) {
            return Err(DeviceError::WrongBoard {
                announced: self.welcome.board,
                got: lights.size(),
            });
        }
        self.command(Message::SquareLights(lights)).await
    }
}
