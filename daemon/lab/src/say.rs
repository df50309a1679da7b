//! `checkerbot-lab say`: what the robot says about a press, as text and as a WAV file made by
//! the speaker's own code, for listening to explanations without a sound card
//! (`scripts/listen` measures them with sox).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use anyhow::{Context as _, bail};
use emotions::{Attitude, Language, Millis, Mind, Settings};
use host::{Action, Event, Host};
use rodio::Source as _;
use rodio::buffer::SamplesBuffer;
use rules::{Position, Variant, fen, notation};
use sounds::{Library, Playback, SoundSettings, Speaker, Voice};

/// How long a sentence may take to play before the command gives up on it.
const LONGEST: Duration = Duration::from_mins(1);

/// Arguments of `checkerbot-lab say`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long, default_value = "russian")]
    variant: Variant,
    /// The position before the visitor's press, visitor to move (default: the start).
    #[arg(long)]
    fen: Option<String>,
    /// The board at the press, as changes: `-c3` a piece lifted, `+d4` one placed, `=` none.
    #[arg(long, allow_hyphen_values = true)]
    changes: String,
    /// en, ru or uk.
    #[arg(long, default_value = "en")]
    language: Language,
    /// friendly or rival.
    #[arg(long, default_value = "friendly")]
    attitude: Attitude,
    /// Chooses among the line's phrasings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the sound (WAV, 32-bit float samples).
    #[arg(long)]
    wav: PathBuf,
}

/// Runs the command: prints what is said and writes what is heard.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let position = match &args.fen {
        Some(text) => fen::parse(args.variant, text).with_context(|| format!("--fen {text:?}"))?,
        None => Position::new(args.variant),
    };
    let mut board = position.occupied();
    for change in args.changes.split_whitespace().filter(|c| *c != "=") {
        let (lift, name) = match (change.strip_prefix('-'), change.strip_prefix('+')) {
            (Some(name), _) => (true, name),
            (None, Some(name)) => (false, name),
            (None, None) => bail!("--changes {change:?}: expected -square, +square or ="),
        };
        let square = notation::parse_square(args.variant, name)
            .with_context(|| format!("--changes {change:?}"))?;
        board = if lift {
            board.without(square)
        } else {
            board.with(square)
        };
    }
    // The game host decides what to say, exactly as in the daemon.
    let settings = Settings {
        attitude: args.attitude,
        ..Settings::default()
    };
    let robot = !position.turn();
    let mut host = Host::at_visitors_turn(position, robot, Mind::new(settings, args.seed));
    host.set_language(args.language);
    let actions = host.handle(Event::Button(board), Millis(1_000));
    let Some((request, explanation)) = actions.into_iter().find_map(|action| match action {
        Action::Say {
            request,
            explanation,
        } => Some((request, explanation)),
        _ => None,
    }) else {
        bail!("the robot says nothing about this press (it is a legal move)");
    };

    let (player, output) = rodio::Player::new();
    let sound = SoundSettings {
        language: args.language,
        ..SoundSettings::default()
    };
    let library = Library::load(&sound.packs_dir, None).context("loading the voice packs")?;
    let mut voice = Voice::new(
        library,
        Speaker::with_player(1.0, player),
        &sound,
        args.seed,
    );
    let stop = Arc::new(AtomicBool::new(false));
    let card = {
        let stop = stop.clone();
        let mut output = output;
        // Reads the player's output as a sound card would, faster than real time, noting the
        // format each stretch is in (the player's idle silence has its own).
        thread::spawn(move || {
            let mut samples = Vec::new();
            while !stop.load(Ordering::SeqCst) {
                for _ in 0..1_000 {
                    let format = (output.channels(), output.sample_rate());
                    samples.push((format, output.next().unwrap_or(0.0)));
                }
                thread::sleep(Duration::from_millis(1));
            }
            samples
        })
    };
    let said = voice
        .speak(&request, explanation.as_ref())
        .context("no line fits this press")?;
    println!("{}", said.text);
    let reports = voice.speaker().reports();
    loop {
        match reports.recv_timeout(LONGEST) {
            Ok(Playback::Finished(_)) => break,
            Ok(Playback::Failed { error, .. }) => bail!("the line could not be played: {error}"),
            Ok(_) => {}
            Err(_) => bail!("the speaker did not finish within {LONGEST:?}"),
        }
    }
    stop.store(true, Ordering::SeqCst);
    let samples = card.join().expect("the card thread does not panic");
    // The player yields silence before the first source arrives and after the last; what was
    // said is the stretch between the first and the last sound, all in the packs' format.
    let first = samples
        .iter()
        .position(|(_, s)| *s != 0.0)
        .context("nothing was heard")?;
    let last = samples
        .iter()
        .rposition(|(_, s)| *s != 0.0)
        .unwrap_or(first);
    // The format is read before each sample, so the first sample of a stretch may still carry
    // the format of the one before it.
    let format = samples[last].0;
    if let Some(((channels, rate), _)) =
        samples[first + 1..=last].iter().find(|(f, _)| *f != format)
    {
        bail!("the sound changes format to {channels} channels at {rate} Hz");
    }
    let said: Vec<f32> = samples[first..=last].iter().map(|(_, s)| *s).collect();
    let buffer = SamplesBuffer::new(format.0, format.1, said);
    rodio::wav_to_file(buffer, &args.wav)
        .with_context(|| format!("writing {}", args.wav.display()))?;
    Ok(())
}
