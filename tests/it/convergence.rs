//! Kafka's `TaskAssignorConvergenceTest`
//! (docs/algorithms.md#kafkas-convergence-test) for `kip441`,
//! and its random scenarios for `kip441-learner` (a follow-up of either kind
//! counts; the learner's plans are checked for validity and active balance).
//!
//! The harness: clients of capacity 1; every stateful task has end offset
//! 150 000; acceptable lag 100; probing interval 60 s. One *rebalance*
//! rebuilds every client from the previous plan (previous active = its actives,
//! previous standby = its standbys and warm-ups (previous warm-up = the
//! warm-ups), lag 0 for every stateful task
//! it held in any role, no report otherwise, i.e. warm-ups catch up
//! instantly) and runs the assignor. *Converging* repeats rebalances while the
//! plan asks for a follow-up, up to a limit.
//!
//! Reading of `initializeCluster(numStateless, numStateful, …, partitions)`
//! (docs/algorithms.md#kafkas-convergence-test, and Kafka's test source): the
//! two counts are numbers of *tasks*; stateless subtopologies come first, then
//! stateful ones, each subtopology taking `min(remaining, partitions())`
//! partitions. So "7 stateless + 11
//! stateful, 5 partitions" is subtopologies 0 (5 stateless), 1 (2 stateless),
//! 2 (5 stateful), 3 (5 stateful), 4 (1 stateful), and `S` in the bounds
//! `⌊S/W⌋ + 1`, `⌊S/W⌋ + 2` and `2(S + S·R)` is the number of stateful tasks
//! (11 / 2 + 1 = 6: each stateful task moves at most once, W per round).
//!
//! After every convergence: `validate` holds with no warm-up left, and the
//! plan is balanced as Kafka's `assertBalancedActiveAssignment`,
//! `assertBalancedStatefulAssignment` and the subtopology skew report (≤ 1)
//! require (docs/algorithms.md#kafkas-assertion-helpers).
//!
//! The random scenarios run seeds `0..N`, N from `SMOOTHSCALE_CONVERGENCE_SEEDS`
//! (default 1000); `SMOOTHSCALE_CONVERGENCE_SEED=k` replays seed k alone. A
//! failure prints the seed and the scenario's full history.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::AssertUnwindSafe;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use smoothscale::{
    assignor, validate, AssignmentConfig, Client, ClientId, ClientPlan, ClusterState, Lag, Plan,
    Task, TaskId,
};

use crate::support;

/// End offset of every stateful task (Kafka's harness).
const END_OFFSET: u64 = 150_000;
/// Acceptable recovery lag (Kafka's harness).
const ACCEPTABLE_LAG: u64 = 100;
/// Probing interval (Kafka's harness).
const PROBING_MS: u64 = 60_000;

fn config(max_warmup_replicas: u32, num_standby_replicas: u32) -> AssignmentConfig {
    AssignmentConfig {
        num_standby_replicas,
        acceptable_recovery_lag: ACCEPTABLE_LAG,
        max_warmup_replicas,
        probing_rebalance_interval_ms: PROBING_MS,
        ..AssignmentConfig::default()
    }
}

/// A cluster under test and everything that happened to it.
struct Harness {
    config: AssignmentConfig,
    tasks: Vec<Task>,
    /// Live clients and what they were last assigned.
    live: BTreeMap<ClientId, ClientPlan>,
    /// Dropped clients and what they held when dropped (their stale state).
    dropped: BTreeMap<ClientId, ClientPlan>,
    /// The last state and its plan, if any rebalance ran.
    last: Option<(ClusterState, Plan)>,
    history: String,
    /// The strategy under test (`kip441` unless changed).
    strategy: &'static str,
}

/// Kafka's `uuidForInt`: ids whose string order is their number's order.
fn client_id(n: usize) -> ClientId {
    ClientId::new(format!("c{n:03}"))
}

