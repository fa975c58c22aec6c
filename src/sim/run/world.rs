//! The simulated cluster as state: clients by number ([`ClientNo`]), their
//! local stores, tasks by position ([`TaskIx`]: every task, in id order, as
//! a `ClusterState` lists them) and the assignment in force, in the simulator's units: changelogs in milli-records, times in
//! virtual milliseconds. It keeps no accounting (the ledger does): a change
//! that ends a task's outage returns the outage's length to the caller.

use std::collections::{BTreeMap, BTreeSet};

use super::units::{MilliRecords, Millis, Overflow, Rate, Records, SimTime};
use crate::model::{Container, ContainerId, IxVec, Plan, TaskId, TaskIx};
pub(crate) use crate::sim::scenario::client_no::ClientNo;
use crate::sim::scenario::perturb;
use crate::sim::scenario::{ClusterSpec, GroupNo, GroupSpec, Scenario};

/// Where a client is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Alive and in the group.
    Member,
    /// Crashed; the group has not noticed yet, so it still holds its tasks.
    CrashedMember,
    /// Crashed and out of the group; may restart.
    Crashed,
    /// Left gracefully for a bounce; rejoins later.
    Away,
    /// Scaled in: never returns.
    Gone,
}

/// What a task's active is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ActiveState {
    /// No live owner.
    Down,
    /// Paused by a rebalance until this time (`None`: past the end of the
    /// clock, so for the rest of the run).
    Paused(Option<SimTime>),
    /// Replaying its changelog before it can process.
    Restoring,
    /// Processing.
    Running,
}

/// A client's copy of one task's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Store {
    /// Milli-records of the changelog the copy holds.
    pub offset: MilliRecords,
    /// When the client stopped holding the task in any role; the store is
    /// deleted once that is `state_cleanup_delay` ago while the client runs
    /// (and its cleaner has run: one delay after it started).
    pub released_at: Option<SimTime>,
}

/// One client.
#[derive(Debug, Clone)]
pub(crate) struct ClientSim {
    pub name: String,
    /// Its group (`cluster.groups`, by position).
    pub group: GroupNo,
    pub rack: Option<String>,
    pub threads: u32,
    /// Records per second it restores.
    pub restore_rate: Rate,
    /// Records per second each of its threads processes; `None`: no limit.
    pub process_rate: Option<Rate>,
    /// Its tags (KIP-708).
    pub tags: BTreeMap<String, String>,
    /// CPU, RAM and disk it offers.
    pub resources: (Option<f64>, Option<u64>, Option<u64>),
    pub status: Status,
    pub stores: BTreeMap<TaskIx, Store>,
    pub actives: BTreeSet<TaskIx>,
    /// Standbys and warm-ups held.
    pub replicas: BTreeSet<TaskIx>,
    /// When the client asked to leave gracefully, while it waits for its
    /// tasks to be handed over (strategies that hand over on leave).
    pub leaving_since: Option<SimTime>,
    /// When the client last started (created, restarted or back from a
    /// bounce): its state cleaner first runs `state_cleanup_delay` later.
    pub up_since: SimTime,
}

/// One task.
#[derive(Debug, Clone)]
pub(crate) struct TaskSim {
    pub id: TaskId,
    pub stateful: bool,
    /// Changelog end.
    pub end: MilliRecords,
    /// Records appended per second while the active runs.
    pub write_rate: Rate,
    pub owner: Option<ClientNo>,
    pub state: ActiveState,
    /// Start of the current outage, if the task is unavailable.
    pub outage_since: Option<SimTime>,
    /// Clients holding a standby (not warm-up) of the task.
    pub standbys: BTreeSet<ClientNo>,
    /// Clients holding a standby or warm-up of the task.
    pub replicas: BTreeSet<ClientNo>,
    /// The rack of the leader of the task's changelog (and input)
    /// partitions, if racks are known: `racks[0]`.
    pub changelog_rack: Option<String>,
    /// The racks holding replicas of the task's input and changelog
    /// partitions, leader first (`cluster.replication_factor` of them).
    pub racks: Vec<String>,
    /// The seed's factor on the task's write rates (`[perturb]`; 1 without).
    pub write_factor: f64,
    /// Records per second arriving at the task's input.
    pub input_rate: Rate,
    /// Thread time one of its records costs, in thousandths of a record at
    /// `process_rate`.
    pub process_cost_milli: u32,
    /// Milli-records of input not processed yet.
    pub backlog: MilliRecords,
}

