//! Python virtual environments for the oracle tests (pydraughts, onnx, onnxruntime), made under
//! [`scratch_dir`](crate::scratch_dir)`/oracles` on first use. They need `python3` with the `venv` module and a package
//! index (or a local wheel source) that pip can reach; `PYTHON3` chooses the interpreter.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, PoisonError};

/// Serialises installations within one test process.
static INSTALL: Mutex<()> = Mutex::new(());

/// The interpreter inside a virtual environment.
pub fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

/// Runs `command`, panicking with `what` and its output unless it succeeds; returns stdout.
pub fn run(command: &mut Command, what: &str) -> String {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: could not run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what}: {command:?} failed ({})\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The Python of a virtual environment named `name` holding `packages`, made on first use.
pub fn venv(name: &str, packages: &[&str]) -> PathBuf {
    let _lock = INSTALL.lock().unwrap_or_else(PoisonError::into_inner);
    let root = crate::scratch_dir().join("oracles");
    let venv = root.join(name);
    let python = venv_python(&venv);
    let stamp = venv.join(format!("{}.installed", packages.join("+")));
    if stamp.exists() && python.exists() {
        return python;
    }
    // A leftover from an interrupted installation: start again.
    if venv.exists() {
        std::fs::remove_dir_all(&venv).unwrap();
    }
    std::fs::create_dir_all(&root).unwrap();
    let base = std::env::var("PYTHON3").unwrap_or_else(|_| "python3".to_owned());
    eprintln!(
        "creating a virtual environment with {packages:?} in {}",
        venv.display()
    );
    run(
        Command::new(&base).args(["-m", "venv"]).arg(&venv),
        "creating a Python virtual environment (needs python3 with the venv module)",
    );
    run(
        Command::new(&python)
            .args(["-m", "pip", "install", "--quiet"])
            .args(packages),
        &format!("installing {packages:?} from PyPI into {}", venv.display()),
    );
    std::fs::write(&stamp, "").unwrap();
    python
}
