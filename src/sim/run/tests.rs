//! Engine tests on hand-built scenarios with hand-computed answers.

use super::*;
use crate::assignor;
use crate::model::{AssignmentConfig, IxVec, Lag};
use crate::sim::*;

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
            revocation_pause_ms: 0,
            static_membership: false,
            second_round: false,
            scale_down_timeout_ms: None,
            restore_bandwidth: None,
            process_rate: None,
            groups: Vec::new(),
            tags: Default::default(),
            replication_factor: 1,
            cpu: None,
            ram_mb: None,
            disk_mb: None,
        },
        subtopologies: subs,
        config: AssignmentConfig::default(),
        events,
        churn: None,
        perturb: None,
    }
}

fn stateful(partitions: u32, records: u64, write_rate: u64) -> SubtopologySpec {
    SubtopologySpec {
        partitions,
        stateful: true,
        state_records: records,
        write_rate,
        input_rate: 0,
        input_skew: InputSkew::Uniform,
        process_cost_milli: DEFAULT_PROCESS_COST_MILLI,
        cpu: None,
        ram_mb: None,
        disk_mb: None,
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
    assert_eq!(r.metrics.max_outage_ms.get(), 645_000);
    assert_eq!(r.metrics.unavailable_stateful_task_ms.get(), 645_000);
    assert_eq!(r.metrics.task_down_ms, vec![Millis::new(645_000)]);
    assert_eq!(r.metrics.restored_active_records.get(), 600_000);
    assert_eq!(r.metrics.membership_rebalances, 1);
    assert_eq!(r.metrics.active_moves, 1);
    // Its only copy was on c0's disk.
    assert_eq!(r.metrics.tasks_lost_every_copy, 1);
}

/// A task loses every copy only when no client that may run it again keeps
/// any of its state. One task on three clients; c0 (its active) loses its
/// disk at 10 min: with one standby (on another client) nothing is lost,
/// without standbys the task is. Two tasks on two clients without
/// standbys, one each: when c1 is scaled in, its task's only store leaves
/// with it.
#[test]
fn a_task_loses_every_copy_only_when_no_client_keeps_its_state() {
    let mut s = scenario(
        3,
        vec![stateful(1, 600_000, 0)],
        vec![lose_disk(600_000, "c0")],
    );
    s.config.num_standby_replicas = 1;
    let r = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.metrics.tasks_lost_every_copy, 0);
    s.config.num_standby_replicas = 0;
    let r = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    assert_eq!(r.metrics.tasks_lost_every_copy, 1);
    let mut s = scenario(
        2,
        vec![stateful(2, 600_000, 0)],
        vec![at(
            600_000,
            EventKind::ScaleIn {
                count: 1,
                group: None,
            },
        )],
    );
    s.config.num_standby_replicas = 0;
    let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.metrics.tasks_lost_every_copy, 1);
}

/// `partitions` stateless tasks whose input arrives at `input_rate` records/s.
fn stateless(partitions: u32, input_rate: u64) -> SubtopologySpec {
    SubtopologySpec {
        partitions,
        stateful: false,
        state_records: 0,
        write_rate: 0,
        input_rate,
        input_skew: InputSkew::Uniform,
        process_cost_milli: DEFAULT_PROCESS_COST_MILLI,
        cpu: None,
        ram_mb: None,
        disk_mb: None,
    }
}

/// Two stateful tasks of 300,000 records without writes on c0 and c1, which
/// both crash with their disks at 60 s, noticed at once, when `newcomers`
/// clients join.
fn both_replaced(newcomers: u32) -> Scenario {
    let lost = |client: &str| Event {
        at_ms: 60_000,
        kind: EventKind::Crash {
            client: client.into(),
            lose_state: true,
        },
    };
    let join = at(
        60_000,
        EventKind::ScaleOut {
            count: newcomers,
            group: None,
        },
    );
    let mut s = scenario(
        2,
        vec![stateful(2, 300_000, 0)],
        vec![lost("c0"), lost("c1"), join],
    );
    s.cluster.session_timeout_ms = 0;
    s
}

/// A restore of N records at rate r takes N / r: two tasks of 300,000
/// records restore on one client at 1,000 records/s shared, so both finish
/// at 600 s (processor sharing), not one at 300 s and one at 600 s.
#[test]
fn a_shared_restore_takes_total_over_rate() {
    let s = both_replaced(1);
    let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    assert_eq!(r.metrics.max_outage_ms.get(), 600_000);
    assert_eq!(r.metrics.unavailable_stateful_task_ms.get(), 2 * 600_000);
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
        vec![at(
            600_000,
            EventKind::ScaleOut {
                count: 3,
                group: None,
            },
        )],
    );
    s.duration_ms = 4 * 3_600_000;
    s.config.num_standby_replicas = 1;
    s.config.probing_rebalance_interval_ms = 600_000;
    let kip = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    let sticky = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    assert!(
        kip.metrics.unavailable_stateful_task_ms.get() * 10
            < sticky.metrics.unavailable_stateful_task_ms.get(),
        "kip441 {:?}\nsticky {:?}",
        kip.metrics,
        sticky.metrics
    );
    assert!(kip.metrics.probing_rebalances > 0);
    assert!(kip.metrics.converge_ms.is_some(), "{:?}", kip.metrics);
    assert_eq!(kip.metrics.final_imbalance_milli, 0);
}

