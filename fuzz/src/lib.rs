//! The bodies of checkerbot's fuzz targets, one function per target in `fuzz_targets/`.
//!
//! `cargo +nightly fuzz run <target>` feeds them libFuzzer's inputs. `cargo test` here, on a
//! stable toolchain and without libFuzzer, replays the committed seeds in `seeds/<target>/`
//! through the same functions, so a machine without nightly still exercises every target.

mod dxp;
mod engine_text;
mod hub;
mod protocols;
mod settings;

pub use dxp::dxp_message;
pub use engine_text::{fen, move_text, pdn};
pub use hub::hub_line;
pub use protocols::{controller_decoder, dobot_decoder};
pub use settings::settings;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Runs `body` on every file of `seeds/<target>/`, which must hold some.
    fn replay(target: &str, body: fn(&[u8])) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("seeds")
            .join(target);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut count = 0;
        for entry in entries {
            body(&std::fs::read(entry.unwrap().path()).unwrap());
            count += 1;
        }
        assert!(count > 0, "no seeds in {}", dir.display());
        println!("{target}: {count} seeds replayed");
    }

    #[test]
    fn fen() {
        replay("fen", super::fen);
    }

    #[test]
    fn move_text() {
        replay("move_text", super::move_text);
    }

    #[test]
    fn pdn() {
        replay("pdn", super::pdn);
    }

    #[test]
    fn controller_decoder() {
        replay("controller_decoder", super::controller_decoder);
    }

    #[test]
    fn dobot_decoder() {
        replay("dobot_decoder", super::dobot_decoder);
    }

    #[test]
    fn settings() {
        replay("settings", super::settings);
    }

    #[test]
    fn dxp_message() {
        replay("dxp_message", super::dxp_message);
    }

    #[test]
    fn hub_line() {
        replay("hub_line", super::hub_line);
    }
}
