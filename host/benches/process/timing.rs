//! How samples are taken and reported: the `RUST_BACKTRACE` modes, runs taken in
//! turns between the modes ([`interleaved`]), and one printed line and one
//! `process.json` row per case and mode, with exact percentiles ([`stats`]).

use std::time::Duration;

use serde_json::{Value, json};

/// `RUST_BACKTRACE` unset and `=1`; only unset in quick mode.
pub fn backtrace_modes(quick: bool) -> &'static [bool] {
    if quick { &[false] } else { &[false, true] }
}

/// The suffix of a row's name in a mode: the report pairs `name` with
/// `name (RUST_BACKTRACE=1)`.
pub fn tag(backtrace: bool) -> &'static str {
    if backtrace { " (RUST_BACKTRACE=1)" } else { "" }
}

/// `runs` samples per mode from `measure(mode index, run)`, taken in turns of `block`
/// runs per mode: the `RUST_BACKTRACE` comparison is then between neighbouring runs,
/// not between two passes minutes apart on a machine whose speed drifts (pass by
/// pass, the later one came out up to 12 % faster — either way). Processes started
/// per run take turns run by run (`block` 1); servers kept alive side by side take
/// turns in blocks, because a request alternating between two servers finds the
/// caches full of the other one (measured on one core: 41 → 76 µs a round trip).
pub fn interleaved(
    modes: usize,
    runs: usize,
    block: usize,
    mut measure: impl FnMut(usize, usize) -> Duration,
) -> Vec<Vec<Duration>> {
    let mut samples = vec![Vec::with_capacity(runs); modes];
    for start in (0..runs).step_by(block.max(1)) {
        for (m, samples) in samples.iter_mut().enumerate() {
            for run in start..runs.min(start + block.max(1)) {
                samples.push(measure(m, run));
            }
        }
    }
    samples
}

/// Median, p90 and friends of a set of durations, in microseconds: printed, and
/// returned as a row of `process.json`.
pub fn stats(name: &str, samples: &mut [Duration]) -> Value {
    samples.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let pick = |q: f64| us(samples[((samples.len() - 1) as f64 * q).round() as usize]);
    let mean = samples.iter().map(|d| us(*d)).sum::<f64>() / samples.len() as f64;
    let row = json!({
        "name": name, "unit": "us", "n": samples.len(),
        "median": pick(0.5), "p90": pick(0.9), "min": us(samples[0]), "mean": mean,
    });
    println!(
        "{name:<48} n={:<6} median {:>10.1} µs   p90 {:>10.1} µs",
        samples.len(),
        pick(0.5),
        pick(0.9)
    );
    row
}

/// One result row per mode: `name`, and `name (RUST_BACKTRACE=1)`.
pub fn push_modes(
    results: &mut Vec<Value>,
    name: &str,
    modes: &[bool],
    samples: Vec<Vec<Duration>>,
) {
    for (&backtrace, mut samples) in modes.iter().zip(samples) {
        results.push(stats(&format!("{name}{}", tag(backtrace)), &mut samples));
    }
}
