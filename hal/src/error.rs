//! The error contract shared by every device trait.
//!
//! Each driver keeps its own error type with all the detail it knows (which command, which bytes),
//! but the daemon decides what to do next from one small question: is this a timeout, a lost
//! link, garbage on the wire, an alarm? [`Error::kind`] answers it without the daemon knowing any
//! driver's type, as `embedded-hal` does for bus errors.

use std::fmt;

/// What went wrong, in the terms the daemon reacts to.
///
/// New kinds may be added when a device shows a failure the existing ones do not describe, so
/// matches need a wildcard arm; [`ErrorKind::Other`] is the answer until then.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The device did not answer in time. The link may still be up: retrying is reasonable.
    Timeout,
    /// The link is gone (cable pulled, port closed, device rebooted). Reconnect before retrying.
    Disconnected,
    /// The device sent bytes that break the protocol: bad checksum, unknown message, a reply
    /// that does not fit the request, a protocol version the host does not speak.
    Protocol,
    /// The device reports an alarm that stops it from moving (limit reached, lost steps).
    /// Clearing the alarm may be enough.
    Alarm,
    /// The device understood the command but refused it (queue full, capability missing,
    /// value out of range).
    Rejected,
    /// The device reports broken hardware (dead sensor, stalled servo, pump failure) that a
    /// person has to look at.
    Fault,
    /// None of the above.
    Other,
}

impl ErrorKind {
    /// Whether the same command may succeed if sent again on the same link, so the daemon can
    /// retry instead of reconnecting or calling an operator.
    pub fn is_transient(self) -> bool {
        matches!(self, ErrorKind::Timeout | ErrorKind::Rejected)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Timeout => "the device did not answer in time",
            ErrorKind::Disconnected => "the device is disconnected",
            ErrorKind::Protocol => "the device broke the protocol",
            ErrorKind::Alarm => "the device reports an alarm",
            ErrorKind::Rejected => "the device refused the command",
            ErrorKind::Fault => "the device reports a hardware fault",
            ErrorKind::Other => "device error",
        })
    }
}

/// A device error that can say which [`ErrorKind`] it is.
///
/// The `std::error::Error + Send + Sync + 'static` bounds let the daemon wrap any driver's error
/// in `anyhow` and move it between tasks.
pub trait Error: std::error::Error + Send + Sync + 'static {
    /// The kind the daemon reacts to.
    fn kind(&self) -> ErrorKind;
}

impl std::error::Error for ErrorKind {}

/// A bare kind is a valid error, which suits simulators and tests that have nothing to add.
impl Error for ErrorKind {
    fn kind(&self) -> ErrorKind {
        *self
    }
}

/// Names the error type of a device, once for all its traits.
///
/// Separating it from the device traits lets one driver implement several traits (a board
/// controller is both a [`BoardSensor`](crate::device::BoardSensor) and a
/// [`Face`](crate::device::Face)) with one error type.
pub trait ErrorType {
    /// The error every method of the device returns.
    type Error: Error;
}

impl<T: ErrorType + ?Sized> ErrorType for &mut T {
    type Error = T::Error;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_timeouts_and_refusals_are_worth_a_plain_retry() {
        let transient: Vec<ErrorKind> = [
            ErrorKind::Timeout,
            ErrorKind::Disconnected,
            ErrorKind::Protocol,
            ErrorKind::Alarm,
            ErrorKind::Rejected,
            ErrorKind::Fault,
            ErrorKind::Other,
        ]
        .into_iter()
        .filter(|kind| kind.is_transient())
        .collect();
        assert_eq!(transient, [ErrorKind::Timeout, ErrorKind::Rejected]);
    }

    #[test]
    fn a_kind_is_its_own_error() {
        let error: Box<dyn std::error::Error + Send + Sync> = Box::new(ErrorKind::Alarm);
        assert_eq!(error.to_string(), "the device reports an alarm");
        assert_eq!(Error::kind(&ErrorKind::Alarm), ErrorKind::Alarm);
    }
}
