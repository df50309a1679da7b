//! The wizard's terminal: raw key input through `crossterm`, and the screen redrawn in place.

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;

use anyhow::Context as _;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use tokio::sync::mpsc;

use super::session::Console;
use super::wizard::Key;

/// The terminal in raw mode for as long as it lives; the screen shows the wizard.
#[derive(Debug)]
pub struct TerminalConsole {
    file: PathBuf,
}

impl TerminalConsole {
    /// Puts the terminal in raw mode (keys arrive one by one, unechoed) until dropped.
    pub fn new(file: PathBuf) -> anyhow::Result<TerminalConsole> {
        if !std::io::stdin().is_terminal() {
            anyhow::bail!(
                "the calibration wizard needs a terminal to read keys from; to verify a file \
                 without one, use `checkerbot calibrate --check FILE`"
            );
        }
        terminal::enable_raw_mode().context("switching the terminal to raw mode")?;
        Ok(TerminalConsole { file })
    }
}

impl Drop for TerminalConsole {
    fn drop(&mut self) {
        let _ = terminal::disable_raw_mode();
        println!();
    }
}

impl Console for TerminalConsole {
    fn draw(&mut self, screen: &str) {
        let mut out = std::io::stdout();
        let _ = execute!(
            out,
            cursor::MoveTo(0, 0),
            terminal::Clear(terminal::ClearType::All)
        );
        // Raw mode does not turn a line feed into a new line.
        let _ = write!(out, "{}", screen.replace('\n', "\r\n"));
        let _ = out.flush();
    }

    fn save(&mut self, text: &str) -> anyhow::Result<PathBuf> {
        super::save_calibration(&self.file, text)?;
        Ok(self.file.clone())
    }
}

/// Keys typed at the terminal, read on their own thread so the arm's moves never wait for
/// the keyboard (and the other way round). Ctrl-C asks to quit, as `q` does.
pub fn keys() -> mpsc::UnboundedReceiver<Key> {
    let (send, keys) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        while let Ok(event) = crossterm::event::read() {
            let Event::Key(event) = event else { continue };
            if let Some(key) = key(event)
                && send.send(key).is_err()
            {
                break;
            }
        }
    });
    keys
}

/// The wizard's key for a terminal key press.
fn key(event: KeyEvent) -> Option<Key> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    if event.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(event.code, KeyCode::Char('c')).then_some(Key::Char('q'));
    }
    Some(match event.code {
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Enter => Key::Enter,
        KeyCode::Tab => Key::Tab,
        KeyCode::BackTab => Key::BackTab,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Char(c) => Key::Char(c),
        _ => return None,
    })
}
