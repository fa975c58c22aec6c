//! `heron-rr`: Apache Heron's `RoundRobinPacking`
//! (`org.apache.heron.packing.roundrobin`, Heron's default packing); the
//! algorithm and this port's mapping are in `docs/algorithms.md`, *Heron: RR*.
//!
//! Heron orders the components by their configured RAM, descending (a
//! component without one counts as 0, so it comes last; CPU is always 0 in
//! the tie-break, so it never decides), then by name (a deterministic
//! stand-in for Java's `HashMap` order), and deals their instances, in index order,
//! round-robin over containers 1..N. The pointer is not reset between
//! components, so components interleave. Capacity is never a reason to refuse
//! an instance: Heron then *sizes* the instances to fit their container.
//!
//! Here N is the number of clients, clients are dealt in id order, a
//! subtopology's configured RAM is the largest `ram_mb` any of its tasks
//! states (0 when none does), and ties go to the lower subtopology. Every
//! change re-packs from scratch; tasks keep their client only where the fresh
//! deal happens to give them the same one (with one subtopology, adding tasks
//! at its end keeps every other task in place).
//!
//! The plan has no per-task sizes, but Heron's sizing decides whether Heron
//! packs at all, so it is computed: a client's stated `cpu` / `ram_mb` acts
//! as Heron's container hint; stated task demands are kept, and the tasks
//! that state none share what is left after padding (1 CPU; 2 GiB RAM, 3 GiB
//! when a task is stateful); with no hint a container is sized for the
//! fullest one. Heron refuses (`PackingException`) a container whose stated
//! demands exceed its hint, whose unstated tasks would get nothing, or any
//! instance under 16 MB of RAM (`validatePackingPlan`), stated or shared; so
//! does the port, with [`AssignError::Infeasible`] naming the first such
//! client (exit 2 from `assign`). Disk is neither read nor checked: Heron's
//! RR gives every instance the default disk and sizes the container for it.
//! With more clients than tasks the extra clients stay empty, where Heron's
//! RR refuses more containers than instances, and with no client at all the
//! plan is empty, where Heron refuses fewer than one container: the model's
//! clients are given, and an idle client, or none, is a state it must allow
//! (RCRR lowers its count alike).
//!
//! Complexity: O(T + K log K + C) for T tasks, K subtopologies, C clients.

use std::fmt::Write as _;

use crate::assignor::strategy::AssignError;
use crate::model::{ClientIx, ClusterState, IxVec, Plan, TaskIx};

use super::{cpu_text, Containers, HeronConfig};

/// Heron's RR over every client of `state`: instances are sized, not
/// rejected, but a container Heron cannot size is [`AssignError::Infeasible`].
pub(super) fn assign(
    state: &ClusterState,
    config: &HeronConfig,
    strategy: &'static str,
) -> Result<Plan, AssignError> {
    let mut bins = Containers::new(state, config, strategy, usize::MAX).without_fits();
    if bins.client_count() > 0 {
        let turns = bins.held.indices().cycle();
        for (t, c) in walk_order(state).into_iter().zip(turns) {
            bins.place(c, t);
        }
        if let Some(refusal) = refusal(state, config, &bins.held, strategy) {
            return Err(refusal);
        }
    }
    Ok(bins.into_plan())
}

/// Task positions in Heron RR's order: subtopologies by the largest RAM any
/// of their tasks states (descending, 0 when none), then by id; each
/// subtopology's tasks by partition.
fn walk_order(state: &ClusterState) -> Vec<TaskIx> {
    let tasks = state.tasks();
    let mut groups: Vec<(u64, u32, std::ops::Range<usize>)> = Vec::new();
    let mut start = 0;
    while start < tasks.len() {
        let subtopology = tasks[start].id.subtopology;
        let len = tasks[start..]
            .iter()
            .take_while(|t| t.id.subtopology == subtopology)
            .count();
        let ram = tasks[start..start + len]
            .iter()
            .filter_map(|t| t.ram_mb)
            .max()
            .unwrap_or(0);
        groups.push((ram, subtopology, start..start + len));
        start += len;
    }
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    groups
        .into_iter()
        .flat_map(|(_, _, range)| range)
        .map(TaskIx::from_position)
        .collect()
}

/// What Heron's RR requests for one container.
#[derive(Debug, Clone, PartialEq)]
struct Sizing {
    /// Container CPU.
    cpu: f64,
    /// Container RAM, MiB.
    ram_mb: f64,
    /// The CPU of each task that states none.
    cpu_share: Option<f64>,
    /// The RAM (MiB) of each task that states none.
    ram_share_mb: Option<f64>,
}

/// One resource of one container, as Heron's sizing sees it.
struct Dimension {
    /// `cpu` or `ram_mb`.
    name: &'static str,
    /// Σ of the stated demands.
    stated: f64,
    /// Tasks that state no demand.
    unstated: usize,
    /// The client's stated amount: Heron's container hint.
    hint: Option<f64>,
    padding: f64,
    /// Heron's capacity without a hint: instance default × the fullest
    /// container's task count, plus padding.
    unhinted: f64,
    /// The least any task may get, stated or shared (RAM: 16 MB).
    minimum: f64,
    /// The least stated demand, if any.
    least_stated: Option<f64>,
    /// With a hint, the container is exactly the hint (CPU) rather than
    /// `Σ + padding` capped at the hint (RAM).
    total_is_hint: bool,
}