/// The step changes no metric beyond rounding: catch-ups, restores and the
/// rebalances they trigger happen at their computed instants, so a step of
/// 250 ms, 1 s or 60 s gives the same times, moves and rebalances, and the
/// same records within the rounding of each stretch's reads (under one
/// milli-record per reader and stretch).
#[test]
fn the_step_changes_no_metric_beyond_rounding() {
    let mut s = scenario(
        3,
        vec![stateful(12, 200_000, 100)],
        vec![at(
            600_000,
            EventKind::ScaleOut {
                count: 3,
                group: None,
            },
        )],
    );
    s.duration_ms = 3 * 3_600_000;
    s.config.num_standby_replicas = 1;
    for name in ["kip441", "sticky", "kip441-learner"] {
        let with_step = |step_ms: u64| {
            let mut s = s.clone();
            s.step_ms = step_ms;
            run(&s, assignor::by_name(name).unwrap(), 1)
                .unwrap()
                .metrics
        };
        let a = with_step(1_000);
        for step_ms in [250, 60_000] {
            let b = with_step(step_ms);
            let close = |x: Records, y: Records| x.get().abs_diff(y.get()) <= 1 + x.get() / 100_000;
            assert!(
                close(a.restored_active_records, b.restored_active_records),
                "{name} {step_ms}: {a:?}\n{b:?}"
            );
            assert!(
                close(a.restored_replica_records, b.restored_replica_records),
                "{name} {step_ms}: {a:?}\n{b:?}"
            );
            let times = |m: &RunMetrics| {
                (
                    m.unavailable_stateful_task_ms,
                    m.max_outage_ms,
                    m.task_down_ms.clone(),
                    m.converge_ms,
                    m.full_availability_ms,
                    m.full_redundancy_ms,
                    m.restores_done_ms,
                )
            };
            let counts = |m: &RunMetrics| {
                (
                    m.active_moves,
                    m.standby_moves,
                    m.membership_rebalances,
                    m.probing_rebalances,
                    m.caught_up_rebalances,
                    m.max_replicas_per_client,
                )
            };
            assert_eq!(times(&a), times(&b), "{name} {step_ms}");
            assert_eq!(counts(&a), counts(&b), "{name} {step_ms}");
        }
    }
}

/// Two stateful tasks of 1,000,000 records written at 11,000 records/s run
/// on c0 (no standbys, acceptable lag 10,000 records, probing every 10 min);
/// c1 joins at 600 s. Each changelog is then 1,000,000 + 11,000 × 600 =
/// 7,600,000 records long. kip441 warms one task up on c1, which reads at
/// 1,000,000 records/s while the active writes 11,000: it gains 989,000
/// records/s, so it is within 10,000 records after 7,590,000 / 989,000 =
/// 7.6744 s and at the end after 7,600,000 / 989,000 = 7.6846 s (7.685 s
/// rounded up to the ms), then follows at 11,000 records/s. The probing
/// rebalance at 1,200 s (the only one) finds it caught up and moves the
/// active: converged
/// 600 s after the join, with nothing down. The warm-up read the whole
/// changelog as it stood at 1,200 s, 1,000,000 + 11,000 × 1,200 =
/// 14,200,000 records, of which 11,000 × (600 − 7.685) = 6,515,465 while
/// following. Before catch-up was computed in continuous time, a step of
/// 1 s left the warm-up 11,000 records behind at every step's end (more than
/// the acceptable lag), so it never counted as caught up and the run never
/// converged.
#[test]
fn a_warmup_chasing_fast_writes_catches_up_at_its_instant() {
    let mut s = scenario(
        1,
        vec![stateful(2, 1_000_000, 11_000)],
        vec![at(
            600_000,
            EventKind::ScaleOut {
                count: 1,
                group: None,
            },
        )],
    );
    s.cluster.restore_rate = 1_000_000;
    s.config.num_standby_replicas = 0;
    s.config.acceptable_recovery_lag = 10_000;
    s.config.probing_rebalance_interval_ms = 600_000;
    s.duration_ms = 1_800_000;
    let m = run(&s, assignor::by_name("kip441").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.converge_ms, Some(Millis::new(600_000)), "{m:?}");
    assert_eq!(m.active_moves, 1);
    assert_eq!(m.stateful_active_moves, 1);
    assert_eq!(m.probing_rebalances, 1, "{m:?}");
    assert_eq!(m.unavailable_stateful_task_ms, Millis::ZERO);
    assert_eq!(m.restored_active_records, Records::ZERO);
    assert_eq!(m.restored_replica_records, Records::new(14_200_000));
    assert_eq!(m.steady_replica_records, Records::new(6_515_465));
    assert_eq!(m.full_availability_ms, Some(Millis::ZERO));
    assert_eq!(m.restores_done_ms, Some(Millis::new(7_685)));
    assert_eq!(m.max_replicas_per_client, 1);
}

/// A cluster-wide restore bandwidth of 1,000 records/s shared by two
/// clients that each restore one task of 300,000 records (each could read
/// 1,000 records/s alone): 500 records/s each, so both tasks are down from
/// the crash at 60 s until 600 s later instead of 300 s. With 1,500
/// records/s: 750 each, 400 s. Without a limit: 300 s.
#[test]
fn a_cluster_bandwidth_is_shared_by_the_restoring_clients() {
    let mut s = both_replaced(2);
    s.config.num_standby_replicas = 0;
    for (bandwidth, outage_s) in [(None, 300), (Some(1_500), 400), (Some(1_000), 600)] {
        s.cluster.restore_bandwidth = bandwidth;
        let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
            .unwrap()
            .metrics;
        let outage = Millis::new(outage_s * 1000);
        assert_eq!(m.task_down_ms, vec![outage, outage], "{bandwidth:?}");
        assert_eq!(m.restored_active_records, Records::new(600_000));
    }
}

