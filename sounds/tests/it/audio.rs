//! Reading audio files back, as the speaker's decoder does.

use std::fs::File;
use std::path::Path;

use rodio::{Decoder, Source};

/// Decodes a whole file; returns its duration in seconds and its peak.
pub fn decode(path: &Path) -> Result<(f64, f32), String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let decoder = Decoder::try_from(file).map_err(|e| e.to_string())?;
    let rate = f64::from(decoder.sample_rate().get());
    let channels = f64::from(decoder.channels().get());
    let (mut samples, mut peak) = (0_u64, 0.0_f32);
    for sample in decoder {
        samples += 1;
        peak = peak.max(sample.abs());
    }
    Ok((samples as f64 / rate / channels, peak))
}
