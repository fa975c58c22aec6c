//! Engine tests on hand-built scenarios with hand-computed answers.

use super::*;
use crate::assignor;
use crate::model::AssignmentConfig;

fn scenario(clients: u32, subs: Vec<SubtopologySpec>, events: Vec<Event>) -> Scenario {
    Scenario {
        name: "test".into(),
        description: String::new(),
        seed: 1,
        duration_ms: 3_600_000,
        sample_every_ms: 60_000,
        step_ms: 1_000,
        strategies: None,
        cluster: ClusterSpec {
            clients,
            threads: 1,
            racks: Vec::new(),
            restore_rate: 1_000,
            session_timeout_ms: 45_000,
            rebalance_pause_ms: 0,
            state_cleanup_delay_ms: 600_000,
            protocol: Protocol::Cooperative,
        },
        subtopologies: subs,
        config: AssignmentConfig::default(),
        events,
        churn: None,
    }
}

fn stateful(partitions: u32, records: u64, write_rate: u64) -> SubtopologySpec {
    SubtopologySpec {
        partitions,
        stateful: true,
        state_records: records,
        write_rate,
    }
}

/// One stateful task of 600,000 records on c0; c0 crashes with its disk at
/// 10 min and c1 (which never held the task) takes over when the crash is
/// noticed, 45 s later, restoring at 1,000 records/s: 600 s. The outage runs
/// from the crash to caught-up: 45 s + 600 s = 645 s.
#[test]
fn an_outage_lasts_from_the_crash_to_caught_up() {
    let mut s = scenario(
        2,
        vec![stateful(1, 600_000, 0)],
        vec![Event {
            at_ms: 600_000,
            kind: EventKind::Crash {
                client: "c0".into(),
                lose_state: true,
            },
        }],
    );
    s.config.num_standby_replicas = 0;
    let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.metrics.max_outage_ms, 645_000);
    assert_eq!(r.metrics.unavailable_stateful_task_ms, 645_000);
    assert_eq!(r.metrics.restored_active_records, 600_000);
    assert_eq!(r.metrics.membership_rebalances, 1);
    assert_eq!(r.metrics.active_moves, 1);
}

/// A restore of N records at rate r takes N / r: two tasks of 300,000
/// records restore on one client at 1,000 records/s shared, so both finish
/// at 600 s (processor sharing), not one at 300 s and one at 600 s.
#[test]
fn a_shared_restore_takes_total_over_rate() {
    let mut s = scenario(
        2,
        vec![stateful(2, 300_000, 0)],
        vec![
            Event {
                at_ms: 60_000,
                kind: EventKind::Crash {
                    client: "c0".into(),
                    lose_state: true,
                },
            },
            Event {
                at_ms: 60_000,
                kind: EventKind::Crash {
                    client: "c1".into(),
                    lose_state: true,
                },
            },
            Event {
                at_ms: 60_000,
                kind: EventKind::ScaleOut { count: 1 },
            },
        ],
    );
    s.cluster.session_timeout_ms = 0;
    let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    assert_eq!(r.metrics.max_outage_ms, 600_000);
    assert_eq!(r.metrics.unavailable_stateful_task_ms, 2 * 600_000);
}

/// The KIP-441 effect on a small scale-out: 12 stateful tasks of 200,000
/// records on 3 clients, 3 more join at 10 min. kip441 keeps actives on
/// caught-up clients and warms the new ones up (two warm-ups per 10-minute
/// probing interval), so it converges in hours; sticky moves actives to the
/// empty clients at once and they restore for minutes each.
#[test]
fn kip441_keeps_tasks_available_on_scale_out() {
    let mut s = scenario(
        3,
        vec![stateful(12, 200_000, 100)],
        vec![Event {
            at_ms: 600_000,
            kind: EventKind::ScaleOut { count: 3 },
        }],
    );
    s.duration_ms = 4 * 3_600_000;
    s.config.num_standby_replicas = 1;
    s.config.probing_rebalance_interval_ms = 600_000;
    let kip = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    let sticky = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    assert!(
        kip.metrics.unavailable_stateful_task_ms * 10 < sticky.metrics.unavailable_stateful_task_ms,
        "kip441 {:?}\nsticky {:?}",
        kip.metrics,
        sticky.metrics
    );
    assert!(kip.metrics.probing_rebalances > 0);
    assert!(kip.metrics.converge_ms.is_some(), "{:?}", kip.metrics);
    assert_eq!(kip.metrics.final_imbalance_milli, 0);
}

/// Halving the physics step changes no metric by more than 2 % (or, for
/// small figures, by more than one step's worth): the step only bounds how
/// often the bandwidth of standbys chasing a running active is re-shared.
#[test]
fn halving_the_step_changes_no_metric_much() {
    let mut s = scenario(
        3,
        vec![stateful(12, 200_000, 100)],
        vec![Event {
            at_ms: 600_000,
            kind: EventKind::ScaleOut { count: 3 },
        }],
    );
    s.duration_ms = 3 * 3_600_000;
    s.config.num_standby_replicas = 1;
    for name in ["kip441", "sticky"] {
        let a = run(&s, assignor::by_name(name).unwrap(), 1)
            .unwrap()
            .metrics;
        let mut half = s.clone();
        half.step_ms = 500;
        let b = run(&half, assignor::by_name(name).unwrap(), 1)
            .unwrap()
            .metrics;
        let close = |x: u128, y: u128, slack: u128| x.abs_diff(y) <= slack.max(x.max(y) / 50);
        assert!(
            close(
                a.unavailable_stateful_task_ms.into(),
                b.unavailable_stateful_task_ms.into(),
                12_000
            ),
            "{name}: {a:?}\n{b:?}"
        );
        assert!(
            close(a.max_outage_ms.into(), b.max_outage_ms.into(), 1_000),
            "{name}: {a:?}\n{b:?}"
        );
        assert!(
            close(
                a.restored_active_records.into(),
                b.restored_active_records.into(),
                1_000
            ),
            "{name}: {a:?}\n{b:?}"
        );
        assert!(
            close(
                a.restored_replica_records.into(),
                b.restored_replica_records.into(),
                1_000
            ),
            "{name}: {a:?}\n{b:?}"
        );
        assert_eq!(a.active_moves, b.active_moves, "{name}");
        assert_eq!(a.probing_rebalances, b.probing_rebalances, "{name}");
        assert_eq!(a.converge_ms, b.converge_ms, "{name}");
    }
}
