//! Why a voice pack cannot be used.

use std::io;
use std::path::PathBuf;

use emotions::{Category, Mistake};

use emotions::Language;

/// A voice pack or override index that cannot be loaded. Each names the file at fault, so an
/// operator who edited an override can find the mistake.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// The index file could not be read (a missing pack directory lands here).
    #[error("cannot read voice pack index {path}: {source}")]
    Read {
        /// The index file.
        path: PathBuf,
        /// What the file system said.
        source: io::Error,
    },
    /// The index is not valid TOML or has a field of the wrong type or name.
    #[error("invalid voice pack index {path}: {source}")]
    Parse {
        /// The index file.
        path: PathBuf,
        /// What the parser said, with the line and column.
        source: toml::de::Error,
    },
    /// The index declares another language than the directory it sits in.
    #[error(
        "voice pack index {path} declares language {found}, but its directory is for {expected}"
    )]
    WrongLanguage {
        /// The index file.
        path: PathBuf,
        /// The language its directory is for.
        expected: Language,
        /// The language it declares.
        found: Language,
    },
    /// Two lines of one index share an id, so overrides and the repetition window could not
    /// tell them apart.
    #[error("voice pack index {path} has the id {id:?} twice")]
    DuplicateId {
        /// The index file.
        path: PathBuf,
        /// The repeated id.
        id: String,
    },
    /// A line with nothing to say (or no id), which would leave a blank in the event log.
    #[error("voice pack index {path}: line {id:?} has an empty id or text")]
    Empty {
        /// The index file.
        path: PathBuf,
        /// The line's id.
        id: String,
    },
    /// A line names a mistake that never leads to its category, so it could never be said.
    #[error(
        "voice pack index {path}: line {id:?} is a {category} line but names mistake {mistake:?}, which is said as {expected}"
    )]
    MistakeOutsideCategory {
        /// The index file.
        path: PathBuf,
        /// The line's id.
        id: String,
        /// The line's category.
        category: Category,
        /// The mistake it names.
        mistake: Mistake,
        /// The category that mistake is said as.
        expected: Category,
    },
}
