//! The controller as a [`BoardSensor`]: a `ScanRequest` answered by the next Scan, and the button
//! presses that arrive among the events.

use crate::ErrorType;
use crate::controller::device::{ControllerDevice, DeviceError, timed};
use crate::controller::message::Message;
use crate::device::{BoardSensor, ButtonPress};
use crate::occupancy::Occupancy;

impl ErrorType for ControllerDevice {
    type Error = DeviceError;
}

impl BoardSensor for ControllerDevice {
    /// Asks for a scan and returns the first Scan that arrives after the request was accepted.
    /// Scans already waiting are dropped first: they were read before the request, and the
    /// protocol only promises a reading taken after it.
    async fn scan(&mut self) -> Result<Occupancy, DeviceError> {
        let limit = self.config.command_timeout;
        timed(limit, async {
            while let Ok(event) = self.events.try_recv() {
                self.note(event);
            }
            self.link.send(Message::ScanRequest).await?;
            loop {
                let event = self.next_event().await?;
                if let Some(scan) = self.note(event) {
                    return match self.welcome.board {
                        Some(board) if board == scan.size() => Ok(scan),
                        announced => Err(DeviceError::WrongBoard {
                            announced,
                            got: scan.size(),
                        }),
                    };
                }
            }
        })
        .await
    }

    /// Waits without a timeout: a visitor may think for as long as they like. Cancel-safe,
    /// because presses and held buttons are kept in the driver until a call takes them.
    async fn next_press(&mut self) -> Result<ButtonPress, DeviceError> {
        loop {
            if let Some(press) = self.presses.pop_front() {
                return Ok(press);
            }
            let event = match self.long_press_due() {
                Ok(press) => return Ok(press),
                Err(None) => self.next_event().await?,
                Err(Some(due)) => match tokio::time::timeout_at(due, self.next_event()).await {
                    Ok(event) => event?,
                    // Held long enough: reported at the top of the loop.
                    Err(_) => continue,
                },
            };
            self.note(event);
        }
    }
}