/// Samples are interval means on the grid: two stateless tasks on c0, c1
/// joins at exactly 60 s and sticky moves one task, which pauses 5 s. The
/// sample at 60 s covers (0, 60 s]: 2 tasks available throughout (the pause
/// starts at its end), not the dip an instant sample after the rebalance
/// shows; the one at 120 s averages (2 × 60 − 5) / 60 = 1.9167 (1.917).
#[test]
fn samples_average_their_interval() {
    let mut s = one_joins_at_60s(2);
    s.cluster.rebalance_pause_ms = 5_000;
    s.duration_ms = 180_000;
    let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    let available: Vec<(u64, u64)> = r
        .samples
        .iter()
        .map(|x| (x.t_ms.get(), x.available_tasks_milli))
        .collect();
    assert_eq!(
        available,
        vec![
            (0, 2_000),
            (60_000, 2_000),
            (120_000, 1_917),
            (180_000, 2_000)
        ]
    );
    assert_eq!(r.metrics.unavailable_stateless_task_ms, Millis::new(5_000));
    assert_eq!(r.metrics.stateful_active_moves, 0);
    assert_eq!(r.metrics.active_moves, 1);
}

/// Two tasks of 600,000 records without writes or standbys on `clients`
/// clients, `acceptable_recovery_lag` 0, and `kind` at 10 min.
fn two_tasks(clients: u32, kind: EventKind) -> Scenario {
    let mut s = scenario(
        clients,
        vec![stateful(2, 600_000, 0)],
        vec![Event {
            at_ms: 600_000,
            kind,
        }],
    );
    s.config.acceptable_recovery_lag = 0;
    s
}

/// Learners on a scale-out: c0 runs two tasks of 600,000 records (no writes,
/// no standbys, `acceptable_recovery_lag` 0); c1 joins at 10 min and learns
/// 0_0 at 1,000 records/s: caught up 600 s later, when c1 rejoins and takes
/// the active over with nothing to restore. One membership and one
/// caught-up rebalance, no probing, no downtime, converged 600 s after the join.
#[test]
fn a_learner_that_catches_up_triggers_the_handover() {
    let s = two_tasks(
        1,
        EventKind::ScaleOut {
            count: 1,
            group: None,
        },
    );
    let r = run(&s, assignor::by_name("kip441-learner").unwrap(), 1).unwrap();
    let m = &r.metrics;
    assert_eq!(
        (
            m.membership_rebalances,
            m.caught_up_rebalances,
            m.probing_rebalances
        ),
        (1, 1, 0)
    );
    assert_eq!(m.active_moves, 1);
    assert_eq!(m.unavailable_stateful_task_ms.get(), 0);
    assert_eq!(m.restored_replica_records.get(), 600_000);
    assert_eq!(m.converge_ms, Some(Millis::new(600_000)));
    assert_eq!(m.final_imbalance_milli, 0);
}

/// Learners on a scale-in: c0 and c1 run one task of 600,000 records each; at
/// 10 min c1 is scaled in. c0 learns 0_1 at 1,000 records/s. With no timeout
/// c1 leaves when the learner is ready (600 s later) and nothing is down; with
/// `scale_down_timeout` 300 s it leaves half-way, the learner is promoted and
/// restores the other 300,000 records while the task is down: 300 s.
#[test]
fn a_leaving_client_waits_for_its_learners_or_the_timeout() {
    let mut s = two_tasks(
        2,
        EventKind::ScaleIn {
            count: 1,
            group: None,
        },
    );
    let learner = assignor::by_name("kip441-learner").unwrap();
    let patient = run(&s, learner, 1).unwrap().metrics;
    assert_eq!(patient.membership_rebalances, 2, "{patient:?}");
    assert_eq!(patient.unavailable_stateful_task_ms.get(), 0);
    assert_eq!(patient.restored_replica_records.get(), 600_000);
    assert_eq!(patient.converge_ms, Some(Millis::new(600_000)));

    s.cluster.scale_down_timeout_ms = Some(300_000);
    let bounded = run(&s, learner, 1).unwrap().metrics;
    assert_eq!(bounded.membership_rebalances, 2, "{bounded:?}");
    assert_eq!(bounded.unavailable_stateful_task_ms.get(), 300_000);
    assert_eq!(bounded.max_outage_ms.get(), 300_000);
    assert_eq!(bounded.restored_replica_records.get(), 300_000);
    assert_eq!(bounded.restored_active_records.get(), 300_000);
    assert_eq!(bounded.converge_ms, Some(Millis::new(300_000)));

    // Strategies that do not hand over leave at once, whatever the timeout.
    let kip = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    assert_eq!(kip.metrics.membership_rebalances, 1);
    assert_eq!(kip.metrics.unavailable_stateful_task_ms.get(), 600_000);
}

/// A happening due past the end of the clock (`u64::MAX` ms) never comes:
/// a rolling bounce every 106,751,991,167 days (`k × interval` overflows
/// from the fourth client on) bounces the first client only, exactly as a
/// bounce every 1,000 days does within the run; a rack outage whose restart
/// would come 213,503,982,334 days later (`at + duration` overflows) runs
/// as an outage without restart.
#[test]
fn happenings_past_the_end_of_the_clock_never_come() {
    let bounce = |interval_ms: u64| {
        scenario(
            4,
            vec![stateful(8, 100_000, 10)],
            vec![Event {
                at_ms: 600_000,
                kind: EventKind::RollingBounce {
                    interval_ms,
                    downtime_ms: 60_000,
                    leave_group: None,
                },
            }],
        )
    };
    let outage = |duration_ms: Option<u64>| {
        let mut s = scenario(
            4,
            vec![stateful(8, 100_000, 10)],
            vec![Event {
                at_ms: 15 * 3_600_000,
                kind: EventKind::RackOutage {
                    rack: "r1".into(),
                    lose_state: false,
                    duration_ms,
                },
            }],
        );
        s.duration_ms = 20 * 3_600_000;
        s.cluster.racks = vec!["r1".into(), "r2".into()];
        s
    };
    for name in ["kip441", "sticky"] {
        let a = assignor::by_name(name).unwrap();
        let huge = run_unchecked(&bounce(106_751_991_167 * 86_400_000), a, 1).unwrap();
        let long = run_unchecked(&bounce(1_000 * 86_400_000), a, 1).unwrap();
        assert_eq!(huge, long, "{name}");
        assert_eq!(huge.metrics.membership_rebalances, 2, "{name}");

        let huge = run_unchecked(&outage(Some(213_503_982_334 * 86_400_000)), a, 1).unwrap();
        let never = run_unchecked(&outage(None), a, 1).unwrap();
        assert_eq!(huge, never, "{name}");
        assert_eq!(huge.outcome, Outcome::Completed);
    }
}