impl TaskSim {
    /// Sets the write rate a `write_spike` asks for, in records per second,
    /// times the task's own factor (`[perturb] write_rate`).
    pub(crate) fn set_write_rate(&mut self, records_per_s: u64) {
        self.write_rate = Rate::new(perturb::write_rate(records_per_s, self.write_factor));
    }
}

/// Actives that changed client in one rebalance.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ActiveMoves {
    /// All of them.
    pub total: u64,
    /// The stateful ones.
    pub stateful: u64,
}

/// What making a plan the assignment in force did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Applied {
    /// Actives that changed client.
    pub active_moves: ActiveMoves,
    /// Replicas placed on a client that did not hold the task as one.
    pub replica_moves: u64,
    /// The outages the plan ended (a task running again at once), by task.
    pub closed: Vec<(TaskIx, Millis)>,
    /// Actives taken from a live owner that ran them (revoked) and given to
    /// another client.
    pub revoked: u64,
}

/// How long tasks pause when a plan is applied (module `engine`'s settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pauses {
    /// A task revoked from a live owner: revocation and resumption.
    pub revoked: Millis,
    /// A task with no live previous owner: resumption only.
    pub resumed: Millis,
    /// Every task pauses in every rebalance (the eager protocol).
    pub eager: bool,
}

/// Clients and tasks.
#[derive(Debug, Clone)]
pub(crate) struct World {
    pub clients: IxVec<ClientNo, ClientSim>,
    pub tasks: IxVec<TaskIx, TaskSim>,
    /// The cluster as the scenario gives it (racks and tags to deal).
    cluster: ClusterSpec,
    /// The client groups.
    groups: Vec<GroupSpec>,
    /// CPU, RAM and disk each task states, by subtopology.
    pub(super) task_resources: Vec<(Option<f64>, Option<u64>, Option<u64>)>,
    /// The containers of the plan in force (a strategy that has them,
    /// `samza`), handed to the next rebalance as the previous ones: the
    /// job's record, kept when a container's client leaves.
    pub(super) containers: BTreeMap<ContainerId, Container>,
}

impl World {
    /// The cluster of `scenario` at time 0 with `seed`'s draws
    /// ([`Scenario::task_draws`]): clients `c0…`, tasks with their initial
    /// changelogs and write rates, nothing assigned. With racks, the task of
    /// index `n` (task-id order) has the replicas of its input and changelog
    /// partitions on `replication_factor` consecutive racks from
    /// `racks[n mod len]`, its leader there. A changelog too long to count
    /// in milli-records is an [`Overflow`] naming its `state_records`.
    pub(crate) fn new(scenario: &Scenario, seed: u64) -> Result<World, Overflow> {
        let racks = scenario.cluster.racks.clone();
        let draws = scenario.task_draws(seed);
        let mut input_rates = Vec::new();
        let replicas = scenario.cluster.replication_factor.max(1) as usize;
        let mut tasks = Vec::new();
        for (s, sub) in scenario.subtopologies.iter().enumerate() {
            input_rates.clear();
            input_rates.extend(sub.input_rates());
            for p in 0..sub.partitions {
                let n = tasks.len();
                let task_racks: Vec<String> = if racks.is_empty() {
                    Vec::new()
                } else {
                    (0..replicas.min(racks.len()))
                        .map(|k| racks[(n + k) % racks.len()].clone())
                        .collect()
                };
                let records = draws.state_records[n];
                let end = if sub.stateful {
                    Records::new(records).to_milli().ok_or_else(|| {
                        Overflow::of(format!(
                            "subtopologies[{s}].state_records = {records} in milli-records"
                        ))
                    })?
                } else {
                    MilliRecords::ZERO
                };
                let write_factor = draws.write_factor[n];
                let write_rate = if sub.stateful {
                    perturb::write_rate(sub.write_rate, write_factor)
                } else {
                    0
                };
                tasks.push(TaskSim {
                    id: TaskId::new(
                        u32::try_from(s).expect("subtopologies bounded by Scenario::check"),
                        p,
                    ),
                    stateful: sub.stateful,
                    end,
                    write_rate: Rate::new(write_rate),
                    owner: None,
                    state: ActiveState::Down,
                    outage_since: Some(SimTime::ZERO),
                    standbys: BTreeSet::new(),
                    replicas: BTreeSet::new(),
                    changelog_rack: task_racks.first().cloned(),
                    racks: task_racks,
                    write_factor,
                    input_rate: Rate::new(input_rates[p as usize]),
                    process_cost_milli: sub.process_cost_milli,
                    backlog: MilliRecords::ZERO,
                });
            }
        }
        tasks.sort_by_key(|t| t.id);
        let cluster = &scenario.cluster;
        let mut world = World {
            clients: IxVec::new(),
            tasks: IxVec::from_raw(tasks),
            cluster: cluster.clone(),
            groups: cluster.groups(),
            task_resources: scenario
                .subtopologies
                .iter()
                .map(|s| (s.cpu, s.ram_mb, s.disk_mb))
                .collect(),
            containers: BTreeMap::new(),
        };
        for g in cluster.initial_groups() {
            world.add_client(SimTime::ZERO, g);
        }
        Ok(world)
    }

