//! `heron-rcrr`: Apache Heron's `ResourceCompliantRRPacking` (Heron's
//! packing package, `org.apache.heron.packing.roundrobin`); the algorithm and
//! this port's mapping are in `docs/algorithms.md`, *Heron: RCRR*.
//!
//! **First packing** (no client has a previous assignment): Heron deals the
//! instances *strictly* round-robin over N containers (components in `HashMap`
//! order, here subtopology order; instances by index, so tasks by id), each
//! placement checked against `Σ demands + padding ≤ capacity`; on the first
//! violation it throws the attempt away and restarts with N + 1 containers.
//! Here N is the number of clients, so there is no N + 1: the first violation
//! is [`AssignError::Infeasible`], naming the task, the client whose turn it
//! was and what that client has left. (With fewer tasks than clients the deal
//! never reaches the extra clients, exactly as Heron lowers N to T.)
//!
//! **Repack** (some client has a previous assignment): every task stays on
//! its previous client while it fits there; vanished tasks are gone. The rest
//! (new tasks, tasks of lost clients, survivors that no longer fit) are dealt
//! by Heron's *flexible* round robin, in task-id order: the pointer starts at
//! the lowest-id client; each task goes to the first client, cycling from the
//! pointer, that passes the constraint, and the pointer moves just past it.
//! When no client has room, Heron would add a container and redo the repack;
//! here that is [`AssignError::Infeasible`]. Real Heron restarts a lost
//! container whole elsewhere; here its tasks take the add path. There is no
//! limit on tasks per client (Heron checks none for RCRR), and Heron's
//! removal ranking is not needed: the model names the tasks that vanish.
//!
//! Complexity: O(T) for the first packing; O(P + A·C) for a repack with P
//! previous placements and A tasks to add, each scanning at most C clients.

use crate::assignor::AssignError;
use crate::model::{ClientIx, ClusterState, Plan, TaskIx};

use super::{cpu_text, has_previous, Containers, HeronConfig};

/// Heron's RCRR on `state`: strict round robin first, flexible round robin on repack.
pub(super) fn assign(
    state: &ClusterState,
    config: &HeronConfig,
    strategy: &'static str,
) -> Result<Plan, AssignError> {
    let mut bins = Containers::new(state, config, strategy, usize::MAX);
    if bins.client_count() > 0 {
        if has_previous(state) {
            bins.keep_survivors();
            let adds = bins.unplaced();
            bins.check_minimums(&adds, config.min_instance_ram_mb, None)?;
            flexible(&mut bins, &adds)?;
        } else {
            let all: Vec<TaskIx> = bins.owner.indices().collect();
            bins.check_minimums(&all, config.min_instance_ram_mb, None)?;
            strict(&mut bins)?;
        }
    }
    Ok(bins.into_plan())
}

/// The first packing: task i (by id) to client i mod C, or the error naming
/// the first task that does not fit on the client whose turn it is.
fn strict(bins: &mut Containers) -> Result<(), AssignError> {
    let turns = bins.held.indices().cycle();
    for (t, c) in bins.owner.indices().zip(turns) {
        if !bins.fits(c, t) {
            return Err(overflow(bins, c, t));
        }
        bins.place(c, t);
    }
    Ok(())
}

/// The add path: each task of `adds` to the first client with room, cycling
/// from a pointer that starts at the lowest id and moves past each choice.
fn flexible(bins: &mut Containers, adds: &[TaskIx]) -> Result<(), AssignError> {
    let n = bins.client_count();
    // How many clients the cycle from the lowest id skips: the pointer.
    let mut pointer = 0;
    for &t in adds {
        let c = bins
            .held
            .indices()
            .cycle()
            .skip(pointer)
            .take(n)
            .find(|&c| bins.fits(c, t))
            .ok_or_else(|| bins.no_room(t))?;
        bins.place(c, t);
        pointer = (c.index() + 1) % n;
    }
    Ok(())
}