/// Sums that do not fit stop the run with an overflow naming the quantity,
/// never a wrapped figure or a panic.
#[test]
fn an_overflow_stops_the_run_naming_the_quantity() {
    let overflow = |s: &Scenario| {
        let e = run_unchecked(s, assignor::by_name("sticky").unwrap(), 1).unwrap_err();
        match e.problem {
            SimProblem::Overflow(o) => o.what,
            other => panic!("not an overflow: {other:?}"),
        }
    };
    // A changelog longer than 2^64 milli-records.
    let s = scenario(2, vec![stateful(1, u64::MAX / 1000 + 1, 0)], vec![]);
    let what = overflow(&s);
    assert!(what.contains("subtopologies[0].state_records"), "{what}");

    // Writes that outgrow it: 2^60 records/s for an hour.
    let s = scenario(2, vec![stateful(1, 1, 1 << 60)], vec![]);
    let what = overflow(&s);
    assert!(what.contains("subtopologies[0].write_rate"), "{what}");

    // Task-milliseconds of unavailability: 2^32 - 1 tasks would be too
    // many to build, so one task down for most of the clock, twice.
    let mut s = scenario(
        1,
        vec![stateless(2, 0)],
        vec![Event {
            at_ms: 1,
            kind: EventKind::Crash {
                client: "c0".into(),
                lose_state: false,
            },
        }],
    );
    s.duration_ms = u64::MAX;
    s.step_ms = u64::MAX;
    s.sample_every_ms = u64::MAX;
    s.cluster.session_timeout_ms = u64::MAX;
    let what = overflow(&s);
    assert!(what.contains("unavailable_task_s.stateless"), "{what}");
}

/// `run` checks a scenario built in code as the reader checks a file: past a
/// limit it stops before building anything, naming the key.
#[test]
fn run_refuses_a_scenario_past_a_limit() {
    let mut s = scenario(2, vec![stateful(1, 1, 0)], vec![]);
    s.cluster.clients = u32::MAX;
    let e = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap_err();
    match e.problem {
        SimProblem::Invalid(error) => assert_eq!(error.path, "cluster.clients"),
        other => panic!("not refused as invalid: {other:?}"),
    }
}

fn crash(at_ms: u64, client: &str) -> Event {
    Event {
        at_ms,
        kind: EventKind::Crash {
            client: client.into(),
            lose_state: false,
        },
    }
}

/// An event of `kind` at `at_ms`.
fn at(at_ms: u64, kind: EventKind) -> Event {
    Event { at_ms, kind }
}

/// `tasks` stateless tasks on c0; a second client joins at 60 s.
fn one_joins_at_60s(tasks: u32) -> Scenario {
    scenario(
        1,
        vec![stateless(tasks, 0)],
        vec![at(
            60_000,
            EventKind::ScaleOut {
                count: 1,
                group: None,
            },
        )],
    )
}

/// `client` crashes at `at_ms` and loses its disk.
fn lose_disk(at_ms: u64, client: &str) -> Event {
    Event {
        at_ms,
        kind: EventKind::Crash {
            client: client.into(),
            lose_state: true,
        },
    }
}

fn restart(at_ms: u64, client: &str) -> Event {
    Event {
        at_ms,
        kind: EventKind::Restart {
            client: client.into(),
        },
    }
}

/// Kafka's state directory cleaner runs only inside a running instance, so
/// a store survives any time its client is down. One task of 1,000,000
/// records on c0 alone; c0 crashes (disk kept) at 10 min and restarts at
/// 30 min, 20 min later, past the 10-minute cleanup delay. It still has the
/// store, at the changelog's end (no writes), so it restores nothing: the
/// task is down from the crash to the restart, 1,200 s, not 1,200 s plus
/// 1,000 s of restoring at 1,000 records/s.
#[test]
fn a_down_clients_stores_outlive_the_cleanup_delay() {
    let mut s = scenario(
        1,
        vec![stateful(1, 1_000_000, 0)],
        vec![crash(600_000, "c0"), restart(1_800_000, "c0")],
    );
    s.config.num_standby_replicas = 0;
    let r = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.metrics.restored_active_records.get(), 0);
    assert_eq!(r.metrics.max_outage_ms.get(), 1_200_000);
}