    /// The group named `name`, by position.
    pub(crate) fn group_named(&self, name: &str) -> Option<GroupNo> {
        self.groups
            .iter()
            .position(|g| g.name == name)
            .map(GroupNo::from_position)
    }

    /// A new member `c<n>` of `group` started at `now`, with the group's
    /// threads and rates, its rack and tags the group's or dealt
    /// round-robin ([`ClusterSpec::client_rack`]).
    pub(crate) fn add_client(&mut self, now: SimTime, group: GroupNo) -> ClientNo {
        let c = ClientNo::from_position(self.clients.len());
        let i = c.index();
        let g = &self.groups[group.index()];
        self.clients.push(ClientSim {
            name: c.to_string(),
            group,
            rack: self.cluster.client_rack(g, i).map(str::to_string),
            threads: g.threads,
            restore_rate: Rate::new(g.restore_rate),
            process_rate: g.process_rate.map(Rate::new),
            tags: self.cluster.client_tags(g, i),
            resources: (g.cpu, g.ram_mb, g.disk_mb),
            status: Status::Member,
            stores: BTreeMap::new(),
            actives: BTreeSet::new(),
            replicas: BTreeSet::new(),
            leaving_since: None,
            up_since: now,
        });
        c
    }

    /// How many of `tasks` (whose stores were just deleted, or left with a
    /// client scaled in) no client that is in the group or may come back
    /// holds a store of any more: tasks that lost every copy of their state.
    pub(crate) fn last_copies(&self, tasks: impl IntoIterator<Item = TaskIx>) -> u64 {
        let lost = tasks.into_iter().filter(|t| {
            !self
                .clients
                .iter()
                .any(|c| c.status != Status::Gone && c.stores.contains_key(t))
        });
        lost.count() as u64
    }

    /// The client named `name`.
    pub(crate) fn client_named(&self, name: &str) -> Option<ClientNo> {
        self.clients
            .iter_enumerated()
            .find(|(_, c)| c.name == name)
            .map(|(c, _)| c)
    }

    /// Members in creation order.
    pub(crate) fn members(&self) -> Vec<ClientNo> {
        self.clients
            .iter_enumerated()
            .filter(|(_, c)| c.status == Status::Member)
            .map(|(c, _)| c)
            .collect()
    }

    /// The position of the task `id` (every task is listed, in id order).
    fn task_of(&self, id: TaskId) -> TaskIx {
        let i = self
            .tasks
            .as_raw()
            .binary_search_by_key(&id, |t| t.id)
            .expect("a plan that passed validate names the world's tasks");
        TaskIx::from_position(i)
    }

    /// The members holding a warm-up (a learner) of `t` whose copy is caught
    /// up under `acceptable` records, by the rule the assignors read.
    pub(crate) fn caught_up_warmups(&self, t: TaskIx, acceptable: Records) -> Vec<ClientNo> {
        let task = &self.tasks[t];
        task.replicas
            .iter()
            .copied()
            .filter(|c| !task.standbys.contains(c) && self.clients[*c].status == Status::Member)
            .filter(|&c| self.lag(c, t).is_caught_up(acceptable.get()))
            .collect()
    }

