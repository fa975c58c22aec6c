//! A part of a sweep's runs as text, so that a sweep can be split over
//! processes or machines (the Python package's Dask sweep) and put back
//! together into exactly what one process computes.
//!
//! A worker runs some seeds ([`crate::sim::sweep::run_points`]) and
//! answers [`chunk_json`]; the caller reads every answer back with
//! [`read_chunk`] and aggregates. Every figure travels as its decimal text
//! (`"12.350"`), so nothing is rounded on the way:
//!
//! ```text
//! {
//!   "version": "0.1.0",
//!   "runs": [
//!     {"point": 0, "seed": 3, "strategy": "kip441", "completed": true,
//!      "metrics": [["unavailable_task_s.stateful", "1.200"], ["time_to_converge_s", null], …]}
//!   ]
//! }
//! ```

use serde::{Deserialize, Serialize};

use super::info::VERSION;
use crate::model::InputError;
use crate::sim::report::Fixed;
use crate::sim::report::RunFigures;
use crate::sim::scenario::overrides::SweepPoint;
use crate::sim::scenario::SeedRange;
use crate::wire;

/// A chunk.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChunkDoc {
    version: String,
    runs: Vec<RunDoc>,
}

/// One run of a chunk.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RunDoc {
    point: usize,
    seed: u64,
    strategy: String,
    completed: bool,
    metrics: Vec<(String, Option<String>)>,
}

/// The text of `figures`, in their order.
pub fn chunk_json(figures: &[RunFigures]) -> String {
    wire::write(&ChunkDoc {
        version: VERSION.to_string(),
        runs: figures
            .iter()
            .map(|f| RunDoc {
                point: f.point,
                seed: f.seed,
                strategy: f.strategy.clone(),
                completed: f.completed,
                metrics: f
                    .metrics
                    .iter()
                    .map(|(k, v)| (k.clone(), v.map(|v| v.to_string())))
                    .collect(),
            })
            .collect(),
    })
}

/// Reads a chunk written by [`chunk_json`] for the sweep over `points`; each
/// run gets its point's settings back.
///
/// # Errors
///
/// An [`InputError`] naming the field when the text is not a chunk, was
/// written by another version, names a point that `points` does not have,
/// or holds a figure that is not a decimal.
pub fn read_chunk(text: &str, points: &[SweepPoint]) -> Result<Vec<RunFigures>, InputError> {
    let doc: ChunkDoc = serde_json::from_str(text)
        .map_err(|e| InputError::new("chunk", format!("is not a sweep chunk: {e}")))?;
    if doc.version != VERSION {
        return Err(InputError::new(
            "chunk.version",
            format!(
                "must be {VERSION} (every worker must run the same smoothscale), got {:?}",
                doc.version
            ),
        ));
    }
    doc.runs
        .into_iter()
        .enumerate()
        .map(|(i, run)| {
            let at = points.get(run.point).ok_or_else(|| {
                InputError::new(
                    format!("chunk.runs[{i}].point"),
                    format!("must be below {}, got {}", points.len(), run.point),
                )
            })?;
            let metrics = run
                .metrics
                .into_iter()
                .enumerate()
                .map(|(j, (key, value))| {
                    let value = value
                        .map(|text| {
                            parse_fixed(&text).ok_or_else(|| {
                                InputError::new(
                                    format!("chunk.runs[{i}].metrics[{j}]"),
                                    format!("must be a decimal, got {text:?}"),
                                )
                            })
                        })
                        .transpose()?;
                    Ok((key, value))
                })
                .collect::<Result<_, InputError>>()?;
            Ok(RunFigures {
                point: run.point,
                settings: at.settings.clone(),
                seed: run.seed,
                strategy: run.strategy,
                completed: run.completed,
                metrics,
            })
        })
        .collect()
}

/// The figures of a whole sweep put back together from its chunks (in any
/// order), in the order [`run_points`] gives them: by point, seed, then
/// strategy in the order of `strategies`.
///
/// # Errors
///
/// [`read_chunk`]'s, or an [`InputError`] at `chunks` when the chunks do not
/// hold every run of the sweep (every point × seed of `seeds` × strategy)
/// exactly once.
///
/// [`run_points`]: crate::sim::sweep::run_points
pub fn assemble(
    chunks: &[&str],
    points: &[SweepPoint],
    seeds: SeedRange,
    strategies: &[&str],
) -> Result<Vec<RunFigures>, InputError> {
    let mut figures = Vec::new();
    for text in chunks {
        figures.extend(read_chunk(text, points)?);
    }
    let rank = |f: &RunFigures| strategies.iter().position(|s| *s == f.strategy);
    let mut keyed = Vec::with_capacity(figures.len());
    for f in figures {
        let Some(r) = rank(&f) else {
            return Err(InputError::new(
                "chunks",
                format!(
                    "hold a run of strategy {:?}, which the sweep does not run",
                    f.strategy
                ),
            ));
        };
        keyed.push(((f.point, f.seed, r), f));
    }
    keyed.sort_by_key(|(key, _)| *key);
    let expected = (0..points.len()).flat_map(|p| {
        (seeds.start..seeds.end)
            .flat_map(move |seed| (0..strategies.len()).map(move |r| (p, seed, r)))
    });
    let mut got = keyed.iter().map(|(key, _)| *key);
    for want in expected {
        if got.next() != Some(want) {
            return Err(InputError::new(
                "chunks",
                format!(
                    "must hold every run once; point {}, seed {}, strategy {:?} is missing or repeated",
                    want.0, want.1, strategies[want.2]
                ),
            ));
        }
    }
    if let Some((p, seed, r)) = got.next() {
        return Err(InputError::new(
            "chunks",
            format!(
                "hold a run the sweep does not have: point {p}, seed {seed}, strategy {:?}",
                strategies[r]
            ),
        ));
    }
    Ok(keyed.into_iter().map(|(_, f)| f).collect())
}

/// `12.350` as 12350 with 3 decimals; `None` for anything but digits with
/// at most one point between them.
fn parse_fixed(text: &str) -> Option<Fixed> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (text.contains('.') && !digits(fraction)) {
        return None;
    }
    let decimals = u32::try_from(fraction.len()).ok()?;
    let scaled = format!("{whole}{fraction}").parse::<u128>().ok()?;
    Some(Fixed { scaled, decimals })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_read_back_exactly() {
        for text in ["0", "42", "0.007", "12.350", "0.6667"] {
            assert_eq!(parse_fixed(text).unwrap().to_string(), text);
        }
        for bad in ["", ".5", "5.", "-1", "1e3", "1.2.3", "x"] {
            assert_eq!(parse_fixed(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_chunk_from_another_version_or_point_is_refused() {
        let text = chunk_json(&[]).replace(VERSION, "0.0.0-other");
        let e = read_chunk(&text, &[]).unwrap_err();
        assert_eq!(e.path, "chunk.version");
        let one = RunFigures {
            point: 1,
            settings: Vec::new(),
            seed: 1,
            strategy: "kip441".to_string(),
            completed: true,
            metrics: vec![("x".to_string(), Some(Fixed::int(3)))],
        };
        let e = read_chunk(&chunk_json(&[one]), &[]).unwrap_err();
        assert_eq!(e.to_string(), "chunk.runs[0].point must be below 0, got 1");
    }
}
