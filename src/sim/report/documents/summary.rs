//! `summary.json` (module doc of [`super`]): per strategy its outcome, then
//! every metric of [`METRICS`](crate::sim::report::METRICS) under its
//! name, the parts of a metric (`unavailable_task_s.stateful`, …) nested
//! in an object of their own.

use serde::{Serialize, Serializer};

use super::format::{opt, InOrder, Num};
use super::info::{RunInfo, VERSION};
use crate::sim::report::{Figures, Fixed};
use crate::sim::run::{Outcome, RunResult};
use crate::wire;

/// `summary.json`.
#[derive(Serialize)]
struct SummaryDoc<'a> {
    scenario: &'a str,
    scenario_hash: &'a str,
    seed: u64,
    version: &'static str,
    strategies: InOrder<InOrder<Entry<'a>>>,
}

/// One entry of a strategy's object: its outcome, a metric, the parts
/// of a metric, or the drain after each event.
enum Entry<'a> {
    Outcome(OutcomeDoc<'a>),
    Value(Option<Num>),
    Parts(InOrder<Option<Num>>),
    Drains(Vec<DrainDoc>),
}

/// One event's drain: when it came and how long its backlog took to go.
#[derive(Serialize)]
struct DrainDoc {
    at_s: Num,
    drain_s: Option<Num>,
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Entry::Outcome(o) => o.serialize(serializer),
            Entry::Value(v) => v.serialize(serializer),
            Entry::Parts(p) => p.serialize(serializer),
            Entry::Drains(d) => d.serialize(serializer),
        }
    }
}

/// `"completed"`, or `{"infeasible_at_s": …, "message": …}`.
#[derive(Serialize)]
#[serde(untagged)]
enum OutcomeDoc<'a> {
    Completed(&'static str),
    Infeasible {
        infeasible_at_s: Num,
        message: &'a str,
    },
}

/// One strategy's object: `outcome`, then the metrics nested at their `.`.
fn strategy_doc(result: &RunResult, standbys_asked: bool) -> InOrder<Entry<'_>> {
    let outcome = match &result.outcome {
        Outcome::Completed => OutcomeDoc::Completed("completed"),
        Outcome::Infeasible { at_ms, message } => OutcomeDoc::Infeasible {
            infeasible_at_s: Num(Fixed::at(*at_ms)),
            message,
        },
    };
    let mut entries = vec![("outcome".to_string(), Entry::Outcome(outcome))];
    for (metric, value) in Figures::of(result, standbys_asked).iter() {
        match metric.key.split_once('.') {
            None => entries.push((metric.key.to_string(), Entry::Value(opt(value)))),
            Some((name, part)) => {
                let part = (part.to_string(), opt(value));
                match entries.last_mut() {
                    Some((last, Entry::Parts(parts))) if last == name => parts.0.push(part),
                    _ => entries.push((name.to_string(), Entry::Parts(InOrder(vec![part])))),
                }
            }
        }
    }
    let drains = result
        .metrics
        .event_drains
        .iter()
        .map(|&(at, drain)| DrainDoc {
            at_s: Num(Fixed::at(at)),
            drain_s: drain.map(|d| Num(Fixed::seconds(d))),
        })
        .collect();
    entries.push(("drain_after_events".to_string(), Entry::Drains(drains)));
    InOrder(entries)
}

/// `summary.json`: the run's identity, then each strategy's outcome and
/// figures, in run order.
pub fn summary_json(info: &RunInfo, results: &[RunResult]) -> String {
    wire::write(&SummaryDoc {
        scenario: &info.scenario,
        scenario_hash: &info.scenario_hash,
        seed: info.seed,
        version: VERSION,
        strategies: InOrder(
            results
                .iter()
                .map(|r| (r.strategy.clone(), strategy_doc(r, info.standbys_asked)))
                .collect(),
        ),
    })
}
