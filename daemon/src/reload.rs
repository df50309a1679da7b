//! Settings that change while the robot runs: on SIGHUP and whenever the settings file changes,
//! the file is read again; valid settings are handed to the game loop, an invalid file is
//! reported and the current settings stay.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use checkerbot_config::Settings;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::mpsc;

/// How often the settings file's modification time is checked.
pub const POLL: Duration = Duration::from_secs(2);

/// The file's modification time, `None` when it cannot be read (then a change is noticed when
/// it can be again).
fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Reads the settings; an invalid file is logged with the reason and skipped.
fn read(path: Option<&Path>) -> Option<Settings> {
    match checkerbot_config::load(path) {
        Ok(settings) => Some(settings),
        Err(err) => {
            tracing::warn!("keeping the current settings: {err:#}");
            None
        }
    }
}

/// Watches `path` (polled every `poll`) and, when `sighup` is set, the SIGHUP signal; sends
/// every valid new version of the settings. Ends when the receiver is dropped.
pub fn watch_settings(
    path: Option<PathBuf>,
    poll: Duration,
    sighup: bool,
) -> std::io::Result<mpsc::UnboundedReceiver<Settings>> {
    let (sender, receiver) = mpsc::unbounded_channel();
    let mut hangup = if sighup {
        Some(signal(SignalKind::hangup())?)
    } else {
        None
    };
    tokio::spawn(async move {
        let mut seen = path.as_deref().and_then(modified);
        let mut ticker = tokio::time::interval(poll);
        loop {
            let asked = tokio::select! {
                biased;
                () = sender.closed() => return,
                Some(()) = async {
                    match &mut hangup {
                        Some(hangup) => hangup.recv().await,
                        None => std::future::pending().await,
                    }
                } => true,
                _ = ticker.tick() => false,
            };
            let now = path.as_deref().and_then(modified);
            let changed = path.is_some() && now != seen;
            seen = now;
            if asked || changed {
                tracing::info!(
                    "reloading the settings ({})",
                    if asked { "SIGHUP" } else { "the file changed" }
                );
                if let Some(settings) = read(path.as_deref())
                    && sender.send(settings).is_err()
                {
                    return;
                }
            }
        }
    });
    Ok(receiver)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkerbot_config::PlayLevel;

    async fn next(reloads: &mut mpsc::UnboundedReceiver<Settings>) -> Settings {
        tokio::time::timeout(Duration::from_secs(5), reloads.recv())
            .await
            .expect("a reload within 5 s")
            .expect("the watcher runs")
    }

    #[tokio::test]
    async fn a_changed_file_is_reloaded_and_a_broken_one_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checkerbot.toml");
        std::fs::write(&path, "[play]\nlevel = 2\n").unwrap();
        let mut reloads = watch_settings(Some(path.clone()), Duration::from_millis(20), false)
            .expect("the watcher starts");
        // Modification times can be coarse: make sure the next write looks newer.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let later = |secs| SystemTime::now() + Duration::from_secs(secs);
        std::fs::write(&path, "[play]\nlevel = 4\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(later(10))
            .unwrap();
        assert_eq!(next(&mut reloads).await.play.level, PlayLevel::Fixed(4));

        // A typo is refused; the next good version gets through.
        std::fs::write(&path, "[play]\nlevle = 5\n").unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(later(20)).unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        std::fs::write(&path, "[play]\nlevel = 1\n").unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(later(30)).unwrap();
        assert_eq!(next(&mut reloads).await.play.level, PlayLevel::Fixed(1));
    }
}
