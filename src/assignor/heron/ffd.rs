//! `heron-ffd`: Apache Heron's `FirstFitDecreasingPacking` (Heron's packing
//! package, `org.apache.heron.packing.binpacking`); the algorithm and this
//! port's mapping are in `docs/algorithms.md`, *Heron: FFD*.
//!
//! Heron sorts the components by their instances' demand, RAM then CPU,
//! decreasing (`RAM_FIRST`, the default; `CPU_FIRST` swaps the keys), and
//! puts each instance in the first container by id that passes the
//! constraints: `(Σ demands + padding) + demand ≤ capacity` in CPU, RAM and
//! disk (the Σ in the order of Heron's `HashSet`, `java_set.rs`), and at most
//! `topology.container.max.instances` (10) instances. When none does, it opens
//! container N + 1. A repack keeps every instance where it is and first-fits
//! the new ones, in the same sorted order, over *all* containers by id, so
//! holes in old containers fill first.
//!
//! Here tasks, not components, are sorted, each by its own demand (stated or
//! default), ties by task id: that is Heron's order whenever a subtopology's
//! tasks state the same demand (Heron's ties between components are `HashMap`
//! order; subtopology order here). The first packing is the repack of an
//! empty plan. A survivor stays on its previous client while it fits there
//! (capacity and padding in CPU, RAM and disk, the limit of 10); new tasks, tasks of lost clients
//! (Heron would restart the container whole) and survivors that no longer
//! fit are first-fitted. A fixed client set has no container N + 1: a task
//! that fits nowhere is [`AssignError::Infeasible`], naming the task, its
//! demand and the most room any client has left. FFD deliberately
//! concentrates tasks on the lowest ids and leaves the others idle.
//!
//! Heron's repack numbers a new container after the old ones, so it
//! first-fits over the old containers before any new one: here the clients
//! that ran tasks (a non-empty `previous_active`) come first, by id, then
//! the others, by id. A first packing has no old containers: all by id.
//!
//! Complexity: O(P + A log A + A·C) for P previous placements and A tasks to
//! place, each scanning at most C clients.

use std::cmp::Ordering;

use crate::assignor::strategy::AssignError;
use crate::model::{ClientIx, ClusterState, Plan};

use super::{Containers, FfdSort, HeronConfig, Res};

/// Heron's FFD on `state`: survivors stay, the rest first-fit in decreasing order.
pub(super) fn assign(
    state: &ClusterState,
    config: &HeronConfig,
    strategy: &'static str,
) -> Result<Plan, AssignError> {
    let mut bins = Containers::new(state, config, strategy, config.max_instances);
    if bins.client_count() > 0 {
        bins.keep_survivors();
        let mut adds = bins.unplaced();
        bins.check_minimums(
            &adds,
            config.min_instance_ram_mb,
            Some(config.min_instance_cpu),
        )?;
        adds.sort_by(|&a, &b| {
            decreasing(bins.demand[a], bins.demand[b], config.ffd_sort).then(a.cmp(&b))
        });
        let ran = |c: ClientIx| !state.clients()[c.index()].previous_active.is_empty();
        let (old, new): (Vec<ClientIx>, Vec<ClientIx>) = bins.held.indices().partition(|&c| ran(c));
        for t in adds {
            let c = old
                .iter()
                .chain(&new)
                .copied()
                .find(|&c| bins.fits(c, t))
                .ok_or_else(|| bins.no_room(t))?;
            bins.place(c, t);
        }
    }
    Ok(bins.into_plan())
}