    /// Makes `plan` the assignment in force at `now`. Tasks that change
    /// owner (all tasks when eager) pause: `pauses.revoked` when a live
    /// previous owner ran them (it must revoke them first), else
    /// `pauses.resumed` (for the rest of the run when that is past the end
    /// of the clock).
    pub(crate) fn apply(&mut self, plan: &Plan, now: SimTime, pauses: Pauses) -> Applied {
        let eager = pauses.eager;
        let tasks = self.tasks.len();
        let mut owner: IxVec<TaskIx, Option<ClientNo>> = IxVec::from_elem(None, tasks);
        let mut standbys: IxVec<TaskIx, BTreeSet<ClientNo>> =
            IxVec::from_elem(BTreeSet::new(), tasks);
        let mut replicas = standbys.clone();
        let by_name: BTreeMap<&str, ClientNo> = self
            .clients
            .iter_enumerated()
            .map(|(c, client)| (client.name.as_str(), c))
            .collect();
        for (id, cp) in &plan.clients {
            let c = by_name[id.as_str()];
            for &t in &cp.active {
                owner[self.task_of(t)] = Some(c);
            }
            for &t in &cp.standby {
                let t = self.task_of(t);
                standbys[t].insert(c);
                replicas[t].insert(c);
            }
            for &t in &cp.warmup {
                replicas[self.task_of(t)].insert(c);
            }
        }
        self.containers.clone_from(&plan.containers);
        let mut applied = Applied::default();
        for client in self.clients.iter_mut() {
            client.actives.clear();
            client.replicas.clear();
        }
        for (t, new_owner) in owner.into_raw().into_iter().enumerate() {
            let t = TaskIx::from_position(t);
            let old_owner = self.tasks[t].owner;
            let new_replicas = std::mem::take(&mut replicas[t]);
            applied.replica_moves +=
                new_replicas.difference(&self.tasks[t].replicas).count() as u64;
            if old_owner.is_some() && new_owner != old_owner {
                applied.active_moves.total += 1;
                applied.active_moves.stateful += u64::from(self.tasks[t].stateful);
            }
            let holders: BTreeSet<ClientNo> = new_owner
                .into_iter()
                .chain(new_replicas.iter().copied())
                .collect();
            self.hold_stores(t, &holders, now);
            let task = &mut self.tasks[t];
            task.owner = new_owner;
            task.standbys = std::mem::take(&mut standbys[t]);
            task.replicas = new_replicas;
            for &c in &task.replicas {
                self.clients[c].replicas.insert(t);
            }
            let closed = match new_owner {
                None => self.set_state(t, ActiveState::Down, now),
                Some(c) => {
                    self.clients[c].actives.insert(t);
                    if new_owner != old_owner || eager || self.tasks[t].state == ActiveState::Down {
                        let from_live_owner =
                            old_owner.is_some() && self.tasks[t].state != ActiveState::Down;
                        applied.revoked += u64::from(from_live_owner && new_owner != old_owner);
                        let pause = if from_live_owner {
                            pauses.revoked
                        } else {
                            pauses.resumed
                        };
                        let until = now.checked_after(pause);
                        let paused = self.set_state(t, ActiveState::Paused(until), now);
                        debug_assert!(paused.is_none(), "a pause closes no outage");
                        self.resolve_pause(t, now)
                    } else {
                        None
                    }
                }
            };
            applied.closed.extend(closed.map(|outage| (t, outage)));
        }
        applied
    }

    /// Creates stores for new holders of stateful task `t` and marks the
    /// stores of clients that no longer hold it as released.
    fn hold_stores(&mut self, t: TaskIx, holders: &BTreeSet<ClientNo>, now: SimTime) {
        if !self.tasks[t].stateful {
            return;
        }
        for (c, client) in self.clients.iter_mut().enumerate() {
            if holders.contains(&ClientNo::from_position(c)) {
                let store = client.stores.entry(t).or_insert(Store {
                    offset: MilliRecords::ZERO,
                    released_at: None,
                });
                store.released_at = None;
            } else if let Some(store) = client.stores.get_mut(&t) {
                store.released_at.get_or_insert(now);
            }
        }
    }

    /// Sets a task's active state, opening or closing its outage; the
    /// length of the outage it closes, if it closes one.
    #[must_use = "a closed outage is accounted by the ledger"]
    pub(crate) fn set_state(
        &mut self,
        t: TaskIx,
        state: ActiveState,
        now: SimTime,
    ) -> Option<Millis> {
        let task = &mut self.tasks[t];
        task.state = state;
        match (state, task.outage_since) {
            (ActiveState::Running, Some(since)) => {
                task.outage_since = None;
                Some(now.since(since))
            }
            (ActiveState::Running, None) | (_, Some(_)) => None,
            (_, None) => {
                task.outage_since = Some(now);
                None
            }
        }
    }

    /// Ends a pause that is over at `now`: the task restores or runs; the
    /// outage it closes, if it runs.
    #[must_use = "a closed outage is accounted by the ledger"]
    pub(crate) fn resolve_pause(&mut self, t: TaskIx, now: SimTime) -> Option<Millis> {
        let ActiveState::Paused(until) = self.tasks[t].state else {
            return None;
        };
        if until.is_none_or(|until| until > now) {
            return None;
        }
        let task = &self.tasks[t];
        let owner = task.owner.expect("a paused task has an owner");
        let caught_up = !task.stateful
            || self.clients[owner]
                .stores
                .get(&t)
                .is_some_and(|s| s.offset >= task.end);
        let state = if caught_up {
            ActiveState::Running
        } else {
            ActiveState::Restoring
        };
        self.set_state(t, state, now)
    }