/// The cleaner's first pass comes one cleanup delay after the client
/// started. c0 runs the task of 1,000,000 records; it crashes (disk kept) at
/// 10 min, the group notices 45 s later and c1 restores the task (1,000 s).
/// c0 restarts at 30 min; sticky leaves the task on c1, so c0's store is
/// released (since 10 min 45 s) but kept until c0's cleaner first runs, at
/// 40 min. When c1 crashes at 35 min, c0 takes the task over with its store
/// and restores nothing more; when c1 crashes at 45 min, the store is gone
/// and c0 restores all 1,000,000 records again.
#[test]
fn a_restarted_clients_cleaner_first_runs_one_delay_after_the_restart() {
    for (c1_crash_ms, restored) in [(2_100_000, 1_000_000), (2_700_000, 2_000_000)] {
        let mut s = scenario(
            2,
            vec![stateful(1, 1_000_000, 0)],
            vec![
                crash(600_000, "c0"),
                restart(1_800_000, "c0"),
                crash(c1_crash_ms, "c1"),
            ],
        );
        s.duration_ms = 2 * 3_600_000;
        s.config.num_standby_replicas = 0;
        let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
        assert_eq!(r.outcome, Outcome::Completed, "c1 crashes at {c1_crash_ms}");
        assert_eq!(
            r.metrics.restored_active_records.get(),
            restored,
            "c1 crashes at {c1_crash_ms} ms"
        );
    }
}

/// Churn never shrinks the group below two members (a lone member is
/// balanced by definition, so a collapsed group would count as converged at
/// once). Twenty random crashes in an hour, no restarts: from three clients
/// the first crash leaves two members, every later one does nothing. One
/// membership rebalance (the crash, noticed), two members at the end; from
/// two clients no crash happens at all.
#[test]
fn churn_never_leaves_fewer_than_two_members() {
    for (clients, crashes, members) in [(3, 1, 2), (2, 0, 2)] {
        let mut s = scenario(clients, vec![stateful(2, 1_000, 0)], vec![]);
        s.churn = Some(ChurnSpec {
            events_per_hour: 20.0,
            kinds: vec![ChurnKind::Crash],
            from_ms: 0,
            until_ms: 3_600_000,
            lose_state_probability: 0.0,
            burst_size: 2,
            burst_window_ms: 60_000,
            zone_outage_ms: 600_000,
        });
        let r = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
        assert_eq!(
            r.metrics.membership_rebalances, crashes,
            "{clients} clients"
        );
        assert_eq!(r.metrics.final_members, members, "{clients} clients");
    }
}

/// What Kafka's leader calls a member's previous standbys: every task whose
/// store the member reports (an offset sum) that it did not run as an active
/// (`ClientState.initializePrevTasks`), whether or not it was last assigned
/// a standby of it. c0 runs 0_0, holds a standby of 0_1 and still has the
/// released store of 0_2 on disk: previous active {0_0}, previous standbys
/// {0_1, 0_2}, and all three reported as lags.
#[test]
fn every_store_on_disk_but_the_actives_is_a_previous_standby() {
    use super::world::{ClientNo, Store, World};
    use crate::model::{TaskId, TaskIx};
    use std::collections::BTreeSet;
    let s = scenario(1, vec![stateful(3, 1_000, 0)], vec![]);
    let mut world = World::new(&s, s.seed).unwrap();
    let c = &mut world.clients[ClientNo::from_position(0)];
    for t in 0..3 {
        c.stores.insert(
            TaskIx::from_position(t),
            Store {
                offset: MilliRecords::ZERO,
                released_at: (t == 2).then(|| SimTime::new(5)),
            },
        );
    }
    c.actives.insert(TaskIx::from_position(0));
    c.replicas.insert(TaskIx::from_position(1));
    let state = world.cluster_state(&s, &IxVec::new()).unwrap();
    let client = &state.clients()[0];
    let ids = |ps: &[u32]| {
        ps.iter()
            .map(|&p| TaskId::new(0, p))
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(client.previous_active, ids(&[0]));
    assert_eq!(client.previous_standby, ids(&[1, 2]));
    assert_eq!(client.lags.len(), 3);
}

/// The processing model by hand: one stateless task whose input arrives at
/// 100 records/s; a thread processes 300 records/s. c0 crashes at 60 s and
/// c1 takes the task when the group notices, 45 s later: 4,500 records
/// behind. c1 gains 300 − 100 = 200 records/s on them, so they are gone
/// 22.5 s later, at 127.5 s: 67.5 s after the crash. The backlog rose and
/// fell linearly: 4,500 × (45 + 22.5) / 2 = 151,875 record-s over the hour,
/// 42.19 records behind on average (42). Two tasks of 200 records/s on one
/// such thread fall 100 records/s behind for good: 360,000 after the hour,
/// never drained.
#[test]
fn an_outage_leaves_a_backlog_to_drain() {
    let mut s = scenario(2, vec![stateless(1, 100)], vec![crash(60_000, "c0")]);
    s.cluster.process_rate = Some(300);
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.unavailable_stateless_task_ms, Millis::new(45_000));
    assert_eq!(m.max_backlog_milli, 4_500_000);
    assert_eq!(m.drained_ms, Some(Millis::new(67_500)));
    assert_eq!(m.backlog_twice_milli_ms, 2 * 151_875 * 1_000_000);
    let r = run(&s, assignor::by_name("sticky").unwrap(), 1).unwrap();
    let f = report::Figures::of(&r, false);
    assert_eq!(f["backlog.mean_records"].unwrap().to_string(), "42");
    assert_eq!(f["time_to_drain_s"].unwrap().to_string(), "67.500");

    // The new figures of the same run. The only event (and the start)
    // drained 67.5 s after it; no input is left at the end.
    assert_eq!(m.worst_event_drain_ms, Some(Millis::new(67_500)));
    let drains = [
        (SimTime::ZERO, Some(Millis::ZERO)),
        (SimTime::new(60_000), Some(Millis::new(67_500))),
    ];
    assert_eq!(m.event_drains, drains);
    assert_eq!(m.final_backlog.get(), 0);
    assert_eq!(m.input_records.get(), 360_000);
    assert_eq!(f["backlog.record_s"].unwrap().to_string(), "151875");
    assert_eq!(f["throughput_deficit.share"].unwrap().to_string(), "0.0000");
    // Waits: c1 processed the 4,500 behind and the 2,250 that arrived while
    // it caught up (6,750) with waits from 45 s down to 0, spread evenly;
    // the other 353,250 records waited not at all. The 99th percentile,
    // rank 356,400, is 3,150 into that spread: 45 × 3,150 / 6,750 = 21 s
    // (its histogram bucket's upper edge, within 1/64 above).
    let [p50, p99, max] = m.delay_ms.unwrap();
    assert_eq!(p50, Millis::ZERO);
    assert!(
        (21_000..=21_000 + 21_000 / 64).contains(&p99.get()),
        "{p99:?}"
    );
    assert_eq!(max, Millis::new(45_000));
    // One member after the crash: its threads carry the mean.
    assert_eq!(m.final_load_imbalance_milli, Some(1000));

    let mut s = scenario(1, vec![stateless(2, 200)], vec![]);
    s.cluster.process_rate = Some(300);
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.max_backlog_milli, 360_000_000);
    assert_eq!(m.drained_ms, None);
    // Overloaded from the start: never drained; a quarter of the input is
    // left (360,000 of 1,440,000); the record processed last waited
    // 180,000 / 200 = 900 s, as long as the oldest one left.
    assert_eq!(m.worst_event_drain_ms, None);
    assert_eq!(m.event_drains, [(SimTime::ZERO, None)]);
    assert_eq!(m.final_backlog.get(), 360_000);
    assert_eq!(m.input_records.get(), 1_440_000);
    assert_eq!(m.delay_ms.unwrap()[2], Millis::new(900_000));
}