impl Harness {
    /// Kafka's `initializeCluster`: stateless subtopologies first, then
    /// stateful ones, each with `min(remaining, partitions())` partitions.
    fn new(
        config: AssignmentConfig,
        stateless: usize,
        stateful: usize,
        clients: usize,
        mut partitions: impl FnMut() -> usize,
    ) -> Harness {
        let mut tasks = Vec::new();
        let mut subtopology = 0;
        for (count, is_stateful) in [(stateless, false), (stateful, true)] {
            let mut remaining = count;
            while remaining > 0 {
                let n = remaining.min(partitions());
                for p in 0..n {
                    let id = TaskId::new(subtopology, p as u32);
                    tasks.push(if is_stateful {
                        Task::stateful(id, END_OFFSET)
                    } else {
                        Task::stateless(id)
                    });
                }
                remaining -= n;
                subtopology += 1;
            }
        }
        let live = (0..clients)
            .map(|i| (client_id(i), ClientPlan::default()))
            .collect();
        let mut h = Harness {
            config,
            tasks,
            live,
            dropped: BTreeMap::new(),
            last: None,
            history: String::new(),
            strategy: "kip441",
        };
        let list = |stateful: bool| -> Vec<String> {
            h.tasks
                .iter()
                .filter(|t| t.stateful == stateful)
                .map(|t| t.id.to_string())
                .collect()
        };
        let (sl, sf) = (list(false), list(true));
        let _ = writeln!(
            h.history,
            "config: {:?}\nstateless tasks: [{}]\nstateful tasks: [{}]\nclients: {:?}",
            h.config,
            sl.join(" "),
            sf.join(" "),
            h.live.keys().map(ClientId::as_str).collect::<Vec<_>>()
        );
        h
    }

    fn stateful_count(&self) -> usize {
        self.tasks.iter().filter(|t| t.stateful).count()
    }

    /// Kafka's `addNode`: a new, empty client with id `#live + #dropped`.
    fn add_client(&mut self) {
        let id = client_id(self.live.len() + self.dropped.len());
        let _ = writeln!(self.history, "add client {id}");
        self.live.insert(id, ClientPlan::default());
    }

    /// Kafka's `dropNode(id)`: the client keeps its state for a resurrection.
    fn drop_client(&mut self, id: &ClientId) {
        let plan = self.live.remove(id).expect("dropping a live client");
        let _ = writeln!(self.history, "drop client {id} holding {}", show(&plan));
        self.dropped.insert(id.clone(), plan);
    }

    /// Kafka's `dropNode()`: drops the smallest id.
    fn drop_first_client(&mut self) {
        let id = self.live.keys().next().expect("a live client").clone();
        self.drop_client(&id);
    }

    /// Kafka's `dropRandomNodes(n)`.
    fn drop_random_clients(&mut self, n: usize, rng: &mut ChaCha8Rng) {
        let mut dropped = 0;
        while !self.live.is_empty() && dropped < n {
            let k = rng.random_range(0..self.live.len());
            let id = self.live.keys().nth(k).expect("in range").clone();
            self.drop_client(&id);
            dropped += 1;
        }
    }

    /// Kafka's `addOrResurrectNodesRandomly(limit)`: `rand(limit)` clients,
    /// each new or (half the time, when any was dropped) a dropped one back
    /// with its stale state.
    fn add_or_resurrect_randomly(&mut self, limit: usize, rng: &mut ChaCha8Rng) {
        let n = rng.random_range(0..limit);
        for _ in 0..n {
            let add_new = rng.random_bool(0.5);
            if add_new || self.dropped.is_empty() {
                self.add_client();
            } else {
                let k = rng.random_range(0..self.dropped.len());
                let id = self.dropped.keys().nth(k).expect("in range").clone();
                let plan = self.dropped.remove(&id).expect("dropped");
                let _ = writeln!(self.history, "resurrect client {id} with {}", show(&plan));
                self.live.insert(id, plan);
            }
        }
    }

    /// Kafka's `prepareForNextRebalance`: every live client reports what it
    /// was last assigned, caught up (lag 0) on every stateful task it held.
    fn next_state(&self) -> ClusterState {
        let stateful: BTreeSet<TaskId> = self
            .tasks
            .iter()
            .filter(|t| t.stateful)
            .map(|t| t.id)
            .collect();
        let clients = self
            .live
            .iter()
            .map(|(id, held)| {
                let mut client = Client::new(id.clone(), 1)
                    .with_previous_active(held.active.iter().copied())
                    .with_previous_standby(held.standby.iter().copied())
                    .with_previous_warmup(held.warmup.iter().copied());
                for t in held.active.iter().chain(&held.standby).chain(&held.warmup) {
                    if stateful.contains(t) {
                        client = client.with_lag(*t, Lag::Records(0));
                    }
                }
                client
            })
            .collect();
        support::state(self.config.clone(), self.tasks.clone(), clients)
    }

