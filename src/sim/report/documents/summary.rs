//! `summary.json` (module doc of [`super`]).

use serde::Serialize;

use super::{opt, InOrder, Num, RunInfo, VERSION};
use crate::sim::report::{Figures, Fixed};
use crate::sim::{Outcome, RunResult};
use crate::wire;

/// `summary.json`.
#[derive(Serialize)]
struct SummaryDoc<'a> {
    scenario: &'a str,
    scenario_hash: &'a str,
    seed: u64,
    version: &'static str,
    strategies: InOrder<StrategyDoc<'a>>,
}

/// One strategy's entry of `summary.json`.
#[derive(Serialize)]
struct StrategyDoc<'a> {
    outcome: OutcomeDoc<'a>,
    unavailable_task_s: UnavailableDoc,
    max_outage_s: Num,
    task_downtime_s: DowntimeDoc,
    tasks_affected: Num,
    restored_records: RestoredDoc,
    active_moves: Num,
    stateful_active_moves: Num,
    stateless_active_moves: Num,
    standby_moves: Num,
    rebalances: RebalancesDoc,
    time_to_converge_s: Option<Num>,
    time_to_full_availability_s: Option<Num>,
    time_to_full_redundancy_s: Option<Num>,
    time_to_restores_done_s: Option<Num>,
    max_replicas_per_client: Num,
    tasks_lost_every_copy: Num,
    time_to_drain_s: Option<Num>,
    backlog: BacklogDoc,
    final_members: Num,
    imbalance: ImbalanceDoc,
    standby_coverage: Option<Num>,
    cross_rack_records: Num,
    cross_rack_actives: Option<Num>,
    restore_over_optimal: OverOptimalDoc,
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

#[derive(Serialize)]
struct UnavailableDoc {
    stateful: Num,
    stateless: Num,
    total: Num,
}

#[derive(Serialize)]
struct RestoredDoc {
    active: Num,
    replica: Num,
    total: Num,
    recovery: Num,
    steady_replication: Num,
}

#[derive(Serialize)]
struct RebalancesDoc {
    membership: Num,
    probing: Num,
    caught_up: Num,
    total: Num,
}

#[derive(Serialize)]
struct ImbalanceDoc {
    time_weighted: Option<Num>,
    #[serde(rename = "final")]
    at_end: Num,
}

#[derive(Serialize)]
struct DowntimeDoc {
    p50: Option<Num>,
    p99: Option<Num>,
    max: Option<Num>,
}

#[derive(Serialize)]
struct BacklogDoc {
    mean_records: Option<Num>,
    max_records: Num,
}

#[derive(Serialize)]
struct OverOptimalDoc {
    records: Num,
    rebalances: Num,
}

impl<'a> StrategyDoc<'a> {
    fn of(result: &'a RunResult, standbys_asked: bool) -> StrategyDoc<'a> {
        let f = Figures::of(result, standbys_asked);
        StrategyDoc {
            outcome: match &result.outcome {
                Outcome::Completed => OutcomeDoc::Completed("completed"),
                Outcome::Infeasible { at_ms, message } => OutcomeDoc::Infeasible {
                    infeasible_at_s: Num(Fixed::at(*at_ms)),
                    message,
                },
            },
            unavailable_task_s: UnavailableDoc {
                stateful: Num(f.unavailable_task_s.first),
                stateless: Num(f.unavailable_task_s.second),
                total: Num(f.unavailable_task_s.total),
            },
            max_outage_s: Num(f.max_outage_s),
            task_downtime_s: DowntimeDoc {
                p50: opt(f.task_downtime.p50),
                p99: opt(f.task_downtime.p99),
                max: opt(f.task_downtime.max),
            },
            tasks_affected: Num(f.task_downtime.affected),
            restored_records: RestoredDoc {
                active: Num(f.restored_records.first),
                replica: Num(f.restored_records.second),
                total: Num(f.restored_records.total),
                recovery: Num(f.recovery_records),
                steady_replication: Num(f.steady_replication_records),
            },
            active_moves: Num(f.active_moves),
            stateful_active_moves: Num(f.stateful_active_moves),
            stateless_active_moves: Num(f.stateless_active_moves),
            standby_moves: Num(f.standby_moves),
            rebalances: RebalancesDoc {
                membership: Num(f.rebalances.membership),
                probing: Num(f.rebalances.probing),
                caught_up: Num(f.rebalances.caught_up),
                total: Num(f.rebalances.total),
            },
            time_to_converge_s: opt(f.time_to_converge_s),
            time_to_full_availability_s: opt(f.time_to_full_availability_s),
            time_to_full_redundancy_s: opt(f.time_to_full_redundancy_s),
            time_to_restores_done_s: opt(f.time_to_restores_done_s),
            max_replicas_per_client: Num(f.max_replicas_per_client),
            tasks_lost_every_copy: Num(f.tasks_lost_every_copy),
            time_to_drain_s: opt(f.time_to_drain_s),
            backlog: BacklogDoc {
                mean_records: opt(f.backlog_mean_records),
                max_records: Num(f.backlog_max_records),
            },
            final_members: Num(f.final_members),
            imbalance: ImbalanceDoc {
                time_weighted: opt(f.imbalance_time_weighted),
                at_end: Num(f.imbalance_final),
            },
            standby_coverage: opt(f.standby_coverage),
            cross_rack_records: Num(f.cross_rack_records),
            cross_rack_actives: opt(f.cross_rack_actives),
            restore_over_optimal: OverOptimalDoc {
                records: Num(f.restore_over_optimal_records),
                rebalances: Num(f.restore_over_optimal_rebalances),
            },
        }
    }
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
                .map(|r| (r.strategy.clone(), StrategyDoc::of(r, info.standbys_asked)))
                .collect(),
        ),
    })
}
