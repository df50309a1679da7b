//! The handle the game loop talks to: lines in, sound out, never waiting.

use std::error::Error;
use std::fmt;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::thread::{self, JoinHandle};

use rodio::{DeviceSinkBuilder, DeviceSinkError, MixerDeviceSink, Player};

use crate::alsa_messages::AlsaMessages;
use crate::playback::Playback;
use crate::playback_thread::{PlaybackRequest, run};
use crate::saying::Saying;

/// How many reports wait for a reader before new ones are dropped: enough for the host to read
/// them once a second, bounded so a host that never reads leaks nothing.
const REPORTS: usize = 64;

/// Where a speaker's sound goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// An audio device.
    Device,
    /// A player the caller supplied, whose samples someone else reads.
    Player,
    /// Nowhere: no device could be opened. Lines are only reported.
    Silent,
}

/// Plays voice lines on its own thread, one at a time.
///
/// [`say`](Speaker::say) only sends the line down a channel, so it never blocks the game loop,
/// not even while a line plays or a file is decoded. Lines never overlap: a line that arrives
/// while another plays waits for it to end, and only one line waits; a newer line takes the
/// waiting place, except that a line that may be skipped never displaces one that must be said
/// (game end, rule break, board to fix). What happened to each line comes back as
/// [`Playback`] reports.
///
/// Without an audio device (as on build machines, or when the USB speaker is unplugged at
/// start) the speaker logs one warning and stays silent; every line is still reported, as
/// [`Playback::Silent`]. The device is opened once, at start: plug the speaker in before
/// starting the daemon.
pub struct Speaker {
    /// `None` when silent.
    commands: Option<Sender<PlaybackRequest>>,
    reports_in: SyncSender<Playback>,
    reports: Receiver<Playback>,
    output: Output,
    thread: Option<JoinHandle<()>>,
}

impl fmt::Debug for Speaker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Speaker")
            .field("output", &self.output)
            .finish_non_exhaustive()
    }
}

impl Speaker {
    /// Plays through the system's default audio output at `volume` (in `[0, 1]`), or is
    /// silent with one warning when there is none.
    pub fn open(volume: f32) -> Speaker {
        Speaker::open_with(volume, DeviceSinkBuilder::open_default_sink)
    }

    /// Plays through the sink `open_sink` returns, or is silent with one warning when it fails.
    /// The sink is opened on the speaker's thread, because an audio stream cannot move between
    /// threads on every platform; this call waits for the attempt.
    pub fn open_with<F>(volume: f32, open_sink: F) -> Speaker
    where
        F: FnOnce() -> Result<MixerDeviceSink, DeviceSinkError> + Send + 'static,
    {
        let (ready_in, ready) = mpsc::channel();
        let (reports_in, reports) = mpsc::sync_channel(REPORTS);
        let thread_reports = reports_in.clone();
        let spawned = spawn(move |command_out| {
            // On this thread alsa-lib writes its complaints (eight lines on a machine without a
            // sound card) to a buffer rather than the terminal or the journal; the one warning
            // below says what matters, and RUST_LOG=debug shows ALSA's own words.
            let alsa_messages = AlsaMessages::capture();
            let opened = open_sink();
            alsa_messages.log_at_debug();
            let sink = match opened {
                Ok(mut sink) => {
                    sink.log_on_drop(false);
                    let _ = ready_in.send(Ok(()));
                    sink
                }
                Err(error) => {
                    let _ = ready_in.send(Err(describe(&error)));
                    return;
                }
            };
            let player = Player::connect_new(sink.mixer());
            player.set_volume(audible(volume));
            run(&player, &command_out, &thread_reports);
        });
        let failure = match spawned {
            Ok((thread, commands)) => match ready.recv() {
                Ok(Ok(())) => {
                    return Speaker {
                        commands: Some(commands),
                        reports_in,
                        reports,
                        output: Output::Device,
                        thread: Some(thread),
                    };
                }
                Ok(Err(error)) => {
                    let _ = thread.join();
                    error
                }
                Err(_) => "the speaker thread stopped while opening the device".to_owned(),
            },
            Err(error) => format!("cannot start the speaker thread: {error}"),
        };
        tracing::warn!("no audio output ({failure}): the voice is shown, not heard");
        Speaker::silent_with(reports_in, reports)
    }

    /// Plays into `player`, whose output the caller reads: a test reading samples, or a mixer
    /// of the caller's own.
    pub fn with_player(volume: f32, player: Player) -> Speaker {
        let (reports_in, reports) = mpsc::sync_channel(REPORTS);
        let thread_reports = reports_in.clone();
        player.set_volume(audible(volume));
        match spawn(move |command_out| run(&player, &command_out, &thread_reports)) {
            Ok((thread, commands)) => Speaker {
                commands: Some(commands),
                reports_in,
                reports,
                output: Output::Player,
                thread: Some(thread),
            },
            Err(error) => {
                tracing::warn!(%error, "cannot start the speaker thread: voice lines are silent");
                Speaker::silent_with(reports_in, reports)
            }
        }
    }

    /// A speaker that plays nothing and reports every line as [`Playback::Silent`]; for hosts
    /// that run without sound on purpose.
    pub fn silent() -> Speaker {
        let (reports_in, reports) = mpsc::sync_channel(REPORTS);
        Speaker::silent_with(reports_in, reports)
    }

    fn silent_with(reports_in: SyncSender<Playback>, reports: Receiver<Playback>) -> Speaker {
        Speaker {
            commands: None,
            reports_in,
            reports,
            output: Output::Silent,
            thread: None,
        }
    }

    /// Where the sound goes.
    pub fn output(&self) -> Output {
        self.output
    }

    /// Hands a line (`&Line`), or a line with its explanation (a [`Saying`]), to the speaker
    /// and returns at once.
    pub fn say(&self, saying: impl Into<Saying>) {
        let saying = saying.into();
        let line = saying.line.clone();
        let sent = self
            .commands
            .as_ref()
            .is_some_and(|commands| commands.send(PlaybackRequest::Say(saying)).is_ok());
        if !sent {
            tracing::debug!(id = %line.id, text = %line.text, "silent voice line");
            let _ = self.reports_in.try_send(Playback::Silent(line));
        }
    }

    /// Changes the volume (clamped to `[0, 1]`), also of the line playing now.
    pub fn set_volume(&self, volume: f32) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(PlaybackRequest::Volume(audible(volume)));
        }
    }

    /// The reports of what became of each line, oldest first. Reports beyond a small buffer
    /// are dropped while nobody reads them.
    pub fn reports(&self) -> &Receiver<Playback> {
        &self.reports
    }
}

impl Drop for Speaker {
    /// Stops the sound and the thread.
    fn drop(&mut self) {
        self.commands = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts the speaker thread with the receiving end of a new command channel.
fn spawn<F>(body: F) -> std::io::Result<(JoinHandle<()>, Sender<PlaybackRequest>)>
where
    F: FnOnce(Receiver<PlaybackRequest>) + Send + 'static,
{
    let (commands, command_out) = mpsc::channel();
    let thread = thread::Builder::new()
        .name("speaker".to_owned())
        .spawn(move || body(command_out))?;
    Ok((thread, commands))
}

/// `volume` clamped to `[0, 1]`; not-a-number is silence rather than noise.
fn audible(volume: f32) -> f32 {
    if volume.is_nan() {
        0.0
    } else {
        volume.clamp(0.0, 1.0)
    }
}

/// The error with its causes: rodio's own messages are generic, the cause names the device.
fn describe(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}
