//! The simulated cluster: clients, their local stores, tasks and the
//! assignment in force, in the simulator's units (`units`): changelogs in
//! milli-records, times in virtual milliseconds.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{
    Client, ClusterState, Container, ContainerId, InputError, Lag, Plan, Task, TaskId,
};

use crate::sim::scenario::perturb;
use super::units::{MilliRecords, Millis, Overflow, Rate, Records, SimTime};
use crate::sim::Scenario;

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
    pub rack: Option<String>,
    pub threads: u32,
    pub status: Status,
    pub stores: BTreeMap<usize, Store>,
    pub actives: BTreeSet<usize>,
    /// Standbys and warm-ups held.
    pub replicas: BTreeSet<usize>,
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
    pub owner: Option<usize>,
    pub state: ActiveState,
    /// Start of the current outage, if the task is unavailable.
    pub outage_since: Option<SimTime>,
    /// Its closed outages' total length.
    pub down_ms: Millis,
    /// Clients holding a standby (not warm-up) of the task.
    pub standbys: BTreeSet<usize>,
    /// Clients holding a standby or warm-up of the task.
    pub replicas: BTreeSet<usize>,
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
    /// Milli-records of input not processed yet.
    pub backlog: MilliRecords,
}

impl TaskSim {
    /// Adds a closed outage to the task's total. The total is at most the
    /// run's duration, which `Scenario::check` bounds far below `u64` ms.
    pub(crate) fn add_down(&mut self, outage: Millis) {
        self.down_ms = self.down_ms.checked_plus(outage).unwrap_or(Millis::MAX);
    }

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

/// Clients and tasks.
#[derive(Debug, Clone)]
pub(crate) struct World {
    pub clients: Vec<ClientSim>,
    pub tasks: Vec<TaskSim>,
    racks: Vec<String>,
    /// Tag keys and the values dealt round-robin over clients.
    tags: BTreeMap<String, Vec<String>>,
    threads: u32,
    cpu: Option<f64>,
    ram_mb: Option<u64>,
    disk_mb: Option<u64>,
    /// CPU, RAM and disk each task states, by subtopology.
    task_resources: Vec<(Option<f64>, Option<u64>, Option<u64>)>,
    /// The longest outage closed so far.
    pub max_outage_ms: Millis,
    /// The containers of the plan in force (a strategy that has them,
    /// `samza`), handed to the next rebalance as the previous ones: the
    /// job's record, kept when a container's client leaves.
    containers: BTreeMap<ContainerId, Container>,
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
        let replicas = scenario.cluster.replication_factor.max(1) as usize;
        let mut tasks = Vec::new();
        for (s, sub) in scenario.subtopologies.iter().enumerate() {
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
                    down_ms: Millis::ZERO,
                    standbys: BTreeSet::new(),
                    replicas: BTreeSet::new(),
                    changelog_rack: task_racks.first().cloned(),
                    racks: task_racks,
                    write_factor,
                    input_rate: Rate::new(sub.input_rate),
                    backlog: MilliRecords::ZERO,
                });
            }
        }
        tasks.sort_by_key(|t| t.id);
        let cluster = &scenario.cluster;
        let mut world = World {
            clients: Vec::new(),
            tasks,
            racks,
            tags: cluster.tags.clone(),
            threads: cluster.threads,
            cpu: cluster.cpu,
            ram_mb: cluster.ram_mb,
            disk_mb: cluster.disk_mb,
            task_resources: scenario
                .subtopologies
                .iter()
                .map(|s| (s.cpu, s.ram_mb, s.disk_mb))
                .collect(),
            max_outage_ms: Millis::ZERO,
            containers: BTreeMap::new(),
        };
        for _ in 0..cluster.clients {
            world.add_client(SimTime::new(0));
        }
        Ok(world)
    }

    /// A new member `c<n>` started at `now`, its rack dealt round-robin.
    pub(crate) fn add_client(&mut self, now: SimTime) -> usize {
        let i = self.clients.len();
        self.clients.push(ClientSim {
            name: format!("c{i}"),
            rack: (!self.racks.is_empty()).then(|| self.racks[i % self.racks.len()].clone()),
            threads: self.threads,
            status: Status::Member,
            stores: BTreeMap::new(),
            actives: BTreeSet::new(),
            replicas: BTreeSet::new(),
            leaving_since: None,
            up_since: now,
        });
        i
    }

    /// How many of `tasks` (whose stores were just deleted, or left with a
    /// client scaled in) no client that is in the group or may come back
    /// holds a store of any more: tasks that lost every copy of their state.
    pub(crate) fn last_copies(&self, tasks: impl IntoIterator<Item = usize>) -> u64 {
        let lost = tasks.into_iter().filter(|t| {
            !self
                .clients
                .iter()
                .any(|c| c.status != Status::Gone && c.stores.contains_key(t))
        });
        lost.count() as u64
    }

    /// The client named `name`.
    pub(crate) fn client_named(&self, name: &str) -> Option<usize> {
        self.clients.iter().position(|c| c.name == name)
    }

    /// Members in creation order.
    pub(crate) fn members(&self) -> Vec<usize> {
        (0..self.clients.len())
            .filter(|&c| self.clients[c].status == Status::Member)
            .collect()
    }

    /// The state the group leader sees: members, their previous assignment,
    /// and sparse lags from their local stores.
    pub(crate) fn cluster_state(&self, scenario: &Scenario) -> Result<ClusterState, InputError> {
        let tasks = self
            .tasks
            .iter()
            .map(|t| {
                let mut task = if t.stateful {
                    Task::stateful(t.id, t.end.floor_records().get())
                } else {
                    Task::stateless(t.id)
                };
                // The racks of the replicas of its input and changelog
                // partitions, as KIP-925's assignor reads them.
                task.racks.extend(t.racks.iter().cloned());
                if t.stateful {
                    task.changelog_racks.extend(t.racks.iter().cloned());
                }
                let (cpu, ram_mb, disk_mb) = self.task_resources[t.id.subtopology as usize];
                task.cpu = cpu;
                task.ram_mb = ram_mb;
                task.disk_mb = disk_mb;
                task
            })
            .collect();
        let clients = self
            .members()
            .into_iter()
            .map(|c| self.client_view(c))
            .collect();
        let containers = self
            .containers
            .iter()
            .map(|(id, c)| (id.clone(), c.clone()))
            .collect();
        ClusterState::new(scenario.config.clone(), tasks, clients)?
            .with_previous_containers(containers)
    }

    fn client_view(&self, c: usize) -> Client {
        let sim = &self.clients[c];
        let mut client = Client::new(sim.name.as_str(), sim.threads);
        client.rack = sim.rack.clone();
        client.host = Some(sim.name.clone());
        client.cpu = self.cpu;
        client.ram_mb = self.ram_mb;
        client.disk_mb = self.disk_mb;
        for (key, values) in &self.tags {
            client
                .tags
                .insert(key.clone(), values[c % values.len()].clone());
        }
        client.previous_active = sim.actives.iter().map(|&t| self.tasks[t].id).collect();
        // Kafka's leader derives previous standbys from the offset sums a
        // member reports: every task with a store on its disk that it did not
        // run as an active (`ClientState.initializePrevTasks`), not only the
        // standbys it was last assigned. The replicas of the plan in force
        // count too: a client that lost its disk in a crash and came back
        // before the group noticed still holds them (and `previous_warmup`,
        // read from them, must stay within `previous_standby`).
        client.previous_standby = sim
            .stores
            .keys()
            .chain(&sim.replicas)
            .filter(|t| !sim.actives.contains(t))
            .map(|&t| self.tasks[t].id)
            .collect();
        client.previous_warmup = sim
            .replicas
            .iter()
            .filter(|&&t| !self.tasks[t].standbys.contains(&c))
            .map(|&t| self.tasks[t].id)
            .collect();
        client.leaving = sim.leaving_since.is_some();
        for &t in sim.stores.keys() {
            client.lags.insert(self.tasks[t].id, self.lag(c, t));
        }
        client
    }

    /// The lags in records the members report now, by (client, task): every
    /// store they hold but those of the actives they run (`running`).
    pub(crate) fn reported_lags(&self) -> BTreeMap<(usize, usize), u64> {
        let mut lags = BTreeMap::new();
        for c in self.members() {
            for &t in self.clients[c].stores.keys() {
                if let Lag::Records(records) = self.lag(c, t) {
                    lags.insert((c, t), records);
                }
            }
        }
        lags
    }

    /// Each task's changelog end offset in records (rounded up), as the
    /// leader reads it at a rebalance.
    pub(crate) fn end_offsets(&self) -> Vec<u64> {
        self.tasks
            .iter()
            .map(|task| task.end.ceil_records().get())
            .collect()
    }

    /// The lag client `c` reports for task `t` (it holds a store of it).
    fn lag(&self, c: usize, t: usize) -> Lag {
        let task = &self.tasks[t];
        let offset = self.clients[c]
            .stores
            .get(&t)
            .map_or(MilliRecords::ZERO, |s| s.offset);
        if task.owner == Some(c) && task.state == ActiveState::Running {
            Lag::Running
        } else {
            Lag::Records(task.end.saturating_minus(offset).ceil_records().get())
        }
    }

    /// The members holding a warm-up (a learner) of `t` whose copy is caught
    /// up under `acceptable` records, by the rule the assignors read.
    pub(crate) fn caught_up_warmups(&self, t: usize, acceptable: Records) -> Vec<usize> {
        let task = &self.tasks[t];
        task.replicas
            .iter()
            .copied()
            .filter(|c| !task.standbys.contains(c) && self.clients[*c].status == Status::Member)
            .filter(|&c| self.lag(c, t).is_caught_up(acceptable.get()))
            .collect()
    }

    /// Makes `plan` the assignment in force at `now`. Returns the active
    /// moves and the replica moves. Tasks that change owner (all tasks when `eager`) pause
    /// until `now + pause` (for the rest of the run when that is past the
    /// end of the clock).
    pub(crate) fn apply(
        &mut self,
        plan: &Plan,
        now: SimTime,
        pause: Millis,
        eager: bool,
    ) -> (ActiveMoves, u64) {
        let index: BTreeMap<&str, usize> = self
            .clients
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.as_str(), i))
            .collect();
        let task_index: BTreeMap<TaskId, usize> = self
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id, i))
            .collect();
        let mut owner = vec![None; self.tasks.len()];
        let mut standbys = vec![BTreeSet::new(); self.tasks.len()];
        let mut replicas = vec![BTreeSet::new(); self.tasks.len()];
        for (id, cp) in &plan.clients {
            let c = index[id.as_str()];
            for t in &cp.active {
                owner[task_index[t]] = Some(c);
            }
            for t in &cp.standby {
                standbys[task_index[t]].insert(c);
                replicas[task_index[t]].insert(c);
            }
            for t in &cp.warmup {
                replicas[task_index[t]].insert(c);
            }
        }
        self.containers.clone_from(&plan.containers);
        let mut moves = (ActiveMoves::default(), 0);
        for client in &mut self.clients {
            client.actives.clear();
            client.replicas.clear();
        }
        for (t, new_owner) in owner.into_iter().enumerate() {
            let old_owner = self.tasks[t].owner;
            let new_replicas = std::mem::take(&mut replicas[t]);
            moves.1 += new_replicas.difference(&self.tasks[t].replicas).count() as u64;
            if old_owner.is_some() && new_owner != old_owner {
                moves.0.total += 1;
                moves.0.stateful += u64::from(self.tasks[t].stateful);
            }
            let holders: BTreeSet<usize> = new_owner
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
            match new_owner {
                None => self.set_state(t, ActiveState::Down, now),
                Some(c) => {
                    self.clients[c].actives.insert(t);
                    if new_owner != old_owner || eager || self.tasks[t].state == ActiveState::Down {
                        self.set_state(t, ActiveState::Paused(now.checked_after(pause)), now);
                        self.resolve_pause(t, now);
                    }
                }
            }
        }
        moves
    }

    /// Creates stores for new holders of stateful task `t` and marks the
    /// stores of clients that no longer hold it as released.
    fn hold_stores(&mut self, t: usize, holders: &BTreeSet<usize>, now: SimTime) {
        if !self.tasks[t].stateful {
            return;
        }
        for (c, client) in self.clients.iter_mut().enumerate() {
            if holders.contains(&c) {
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

    /// Sets a task's active state, opening or closing its outage.
    pub(crate) fn set_state(&mut self, t: usize, state: ActiveState, now: SimTime) {
        let task = &mut self.tasks[t];
        task.state = state;
        match (state, task.outage_since) {
            (ActiveState::Running, Some(since)) => {
                task.outage_since = None;
                task.add_down(now.since(since));
                self.max_outage_ms = self.max_outage_ms.max(now.since(since));
            }
            (ActiveState::Running, None) | (_, Some(_)) => {}
            (_, None) => task.outage_since = Some(now),
        }
    }

    /// Ends a pause that is over at `now`: the task restores or runs.
    pub(crate) fn resolve_pause(&mut self, t: usize, now: SimTime) {
        let ActiveState::Paused(until) = self.tasks[t].state else {
            return;
        };
        if until.is_none_or(|until| until > now) {
            return;
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
}

#[cfg(test)]
mod scenario_tests {
    use super::*;

    /// Five clients, racks r1..r3 with replication factor 2, zones z1 and z2,
    /// stated resources; subtopology 0 stateful (2 tasks), 1 stateless (2).
    #[test]
    fn the_leader_sees_tags_replica_racks_and_resources() {
        let s = Scenario::from_toml(
            "name = \"w\"\nseed = 1\nduration = \"1h\"\n\
             [cluster]\nclients = 5\nracks = [\"r1\", \"r2\", \"r3\"]\nreplication_factor = 2\n\
             tags = { zone = [\"z1\", \"z2\"], cell = [\"a\"] }\n\
             restore_rate = 100\ncpu = 4\nram_mb = 8192\ndisk_mb = 65536\n\
             [[subtopologies]]\npartitions = 2\nstateful = true\nstate_records = 10\ncpu = 0.5\nram_mb = 1024\ndisk_mb = 4096\n\
             [[subtopologies]]\npartitions = 2\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let world = World::new(&s, 1).unwrap();
        let state = world.cluster_state(&s).unwrap();
        let set = |racks: &[&str]| -> BTreeSet<String> {
            racks.iter().map(|r| (*r).to_string()).collect()
        };
        let tasks = state.tasks();
        // Task n (id order 0_0, 0_1, 1_0, 1_1) on racks n and n + 1 (mod 3).
        let want = [["r1", "r2"], ["r2", "r3"], ["r3", "r1"], ["r1", "r2"]];
        for (n, task) in tasks.iter().enumerate() {
            assert_eq!(task.racks, set(&want[n]), "{}", task.id);
            let changelog = if task.stateful {
                set(&want[n])
            } else {
                BTreeSet::new()
            };
            assert_eq!(task.changelog_racks, changelog, "{}", task.id);
        }
        assert_eq!(world.tasks[2].changelog_rack.as_deref(), Some("r3"));
        assert_eq!(
            (tasks[0].cpu, tasks[0].ram_mb, tasks[0].disk_mb),
            (Some(0.5), Some(1024), Some(4096))
        );
        assert_eq!(
            (tasks[3].cpu, tasks[3].ram_mb, tasks[3].disk_mb),
            (None, None, None)
        );
        let zones: Vec<&str> = state
            .clients()
            .iter()
            .map(|c| c.tags["zone"].as_str())
            .collect();
        assert_eq!(zones, ["z1", "z2", "z1", "z2", "z1"]);
        let racks: Vec<&str> = state
            .clients()
            .iter()
            .map(|c| c.rack.as_deref().unwrap())
            .collect();
        assert_eq!(racks, ["r1", "r2", "r3", "r1", "r2"]);
        for c in state.clients() {
            assert_eq!(c.tags["cell"], "a");
            assert_eq!(
                (c.cpu, c.ram_mb, c.disk_mb),
                (Some(4.0), Some(8192), Some(65536))
            );
        }
    }

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
        let factor = world.tasks[0].write_factor;
        world.tasks[0].set_write_rate(1000);
        let got = world.tasks[0].write_rate.get() as f64;
        assert!(
            (got - 1000.0 * factor).abs() <= 0.5,
            "{got} for factor {factor}"
        );
    }
}
