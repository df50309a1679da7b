//! The driver's exchange rules against a scripted Dobot on a paused clock: a late reply to a
//! queued command is its answer and never the next command's, a lost reply is retried, and a
//! silent arm gives a typed timeout within the documented bound.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use hal::device::{Arm, ArmAlarms, Motion, Pose};
use hal::dobot::{Command, DobotArm, DobotCodec, DobotConfig, DobotError, Reply};
use hal::{Error as _, ErrorKind};
use tokio::io::{DuplexStream, duplex};
use tokio::time::{Instant, sleep};
use tokio_util::codec::Framed;

/// What the scripted arm does with the next PTP command.
#[derive(Debug, Clone, Copy)]
enum Script {
    /// Answers after this long (the arm answers in order, so everything after waits too).
    Late(Duration),
    /// Queues the move and sends nothing back.
    Drop,
    /// Sends nothing back, ever, to anything.
    Silence,
}

#[derive(Debug, Default)]
struct Shared {
    script: VecDeque<Script>,
    received: Vec<Command>,
}

/// An arm that finishes every queued command at once and answers everything, except as the
/// script says for PTP commands.
async fn scripted_arm(io: DuplexStream, shared: Arc<Mutex<Shared>>) {
    let mut framed = Framed::new(io, DobotCodec::new());
    let mut next_index = 1u64;
    let mut silent = false;
    while let Some(Ok(Ok(frame))) = framed.next().await {
        let command = Command::from_frame(&frame).expect("the driver sends known commands");
        let script = {
            let mut shared = shared.lock().unwrap();
            shared.received.push(command);
            match command {
                Command::Ptp { .. } => shared.script.pop_front(),
                _ => None,
            }
        };
        let reply = match command {
            Command::GetDeviceVersion => Reply::DeviceVersion {
                major: 3,
                minor: 5,
                revision: 1,
            },
            Command::GetPose => Reply::Pose {
                pose: Pose::default(),
                joints: [0.0; 4],
            },
            Command::GetAlarms => Reply::Alarms(ArmAlarms::none()),
            Command::GetQueueIndex => Reply::QueueIndex(next_index - 1),
            Command::GetQueueLeftSpace => Reply::QueueLeftSpace(32),
            _ if command.ctrl().is_queued() => {
                next_index += 1;
                Reply::Queued {
                    index: next_index - 1,
                }
            }
            _ => Reply::Done,
        };
        match script {
            Some(Script::Drop) => continue,
            Some(Script::Silence) => silent = true,
            Some(Script::Late(delay)) => sleep(delay).await,
            None => {}
        }
        if silent {
            continue;
        }
        if framed.send(reply.to_frame(&command)).await.is_err() {
            return;
        }
    }
}

async fn connected(script: &[Script]) -> (DobotArm<DuplexStream>, Arc<Mutex<Shared>>) {
    let shared = Arc::new(Mutex::new(Shared {
        script: script.iter().copied().collect(),
        received: Vec::new(),
    }));
    let (host, device) = duplex(1024);
    tokio::spawn(scripted_arm(device, Arc::clone(&shared)));
    let arm = DobotArm::connect(host, DobotConfig::default())
        .await
        .expect("the scripted arm answers the connection");
    (arm, shared)
}

fn ptps_received(shared: &Mutex<Shared>) -> usize {
    shared
        .lock()
        .unwrap()
        .received
        .iter()
        .filter(|command| matches!(command, Command::Ptp { .. }))
        .count()
}

fn target(x: f32) -> Pose {
    Pose {
        x,
        y: 0.0,
        z: 0.0,
        r: 0.0,
    }
}

#[tokio::test(start_paused = true)]
async fn a_late_reply_answers_its_own_command_and_not_the_next() {
    // The first move's reply comes 300 ms late, after the 200 ms timeout.
    let (mut arm, shared) = connected(&[Script::Late(Duration::from_millis(300))]).await;
    let base = arm.last_queued_index();
    arm.move_to(target(200.0), Motion::Jump).await.unwrap();
    assert!(arm.stats().failed_attempts >= 1, "the timeout was noticed");
    // The late reply arrived while the driver resynchronised: no second copy was sent.
    assert_eq!(ptps_received(&shared), 1);
    assert_eq!(arm.last_queued_index(), base + 1);

    arm.move_to(target(210.0), Motion::Jump).await.unwrap();
    arm.move_to(target(220.0), Motion::Jump).await.unwrap();
    assert_eq!(ptps_received(&shared), 3);
    assert_eq!(
        arm.last_queued_index(),
        base + 3,
        "each move has its own index"
    );
    arm.wait_until_idle().await.unwrap();
    assert_eq!(arm.executed_index(), base + 3);
}

#[tokio::test(start_paused = true)]
async fn a_lost_reply_is_retried_and_the_later_index_waited_for() {
    let (mut arm, shared) = connected(&[Script::Drop]).await;
    let base = arm.last_queued_index();
    arm.move_to(target(200.0), Motion::Jump).await.unwrap();
    // The arm queued the move twice (the first reply was lost); the copy does nothing.
    assert_eq!(ptps_received(&shared), 2);
    assert_eq!(arm.last_queued_index(), base + 2);
    arm.move_to(target(210.0), Motion::Jump).await.unwrap();
    assert_eq!(arm.last_queued_index(), base + 3);
    arm.wait_until_idle().await.unwrap();
    assert_eq!(arm.executed_index(), base + 3);
}

#[tokio::test(start_paused = true)]
async fn a_silent_arm_gives_a_typed_timeout_within_the_bound() {
    let (mut arm, _shared) = connected(&[Script::Silence]).await;
    let config = *arm.config();
    let start = Instant::now();
    let error = arm.move_to(target(200.0), Motion::Jump).await.unwrap_err();
    let took = start.elapsed();
    assert!(took <= config.exchange_limit(), "{took:?}");
    // It really waited for each attempt before giving up.
    assert!(
        took >= config.command_timeout * (u32::from(config.retries) + 1),
        "{took:?}"
    );
    assert!(
        matches!(error, DobotError::NoReply { id: 84, .. }),
        "{error:?}"
    );
    assert_eq!(error.kind(), ErrorKind::Timeout);
    // The next call fails the same way, and just as promptly.
    let start = Instant::now();
    assert_eq!(arm.pose().await.unwrap_err().kind(), ErrorKind::Timeout);
    assert!(start.elapsed() <= config.exchange_limit());
}
