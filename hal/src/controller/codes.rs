//! The open-ended code spaces of the protocol: Nack reasons, fault codes and capability bits.
//!
//! Each is a newtype over its byte rather than an enum, because a newer firmware may send a code
//! this host does not know yet; the host must carry it, log it and pass it on, not reject the
//! whole frame.

use std::fmt;

/// Why a receiver refused a frame (the byte in a Nack).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NackReason(pub u8);

impl NackReason {
    /// The message type is not one the receiver knows.
    pub const UNKNOWN_TYPE: NackReason = NackReason(0x01);
    /// The payload has the wrong length or a field holds an invalid value.
    pub const BAD_PAYLOAD: NackReason = NackReason(0x02);
    /// The frame's version is not the agreed one, or no version in a Hello's range is spoken.
    pub const UNSUPPORTED_VERSION: NackReason = NackReason(0x03);
    /// No handshake yet (the controller restarted): the host must send Hello.
    pub const NOT_READY: NackReason = NackReason(0x04);
    /// Valid but cannot be taken now (a queue is full); send it again later as a new frame.
    pub const BUSY: NackReason = NackReason(0x05);
    /// The receiver lacks the hardware the message drives (no neck, no pump).
    pub const UNSUPPORTED: NackReason = NackReason(0x06);
    /// A message the receiver only ever sends, never receives.
    pub const WRONG_DIRECTION: NackReason = NackReason(0x07);
    /// Refused while a fault is active (an arm at its limit will not move); clear it first.
    pub const FAULT_ACTIVE: NackReason = NackReason(0x08);

    fn name(self) -> Option<&'static str> {
        Some(match self {
            NackReason::UNKNOWN_TYPE => "unknown message type",
            NackReason::BAD_PAYLOAD => "bad payload",
            NackReason::UNSUPPORTED_VERSION => "unsupported protocol version",
            NackReason::NOT_READY => "no handshake yet",
            NackReason::BUSY => "busy",
            NackReason::UNSUPPORTED => "unsupported by this hardware",
            NackReason::WRONG_DIRECTION => "message sent in the wrong direction",
            NackReason::FAULT_ACTIVE => "a fault is active",
            _ => return None,
        })
    }
}

impl fmt::Display for NackReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "reason 0x{:02x}", self.0),
        }
    }
}

/// What broke, in a Fault message; the fault's subject byte says which one (a square, a joint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FaultCode(pub u8);

impl FaultCode {
    /// A Hall sensor reads implausibly (stuck or dead). Subject: the square index.
    pub const SENSOR: FaultCode = FaultCode(0x01);
    /// A button has been held for more than 10 s. Subject: the button number.
    pub const BUTTON_STUCK: FaultCode = FaultCode(0x02);
    /// An LED matrix does not answer. Subject: 0 for the visitor's left eye, 1 for the right.
    pub const LED_MATRIX: FaultCode = FaultCode(0x10);
    /// A servo stalls or draws too much current. Subject: 0 left brow, 1 right brow, 2 neck
    /// pan, 3 neck tilt.
    pub const SERVO: FaultCode = FaultCode(0x11);
    /// The suction pump fails (no vacuum, overcurrent). Subject: 0.
    pub const PUMP: FaultCode = FaultCode(0x20);
    /// A joint reached a limit switch outside homing. Subject: the joint (0..=3).
    pub const JOINT_LIMIT: FaultCode = FaultCode(0x21);
    /// A joint lost steps or stalled. Subject: the joint.
    pub const JOINT_STALL: FaultCode = FaultCode(0x22);
    /// Homing did not find a reference switch. Subject: the joint.
    pub const HOMING_FAILED: FaultCode = FaultCode(0x23);
    /// The supply voltage is out of range (the 32 sensors alone draw 15 W). Subject: 0.
    pub const SUPPLY_VOLTAGE: FaultCode = FaultCode(0x30);
    /// The controller restarted on its watchdog. Subject: 0.
    pub const WATCHDOG_RESET: FaultCode = FaultCode(0x31);

    fn name(self) -> Option<&'static str> {
        Some(match self {
            FaultCode::SENSOR => "sensor",
            FaultCode::BUTTON_STUCK => "button stuck",
            FaultCode::LED_MATRIX => "LED matrix",
            FaultCode::SERVO => "servo",
            FaultCode::PUMP => "pump",
            FaultCode::JOINT_LIMIT => "joint limit",
            FaultCode::JOINT_STALL => "joint stall",
            FaultCode::HOMING_FAILED => "homing failed",
            FaultCode::SUPPLY_VOLTAGE => "supply voltage",
            FaultCode::WATCHDOG_RESET => "watchdog reset",
            _ => return None,
        })
    }
}

impl fmt::Display for FaultCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "fault 0x{:02x}", self.0),
        }
    }
}

/// What hardware a controller drives, announced in its Welcome so the host neither sends what
/// cannot be done nor waits for what will never come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Capabilities(pub u8);

impl Capabilities {
    /// Hall sensors under the board (Scan).
    pub const BOARD_SENSOR: Capabilities = Capabilities(1 << 0);
    /// At least the confirm button (Button).
    pub const BUTTONS: Capabilities = Capabilities(1 << 1);
    /// Two LED matrix eyes (Eyes).
    pub const EYES: Capabilities = Capabilities(1 << 2);
    /// Eyebrow servos (Brows).
    pub const BROWS: Capabilities = Capabilities(1 << 3);
    /// Neck servos (Neck).
    pub const NECK: Capabilities = Capabilities(1 << 4);
    /// Suction pump and release valve (`PumpValve`).
    pub const PUMP_VALVE: Capabilities = Capabilities(1 << 5);
    /// Arm joints with homing (`JointTargets`, `ArmHome`).
    pub const ARM_JOINTS: Capabilities = Capabilities(1 << 6);
    /// A light under every square (`SquareLights`, protocol version 2).
    pub const BOARD_LIGHTS: Capabilities = Capabilities(1 << 7);

    /// Whether every capability in `other` is present.
    pub const fn contains(self, other: Capabilities) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Capabilities {
    type Output = Capabilities;

    fn bitor(self, other: Capabilities) -> Capabilities {
        Capabilities(self.0 | other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_codes_are_kept_and_printed_in_hex() {
        assert_eq!(NackReason::BUSY.to_string(), "busy");
        assert_eq!(NackReason(0x9A).to_string(), "reason 0x9a");
        assert_eq!(FaultCode::JOINT_STALL.to_string(), "joint stall");
        assert_eq!(FaultCode(0xEE).to_string(), "fault 0xee");
    }

    #[test]
    fn capabilities_combine_and_test_as_sets() {
        let face = Capabilities::EYES | Capabilities::BROWS | Capabilities::NECK;
        assert!(face.contains(Capabilities::BROWS));
        assert!(face.contains(Capabilities::EYES | Capabilities::NECK));
        assert!(!face.contains(Capabilities::EYES | Capabilities::PUMP_VALVE));
        assert_eq!(face.0, 0b1_1100);
    }
}