/// Heron's RR sizing of one resource of a container (`RoundRobinPacking`:
/// explicit demands first, the rest split evenly, then the container total):
/// the container total and each unstated task's share, or why Heron refuses.
fn size(d: &Dimension) -> Result<(f64, Option<f64>), String> {
    if let Some(hint) = d.hint {
        if d.stated > hint {
            return Err(format!(
                "its tasks state {} {} but it offers {}",
                cpu_text(d.stated),
                d.name,
                cpu_text(hint)
            ));
        }
    }
    // Padding throttling: with too little room left, the padding is dropped.
    let padding = match d.hint {
        Some(hint) if d.stated > hint - d.padding => 0.0,
        _ => d.padding,
    };
    let cap = d.hint.unwrap_or(d.unhinted);
    let share = if d.unstated == 0 {
        None
    } else {
        let share = (cap - padding - d.stated) / d.unstated as f64;
        if share <= 0.0 || share < d.minimum {
            // Heron: "No enough ... to allocate", or an instance under 16 MB.
            return Err(format!(
                "{} task(s) without a stated {} would get {} each",
                d.unstated,
                d.name,
                cpu_text(share)
            ));
        }
        Some(share)
    };
    // validatePackingPlan, after the sizing: stated demands too.
    if let Some(least) = d.least_stated.filter(|&l| l < d.minimum) {
        return Err(format!(
            "a task states {} {}, under the {} Heron's round robin accepts",
            cpu_text(least),
            d.name,
            cpu_text(d.minimum)
        ));
    }
    let sum = d.stated + share.unwrap_or(0.0) * d.unstated as f64 + padding;
    let total = match d.hint {
        Some(hint) if d.total_is_hint => hint,
        Some(hint) => sum.min(hint),
        None => sum,
    };
    Ok((total, share))
}

/// Heron RR's sizing of every client's container (`None` for an empty
/// client, which Heron would not have), or why Heron refuses it.
fn sizes(
    state: &ClusterState,
    config: &HeronConfig,
    held: &IxVec<ClientIx, Vec<TaskIx>>,
) -> IxVec<ClientIx, Option<Result<Sizing, String>>> {
    let fullest = held.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let stateful = state.tasks().iter().any(|t| t.stateful);
    let ram_padding = config.rr_padding_ram_mb as f64
        + if stateful {
            config.rr_checkpoint_ram_mb as f64
        } else {
            0.0
        };
    state
        .clients()
        .iter()
        .zip(held)
        .map(|(client, held)| {
            if held.is_empty() {
                return None;
            }
            let tasks: Vec<_> = held.iter().map(|t| &state.tasks()[t.index()]).collect();
            let cpu = Dimension {
                name: "cpu",
                stated: tasks.iter().filter_map(|t| t.cpu).sum(),
                unstated: tasks.iter().filter(|t| t.cpu.is_none()).count(),
                hint: client.cpu,
                padding: config.rr_padding_cpu,
                unhinted: (config.instance_cpu * fullest).round() + config.rr_padding_cpu,
                minimum: 0.0,
                least_stated: None,
                total_is_hint: true,
            };
            let ram = Dimension {
                name: "ram_mb",
                stated: tasks
                    .iter()
                    .filter_map(|t| t.ram_mb)
                    .map(|r| r as f64)
                    .sum(),
                unstated: tasks.iter().filter(|t| t.ram_mb.is_none()).count(),
                hint: client.ram_mb.map(|r| r as f64),
                padding: ram_padding,
                unhinted: config.instance_ram_mb as f64 * fullest + ram_padding,
                minimum: 16.0,
                least_stated: tasks
                    .iter()
                    .filter_map(|t| t.ram_mb)
                    .min()
                    .map(|r| r as f64),
                total_is_hint: false,
            };
            Some(size(&cpu).and_then(|(cpu, cpu_share)| {
                size(&ram).map(|(ram_mb, ram_share_mb)| Sizing {
                    cpu,
                    ram_mb,
                    cpu_share,
                    ram_share_mb,
                })
            }))
        })
        .collect()
}

