//! How many containers Heron's RCRR repack opens before it deals
//! (`ResourceCompliantRRPacking.computeNumAdditionalContainers`).
//!
//! Heron takes each component's parallelism change, sums the demand of the
//! instances added and of those removed (`PackingUtils.
//! computeTotalResourceChange`: the component's configured RAM, but always
//! the *default* CPU and disk), takes `added − removed` per resource, clamped
//! at 0 (`Resource.subtractAbsolute`), and divides it by the largest
//! container of the current plan, per resource (`PackingPlan.
//! getMaxContainerResources`: each container's instances plus padding, CPU
//! rounded to a whole core; `Resource.divideBy`: the ceiling per resource,
//! then the maximum). That many containers are added before any instance is
//! placed.
//!
//! In the model the added instances are the tasks no client lists in
//! `previous_active`, each at its subtopology's demand in Heron's sense: the
//! default CPU and disk, and the largest `ram_mb` the subtopology's tasks
//! state (as RR ranks it), else the default. The removed demand is always 0:
//! a previous assignment names only tasks the state still has, so the
//! tasks that vanished are unknown (where Heron nets a component shrinking
//! against another growing, the port opens for the growth alone). A lost
//! client's tasks are listed by no one, so they count as added: the model
//! cannot tell them from new tasks (about one container opens for them,
//! where Heron would restart the lost container). A container of the
//! current plan is a client with a previous assignment: its listed tasks plus
//! its padding. Where Heron would divide by zero (a resource no container
//! uses, with no padding) that resource is skipped.

use std::collections::BTreeSet;

use crate::model::{ClusterState, TaskId};

use super::{capacity, demand, padding, HeronConfig, Res};

/// The containers Heron's RCRR repack adds for the tasks no client lists
/// in `previous_active` (0 when every task is listed).
pub(super) fn containers_to_open(state: &ClusterState, config: &HeronConfig) -> u64 {
    let listed: BTreeSet<TaskId> = state
        .clients()
        .iter()
        .flat_map(|c| c.previous_active.iter().copied())
        .collect();
    let added = state
        .tasks()
        .iter()
        .filter(|t| !listed.contains(&t.id))
        .fold(Res::default(), |sum, t| {
            sum.plus(component_demand(state, config, t.id.subtopology))
        });
    let largest = largest_container(state, config);
    let cpu = if largest.cpu > 0.0 {
        (added.cpu / largest.cpu).ceil()
    } else {
        0.0
    };
    let mb = |x: u128, m: u128| if m > 0 { x.div_ceil(m) } else { 0 };
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // Java's (int) cast
    let cpu = cpu as u64;
    let ram = u64::try_from(mb(added.ram, largest.ram)).unwrap_or(u64::MAX);
    let disk = u64::try_from(mb(added.disk, largest.disk)).unwrap_or(u64::MAX);
    cpu.max(ram).max(disk)
}

/// Heron's demand for one instance of subtopology `s` in this count: the
/// default CPU and disk, and the largest RAM its tasks state, else the default.
fn component_demand(state: &ClusterState, config: &HeronConfig, s: u32) -> Res {
    let ram = state
        .tasks()
        .iter()
        .filter(|t| t.id.subtopology == s)
        .filter_map(|t| t.ram_mb)
        .max()
        .unwrap_or(config.instance_ram_mb);
    Res {
        cpu: config.instance_cpu,
        ram: u128::from(ram),
        disk: u128::from(config.instance_disk_mb),
    }
}

/// The per-resource maximum over the clients with a previous assignment of
/// their listed tasks' demands plus padding, CPU rounded to a whole core.
fn largest_container(state: &ClusterState, config: &HeronConfig) -> Res {
    let mut largest = Res::default();
    for client in state.clients() {
        if client.previous_active.is_empty() {
            continue;
        }
        let pad = padding(capacity(client, config), config);
        let used = client
            .previous_active
            .iter()
            .filter_map(|&id| state.task(id))
            .fold(pad, |sum, task| sum.plus(demand(task, config)));
        // Math.round: half up.
        let cpu = (used.cpu + 0.5).floor();
        largest = Res {
            cpu: largest.cpu.max(cpu),
            ram: largest.ram.max(used.ram),
            disk: largest.disk.max(used.disk),
        };
    }
    largest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AssignmentConfig, Client, Task};

    fn tasks(n: u32) -> Vec<Task> {
        (0..n).map(|p| Task::stateless(TaskId::new(0, p))).collect()
    }

    fn ran(id: &str, from: u32, to: u32) -> Client {
        Client::new(id, 1).with_previous_active((from..to).map(|p| TaskId::new(0, p)))
    }

    /// 20 default tasks on 3 containers (7, 7, 6: the largest needs 8 CPU,
    /// 8 GiB RAM and disk with padding). 3 more: ⌈3 / 8⌉ = 1. 17 more:
    /// ⌈17 / 8⌉ = 3. None added: 0.
    #[test]
    fn added_demand_over_the_largest_container() {
        let clients = || vec![ran("a", 0, 7), ran("b", 7, 14), ran("c", 14, 20)];
        let config = HeronConfig::default();
        let count = |n: u32| {
            let state = ClusterState::new(AssignmentConfig::default(), tasks(n), clients());
            containers_to_open(&state.unwrap(), &config)
        };
        assert_eq!(count(23), 1);
        assert_eq!(count(37), 3);
        assert_eq!(count(20), 0);
    }

    /// Heron counts the default CPU whatever a component states, but its
    /// RAM: 2 tasks stating 0.1 CPU and 9 GiB each, added to one container of
    /// 2 default tasks (3 CPU, 3 GiB with padding): CPU ⌈2 / 3⌉ = 1, RAM
    /// ⌈18 / 3⌉ = 6.
    #[test]
    fn ram_is_the_components_cpu_and_disk_the_defaults() {
        let mut all = tasks(2);
        for p in 0..2 {
            let mut t = Task::stateless(TaskId::new(1, p));
            t.cpu = Some(0.1);
            t.ram_mb = Some(9 * 1024);
            all.push(t);
        }
        let state =
            ClusterState::new(AssignmentConfig::default(), all, vec![ran("a", 0, 2)]).unwrap();
        assert_eq!(containers_to_open(&state, &HeronConfig::default()), 6);
    }
}
