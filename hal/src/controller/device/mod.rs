//! The host's drivers for a board controller: one [`ControllerDevice`] that is the
//! [`BoardSensor`](crate::device::BoardSensor), the [`BoardLights`](crate::device::BoardLights)
//! and the [`Face`](crate::device::Face), over a session opened by
//! [`connect`](crate::controller::link::connect).
//!
//! One value serves both traits because both share one link and one stream of events: a Scan
//! and a Button press arrive on the same receiver, and whoever reads it must sort them. The
//! daemon borrows it as either device (`&mut ControllerDevice` implements both).

mod board_lights;
mod board_sensor;
mod error;
mod face;

use std::collections::VecDeque;
use std::future::Future;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::controller::link::{Connection, LinkDriver, LinkEvent, LinkHandle};
use crate::controller::message::{Fault, Message, Welcome};
use crate::device::ButtonId;
use crate::occupancy::Occupancy;

pub use error::DeviceError;

/// Timing of the drivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceConfig {
    /// The longest a command may take, from the call to the controller's answer (for a scan,
    /// to the Scan itself). The link gives a frame up after about 400 ms, so this bounds the
    /// rest: a Scan that never follows its Ack, or a queue behind a slow exchange.
    pub command_timeout: Duration,
}

impl Default for DeviceConfig {
    fn default() -> DeviceConfig {
        DeviceConfig {
            command_timeout: Duration::from_secs(1),
        }
    }
}

/// The board sensor, buttons and face of one controller, driven over its link.
#[derive(Debug)]
pub struct ControllerDevice {
    welcome: Welcome,
    link: LinkHandle,
    events: mpsc::Receiver<LinkEvent>,
    config: DeviceConfig,
    /// Presses read from the events while waiting for something else, oldest first.
    presses: VecDeque<ButtonId>,
    /// Faults reported by the controller and not yet taken by the daemon.
    faults: Vec<Fault>,
}

impl ControllerDevice {
    /// Drivers over an open session. Spawn `connection.driver` before using them; it is handed
    /// back untouched.
    pub fn new<T>(
        connection: Connection<T>,
        config: DeviceConfig,
    ) -> (ControllerDevice, LinkDriver<T>) {
        let Connection {
            welcome,
            handle,
            events,
            driver,
        } = connection;
        let device = ControllerDevice {
            welcome,
            link: handle,
            events,
            config,
            presses: VecDeque::new(),
            faults: Vec::new(),
        };
        (device, driver)
    }

    /// What the controller said about itself in the handshake.
    pub fn welcome(&self) -> &Welcome {
        &self.welcome
    }

    /// The faults the controller reported since the last call, oldest first, for the log and
    /// the operator.
    pub fn take_faults(&mut self) -> Vec<Fault> {
        std::mem::take(&mut self.faults)
    }

    /// Sorts one event: presses and faults are kept for later, a Scan is returned.
    fn note(&mut self, event: LinkEvent) -> Option<Occupancy> {
        match event {
            LinkEvent::Message(Message::Scan(scan)) => return Some(scan),
            LinkEvent::Message(Message::Button {
                button,
                pressed: true,
            }) => self.presses.push_back(button),
            LinkEvent::Message(Message::Fault(fault)) => self.faults.push(fault),
            // Releases, motions (no arm here) and damaged frames the link already dealt with.
            LinkEvent::Message(_) | LinkEvent::BadFrame(_) => {}
        }
        None
    }

    /// Sends one command, done when the controller accepts it.
    async fn command(&mut self, message: Message) -> Result<(), DeviceError> {
        let link = &self.link;
        timed(self.config.command_timeout, async {
            link.send(message).await.map_err(DeviceError::from)
        })
        .await
    }

    /// The next event, or [`DeviceError::Closed`] once the link is gone.
    async fn next_event(&mut self) -> Result<LinkEvent, DeviceError> {
        self.events.recv().await.ok_or(DeviceError::Closed)
    }
}

/// Runs `command` for at most `limit`, so no call waits longer than configured whatever the
/// link does.
async fn timed<R>(
    limit: Duration,
    command: impl Future<Output = Result<R, DeviceError>>,
) -> Result<R, DeviceError> {
    tokio::time::timeout(limit, command)
        .await
        .map_err(|_| DeviceError::Timeout(limit))?
}