/// A record's processing cost takes thread time: one task of 100 records/s
/// on a thread that processes 300 of cost 1 keeps up at a cost of 3 and
/// falls 25 records/s behind at a cost of 4 (it processes 75): 90,000
/// behind after the hour.
#[test]
fn costly_records_take_more_thread_time() {
    let mut s = scenario(1, vec![stateless(1, 100)], vec![]);
    s.cluster.process_rate = Some(300);
    s.subtopologies[0].process_cost_milli = 3_000;
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.final_backlog.get(), 0);
    assert_eq!(m.worst_event_drain_ms, Some(Millis::ZERO));
    s.subtopologies[0].process_cost_milli = 4_000;
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.final_backlog.get(), 90_000);
    assert_eq!(m.worst_event_drain_ms, None);
}

/// Client groups reach the world and the leader: each client has its
/// group's threads, restore rate and processing rate; a scale-out of a
/// group adds one of that group; a group's crash takes its lowest-numbered
/// live client. The leader gives each strategy the client's capacity:
/// kip441 places 8 tasks on 1 + 3 threads as 2 and 6.
#[test]
fn client_groups_reach_the_world_and_the_strategies() {
    let mut s = scenario(0, vec![stateless(8, 10)], vec![]);
    let group = |name: &str, clients: u32, threads: u32, restore_rate: u64| GroupSpec {
        name: name.into(),
        clients,
        threads,
        restore_rate,
        process_rate: Some(threads.into()),
        rack: None,
        tags: Default::default(),
        cpu: None,
        ram_mb: None,
        disk_mb: None,
    };
    s.cluster.groups = vec![group("small", 1, 1, 100), group("big", 1, 3, 900)];
    s.cluster.clients = 2;
    s.events = vec![
        at(
            60_000,
            EventKind::ScaleOut {
                count: 1,
                group: Some("big".into()),
            },
        ),
        at(
            120_000,
            EventKind::Crash {
                client: Target::Group("big".into()),
                lose_state: false,
            },
        ),
    ];
    s.check().unwrap();
    let mut world = World::new(&s, 1).unwrap();
    let seen: Vec<(u32, u64, Option<u64>)> = world
        .clients
        .iter()
        .map(|c| {
            (
                c.threads,
                c.restore_rate.get(),
                c.process_rate.map(|r| r.get()),
            )
        })
        .collect();
    assert_eq!(seen, [(1, 100, Some(1)), (3, 900, Some(3))]);
    let c2 = world.add_client(
        SimTime::ZERO,
        crate::sim::scenario::GroupNo::from_position(1),
    );
    assert_eq!(world.clients[c2].threads, 3);
    let state = world.cluster_state(&s, &IxVec::new()).unwrap();
    let capacities: Vec<u32> = state.clients().iter().map(|c| c.capacity).collect();
    assert_eq!(capacities, [1, 3, 3]);
    let r = run(&s, assignor::by_name("kip441").unwrap(), 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    // c1 crashed (the big group's first live client): c0 and c2 remain.
    assert_eq!(r.metrics.final_members, 2);
    let two = World::new(&s, 1)
        .unwrap()
        .cluster_state(&s, &IxVec::new())
        .unwrap();
    let plan = crate::assign::assign(assignor::by_name("kip441").unwrap(), &two).unwrap();
    let actives: Vec<usize> = plan.clients.values().map(|c| c.active.len()).collect();
    assert_eq!(actives, [2, 6]);
}

/// The simulator hands samza its containers back, so a scale-in is Samza's.
/// Six tasks of 100,000 records, round robin over containers 0..3 on c0..c3:
/// {0_0, 0_4}, {0_1, 0_5}, {0_2}, {0_3}. c1 crashes (disk kept) at 10 min;
/// 45 s later the group has three members: Samza drops container 3 (0_3
/// spills into container 2, on c2) and restarts container 1 on c3, which
/// runs no active container now. Three tasks move and restore in full
/// (0_1 and 0_5 to c3, 0_3 to c2), where keeping each live client's
/// container (the layout derived without the record) moves two.
#[test]
fn samza_reads_back_the_containers_of_the_plan_in_force() {
    let mut s = scenario(4, vec![stateful(6, 100_000, 0)], vec![crash(600_000, "c1")]);
    s.config.num_standby_replicas = 0;
    let r = run(&s, assignor::by_name("samza").unwrap(), 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.metrics.membership_rebalances, 1);
    assert_eq!(r.metrics.active_moves, 3);
    assert_eq!(r.metrics.restored_active_records.get(), 3 * 100_000);
}

/// What [`Recording`] notes at a rebalance: the observed restore rate and
/// the lags reported, by client name.
type Seen = (Option<u64>, Vec<(String, Lag)>);

/// A strategy that delegates to `inner` and records, at each rebalance, the
/// observed restore rate and the lags the members report, by client name.
struct Recording {
    inner: &'static dyn assignor::Assignor,
    seen: std::sync::Mutex<Vec<Seen>>,
}

/// Runs `s` under `strategy` with a crashed member noticed at once and one
/// standby, and returns what the strategy was shown at each rebalance.
fn seen_by(mut s: Scenario, strategy: &str) -> Vec<Seen> {
    s.config.num_standby_replicas = 1;
    s.cluster.session_timeout_ms = 0;
    let recording = Recording {
        inner: assignor::by_name(strategy).unwrap(),
        seen: Default::default(),
    };
    let r = run(&s, &recording, 1).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    recording.seen.into_inner().unwrap()
}

impl assignor::Assignor for Recording {
    fn info(&self) -> &'static assignor::StrategyInfo {
        self.inner.info()
    }

    fn assign(
        &self,
        state: &crate::model::ClusterState,
    ) -> Result<crate::model::Plan, assignor::AssignError> {
        let lags = state
            .clients()
            .iter()
            .flat_map(|c| c.lags.values().map(|l| (c.id.to_string(), *l)))
            .collect();
        let mut seen = self.seen.lock().expect("not poisoned");
        seen.push((state.observed_restore_rate(), lags));
        self.inner.assign(state)
    }
}

