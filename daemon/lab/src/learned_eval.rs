//! The `--eval FILE` option of `datagen` and `search`: a learned evaluation for the alpha-beta
//! search, as level 5 reads from `<models_dir>/<variant>-eval.onnx`.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use evalnet::EvalNet;
use rules::Variant;

/// The learned evaluation in `path`, checked to be for `variant`.
pub fn open(path: &Path, variant: Variant) -> anyhow::Result<Arc<EvalNet>> {
    let net = EvalNet::load(path).with_context(|| format!("--eval {}", path.display()))?;
    anyhow::ensure!(
        net.variant() == variant,
        "--eval {}: a {} evaluation, not {variant}",
        path.display(),
        net.variant()
    );
    Ok(Arc::new(net))
}
