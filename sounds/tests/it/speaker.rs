//! Playback: never blocking, no overlap, volume, and silence without a device.

use std::env;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use emotions::{Attitude, Category, LineRequest};
use rodio::{Decoder, DeviceSinkError, Player, Source};
use sounds::{Language, Library, Line, Output, Playback, Speaker};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

const WAIT: Duration = Duration::from_secs(20);

/// Counts warnings logged on the thread that installs it.
struct WarningCounter(Arc<AtomicUsize>);

impl Subscriber for WarningCounter {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        if *event.metadata().level() == Level::WARN {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn count_warnings(body: impl FnOnce()) -> usize {
    let count = Arc::new(AtomicUsize::new(0));
    tracing::subscriber::with_default(WarningCounter(count.clone()), body);
    count.load(Ordering::SeqCst)
}

fn line(category: Category, n: usize) -> Line {
    let library = Library::bundled().unwrap();
    let request = LineRequest {
        category,
        attitude: Attitude::Friendly,
        mistake: None,
    };
    library.candidates(Language::English, &request)[n].clone()
}

fn next(speaker: &Speaker) -> Playback {
    speaker
        .reports()
        .recv_timeout(WAIT)
        .expect("a report within the timeout")
}

/// Says five lines on a speaker that has no output; each must come back as silent, the calls
/// must not wait.
fn five_silent_lines(speaker: &Speaker) {
    assert_eq!(speaker.output(), Output::Silent);
    let lines: Vec<Line> = (0..5).map(|n| line(Category::Idle, n % 4)).collect();
    let start = Instant::now();
    for line in &lines {
        speaker.say(line);
    }
    speaker.set_volume(0.3);
    assert!(start.elapsed() < Duration::from_secs(1));
    for line in lines {
        assert_eq!(next(speaker), Playback::Silent(line));
    }
}

#[test]
fn without_a_device_lines_are_reported_silent_after_one_warning() {
    let warnings = count_warnings(|| {
        let speaker = Speaker::open_with(0.8, || Err(DeviceSinkError::NoDevice));
        five_silent_lines(&speaker);
    });
    assert_eq!(warnings, 1);
}

/// Runs `test` in a child process of this test binary with `env` set: ALSA reads its
/// configuration once per process, so each configuration needs its own.
fn in_child_process(test: &str, env: &[(&str, &Path)]) -> bool {
    if env::var_os("SOUNDS_TEST_CHILD").is_some() {
        return false;
    }
    // The harness names tests by their path below the crate: `speaker::<test>`.
    let name = module_path!().split_once("::").map_or_else(
        || test.to_owned(),
        |(_, module)| format!("{module}::{test}"),
    );
    let output = Command::new(env::current_exe().unwrap())
        .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env("SOUNDS_TEST_CHILD", "1")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "child {test} failed:\n{stdout}\n{stderr}"
    );
    // alsa-lib's own complaints stay off the terminal and the journal: the speaker's one
    // warning is all an operator should read.
    assert!(
        !(stdout.contains("ALSA lib") || stderr.contains("ALSA lib")),
        "child {test} let alsa-lib write:\n{stdout}\n{stderr}"
    );
    true
}

#[test]
fn the_default_device_missing_means_silence() {
    // An ALSA configuration whose default device is a card that does not exist, and no other
    // devices: what a machine without a sound card looks like, on any machine.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("asound.conf");
    fs::write(&config, "pcm.!default { type hw card 99 }\n").unwrap();
    if in_child_process(
        "the_default_device_missing_means_silence",
        &[("ALSA_CONFIG_PATH", &config), ("HOME", dir.path())],
    ) {
        return;
    }
    let warnings = count_warnings(|| five_silent_lines(&Speaker::open(0.8)));
    assert_eq!(warnings, 1);
}

#[test]
fn the_systems_own_alsa_configuration_without_a_card_writes_nothing_to_stderr() {
    // The system's ALSA configuration and an empty home: on a machine without a sound card
    // (CI, a newcomer's laptop in a container) alsa-lib has eight lines to say about the
    // missing card 0, which must not reach the terminal; with a card, the speaker plays.
    let home = tempfile::tempdir().unwrap();
    if in_child_process(
        "the_systems_own_alsa_configuration_without_a_card_writes_nothing_to_stderr",
        &[("HOME", home.path())],
    ) {
        return;
    }
    let speaker = Speaker::open(0.8);
    let win = line(Category::Win, 0);
    speaker.say(&win);
    let first = next(&speaker);
    assert!(
        first == Playback::Started(win.clone()) || first == Playback::Silent(win.clone()),
        "{first:?}"
    );
}

#[test]
fn the_alsa_null_device_plays_lines_to_the_end() {
    // ALSA's own configuration with the default device pointed at its null plugin: a fake
    // sound card that accepts and discards the sound.
    let home = tempfile::tempdir().unwrap();
    fs::write(
        home.path().join(".asoundrc"),
        "pcm.!default { type plug slave.pcm \"null\" }\n",
    )
    .unwrap();
    if in_child_process(
        "the_alsa_null_device_plays_lines_to_the_end",
        &[("HOME", home.path())],
    ) {
        return;
    }
    let speaker = Speaker::open(0.8);
    assert_eq!(speaker.output(), Output::Device);
    let win = line(Category::Win, 0);
    speaker.say(&win);
    assert_eq!(next(&speaker), Playback::Started(win.clone()));
    assert_eq!(next(&speaker), Playback::Finished(win));
}

/// Reads a player's output as a sound card would, but faster than real time, once `start` is
/// set; keeps the peak of what it read.
struct FakeCard {
    start: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicUsize>,
    thread: Option<thread::JoinHandle<()>>,
}

impl FakeCard {
    fn new(mut output: impl Source + Send + 'static) -> FakeCard {
        let start = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicUsize::new(0));
        let (s, t, p) = (start.clone(), stop.clone(), peak.clone());
        let thread = thread::spawn(move || {
            while !t.load(Ordering::SeqCst) {
                if s.load(Ordering::SeqCst) {
                    for _ in 0..4_000 {
                        let sample = output.next().unwrap_or(0.0);
                        p.fetch_max((sample.abs() * 1e6) as usize, Ordering::SeqCst);
                    }
                }
                thread::sleep(Duration::from_millis(1));
            }
        });
        FakeCard {
            start,
            stop,
            peak,
            thread: Some(thread),
        }
    }

