//! Finding and loading the ONNX Runtime shared library.
//!
//! The library is not linked at build time (`ort`'s `load-dynamic`): the build needs no
//! download and the robot still starts, with alpha-beta, on a machine without it. Search order:
//!
//! 1. an explicit path from the configuration;
//! 2. the `ORT_DYLIB_PATH` environment variable;
//! 3. `libonnxruntime.so*` next to the executable or in its `lib/` folder;
//! 4. the system's library search (`libonnxruntime.so.1`, then `libonnxruntime.so`).
//!
//! An explicit path or `ORT_DYLIB_PATH`, when given, is the only place tried: an operator who
//! names a file should hear that it is wrong rather than get another library silently. The `PyPI`
//! wheel ships only a versioned file (`libonnxruntime.so.1.32.0`), hence the prefix match.
//!
//! The library is process-wide: once one is loaded, later loads return the same one.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use ort::LoadDynamicError;
use ort::environment::Environment;

use super::error::NetworkError;

/// Environment variable naming the library file (the same one `ort` reads).
pub const DYLIB_ENV: &str = "ORT_DYLIB_PATH";

/// The library loaded in this process, so that a second request reports what is in use.
static LOADED: Mutex<Option<PathBuf>> = Mutex::new(None);

/// ONNX Runtime allows one environment per process, and `ort` cannot make a second one after
/// the first is dropped, so the first is kept for the process's lifetime.
static ENVIRONMENT: Mutex<Option<Environment>> = Mutex::new(None);

/// Where to look for the library, given an optional configured path.
pub fn candidates(explicit: Option<&Path>) -> Vec<PathBuf> {
    if let Some(path) = explicit {
        return vec![path.to_path_buf()];
    }
    if let Some(path) = std::env::var_os(DYLIB_ENV).filter(|p| !p.is_empty()) {
        return vec![PathBuf::from(path)];
    }
    let stem = format!(
        "{}onnxruntime{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let mut out = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        for folder in [dir.clone(), dir.join("lib")] {
            out.extend(versioned_files(&folder, &stem));
        }
    }
    // Bare names: the dynamic loader searches LD_LIBRARY_PATH and the system's folders.
    out.push(PathBuf::from(format!("{stem}.1")));
    out.push(PathBuf::from(stem));
    out
}

/// Files in `dir` named `stem` or `stem.<version>`, newest version first.
fn versioned_files(dir: &Path, stem: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n == stem || n.strip_prefix(stem).is_some_and(|v| v.starts_with('.'))
            })
        })
        .collect();
    found.sort();
    found.reverse();
    found
}

/// Loads ONNX Runtime from the first candidate that works; returns the file in use.
pub fn load(explicit: Option<&Path>) -> Result<PathBuf, NetworkError> {
    let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(path) = loaded.as_ref() {
        return Ok(path.clone());
    }
    let tried = candidates(explicit);
    let mut last = None;
    for path in &tried {
        let bare = path.components().count() == 1;
        if !bare && !path.exists() && !next_to_exe(path).is_some_and(|p| p.exists()) {
            continue;
        }
        match init(path) {
            Ok(()) => {
                *loaded = Some(path.clone());
                return Ok(path.clone());
            }
            // A bare name the loader cannot find just means "not installed there".
            Err(NetworkError::LibraryLoad { .. }) if bare => {}
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or(NetworkError::LibraryNotFound { tried }))
}

/// Where `ort` looks first for a relative path.
fn next_to_exe(path: &Path) -> Option<PathBuf> {
    if path.is_absolute() {
        return None;
    }
    Some(std::env::current_exe().ok()?.parent()?.join(path))
}

fn init(path: &Path) -> Result<(), NetworkError> {
    let result = std::panic::catch_unwind(|| ort::init_from(path).map(|_| ()));
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(LoadDynamicError::BadVersion { version_str, path })) => {
            Err(NetworkError::OldRuntime {
                path,
                found: version_str,
                needed: ort::MINOR_VERSION,
            })
        }
        Ok(Err(e)) => Err(NetworkError::LibraryLoad {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }),
        Err(panic) => Err(NetworkError::Panicked {
            doing: "load the library",
            message: super::panic_message(panic.as_ref()),
        }),
    }
}

/// The process's ONNX Runtime environment, made on first use (after [`load`]).
pub(super) fn environment() -> Result<Environment, NetworkError> {
    let mut slot = ENVIRONMENT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(environment) = slot.as_ref() {
        return Ok(environment.clone());
    }
    // The PyPI wheel's ONNX Runtime sends telemetry unless told not to: at an exhibition it
    // has no network, so it would only log a warning about CA bundles on every start and keep
    // a device id under the service's home (the state directory).
    let environment = ort::init()
        .with_name("checkerbot")
        .with_telemetry(false)
        .build()
        .map_err(|e| NetworkError::Runtime {
            doing: "create its environment",
            reason: e.to_string(),
        })?;
    *slot = Some(environment.clone());
    Ok(environment)
}