    /// One rebalance; whether a follow-up was asked.
    fn rebalance(&mut self, iteration: usize) -> Result<bool, String> {
        let state = self.next_state();
        let strategy = assignor::by_name(self.strategy).expect("registered");
        let plan = strategy
            .assign(&state)
            .map_err(|e| format!("{} failed: {e}", self.strategy))?;
        let _ = writeln!(
            self.history,
            "  rebalance {iteration}: follow-up {:?} when caught up {:?}",
            plan.followup_rebalance_ms, plan.followup_when_caught_up
        );
        for (id, cp) in &plan.clients {
            let _ = writeln!(self.history, "    {id}: {}", show(cp));
        }
        if let Err(violations) = validate(&state, &plan, strategy.info().claims) {
            return Err(format!("plan broke invariants: {violations:?}"));
        }
        for (id, cp) in &plan.clients {
            self.live.insert(id.clone(), cp.clone());
        }
        let pending = plan.wants_followup();
        self.last = Some((state, plan));
        Ok(pending)
    }

    /// Kafka's `testForConvergence(limit)`: rebalance while a follow-up is
    /// asked, at most `limit` times; an error if one is still asked.
    fn converge(&mut self, limit: usize) -> Result<usize, String> {
        let _ = writeln!(self.history, "converge within {limit}:");
        let mut iteration = 0;
        let mut pending = true;
        while pending && iteration < limit {
            iteration += 1;
            pending = self.rebalance(iteration)?;
        }
        if pending {
            return Err(format!("not converged after {limit} rebalances"));
        }
        Ok(iteration)
    }

    /// Kafka's `verifyValidAssignment` (no warm-up slack) and
    /// `verifyBalancedAssignment` (active and stateful balance per thread,
    /// subtopology skew ≤ 1) on the last plan, with the shared helpers
    /// (docs/algorithms.md#kafkas-assertion-helpers).
    fn verify(&self) -> Result<(), String> {
        let (state, plan) = self.last.as_ref().expect("a rebalance ran");
        let warmups = plan.warmup_count();
        if warmups > 0 {
            return Err(format!("{warmups} warm-ups left after convergence"));
        }
        checked("valid", || support::assert_valid_assignment(state, plan, 0))?;
        checked("active balance", || {
            support::assert_balanced_active(state, plan)
        })?;
        if self.strategy != "kip441" {
            // kip441-learner balances actives; standbys and subtopologies
            // are not its concern (its module documentation).
            return Ok(());
        }
        checked("stateful balance", || {
            support::assert_balanced_stateful(state, plan)
        })?;
        checked("subtopology skew", || {
            support::assert_balanced_tasks(plan, 1)
        })
    }

    /// Converges within `limit` and verifies, or panics with the history.
    fn expect_convergence(&mut self, limit: usize) -> usize {
        let outcome = self.converge(limit).and_then(|n| self.verify().map(|()| n));
        outcome.unwrap_or_else(|e| panic!("{e}\nhistory:\n{}", self.history))
    }
}

/// Runs a panicking check, turning its panic into an error so the caller can
/// add the history.
fn checked(what: &str, check: impl FnOnce()) -> Result<(), String> {
    std::panic::catch_unwind(AssertUnwindSafe(check)).map_err(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("(no message)");
        format!("{what}: {message}")
    })
}