    /// Deletes stores released longer ago than `delay`, as Kafka Streams'
    /// state directory cleaner does: only inside a running member (a
    /// crashed, bounced or departed client deletes nothing, and a restarted
    /// one keeps its stores on disk and reports them), and not before the
    /// cleaner's first pass, one delay after the client started. The tasks
    /// whose stores it deleted.
    pub(crate) fn clean_stores(&mut self, now: SimTime, delay: Millis) -> Vec<TaskIx> {
        let due = |since: SimTime| since.checked_after(delay).is_some_and(|at| at <= now);
        let mut deleted = Vec::new();
        for client in self.clients.iter_mut() {
            if client.status != Status::Member || !due(client.up_since) {
                continue;
            }
            client.stores.retain(|&t, s| {
                let keep = s.released_at.is_none_or(|at| !due(at));
                if !keep {
                    deleted.push(t);
                }
                keep
            });
        }
        deleted
    }

    /// The busiest member's load per thread over the mean load per thread
    /// of the members, × 1000 (rounded half up), where a task's load is its
    /// input rate × its records' cost; `None` when the members' actives have
    /// no input (or there is no member).
    pub(crate) fn load_imbalance_milli(&self) -> Option<u64> {
        let members = self.members();
        let load = |c: ClientNo| -> u128 {
            self.clients[c]
                .actives
                .iter()
                .map(|&t| {
                    let task = &self.tasks[t];
                    u128::from(task.input_rate.get()) * u128::from(task.process_cost_milli)
                })
                .sum()
        };
        let threads: u128 = members
            .iter()
            .map(|&c| u128::from(self.clients[c].threads))
            .sum();
        let total: u128 = members.iter().map(|&c| load(c)).sum();
        if total == 0 || threads == 0 {
            return None;
        }
        // max over c of (load_c / threads_c) / (total / threads), × 1000:
        // compared as fractions, exact.
        let (mut best_load, mut best_threads) = (0u128, 1u128);
        for &c in &members {
            let (l, t) = (load(c), u128::from(self.clients[c].threads));
            if l * best_threads > best_load * t {
                (best_load, best_threads) = (l, t);
            }
        }
        let num = best_load * threads * 1000;
        let den = best_threads * total;
        u64::try_from((num + den / 2) / den).ok()
    }

    /// max − min actives per thread over members, × 1000.
    pub(crate) fn imbalance_milli(&self) -> u64 {
        let loads: Vec<u64> = self
            .members()
            .into_iter()
            .map(|c| {
                let client = &self.clients[c];
                (client.actives.len() as u64 * 1000).div_ceil(u64::from(client.threads))
            })
            .collect();
        let max = loads.iter().copied().max().unwrap_or(0);
        let min = loads.iter().copied().min().unwrap_or(0);
        max - min
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `[perturb]` every task starts with its subtopology's records
    /// and rate whatever the seed; with it, seeds differ.
    #[test]
    fn the_seed_varies_tasks_only_when_asked() {
        let text = "name = \"w\"\nseed = 1\nduration = \"1h\"\n\
             [cluster]\nclients = 2\nrestore_rate = 100\n\
             [[subtopologies]]\npartitions = 6\nstateful = true\nstate_records = 1000\nwrite_rate = 100\n";
        let plain = Scenario::from_toml(text).unwrap();
        let perturbed = Scenario::from_toml(&format!(
            "{text}[perturb]\nstate_records = 0.5\nwrite_rate = 0.5\n"
        ))
        .unwrap();
        let ends = |s: &Scenario, seed: u64| -> Vec<(u64, u64)> {
            World::new(s, seed)
                .unwrap()
                .tasks
                .iter()
                .map(|t| (t.end.floor_records().get(), t.write_rate.get()))
                .collect()
        };
        assert_eq!(ends(&plain, 1), vec![(1000, 100); 6]);
        assert_eq!(ends(&plain, 2), ends(&plain, 1));
        let (one, two) = (ends(&perturbed, 1), ends(&perturbed, 2));
        assert_ne!(one, two);
        for (records, rate) in one.into_iter().chain(two) {
            assert!((500..=1500).contains(&records) && (50..=150).contains(&rate));
        }
        // A write spike keeps each task's factor.
        let mut world = World::new(&perturbed, 1).unwrap();
        let first = TaskIx::from_position(0);
        let factor = world.tasks[first].write_factor;
        world.tasks[first].set_write_rate(1000);
        let got = world.tasks[first].write_rate.get() as f64;
        assert!(
            (got - 1000.0 * factor).abs() <= 0.5,
            "{got} for factor {factor}"
        );
    }
}
