//! How the controller's end of a link stops.

use std::io;

use thiserror::Error;

use crate::error::{Error, ErrorKind};

/// Why a [`PeerDriver`](super::PeerDriver) stopped serving. A lost session is not an error: the
/// controller waits for the next Hello, as a firmware does.
#[non_exhaustive]
#[derive(Debug, Error)]
pub enum PeerError {
    /// Reading or writing the port failed.
    #[error("controller port I/O failed: {0}")]
    Io(#[from] io::Error),
}

impl Error for PeerError {
    fn kind(&self) -> ErrorKind {
        match self {
            PeerError::Io(_) => ErrorKind::Disconnected,
        }
    }
}