/// The leader's restore rate by hand. One task of 600,000 records without
/// writes, one standby, three clients, crashes noticed at once, members
/// restoring at 1,000 records/s. At start c0 runs the task and c1 holds
/// its standby. c1 crashes with its disk at 600 s: the standby goes to c2,
/// which has no store. c1 restarts at 700 s: c2 reports 500,000; it
/// reported nothing at 600 s (no store: its lag was the whole 600,000), so
/// 100,000 in 100 s: 1,000 records/s. c1 crashes (disk kept) at 1,000 s: c2 reports
/// 200,000, 300,000 fewer in 300 s: 1,000 records/s. c2 is caught up at
/// 1,200 s; c1 restarts at 2,000 s: 200,000 fewer in 1,000 s gives 200, only
/// a lower bound (c2 has caught up), which the leader does not use: it
/// keeps 1,000. At 2,500 s (c1 crashes) c2 still reports 0: no sample, it
/// keeps 1,000.
#[test]
fn the_leader_observes_the_restore_rate_from_lags_between_rebalances() {
    let s = scenario(
        3,
        vec![stateful(1, 600_000, 0)],
        vec![
            lose_disk(600_000, "c1"),
            restart(700_000, "c1"),
            crash(1_000_000, "c1"),
            restart(2_000_000, "c1"),
            crash(2_500_000, "c1"),
        ],
    );
    let seen = seen_by(s, "sticky");
    // At 0, 600, 700, 1,000, 2,000 and 2,500 s: c2's reported lag, the rate.
    let c2 = |lags: &[(String, Lag)]| lags.iter().find(|(c, _)| c == "c2").map(|(_, l)| *l);
    let got: Vec<(Option<Lag>, Option<u64>)> = seen.iter().map(|(r, l)| (c2(l), *r)).collect();
    let records = |n| Some(Lag::Records(n));
    assert_eq!(
        got,
        [
            (None, None),
            (None, None),
            (records(500_000), Some(1000)),
            (records(200_000), Some(1_000)),
            (records(0), Some(1000)),
            (records(0), Some(1000)),
        ]
    );
}

/// The observed rate is a member's: its replicas share its restore rate.
/// Two tasks of 600,000 records without writes, one standby, two clients,
/// crashes noticed at once, members restoring at 1,000 records/s. c1
/// crashes without its disk at 600 s (c0 runs both tasks) and restarts at
/// 700 s: kip441 gives it a replica of each, 600,000 behind. When c0
/// crashes at 1,000 s, c1 reports 450,000 for each: 2 × 150,000 records in
/// 300 s, 1,000 records/s, where each replica alone read 500.
#[test]
fn the_leader_observes_a_members_rate_over_all_its_replicas() {
    let s = scenario(
        2,
        vec![stateful(2, 600_000, 0)],
        vec![
            lose_disk(600_000, "c1"),
            restart(700_000, "c1"),
            crash(1_000_000, "c0"),
        ],
    );
    let seen = seen_by(s, "kip441");
    let last = seen.last().expect("rebalances");
    let lag = Lag::Records(450_000);
    assert_eq!(
        *last,
        (
            Some(1_000),
            vec![("c1".to_string(), lag), ("c1".to_string(), lag)]
        )
    );
}