/// The error of the strict deal: task `t` does not fit on client `c`.
fn overflow(bins: &Containers, c: ClientIx, t: TaskIx) -> AssignError {
    let room = bins.room(c);
    let need = bins.demand[t];
    let mut short = Vec::new();
    if room.cpu < need.cpu {
        short.push(format!("{} cpu", cpu_text(room.cpu)));
    }
    if room.ram < need.ram {
        short.push(format!("{} ram_mb", room.ram));
    }
    AssignError::Infeasible(format!(
        "{} but client {}, whose turn it is in {}'s strict round robin, has only {} left after padding (Heron would retry with one more container; the clients are fixed)",
        bins.needs(t),
        bins.state.clients()[c.index()].id,
        bins.strategy,
        short.join(" and "),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AssignmentConfig, Client, Task, TaskId};

    fn tasks(n: u32) -> Vec<Task> {
        (0..n).map(|p| Task::stateless(TaskId::new(0, p))).collect()
    }

    fn counts(plan: &Plan) -> Vec<usize> {
        plan.clients.values().map(|c| c.active.len()).collect()
    }

    #[test]
    fn strict_deal_fails_on_the_client_whose_turn_it_is() {
        let mut small = Client::new("b", 1);
        small.cpu = Some(2.5);
        let clients = vec![Client::new("a", 1), small, Client::new("c", 1)];
        let state = ClusterState::new(AssignmentConfig::default(), tasks(5), clients).unwrap();
        // b holds 0_1 (1 + padding 1 ≤ 2.5); 0_4 would need 3 + 1 > 2.5.
        let err = assign(&state, &HeronConfig::default(), "heron-rcrr").unwrap_err();
        let AssignError::Infeasible(msg) = err else {
            panic!("{err:?}")
        };
        assert!(
            msg.starts_with(
                "task 0_4 needs 1 cpu (default) and 1024 ram_mb (default) but client b"
            ),
            "{msg}"
        );
        assert!(msg.contains("has only 0.5 cpu left after padding"), "{msg}");
    }

    #[test]
    fn repack_skips_full_clients_and_moves_the_pointer_past_each_choice() {
        // a is full (9 tasks), b has 1, c has none: new tasks go b, c, b, c.
        let a = Client::new("a", 1).with_previous_active((0..9).map(|p| TaskId::new(0, p)));
        let b = Client::new("b", 1).with_previous_active([TaskId::new(0, 9)]);
        let state = ClusterState::new(
            AssignmentConfig::default(),
            tasks(14),
            vec![a, b, Client::new("c", 1)],
        )
        .unwrap();
        let plan = assign(&state, &HeronConfig::default(), "heron-rcrr").unwrap();
        assert_eq!(counts(&plan), vec![9, 3, 2]);
        let b_plan = &plan.clients[&"b".into()];
        assert!(b_plan.active.contains(&TaskId::new(0, 10)));
        assert!(b_plan.active.contains(&TaskId::new(0, 12)));
    }

    /// RCRR has Heron's `MinRamConstraint` (192 MB) but no CPU minimum: a
    /// task of 191 MiB is refused, one of 0.01 CPU and 192 MiB packs; a
    /// repack checks the tasks it places, not those that stay.
    #[test]
    fn only_the_ram_minimum_applies() {
        let sized = |cpu: f64, ram: u64| {
            let mut t = Task::stateless(TaskId::new(0, 0));
            t.cpu = Some(cpu);
            t.ram_mb = Some(ram);
            t
        };
        let state = |t: Task, client: Client| {
            ClusterState::new(AssignmentConfig::default(), vec![t], vec![client]).unwrap()
        };
        let config = HeronConfig::default();
        assert_eq!(
            assign(&state(sized(1.0, 191), Client::new("a", 1)), &config, "heron-rcrr"),
            Err(AssignError::Infeasible(
                "task 0_0 needs 1 cpu and 191 ram_mb, under the 192 ram_mb Heron's heron-rcrr accepts for an instance".into()
            ))
        );
        let plan = assign(
            &state(sized(0.01, 192), Client::new("a", 1)),
            &config,
            "heron-rcrr",
        );
        assert_eq!(counts(&plan.unwrap()), [1]);
        let stayed = Client::new("a", 1).with_previous_active([TaskId::new(0, 0)]);
        let plan = assign(&state(sized(1.0, 191), stayed), &config, "heron-rcrr");
        assert_eq!(counts(&plan.unwrap()), [1]);
    }
}