/// One client's plan, compactly.
fn show(cp: &ClientPlan) -> String {
    let list = |s: &BTreeSet<TaskId>| {
        s.iter()
            .map(TaskId::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "active [{}] standby [{}] warmup [{}]",
        list(&cp.active),
        list(&cp.standby),
        list(&cp.warmup)
    )
}

#[test]
fn convergence_static_assignment_converges_with_the_first_rebalance() {
    let mut h = Harness::new(config(2, 0), 1, 1, 1, || 1);
    assert_eq!(h.expect_convergence(1), 1);
}

#[test]
fn convergence_after_adding_a_client() {
    let (stateless, stateful, warmups) = (7, 11, 2);
    let mut h = Harness::new(config(warmups, 0), stateless, stateful, 1, || 5);
    assert_eq!(h.stateful_count(), stateful);
    h.expect_convergence(1);
    h.add_client();
    // Each stateful task moves at most once, `warmups` of them per rebalance.
    let rounds = h.expect_convergence(stateful / warmups as usize + 1);
    // And no faster: balance gives the new client at least ⌊S/2⌋ stateful
    // tasks; it may take one only after a rebalance that parked a warm-up of
    // it there (the old client is caught up, the new one is not), at most
    // `warmups` per rebalance, plus the final rebalance.
    let moved = stateful / 2;
    assert!(
        rounds > moved.div_ceil(warmups as usize),
        "converged in {rounds} rebalances: too fast for {moved} moves with {warmups} warm-ups\nhistory:\n{}",
        h.history
    );
}

#[test]
fn convergence_after_dropping_a_client() {
    let (stateless, stateful, warmups) = (11, 13, 2);
    let mut h = Harness::new(config(warmups, 0), stateless, stateful, 7, || 5);
    h.expect_convergence(1);
    h.drop_first_client();
    // One extra rebalance: the first stateful task is shuffled back (Kafka).
    h.expect_convergence(stateful / warmups as usize + 2);
}

/// Kafka's `runRandomizedScenario(seed)` with a ChaCha8 generator, drawing in
/// Kafka's order, for kip441. Errors carry the history.
fn random_scenario(seed: u64) -> Result<(), String> {
    random_scenario_of("kip441", seed)
}

/// [`random_scenario`] for `strategy`; kip441-learner must converge within
/// two rebalances of every perturbation (learners catch up at once in this
/// harness: the first places them, the second hands their actives over).
fn random_scenario_of(strategy: &'static str, seed: u64) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let initial = rng.random_range(1..=10usize);
    let stateless = rng.random_range(1..=10usize);
    let stateful = rng.random_range(1..=10usize);
    let warmups = rng.random_range(1..=stateful);
    let standbys = rng.random_range(0..=initial);
    let events = rng.random_range(1..=10usize);
    let config = config(warmups as u32, standbys as u32);
    let mut h = Harness::new(config, stateless, stateful, initial, || {
        rng.random_range(1..=10usize)
    });
    h.strategy = strategy;
    let outcome = (|| -> Result<(), String> {
        h.converge(1)?;
        h.verify()?;
        let bound = if strategy == "kip441" {
            2 * (stateful + stateful * standbys)
        } else {
            2
        };
        for _ in 0..events {
            if rng.random_range(0..2) == 0 {
                let n = rng.random_range(0..initial);
                h.drop_random_clients(n, &mut rng);
            } else {
                h.add_or_resurrect_randomly(initial, &mut rng);
            }
            if !h.live.is_empty() {
                h.converge(bound)?;
                h.verify()?;
            }
        }
        Ok(())
    })();
    outcome.map_err(|e| format!("{e}\nhistory:\n{}", h.history))
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, got {v:?}"))
    })
}

#[test]
fn convergence_after_random_perturbations() {
    let seeds: Vec<u64> = match env_number("SMOOTHSCALE_CONVERGENCE_SEED") {
        Some(seed) => vec![seed],
        None => (0..env_number("SMOOTHSCALE_CONVERGENCE_SEEDS").unwrap_or(1000)).collect(),
    };
    let mut failures = Vec::new();
    for &seed in &seeds {
        if let Err(e) = random_scenario(seed) {
            failures.push((seed, e));
        }
    }
    if let Some((seed, first)) = failures.first() {
        let all: Vec<u64> = failures.iter().map(|(s, _)| *s).collect();
        panic!(
            "{} of {} random scenarios failed: seeds {all:?}\n\
             replay one with SMOOTHSCALE_CONVERGENCE_SEED={seed} cargo test --test it convergence_after_random\n\
             first failure, seed {seed}: {first}",
            failures.len(),
            seeds.len()
        );
    }
}

/// Kafka's randomized convergence scenarios (the seeds of
/// [`convergence_after_random_perturbations`]) for `kip441-learner`:
/// valid, balanced actives, no learner left, within two rebalances of every
/// perturbation.
#[test]
fn learner_convergence_after_random_perturbations() {
    let seeds = env_number("SMOOTHSCALE_CONVERGENCE_SEEDS").unwrap_or(1000);
    let failures: Vec<(u64, String)> = (0..seeds)
        .filter_map(|seed| {
            random_scenario_of("kip441-learner", seed)
                .err()
                .map(|e| (seed, e))
        })
        .collect();
    if let Some((seed, first)) = failures.first() {
        let all: Vec<u64> = failures.iter().map(|(s, _)| *s).collect();
        panic!(
            "{} of {seeds} scenarios failed: seeds {all:?}\nfirst failure, seed {seed}: {first}",
            failures.len()
        );
    }
}
