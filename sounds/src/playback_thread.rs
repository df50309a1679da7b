//! The speaker's own thread: plays one line at a time through a rodio player.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::time::Duration;

use rodio::source::Zero;
use rodio::{Decoder, Player, Source};

use crate::line::Line;
use crate::next_line::NextLine;
use crate::playback::Playback;
use crate::saying::Saying;

/// What the handle asks of the thread.
pub(crate) enum PlaybackRequest {
    Say(Saying),
    Volume(f32),
}

/// How often the thread looks whether the playing line has ended. Short enough that the next
/// line follows without a noticeable pause, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(20);

/// Runs until the handle is dropped (the command channel closes), then stops any sound.
pub(crate) fn run(
    player: &Player,
    commands: &Receiver<PlaybackRequest>,
    events: &SyncSender<Playback>,
) {
    let report = |event: Playback| {
        // Full means nobody reads the reports: dropping them is what the handle promises.
        let _ = events.try_send(event);
    };
    let mut playing: Option<Line> = None;
    let mut next = NextLine::default();
    loop {
        let command = if playing.is_some() {
            match commands.recv_timeout(POLL) {
                Ok(command) => Some(command),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match commands.recv() {
                Ok(command) => Some(command),
                Err(_) => break,
            }
        };
        match command {
            Some(PlaybackRequest::Say(saying)) => {
                if let Some(dropped) = next.offer(saying) {
                    report(Playback::Replaced(dropped.line));
                }
            }
            Some(PlaybackRequest::Volume(volume)) => player.set_volume(volume),
            None => {}
        }
        if player.empty()
            && let Some(done) = playing.take()
        {
            report(Playback::Finished(done));
        }
        while playing.is_none() {
            let Some(Saying { line, clips }) = next.take() else {
                break;
            };
            match decode(&line.audio) {
                Ok(source) => {
                    player.append(source);
                    // The explanation follows in the same queue, so rodio plays it without a
                    // gap of its own; a fragment that cannot be played is left out, and the
                    // rest of the sentence is still said.
                    for clip in clips {
                        match decode(&clip.audio) {
                            Ok(fragment) => {
                                let silence =
                                    Zero::new(fragment.channels(), fragment.sample_rate())
                                        .take_duration(clip.silence_before);
                                player.append(silence);
                                player.append(fragment);
                            }
                            Err(error) => {
                                tracing::warn!(id = %line.id, audio = %clip.audio.display(), %error, "cannot play a fragment of an explanation");
                            }
                        }
                    }
                    report(Playback::Started(line.clone()));
                    playing = Some(line);
                }
                Err(error) => {
                    tracing::warn!(id = %line.id, audio = %line.audio.display(), %error, "cannot play voice line");
                    report(Playback::Failed { line, error });
                }
            }
        }
    }
    player.stop();
}

fn decode(path: &Path) -> Result<Decoder<BufReader<File>>, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    Decoder::try_from(file).map_err(|e| e.to_string())
}