    fn play(&self) {
        self.start.store(true, Ordering::SeqCst);
    }

    fn peak(&self) -> f32 {
        self.peak.load(Ordering::SeqCst) as f32 / 1e6
    }
}

impl Drop for FakeCard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().unwrap().join().unwrap();
    }
}

fn peak_of(path: &Path) -> f32 {
    Decoder::try_from(File::open(path).unwrap())
        .unwrap()
        .fold(0.0_f32, |peak, sample| peak.max(sample.abs()))
}

#[test]
fn a_line_arriving_during_playback_waits_and_only_the_newest_waits() {
    let (player, output) = Player::new();
    let card = FakeCard::new(output);
    let speaker = Speaker::with_player(0.5, player);
    assert_eq!(speaker.output(), Output::Player);

    let first = line(Category::Capture, 0);
    let second = line(Category::Capture, 1);
    let third = line(Category::Surprise, 0);
    let missing = Line {
        audio: PathBuf::from("/nonexistent/line.ogg"),
        ..line(Category::Thinking, 0)
    };
    // The card is not reading yet, so the first line cannot end.
    speaker.say(&first);
    assert_eq!(next(&speaker), Playback::Started(first.clone()));
    let start = Instant::now();
    speaker.say(&second);
    speaker.say(&third);
    assert!(start.elapsed() < Duration::from_millis(500), "say waited");
    assert_eq!(next(&speaker), Playback::Replaced(second));
    assert!(speaker.reports().try_recv().is_err(), "nothing overlaps");

    card.play();
    assert_eq!(next(&speaker), Playback::Finished(first.clone()));
    assert_eq!(next(&speaker), Playback::Started(third.clone()));
    assert_eq!(next(&speaker), Playback::Finished(third.clone()));

    // A file that cannot be played is reported and does not stop the speaker.
    speaker.say(&missing);
    assert!(matches!(next(&speaker), Playback::Failed { line, .. } if line == missing));
    speaker.say(&first);
    assert_eq!(next(&speaker), Playback::Started(first.clone()));
    assert_eq!(next(&speaker), Playback::Finished(first.clone()));

    // Volume 0.5 halves the files' peak.
    let expected = 0.5 * peak_of(&first.audio).max(peak_of(&third.audio));
    assert!(
        (card.peak() - expected).abs() < 0.02,
        "peak {} expected {expected}",
        card.peak()
    );
}

#[test]
fn the_volume_changes_while_running() {
    let (player, output) = Player::new();
    let card = FakeCard::new(output);
    let speaker = Speaker::with_player(1.0, player);
    speaker.set_volume(0.25);
    let line = line(Category::Draw, 0);
    card.play();
    speaker.say(&line);
    assert_eq!(next(&speaker), Playback::Started(line.clone()));
    assert_eq!(next(&speaker), Playback::Finished(line.clone()));
    let expected = 0.25 * peak_of(&line.audio);
    assert!(
        (card.peak() - expected).abs() < 0.02,
        "peak {} expected {expected}",
        card.peak()
    );
}
