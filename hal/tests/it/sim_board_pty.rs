//! The host's drivers against the simulated board across a real pseudo-terminal pair, so the
//! bytes pass through the kernel's tty layer as they do on the robot's serial port. Real time:
//! a paused clock would jump ahead while the runtime waits on the pty.

use std::time::Duration;

use hal::controller::device::{ControllerDevice, DeviceConfig};
use hal::controller::link::{LinkConfig, connect};
use hal::controller::peer::PeerConfig;
use hal::device::{BoardSensor, ButtonId, ButtonPress, EyeFrame, Eyes, Face};
use hal::sim::board::sim_board;
use hal::{BoardSize, Occupancy};
use tokio::time::timeout;
use tokio_serial::SerialStream;

#[tokio::test]
async fn scan_press_and_face_over_a_pty_pair() {
    let (host_io, controller_io) = SerialStream::pair().expect("a pty pair opens");
    let occupancy = Occupancy::from_squares(BoardSize::Squares50, (0..20).chain(30..50)).unwrap();
    let (board, controller) = sim_board(controller_io, occupancy, PeerConfig::default());
    tokio::spawn(controller.run());
    let run = async {
        let connection = connect(host_io, LinkConfig::default()).await.unwrap();
        let (mut device, driver) = ControllerDevice::new(connection, DeviceConfig::default());
        let link = tokio::spawn(driver.run());

        assert_eq!(device.scan().await, Ok(occupancy));
        board.lift(17).unwrap();
        board.place(22).unwrap();
        assert!(board.press(ButtonId::CONFIRM));
        assert_eq!(
            device.next_press().await,
            Ok(ButtonPress::short(ButtonId::CONFIRM))
        );
        assert_eq!(device.scan().await, Ok(board.occupancy()));

        let eyes = Eyes {
            left: EyeFrame::from_rows([0x18; 8]),
            right: EyeFrame::BLANK,
        };
        device.show_eyes(eyes).await.unwrap();
        assert_eq!(board.eyes(), [eyes]);
        // The session stays up across a few heartbeats.
        tokio::time::sleep(Duration::from_millis(1200)).await;
        assert_eq!(device.scan().await, Ok(board.occupancy()));
        assert_eq!(board.sessions_lost(), 0);
        assert!(!link.is_finished());
    };
    timeout(Duration::from_secs(10), run)
        .await
        .expect("the exchange finishes well within 10 s");
}
