//! What the group leader sees of the world at a rebalance: the
//! [`ClusterState`] it assigns from (members, their previous assignment,
//! sparse lags from their local stores) and the restore rate it observes
//! between rebalances ([`RateObserver`], the rule being the core's
//! [`crate::restore_rate::observe`], the same one the Kafka Streams
//! adapter's leader calls), from the lags members report and virtual time,
//! never the physics' true rate.

use std::collections::BTreeMap;

use super::units::{MilliRecords, SimTime};
use super::world::{ActiveState, ClientNo, World};
use crate::model::{Client, ClusterState, InputError, IxVec, Lag, Task, TaskIx};
use crate::sim::scenario::Scenario;
use crate::{input_rate, restore_rate};

/// Lags in records reported at one rebalance, by (client, task).
type Lags = BTreeMap<(ClientNo, TaskIx), u64>;

impl World {
    /// The state the group leader sees: members, their previous assignment,
    /// and sparse lags from their local stores.
    /// `input_rates`: each task's input rate as the leader observed it
    /// ([`InputObserver`]).
    pub(crate) fn cluster_state(
        &self,
        scenario: &Scenario,
        input_rates: &IxVec<TaskIx, Option<u64>>,
    ) -> Result<ClusterState, InputError> {
        let tasks = self
            .tasks
            .iter_enumerated()
            .map(|(ix, t)| {
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
                task.input_rate = input_rates.get(ix).copied().flatten();
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

    /// Member `c` as the leader sees it.
    fn client_view(&self, c: ClientNo) -> Client {
        let sim = &self.clients[c];
        let mut client = Client::new(sim.name.as_str(), sim.threads);
        client.rack = sim.rack.clone();
        client.host = Some(sim.name.clone());
        (client.cpu, client.ram_mb, client.disk_mb) = sim.resources;
        client.tags.clone_from(&sim.tags);
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
    fn reported_lags(&self) -> Lags {
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

    /// The end offset of each task's source partitions at `now`, in records
    /// (rounded down): what its input has received since the run began.
    fn input_end_offsets(&self, now: SimTime) -> IxVec<TaskIx, u64> {
        self.tasks
            .iter()
            .map(|task| {
                let records = u128::from(task.input_rate.get()) * u128::from(now.get()) / 1000;
                u64::try_from(records).unwrap_or(u64::MAX)
            })
            .collect()
    }

    /// Each task's changelog end offset in records (rounded up), as the
    /// leader reads it at a rebalance.
    fn end_offsets(&self) -> IxVec<TaskIx, u64> {
        self.tasks
            .iter()
            .map(|task| task.end.ceil_records().get())
            .collect()
    }

    /// The lag client `c` reports for task `t` (it holds a store of it).
    pub(crate) fn lag(&self, c: ClientNo, t: TaskIx) -> Lag {
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
}

/// The leader's memory between rebalances, per run: the last rebalance's
/// time, the lags reported then and the changelogs' end offsets then, and
/// the observation in force.
#[derive(Debug, Clone, Default)]
pub(crate) struct RateObserver {
    /// The last rebalance's time, the lags reported then and the end offsets then.
    last: Option<(SimTime, Lags, IxVec<TaskIx, u64>)>,
    /// The observation in force.
    observed: Option<u64>,
}

impl RateObserver {
    /// The observation at a rebalance at `now`, before its plan is applied
    /// (`world` holds the plan in force): the core's rule over the lags its
    /// replicas reported at the last rebalance (a replica that reported none
    /// then had no store: its lag was the whole changelog) and now; without
    /// a new sample, the observation in force. Remembers the lags reported now.
    pub(crate) fn observe(&mut self, world: &World, now: SimTime, acceptable: u64) -> Option<u64> {
        let lags = world.reported_lags();
        if let Some((then, before, ends)) = &self.last {
            let replicas: Lags = world
                .clients
                .iter_enumerated()
                .flat_map(|(c, client)| client.replicas.iter().map(move |&t| (c, t)))
                .map(|(c, t)| ((c, t), before.get(&(c, t)).copied().unwrap_or(ends[t])))
                .collect();
            let elapsed = now.since(*then).get();
            if let Some(rate) = restore_rate::observe(&replicas, &lags, elapsed, acceptable) {
                self.observed = Some(rate);
            }
        }
        self.last = Some((now, lags, world.end_offsets()));
        self.observed
    }
}

/// The leader's memory of the input between rebalances, per run: its
/// samples of the source partitions' end offsets, by time, kept and used as
/// [`input_rate`]'s rule says (observe from the newest at least
/// [`input_rate::MIN_WINDOW_MS`] old). Never the scenario's rates: what the
/// offsets show.
#[derive(Debug, Clone, Default)]
pub(crate) struct InputObserver {
    /// The samples kept, oldest first: a time and each task's input end
    /// offset then.
    samples: Vec<(SimTime, IxVec<TaskIx, u64>)>,
}

impl InputObserver {
    /// Each task's input rate as the leader sees it at a rebalance at `now`
    /// (`None` each before the first window).
    pub(crate) fn observe(&mut self, world: &World, now: SimTime) -> IxVec<TaskIx, Option<u64>> {
        let ends = world.input_end_offsets(now);
        let old_enough = |t: SimTime| now.since(t).get() >= input_rate::MIN_WINDOW_MS;
        let base = self.samples.iter().rposition(|&(t, _)| old_enough(t));
        let rates = match base {
            Some(i) => {
                let (then, before) = &self.samples[i];
                let elapsed = now.since(*then).get();
                before
                    .iter()
                    .zip(ends.iter())
                    .map(|(&b, &e)| input_rate::observe(b, e, elapsed))
                    .collect()
            }
            None => IxVec::from_elem(None, ends.len()),
        };
        if let Some(i) = base {
            self.samples.drain(..i);
        }
        if self.samples.last().is_none_or(|&(t, _)| old_enough(t)) {
            self.samples.push((now, ends));
        }
        rates
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The leader observes each task's input from its end offsets, from the
    /// newest sample at least 10 s old, none before the first 10 s.
    #[test]
    fn the_input_rate_comes_from_samples_at_least_ten_seconds_apart() {
        let s = Scenario::from_toml(
            "name = \"w\"\nseed = 1\nduration = \"1h\"\n\
             [cluster]\nclients = 2\nrestore_rate = 100\n\
             [[subtopologies]]\npartitions = 2\ninput_rate = 300\ninput_skew = \"hot\"\nhot_partitions = 1\nhot_factor = 2\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let world = World::new(&s, 1).unwrap();
        let truth: Vec<u64> = world.tasks.iter().map(|t| t.input_rate.get()).collect();
        assert!(truth[0] != truth[1], "{truth:?}");
        let mut leader = InputObserver::default();
        let at = |s: u64| SimTime::new(s * 1000);
        let none = IxVec::from_elem(None, 2);
        assert_eq!(leader.observe(&world, at(0)), none);
        assert_eq!(leader.observe(&world, at(5)), none);
        let want: IxVec<TaskIx, Option<u64>> = truth.iter().map(|&r| Some(r)).collect();
        for t in [10, 10, 12, 19, 20, 31] {
            assert_eq!(leader.observe(&world, at(t)), want, "at {t} s");
        }
        // Samples kept: the newest used (20 s) and 31 s.
        assert_eq!(leader.samples.len(), 2);
    }

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
        let state = world.cluster_state(&s, &IxVec::new()).unwrap();
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
        assert_eq!(
            world.tasks[TaskIx::from_position(2)]
                .changelog_rack
                .as_deref(),
            Some("r3")
        );
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
}
