//! Helpers for the ONNX Runtime tests: a virtual environment with the `PyPI` `onnx` and
//! `onnxruntime` wheels under the scratch folder, the runtime library from that wheel, and
//! test models written by `training/make_test_model.py`.
//!
//! Like `differential_pydraughts.rs`, this needs `python3` with the `venv` module and a package
//! index (or a local wheel source) that pip can reach; `PYTHON3` chooses the interpreter.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The runtime the tests load: the same wheel the project's setup installs.
pub const ONNXRUNTIME: &str = "onnxruntime==1.32.0";
/// The model writer's only dependency.
pub const ONNX: &str = "onnx==1.20.0";
const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../training/make_test_model.py"
);
use crate::python::run;
pub use crate::python::venv as python;

/// The `libonnxruntime.so.*` shipped in the `onnxruntime` wheel of a virtual environment.
pub fn wheel_library(python: &Path) -> PathBuf {
    let dir = run(
        Command::new(python).args([
            "-c",
            "import onnxruntime, os; print(os.path.join(os.path.dirname(onnxruntime.__file__), 'capi'))",
        ]),
        "locating the onnxruntime package",
    );
    let dir = PathBuf::from(dir.trim());
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libonnxruntime.so.") || n == "onnxruntime.dll")
        })
        .collect();
    found.sort();
    found
        .pop()
        .unwrap_or_else(|| panic!("no libonnxruntime in {}", dir.display()))
}

/// The virtual environment with the current `onnx` and `onnxruntime`.
pub fn current() -> PathBuf {
    python("onnx-current", &[ONNX, ONNXRUNTIME])
}

/// Writes a test model to `target/.../network-models/<name>.onnx` with the script's `args`.
pub fn model(name: &str, args: &[&str]) -> PathBuf {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let python = current();
    let dir = crate::scratch_dir().join("network-models");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("{name}.onnx"));
    // Tests run in parallel and ask for the same model: each writes its own file and renames
    // it into place, so no test ever loads a file another is half-way through writing.
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let partial = dir.join(format!(
        "{name}.{}.{write}.partial.onnx",
        std::process::id()
    ));
    run(
        Command::new(&python).arg(SCRIPT).arg(&partial).args(args),
        "writing a test model with training/make_test_model.py",
    );
    std::fs::rename(&partial, &out).expect("moving the test model into place");
    out
}

/// The test model's weight from input feature `i` to output `j` (as in the script).
pub fn weight(i: usize, j: usize) -> f32 {
    (((i * 31 + j * 17) % 23) as f32 - 11.0) / 64.0
}

/// The test model's bias of output `j` (as in the script).
pub fn bias(j: usize) -> f32 {
    (((j * 7) % 13) as f32 - 6.0) / 32.0
}