/// The rebalance pause split: a task revoked from a running owner pauses
/// the whole `rebalance_pause`, one whose owner is gone only the part after
/// the revocation. Two stateless tasks on c0 and c1; c0 crashes at 60 s and
/// the group notices 45 s later: its task moves to c1 and pauses 5 s
/// (outage 50 s), or 5 − 2 = 3 s with a revocation pause of 2 s (48 s).
#[test]
fn a_task_with_no_running_owner_is_not_charged_a_revocation() {
    let mut s = scenario(2, vec![stateless(2, 0)], vec![crash(60_000, "c0")]);
    s.cluster.rebalance_pause_ms = 5_000;
    let down = |s: &Scenario| {
        run(s, assignor::by_name("sticky").unwrap(), 1)
            .unwrap()
            .metrics
            .unavailable_stateless_task_ms
            .get()
    };
    assert_eq!(down(&s), 50_000);
    s.cluster.revocation_pause_ms = 2_000;
    assert_eq!(down(&s), 48_000);
    // A task moved off a running owner (a scale-out) still pauses 5 s.
    let mut out = one_joins_at_60s(2);
    out.cluster.rebalance_pause_ms = 5_000;
    out.cluster.revocation_pause_ms = 2_000;
    assert_eq!(down(&out), 5_000);
}

/// A rolling bounce of two clients (one stateless task each, 30 s away,
/// 10 min apart, a 5 s pause): with LeaveGroup each bounce is two
/// membership rebalances (leave, rejoin); without, the group notices only
/// the return (one each: a dynamic member comes back as a new member);
/// under static membership none, and each task waits for its client (30 s)
/// and resumes after the 5 s pause: 2 × 35 s. Away longer than the session
/// timeout (60 s against 45 s), the static member is noticed and removed.
#[test]
fn static_members_and_bounces_without_leave_group() {
    let bounce = |leave_group: Option<bool>, downtime_ms: u64| {
        let mut s = scenario(
            2,
            vec![stateless(2, 0)],
            vec![at(
                60_000,
                EventKind::RollingBounce {
                    interval_ms: 600_000,
                    downtime_ms,
                    leave_group,
                },
            )],
        );
        s.cluster.rebalance_pause_ms = 5_000;
        s
    };
    let go = |s: &Scenario| {
        run(s, assignor::by_name("sticky").unwrap(), 1)
            .unwrap()
            .metrics
    };
    assert_eq!(go(&bounce(None, 30_000)).membership_rebalances, 4);
    let silent = go(&bounce(Some(false), 30_000));
    assert_eq!(silent.membership_rebalances, 2);
    let mut static_members = bounce(None, 30_000);
    static_members.cluster.static_membership = true;
    static_members.check().unwrap();
    let m = go(&static_members);
    assert_eq!(m.membership_rebalances, 0);
    assert_eq!(m.unavailable_stateless_task_ms.get(), 70_000);
    assert_eq!(m.final_members, 2);
    let mut away_long = bounce(None, 60_000);
    away_long.cluster.static_membership = true;
    assert_eq!(go(&away_long).membership_rebalances, 4);
    // LeaveGroup from a static member is refused by the reader.
    let mut both = bounce(Some(true), 30_000);
    both.cluster.static_membership = true;
    assert_eq!(both.check().unwrap_err().path, "events[0].leave_group");
}

/// The cooperative protocol's second round: a scale-out that moves actives
/// off their running owners is followed by a second rebalance once they
/// are revoked (the revocation pause later); sticky's second plan moves
/// nothing more, so there is no third.
#[test]
fn revoked_actives_call_a_second_round() {
    let mut s = one_joins_at_60s(4);
    s.cluster.rebalance_pause_ms = 5_000;
    s.cluster.revocation_pause_ms = 2_000;
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!((m.membership_rebalances, m.second_round_rebalances), (1, 0));
    s.cluster.second_round = true;
    s.check().unwrap();
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!((m.membership_rebalances, m.second_round_rebalances), (1, 1));
    // The moved tasks pause once: 2 tasks × 5 s.
    assert_eq!(m.unavailable_stateless_task_ms.get(), 10_000);
    s.cluster.protocol = Protocol::Eager;
    assert_eq!(s.check().unwrap_err().path, "cluster.second_round");
}

/// Correlated churn. One burst of 3 crashes within a minute among 5
/// clients (at 0, 30 and 60 s of it): 3 crash (two stay); the rebalance
/// that notices the first, 45 s in, drops the second too, and the third is
/// noticed on its own: 2 rebalances. One zone outage among
/// 4 clients on 2 racks: a rack's 2 clients crash and restart 10 minutes
/// later; everyone is back at the end.
#[test]
fn bursts_and_zone_outages_crash_together() {
    let churn = |kind: ChurnKind, events_per_hour: f64| ChurnSpec {
        events_per_hour,
        kinds: vec![kind],
        from_ms: 0,
        until_ms: 1_800_000,
        lose_state_probability: 0.0,
        burst_size: 3,
        burst_window_ms: 60_000,
        zone_outage_ms: 600_000,
    };
    let mut s = scenario(5, vec![stateless(10, 0)], vec![]);
    s.churn = Some(churn(ChurnKind::Burst, 2.0));
    s.check().unwrap();
    let m = run(&s, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.final_members, 2);
    assert_eq!(m.membership_rebalances, 2);
    let mut z = scenario(4, vec![stateless(8, 0)], vec![]);
    z.cluster.racks = vec!["r1".into(), "r2".into()];
    z.churn = Some(churn(ChurnKind::ZoneOutage, 2.0));
    z.check().unwrap();
    let m = run(&z, assignor::by_name("sticky").unwrap(), 1)
        .unwrap()
        .metrics;
    assert_eq!(m.final_members, 4);
    // Two crashes noticed at once (one rebalance), two restarts at once.
    assert_eq!(m.membership_rebalances, 2);
    // Without racks a zone outage is refused.
    z.cluster.racks.clear();
    assert_eq!(z.check().unwrap_err().path, "churn.kinds[0]");
}
