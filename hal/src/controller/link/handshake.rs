//! Opening a session: Hello, retransmitted until Welcome (docs/protocol.md, section 5).

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, timeout_at};
use tokio_util::codec::Framed;

use crate::controller::codec::ControllerCodec;
use crate::controller::codes::NackReason;
use crate::controller::frame::{Frame, NEWEST_VERSION, OLDEST_VERSION};
use crate::controller::link::{LinkConfig, LinkError};
use crate::controller::message::{Message, MessageType, Welcome};

/// The sequence number of Hello; the session's numbering continues from it.
const HELLO_SEQ: u8 = 0;

/// Says Hello until the controller answers, and returns its Welcome and the sequence number of
/// the host's next reliable frame. Frames left over from an earlier session are ignored. From
/// then on the codec reads only frames of the version the controller chose.
pub(super) async fn hello<T>(
    framed: &mut Framed<T, ControllerCodec>,
    config: &LinkConfig,
) -> Result<(Welcome, u8), LinkError>
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    // A lone delimiter ends any partial frame the controller holds (rule F2).
    framed.get_mut().write_all(&[0x00]).await?;
    framed.codec_mut().set_version(None);
    // Hello's header carries the sender's newest version (rule S1).
    let hello = Frame::new(
        NEWEST_VERSION,
        HELLO_SEQ,
        Message::Hello {
            min_version: OLDEST_VERSION,
            max_version: NEWEST_VERSION,
        },
    );
    let sends = config.retransmissions.saturating_add(1);
    for _ in 0..sends {
        framed.send(hello).await?;
        let deadline = Instant::now() + config.ack_timeout;
        while let Ok(item) = timeout_at(deadline, framed.next()).await {
            let answer = match item {
                None => return Err(LinkError::Closed),
                Some(received) => match received? {
                    Ok(frame) if frame.seq == HELLO_SEQ => frame.message,
                    _ => continue,
                },
            };
            match answer {
                Message::Welcome(welcome)
                    if (OLDEST_VERSION..=NEWEST_VERSION).contains(&welcome.version) =>
                {
                    framed.codec_mut().set_version(Some(welcome.version));
                    return Ok((welcome, HELLO_SEQ.wrapping_add(1)));
                }
                Message::Welcome(welcome) => return Err(version_error(Some(welcome.version))),
                Message::Nack(NackReason::UNSUPPORTED_VERSION) => return Err(version_error(None)),
                // The protocol refuses Hello only for its version: any other answer with seq 0
                // is left over from an earlier session.
                _ => {}
            }
        }
    }
    Err(LinkError::NoAnswer {
        ty: MessageType::Hello,
        seq: HELLO_SEQ,
        sends,
    })
}

fn version_error(chosen: Option<u8>) -> LinkError {
    LinkError::Version {
        min: OLDEST_VERSION,
        max: NEWEST_VERSION,
        chosen,
    }
}