/// The error for the first client (by id) whose container Heron's RR
/// refuses to size, counting the others, if any.
fn refusal(
    state: &ClusterState,
    config: &HeronConfig,
    held: &IxVec<ClientIx, Vec<TaskIx>>,
    strategy: &str,
) -> Option<AssignError> {
    let refused: Vec<(ClientIx, String)> = held
        .indices()
        .zip(sizes(state, config, held))
        .filter_map(|(c, s)| match s {
            Some(Err(why)) => Some((c, why)),
            _ => None,
        })
        .collect();
    let (c, why) = refused.first()?;
    let mut msg = format!(
        "client {} cannot hold the tasks {strategy} deals it: {why}",
        state.clients()[c.index()].id
    );
    if refused.len() > 1 {
        let _ = write!(msg, " (and {} more client(s))", refused.len() - 1);
    }
    msg.push_str(" (Heron's round robin refuses such a packing)");
    Some(AssignError::Infeasible(msg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AssignmentConfig, Client, Task, TaskId};

    fn stateless(s: u32, p: u32) -> Task {
        Task::stateless(TaskId::new(s, p))
    }

    /// The two-component example of `docs/algorithms.md` (*Heron: worked
    /// examples*): exclaim (p = 2) is subtopology 0, word (p = 3) is 1.
    fn exclaim_word(clients: Vec<Client>) -> ClusterState {
        let tasks = vec![
            stateless(0, 0),
            stateless(0, 1),
            stateless(1, 0),
            stateless(1, 1),
            stateless(1, 2),
        ];
        ClusterState::new(AssignmentConfig::default(), tasks, clients).unwrap()
    }

    fn held_of(state: &ClusterState) -> IxVec<ClientIx, Vec<TaskIx>> {
        let mut held = IxVec::from_elem(Vec::new(), state.clients().len());
        let turns = state.client_ixs().cycle();
        for (t, c) in walk_order(state).into_iter().zip(turns) {
            held[c].push(t);
        }
        held
    }

    fn raw(tasks: &[TaskIx]) -> Vec<usize> {
        tasks.iter().map(|t| t.index()).collect()
    }

    #[test]
    fn spec_vector_sizes_instances_for_the_fullest_container() {
        let state = exclaim_word(vec![Client::new("c1", 1), Client::new("c2", 1)]);
        let held = held_of(&state);
        let raw_held: Vec<Vec<usize>> = held.iter().map(|h| raw(h)).collect();
        assert_eq!(raw_held, vec![vec![0, 2, 4], vec![1, 3]]);
        let sizes = sizes(&state, &HeronConfig::default(), &held);
        let expect = |share_cpu: f64, share_ram: f64| {
            Some(Ok(Sizing {
                cpu: 4.0,
                ram_mb: 5120.0,
                cpu_share: Some(share_cpu),
                ram_share_mb: Some(share_ram),
            }))
        };
        assert_eq!(
            sizes.into_raw(),
            vec![expect(1.0, 1024.0), expect(1.5, 1536.0)]
        );
    }

    #[test]
    fn stateful_tasks_add_the_checkpoint_manager_padding() {
        let tasks = vec![Task::stateful(TaskId::new(0, 0), 10)];
        let state = ClusterState::new(
            AssignmentConfig::default(),
            tasks,
            vec![Client::new("a", 1)],
        )
        .unwrap();
        let sizes = sizes(&state, &HeronConfig::default(), &held_of(&state));
        let Some(Ok(s)) = &sizes.as_raw()[0] else {
            panic!("sized: {sizes:?}")
        };
        assert_eq!((s.ram_mb, s.ram_share_mb), (4096.0, Some(1024.0)));
    }

    #[test]
    fn hints_shrink_unstated_tasks_and_refuse_what_cannot_fit() {
        let mut small = Client::new("a", 1);
        small.ram_mb = Some(4096);
        small.cpu = Some(2.0);
        let mut tiny = Client::new("b", 1);
        tiny.ram_mb = Some(2048);
        let state = exclaim_word(vec![small, tiny]);
        let sizes = sizes(&state, &HeronConfig::default(), &held_of(&state));
        // a: 3 tasks share 4096 − 2048 RAM and 2 − 1 CPU.
        let Some(Ok(a)) = &sizes.as_raw()[0] else {
            panic!("a sized: {sizes:?}")
        };
        assert_eq!(a.ram_share_mb, Some(2048.0 / 3.0));
        assert_eq!((a.cpu, a.cpu_share), (2.0, Some(1.0 / 3.0)));
        assert_eq!(a.ram_mb, 4096.0);
        // b: 2048 − 2048 padding leaves nothing.
        assert!(matches!(&sizes.as_raw()[1], Some(Err(why)) if why.contains("ram_mb would get 0")));
    }

    #[test]
    fn stated_demands_over_the_hint_are_refused() {
        let mut client = Client::new("a", 1);
        client.ram_mb = Some(1000);
        let mut task = stateless(0, 0);
        task.ram_mb = Some(1500);
        let state =
            ClusterState::new(AssignmentConfig::default(), vec![task], vec![client]).unwrap();
        let err = assign(&state, &HeronConfig::default(), "heron-rr");
        assert_eq!(
            err,
            Err(AssignError::Infeasible(
                "client a cannot hold the tasks heron-rr deals it: its tasks state 1500 ram_mb but it offers 1000 (Heron's round robin refuses such a packing)".into()
            ))
        );
    }

    #[test]
    fn subtopologies_with_more_stated_ram_go_first() {
        let mut tasks = vec![stateless(0, 0), stateless(1, 0), stateless(2, 0)];
        tasks[1].ram_mb = Some(512);
        tasks[2].ram_mb = Some(2048);
        tasks[2].cpu = Some(0.5);
        let state = ClusterState::new(AssignmentConfig::default(), tasks, vec![]).unwrap();
        assert_eq!(raw(&walk_order(&state)), vec![2, 1, 0]);
    }
}
