//! When ONNX Runtime cannot be loaded, `Network::load` says why instead of panicking.
//!
//! The library is process-wide: after one good load every later load returns it, so these
//! checks live in their own test binary, where no good library is ever loaded. The "old
//! runtime" case installs an ONNX Runtime older than `ort`'s API level from `PyPI` into its own
//! virtual environment (see `network_support`).

use std::path::{Path, PathBuf};

use network::runtime::library::candidates;
use network::runtime::{Network, NetworkError};
use rules::Variant;
use testkit::onnx::{current, python, wheel_library};

/// Old enough to lack the API `ort` 2.0.0-rc.15 needs (1.31), new enough to have a wheel for
/// the Python versions in use.
const OLD_ONNXRUNTIME: &str = "onnxruntime==1.20.1";

fn any_model() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("network-models/good.onnx")
}

#[test]
fn a_missing_library_is_reported_with_its_path() {
    let path = Path::new("/nonexistent/libonnxruntime.so.1.32.0");
    let error = Network::load(Some(path), &any_model(), Variant::Russian).unwrap_err();
    assert!(
        matches!(error, NetworkError::LibraryNotFound { .. }),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .contains("/nonexistent/libonnxruntime.so.1.32.0"),
        "{error}"
    );
    // A configured path is the only place tried.
    assert_eq!(candidates(Some(path)), vec![path.to_path_buf()]);
}

#[test]
fn a_file_that_is_not_onnx_runtime_is_refused() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("network-fallback");
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("libonnxruntime.so.9.9.9");
    std::fs::write(&text, "not a shared library").unwrap();
    let error = Network::load(Some(&text), &any_model(), Variant::Russian).unwrap_err();
    assert!(
        matches!(error, NetworkError::LibraryLoad { .. }),
        "{error:?}"
    );
    eprintln!("{error}");

    // A real shared library without ONNX Runtime's entry point: the wheel's provider bridge.
    let bridge = wheel_library(&current()).with_file_name("libonnxruntime_providers_shared.so");
    let error = Network::load(Some(&bridge), &any_model(), Variant::Russian).unwrap_err();
    assert!(
        matches!(error, NetworkError::LibraryLoad { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("OrtGetApiBase"), "{error}");
    eprintln!("{error}");
}

#[test]
fn an_old_runtime_is_refused_with_its_version() {
    let old = wheel_library(&python("onnxruntime-old", &[OLD_ONNXRUNTIME]));
    let error = Network::load(Some(&old), &any_model(), Variant::Russian).unwrap_err();
    let NetworkError::OldRuntime { found, needed, .. } = &error else {
        panic!("expected OldRuntime, got {error:?}");
    };
    assert_eq!(found, "1.20.1");
    assert_eq!(*needed, 31);
    eprintln!("{error}");
}
