//! The host's drivers for a board controller: one [`ControllerDevice`] that is the
//! [`BoardSensor`](crate::device::BoardSensor), the [`BoardLights`](crate::device::BoardLights)
//! and the [`Face`](crate::device::Face), over a session opened by
//! [`connect`](crate::controller::link::connect); and, on a controller that drives the arm
//! itself, a [`ControllerArm`] over the same session ([`ControllerDevice::split`]).
//!
//! One value serves both traits because both share one link and one stream of events: a Scan
//! and a Button press arrive on the same receiver, and whoever reads it must sort them. The
//! daemon borrows it as either device (`&mut ControllerDevice` implements both).

mod arm;
mod board_lights;
mod board_sensor;
mod error;
mod face;

use std::collections::VecDeque;
use std::future::Future;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::controller::link::{Connection, LinkDriver, LinkEvent, LinkHandle};
use crate::controller::message::{Fault, Message, Welcome};
use crate::device::{ButtonId, ButtonPress};
use crate::occupancy::Occupancy;

pub use arm::{ArmError, ArmLink, ControllerArm, ControllerArmConfig};
pub use error::DeviceError;

/// Timing of the drivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceConfig {
    /// The longest a command may take, from the call to the controller's answer (for a scan,
    /// to the Scan itself). The link gives a frame up after about 400 ms, so this bounds the
    /// rest: a Scan that never follows its Ack, or a queue behind a slow exchange.
    pub command_timeout: Duration,
    /// How long a button must be held to count as a long press.
    pub long_press: Duration,
}

impl Default for DeviceConfig {
    /// A long press at 1.5 s: well past a deliberate quick press (a few hundred milliseconds),
    /// short enough that a child holding the button does not give up first.
    fn default() -> DeviceConfig {
        DeviceConfig {
            command_timeout: Duration::from_secs(1),
            long_press: Duration::from_millis(1500),
        }
    }
}

/// A button that is down, since when (as the host saw its Button message), and whether its long
/// press was reported already.
#[derive(Debug, Clone, Copy)]
struct HeldButton {
    button: ButtonId,
    since: Instant,
    reported: bool,
}

/// The board sensor, buttons and face of one controller, driven over its link.
#[derive(Debug)]
pub struct ControllerDevice {
    welcome: Welcome,
    link: LinkHandle,
    events: mpsc::Receiver<LinkEvent>,
    config: DeviceConfig,
    /// Presses read from the events while waiting for something else, oldest first.
    presses: VecDeque<ButtonPress>,
    /// Buttons down now, whose kind of press is not known yet or was reported as long.
    held: Vec<HeldButton>,
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
            ..
        } = connection;
        let device = ControllerDevice {
            welcome,
            link: handle,
            events,
            config,
            presses: VecDeque::new(),
            held: Vec::new(),
            faults: Vec::new(),
        };
        (device, driver)
    }

    /// Drivers over an open session, the board's and the arm's: the arm's half goes to
    /// [`ControllerArm::new`]. Both share the one session, so a new connection serves both.
    pub fn split<T>(
        connection: Connection<T>,
        config: DeviceConfig,
    ) -> (ControllerDevice, ArmLink, LinkDriver<T>) {
        let arm = ArmLink {
            welcome: connection.welcome,
            handle: connection.handle.clone(),
            events: connection.arm_events,
        };
        let connection = Connection {
            arm_events: mpsc::channel(1).1,
            ..connection
        };
        let (device, driver) = ControllerDevice::new(connection, config);
        (device, arm, driver)
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
    ///
    /// A button's press and release are timed when they are sorted here. The daemon reads the
    /// events whenever it waits, so that is within a few milliseconds of their arrival.
    fn note(&mut self, event: LinkEvent) -> Option<Occupancy> {
        match event {
            LinkEvent::Message(Message::Scan(scan)) => return Some(scan),
            LinkEvent::Message(Message::Button {
                button,
                pressed: true,
            }) => {
                // A second press of a button already down (its release lost) starts over.
                self.held.retain(|held| held.button != button);
                self.held.push(HeldButton {
                    button,
                    since: Instant::now(),
                    reported: false,
                });
            }
            LinkEvent::Message(Message::Button {
                button,
                pressed: false,
            }) => {
                // A release of a button never seen down (pressed before the session) is no press.
                if let Some(index) = self.held.iter().position(|held| held.button == button) {
                    let held = self.held.remove(index);
                    if !held.reported {
                        let press = if held.since.elapsed() >= self.config.long_press {
                            ButtonPress::long(button)
                        } else {
                            ButtonPress::short(button)
                        };
                        self.presses.push_back(press);
                    }
                }
            }
            LinkEvent::Message(Message::Fault(fault)) => self.faults.push(fault),
            // Motions (no arm here) and damaged frames the link already dealt with.
            LinkEvent::Message(_) | LinkEvent::BadFrame(_) => {}
        }
        None
    }

    /// The button held longest that has now been down for the long-press time and is not yet
    /// reported, marked reported; and else when the next one will be.
    fn long_press_due(&mut self) -> Result<ButtonPress, Option<Instant>> {
        let long_press = self.config.long_press;
        let Some(held) = self
            .held
            .iter_mut()
            .filter(|held| !held.reported)
            .min_by_key(|held| held.since)
        else {
            return Err(None);
        };
        let due = held.since + long_press;
        if Instant::now() < due {
            return Err(Some(due));
        }
        held.reported = true;
        Ok(ButtonPress::long(held.button))
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