/// FFD's order: larger demand first, by the sort's first key, then its second.
fn decreasing(a: Res, b: Res, sort: FfdSort) -> Ordering {
    let ram = b.ram.cmp(&a.ram);
    let cpu = b.cpu.total_cmp(&a.cpu);
    match sort {
        FfdSort::RamFirst => ram.then(cpu),
        FfdSort::CpuFirst => cpu.then(ram),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AssignmentConfig, Client, Task, TaskId};

    fn task(s: u32, p: u32, cpu: f64, ram: u64) -> Task {
        let mut t = Task::stateless(TaskId::new(s, p));
        t.cpu = Some(cpu);
        t.ram_mb = Some(ram);
        t
    }

    fn active_of(plan: &Plan, client: &str) -> Vec<String> {
        plan.clients[&client.into()]
            .active
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn sorts_by_ram_then_cpu_unless_told_cpu_first() {
        // Clients of 4 cpu (padding 1) and 10 GiB: 3 cpu of tasks each.
        let tasks = vec![
            task(0, 0, 1.0, 1024),
            task(1, 0, 2.0, 512),
            task(2, 0, 1.5, 1024),
            task(3, 0, 1.0, 2048),
        ];
        let clients = ["a", "b", "c"]
            .map(|id| {
                let mut c = Client::new(id, 1);
                c.cpu = Some(4.0);
                c
            })
            .to_vec();
        let state = ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap();
        // RAM first: 3_0 (2048), 2_0 (1024, 1.5), 0_0 (1024, 1), 1_0 (512).
        let config = HeronConfig::default();
        let plan = assign(&state, &config, "heron-ffd").unwrap();
        assert_eq!(active_of(&plan, "a"), ["2_0", "3_0"]);
        assert_eq!(active_of(&plan, "b"), ["0_0", "1_0"]);
        // CPU first: 1_0 (2), 2_0 (1.5), 3_0 (1, 2048), 0_0 (1, 1024).
        let cpu_first = HeronConfig {
            ffd_sort: FfdSort::CpuFirst,
            ..HeronConfig::default()
        };
        let plan = assign(&state, &cpu_first, "heron-ffd").unwrap();
        assert_eq!(active_of(&plan, "a"), ["1_0", "3_0"]);
        assert_eq!(active_of(&plan, "b"), ["0_0", "2_0"]);
    }

    #[test]
    fn at_most_max_instances_per_client() {
        let tasks = (0..12).map(|p| task(0, p, 0.1, 192)).collect();
        // Disk to spare: 12 default instances' 12 GiB + 1 GiB padding fit.
        let mut a = Client::new("a", 1);
        a.disk_mb = Some(20_480);
        let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![a]).unwrap();
        let err = assign(&state, &HeronConfig::default(), "heron-ffd").unwrap_err();
        assert_eq!(
            err,
            AssignError::Infeasible(
                "task 0_10 needs 0.1 cpu and 192 ram_mb but every client already holds 10 tasks, the most heron-ffd puts on one client (heron-ffd cannot add a client where Heron would add a container)".into()
            )
        );
    }

    /// Heron's `MinRamConstraint` (192 MB) and `MinCpuConstraint` (0.1): a
    /// task under either makes FFD refuse the packing, though it would fit;
    /// exactly at the minimums it packs.
    #[test]
    fn instances_under_the_minimum_sizes_are_refused() {
        let one_client = |tasks: Vec<Task>| {
            ClusterState::new(
                AssignmentConfig::default(),
                tasks,
                vec![Client::new("a", 1)],
            )
            .unwrap()
        };
        let refused = |t: Task| assign(&one_client(vec![t]), &HeronConfig::default(), "heron-ffd");
        assert_eq!(
            refused(task(0, 0, 0.5, 191)),
            Err(AssignError::Infeasible(
                "task 0_0 needs 0.5 cpu and 191 ram_mb, under the 192 ram_mb Heron's heron-ffd accepts for an instance".into()
            ))
        );
        assert_eq!(
            refused(task(0, 0, 0.09, 512)),
            Err(AssignError::Infeasible(
                "task 0_0 needs 0.09 cpu and 512 ram_mb, under the 0.1 cpu Heron's heron-ffd accepts for an instance".into()
            ))
        );
        let plan = refused(task(0, 0, 0.1, 192)).unwrap();
        assert_eq!(active_of(&plan, "a"), ["0_0"]);
    }
}
