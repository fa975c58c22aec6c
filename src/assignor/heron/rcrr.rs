//! `heron-rcrr`: Apache Heron's `ResourceCompliantRRPacking` (Heron's
//! packing package, `org.apache.heron.packing.roundrobin`); the algorithm and
//! this port's mapping are in `docs/algorithms.md`, *Heron: RCRR*.
//!
//! **First packing** (no client has a previous assignment): Heron deals the
//! instances *strictly* round-robin over N containers (components in `HashMap`
//! order, here subtopology order; instances by index, so tasks by id), each
//! placement checked against `(Σ demands + padding) + demand ≤ capacity` in
//! CPU, RAM and disk (the Σ in Heron's order, `java_set.rs`); on the first
//! violation it throws the attempt away and restarts with N + 1 containers.
//! Here N is the number of clients, so there is no N + 1: the first violation
//! is [`AssignError::Infeasible`], naming the task, the client whose turn it
//! was and what that client has left. (With fewer tasks than clients the deal
//! never reaches the extra clients, exactly as Heron lowers N to T.)
//!
//! **Repack** (some client has a previous assignment): every task stays on
//! its previous client while it fits there; vanished tasks are gone. Heron
//! first adds ⌈(added − removed demand)⁺ / largest container⌉ containers
//! (the maximum over CPU, RAM and disk; `opening.rs`), then deals the new
//! instances by a *flexible* round robin over old and new containers by id:
//! the pointer starts at container 1; each instance goes to the first
//! container, cycling from the pointer, that passes the constraint, and the
//! pointer moves just past it. When none has room, Heron adds one more
//! container and redoes the whole repack.
//!
//! The clients are given, so here Heron's containers are the clients that
//! ran tasks, in id order, followed by that many clients without tasks,
//! lowest ids first (Heron numbers new containers after the old ones, so
//! they come last in the cycle); the rest of the clients without tasks stay
//! empty. The tasks to deal (new tasks, tasks of lost clients, survivors
//! that no longer fit) go in task-id order. When a task fits nowhere, the
//! deal starts again with the next client without tasks, and with none left
//! it is [`AssignError::Infeasible`]. When Heron would open more containers
//! than there are clients without tasks, all of them are used and the plan
//! says so. Real Heron restarts a lost container whole elsewhere; here its
//! tasks take the add path (and count as added, so about one client opens
//! for them). There is no limit on tasks per client (Heron checks none for
//! RCRR), and Heron's removal ranking is not needed: the model names the
//! tasks that vanish.
//!
//! Complexity: O(T) for the first packing; O(R·(P + A·C)) for a repack with
//! P previous placements, A tasks to add, each scanning at most C clients,
//! and R ≤ C + 1 attempts (one more client each).

use crate::assignor::strategy::AssignError;
use crate::model::{ClientIx, ClusterState, Plan, TaskIx};

use super::opening::containers_to_open;
use super::{and_list, cpu_text, has_previous, Containers, HeronConfig};

/// Heron's RCRR on `state`: strict round robin first, flexible round robin on repack.
pub(super) fn assign(
    state: &ClusterState,
    config: &HeronConfig,
    strategy: &'static str,
) -> Result<Plan, AssignError> {
    let mut bins = Containers::new(state, config, strategy, usize::MAX);
    if bins.client_count() == 0 {
        return Ok(bins.into_plan());
    }
    if has_previous(state) {
        return repack(state, config, strategy);
    }
    let all: Vec<TaskIx> = bins.owner.indices().collect();
    bins.check_minimums(&all, config.min_instance_ram_mb, None)?;
    strict(&mut bins)?;
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

/// The repack: survivors stay; Heron's containers are the clients that ran
/// tasks (by id) followed by as many clients without tasks (by id) as
/// Heron opens first; the rest is dealt by flexible round robin over them.
/// When a task fits nowhere, the whole deal starts again with one more
/// client, as Heron retries with one more container.
fn repack(
    state: &ClusterState,
    config: &HeronConfig,
    strategy: &'static str,
) -> Result<Plan, AssignError> {
    let (ran, idle): (Vec<ClientIx>, Vec<ClientIx>) = state
        .client_ixs()
        .partition(|c| !state.clients()[c.index()].previous_active.is_empty());
    let wanted = containers_to_open(state, config);
    let mut opened = usize::try_from(wanted).map_or(idle.len(), |w| w.min(idle.len()));
    loop {
        let mut bins = Containers::new(state, config, strategy, usize::MAX);
        bins.keep_survivors();
        let adds = bins.unplaced();
        bins.check_minimums(&adds, config.min_instance_ram_mb, None)?;
        let containers: Vec<ClientIx> = ran.iter().chain(&idle[..opened]).copied().collect();
        match flexible(&mut bins, &containers, &adds) {
            Ok(()) => {
                if wanted > idle.len() as u64 {
                    bins.diagnostics.push(format!(
                        "{strategy}: Heron's repack opens {wanted} container(s) before dealing the added tasks; only {} client(s) without tasks could be opened",
                        idle.len()
                    ));
                }
                return Ok(bins.into_plan());
            }
            Err(_) if opened < idle.len() => opened += 1,
            Err(t) => return Err(bins.no_room(t)),
        }
    }
}

/// Heron's flexible round robin over `containers` (in that order): each
/// task of `adds` goes to the first of them with room, cycling from a
/// pointer that starts at the first and moves just past each choice; the
/// first task that fits nowhere is the error.
fn flexible(bins: &mut Containers, containers: &[ClientIx], adds: &[TaskIx]) -> Result<(), TaskIx> {
    let n = containers.len();
    let mut pointer = 0;
    for &t in adds {
        let at = (0..n)
            .map(|i| (pointer + i) % n)
            .find(|&i| bins.fits(containers[i], t))
            .ok_or(t)?;
        bins.place(containers[at], t);
        pointer = (at + 1) % n;
    }
    Ok(())
}

/// The error of the strict deal: task `t` does not fit on client `c`.
fn overflow(bins: &Containers, c: ClientIx, t: TaskIx) -> AssignError {
    let room = bins.room(c);
    let need = bins.demand[t];
    let mut short = Vec::new();
    let (ram, disk) = (room.ram < need.ram, room.disk < need.disk);
    // CPU is short when nothing else is: the rounding of the sum decided.
    if room.cpu < need.cpu || !(ram || disk) {
        short.push(format!("{} cpu", cpu_text(room.cpu)));
    }
    if ram {
        short.push(format!("{} ram_mb", room.ram));
    }
    if disk {
        short.push(format!("{} disk_mb", room.disk));
    }
    AssignError::Infeasible(format!(
        "{} but client {}, whose turn it is in {}'s strict round robin, has only {} left after padding (Heron would retry with one more container; the clients are fixed)",
        bins.needs(t, disk),
        bins.state.clients()[c.index()].id,
        bins.strategy,
        and_list(&short),
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
