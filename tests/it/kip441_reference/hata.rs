//! The reference itself: Kafka Streams' `HighAvailabilityTaskAssignor.assign`
//! written out literally, with Kafka's class and method names, plain
//! `BTreeMap`s keyed by client id and task id, and straightforward loops.
//! Nothing here is fast on purpose: every "least loaded client" is a sort of
//! all queued clients, every balance pass visits every ordered pair.
//!
//! It follows the documented behaviour of the `kip441` strategy (its module
//! docs), which keeps Kafka's rules and orders and fixes Kafka's unspecified
//! orders as follows: tag-aware standbys left short are filled in task-id order; client ids
//! (string order) stand in for Kafka's process UUIDs in every tie.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use smoothscale::model::ACCEPT_ANY_LAG;
use smoothscale::{ClientId, ClientPlan, ClusterState, Lag, Plan, RackAwareStrategy, TaskId};

// ---------------------------------------------------------------------------
// Lags (Kafka: `ClientState.lagFor`, the caught-up predicate of the HA
// assignor, and the `(lag, process id)` "most caught-up" order)
// ---------------------------------------------------------------------------

/// Kafka's numeric value of a lag, which is what its "by lag" order sorts:
/// −3 for unknown, −2 for a running active, else the record count. So an
/// unknown lag sorts before (is "more caught up" than) the running owner.
fn lag_value(lag: Lag) -> i128 {
    match lag {
        Lag::Unknown => -3,
        Lag::Running => -2,
        Lag::Records(n) => i128::from(n),
    }
}

/// Kafka's caught-up predicate: lag −2 (running), or `acceptable.recovery.lag`
/// is `Long.MAX_VALUE` (here: at least `ACCEPT_ANY_LAG`), or
/// `0 <= lag <= acceptable.recovery.lag`. Unknown (−3) is not caught up.
fn is_caught_up(lag: Lag, acceptable_recovery_lag: u64) -> bool {
    if lag == Lag::Running || acceptable_recovery_lag >= ACCEPT_ANY_LAG {
        return true;
    }
    match lag {
        Lag::Records(n) => n <= acceptable_recovery_lag,
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// ClientState
// ---------------------------------------------------------------------------

/// Kafka's `ClientState`, reduced to what the HA assignor reads and writes.
#[derive(Debug, Clone)]
struct ClientState {
    /// Number of threads (consumers).
    capacity: u32,
    /// Assigned active tasks.
    active: BTreeSet<TaskId>,
    /// Assigned standby tasks. As in Kafka, warm-ups are standbys here; the
    /// assignor remembers separately which ones are warm-ups.
    standby: BTreeSet<TaskId>,
    /// `taskLagTotals`: the lag of this client on every stateful task (a task
    /// it reported nothing for has lag = the task's end offset).
    lags: BTreeMap<TaskId, Lag>,
    /// Client tags (KIP-708).
    tags: BTreeMap<String, String>,
}

impl ClientState {
    fn assigned_task_count(&self) -> usize {
        self.active.len() + self.standby.len()
    }

    /// `assignedTaskLoad`: actives and standbys per thread, as a double.
    fn assigned_task_load(&self) -> f64 {
        self.assigned_task_count() as f64 / f64::from(self.capacity)
    }

    /// `activeTaskLoad`: actives per thread, as a double.
    fn active_task_load(&self) -> f64 {
        self.active.len() as f64 / f64::from(self.capacity)
    }

    fn has_assigned_task(&self, t: TaskId) -> bool {
        self.active.contains(&t) || self.standby.contains(&t)
    }

    fn has_standby_task(&self, t: TaskId) -> bool {
        self.standby.contains(&t)
    }

    fn lag_for(&self, t: TaskId) -> Lag {
        self.lags[&t]
    }

    // Kafka's ClientState throws on a double assignment or a missing task;
    // so do these.

    fn assign_active(&mut self, t: TaskId) {
        assert!(!self.has_assigned_task(t), "{t} assigned twice");
        self.active.insert(t);
    }

    fn assign_standby(&mut self, t: TaskId) {
        assert!(!self.has_assigned_task(t), "{t} assigned twice");
        self.standby.insert(t);
    }

    fn unassign_active(&mut self, t: TaskId) {
        assert!(self.active.remove(&t), "{t} is not active here");
    }

    fn unassign_standby(&mut self, t: TaskId) {
        assert!(self.standby.remove(&t), "{t} is not a standby here");
    }

    fn tasks(&self, role: Role) -> &BTreeSet<TaskId> {
        match role {
            Role::Active => &self.active,
            Role::Standby => &self.standby,
        }
    }

    fn assign(&mut self, role: Role, t: TaskId) {
        match role {
            Role::Active => self.assign_active(t),
            Role::Standby => self.assign_standby(t),
        }
    }

    fn unassign(&mut self, role: Role, t: TaskId) {
        match role {
            Role::Active => self.unassign_active(t),
            Role::Standby => self.unassign_standby(t),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Active,
    Standby,
}

/// Kafka's `SortedMap<ProcessId, ClientState>`: clients in id order.
type Clients = BTreeMap<ClientId, ClientState>;

// ---------------------------------------------------------------------------
// ConstrainedPrioritySet
// ---------------------------------------------------------------------------

/// Kafka's `ConstrainedPrioritySet`: a queue of clients polled in order of
/// `(weight, client id)`, where the weight is read from the client's current
/// state, and a poll returns the first client that passes the set's
/// constraint and the poll's extra filter. The returned client leaves the
/// queue (until offered again); rejected clients stay.
///
/// Naively: the queue is a set of ids, and every poll sorts it afresh.
struct ConstrainedPrioritySet<'a> {
    /// `(clients, client, task) -> may this client take the task`.
    constraint: Box<Constraint<'a>>,
    weight: fn(&ClientState) -> f64,
    queued: BTreeSet<ClientId>,
}

/// A `ConstrainedPrioritySet`'s constraint.
type Constraint<'a> = dyn Fn(&Clients, &ClientId, TaskId) -> bool + 'a;

impl<'a> ConstrainedPrioritySet<'a> {
    fn new(
        constraint: impl Fn(&Clients, &ClientId, TaskId) -> bool + 'a,
        weight: fn(&ClientState) -> f64,
    ) -> Self {
        ConstrainedPrioritySet {
            constraint: Box::new(constraint),
            weight,
            queued: BTreeSet::new(),
        }
    }

    fn offer(&mut self, client: &ClientId) {
        self.queued.insert(client.clone());
    }

    fn offer_all(&mut self, clients: &Clients) {
        for id in clients.keys() {
            self.offer(id);
        }
    }

    fn poll(
        &mut self,
        clients: &Clients,
        task: TaskId,
        extra: impl Fn(&ClientId) -> bool,
    ) -> Option<ClientId> {
        let mut order: Vec<(f64, ClientId)> = self
            .queued
            .iter()
            .map(|id| ((self.weight)(&clients[id]), id.clone()))
            .collect();
        // Java's Double.compare on finite non-negative loads, then the id.
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        let (_, found) = order
            .into_iter()
            .find(|(_, id)| (self.constraint)(clients, id, task) && extra(id))?;
        self.queued.remove(&found);
        Some(found)
    }
}

// ---------------------------------------------------------------------------
// HighAvailabilityTaskAssignor.assign
// ---------------------------------------------------------------------------

/// The reference plan of `state`, or `None` when the state asks for a
/// KIP-925 rack-aware optimisation that could change the placement (the
/// reference does not reproduce the min-cost flow; see
/// [`rack_optimisation_is_a_no_op`]).
pub fn assign(state: &ClusterState) -> Option<Plan> {
    if !rack_optimisation_is_a_no_op(state) {
        return None;
    }
    let config = state.config();

    // The inputs, as Kafka's HighAvailabilityTaskAssignor receives them: a
    // sorted map of client states, all tasks, and the stateful tasks.
    let mut clients: Clients = BTreeMap::new();
    for client in state.clients() {
        let mut lags = BTreeMap::new();
        for task in state.tasks().iter().filter(|t| t.stateful) {
            let lag = client
                .lags
                .get(&task.id)
                .copied()
                .unwrap_or(Lag::Records(task.end_offset));
            lags.insert(task.id, lag);
        }
        let client_state = ClientState {
            capacity: client.capacity,
            active: BTreeSet::new(),
            standby: BTreeSet::new(),
            lags,
            tags: client.tags.clone(),
        };
        clients.insert(client.id.clone(), client_state);
    }
    let all_tasks: BTreeSet<TaskId> = state.tasks().iter().map(|t| t.id).collect();
    let stateful_tasks: BTreeSet<TaskId> = state
        .tasks()
        .iter()
        .filter(|t| t.stateful)
        .map(|t| t.id)
        .collect();

    // Which replicas are warm-ups, per client (Kafka's `warmups` map).
    let mut warmups: BTreeMap<ClientId, BTreeSet<TaskId>> = BTreeMap::new();
    let mut probing_rebalance_needed = false;

    if !clients.is_empty() {
        // Step 1: the stateful actives, balanced and state-unaware.
        assign_active_stateful_tasks(&mut clients, &stateful_tasks);

        // Step 2: the standbys, balanced and state-unaware.
        if config.num_standby_replicas > 0 {
            assign_standby_replica_tasks(
                &mut clients,
                &stateful_tasks,
                config.num_standby_replicas as usize,
                &config.rack_aware_assignment_tags,
            );
        }

        // Step 3: give tasks back to caught-up clients, with warm-ups on the
        // balanced destinations. One budget for both phases.
        let mut remaining_warmup_replicas = i64::from(config.max_warmup_replicas);
        let tasks_to_caught_up_clients =
            tasks_to_caught_up_clients(&stateful_tasks, &clients, config.acceptable_recovery_lag);
        let tasks_to_clients_by_lag = tasks_to_clients_by_lag(&stateful_tasks, &clients);
        let lags = Lags {
            caught_up: &tasks_to_caught_up_clients,
            by_lag: &tasks_to_clients_by_lag,
        };
        let active_movements = assign_active_task_movements(
            &lags,
            &mut clients,
            &mut warmups,
            &mut remaining_warmup_replicas,
        );
        let standby_movements = assign_standby_task_movements(
            &lags,
            &mut clients,
            &mut warmups,
            &mut remaining_warmup_replicas,
        );

        // Step 4: the stateless actives, by active load.
        let stateless: BTreeSet<TaskId> = all_tasks.difference(&stateful_tasks).copied().collect();
        assign_stateless_active_tasks(&mut clients, &stateless);

        // Step 5: probe again iff any movement was scheduled (actives) or
        // performed (standbys).
        probing_rebalance_needed = active_movements + standby_movements > 0;
    }

    // The plan: per client its actives, its standbys that are not warm-ups,
    // and its warm-ups.
    let no_warmups = BTreeSet::new();
    let plans = clients
        .iter()
        .map(|(id, client)| {
            let warm = warmups.get(id).unwrap_or(&no_warmups);
            let plan = ClientPlan {
                active: client.active.clone(),
                standby: client.standby.difference(warm).copied().collect(),
                warmup: warm.clone(),
            };
            (id.clone(), plan)
        })
        .collect();
    Some(Plan {
        strategy: "kip441".to_string(),
        clients: plans,
        followup_rebalance_ms: probing_rebalance_needed
            .then_some(config.probing_rebalance_interval_ms),
        followup_when_caught_up: BTreeSet::new(),
        diagnostics: Vec::new(),
        containers: BTreeMap::new(),
    })
}

/// Whether KIP-925's rack-aware optimisation leaves the placement as it is,
/// so that this reference (which has no min-cost flow) still applies:
///
/// - `rack_aware_strategy = none`;
/// - or an enabling condition fails (as the `kip441` docs state them: every
///   client has a rack, every task has input-partition racks, and with
///   standbys every stateful task has changelog racks), so Kafka skips it;
/// - or `min_traffic` where every task's racks (input, and changelog for
///   stateful tasks) contain every client's rack: then every placement has
///   traffic cost 0, the current placement is already of minimal cost, and
///   the flow keeps it (Kafka's cycle cancelling finds no negative cycle).
///
/// `balance_subtopology` with racks is not covered: Kafka restarts it from a
/// max flow, so it can move tasks even at zero traffic cost.
fn rack_optimisation_is_a_no_op(state: &ClusterState) -> bool {
    let config = state.config();
    if config.rack_aware_strategy == RackAwareStrategy::None {
        return true;
    }
    let client_racks: Option<BTreeSet<&String>> =
        state.clients().iter().map(|c| c.rack.as_ref()).collect();
    let Some(client_racks) = client_racks else {
        return true; // a client without a rack: disabled
    };
    if state.tasks().iter().any(|t| t.racks.is_empty()) {
        return true; // a task without input racks: disabled
    }
    if config.num_standby_replicas > 0
        && state
            .tasks()
            .iter()
            .any(|t| t.stateful && t.changelog_racks.is_empty())
    {
        return true; // a stateful task without changelog racks: disabled
    }
    if config.rack_aware_strategy != RackAwareStrategy::MinTraffic {
        return false;
    }
    state.tasks().iter().all(|t| {
        client_racks.iter().all(|&r| t.racks.contains(r))
            && (!t.stateful || client_racks.iter().all(|&r| t.changelog_racks.contains(r)))
    })
}

// ---------------------------------------------------------------------------
// Step 1: assignActiveStatefulTasks
// ---------------------------------------------------------------------------

/// Round robin of the stateful tasks (ascending) over the clients (ascending,
/// the iterator restarting when exhausted), ignoring capacity; then
/// `balanceTasksOverThreads` for actives, any pair allowed.
fn assign_active_stateful_tasks(clients: &mut Clients, stateful_tasks: &BTreeSet<TaskId>) {
    let ids: Vec<ClientId> = clients.keys().cloned().collect();
    let mut next = ids.iter().cycle();
    for &task in stateful_tasks {
        let id = next.next().expect("at least one client");
        clients.get_mut(id).unwrap().assign_active(task);
    }
    balance_tasks_over_threads(clients, Role::Active, |_, _| true);
}

/// Kafka's `balanceTasksOverThreads`: repeat passes over every ordered pair
/// (source, destination) of clients in id order; for each, walk a snapshot of
/// the source's `role` tasks (ascending) and move each one the destination
/// does not hold, while `shouldMove` says a move still strictly reduces the
/// pair's per-thread skew; stop after a pass that moved nothing.
fn balance_tasks_over_threads(
    clients: &mut Clients,
    role: Role,
    may_move: impl Fn(&ClientState, &ClientState) -> bool,
) {
    let ids: Vec<ClientId> = clients.keys().cloned().collect();
    loop {
        let mut moved_any = false;
        for src in &ids {
            for dst in &ids {
                if src == dst {
                    continue;
                }
                // (The snapshot is only worth taking when a move is possible;
                // taking it first changes nothing.)
                if !should_move(&clients[src], &clients[dst]) {
                    continue;
                }
                let snapshot: Vec<TaskId> = clients[src].tasks(role).iter().copied().collect();
                let mut candidates = snapshot.into_iter();
                while should_move(&clients[src], &clients[dst]) {
                    let Some(task) = candidates.next() else {
                        break;
                    };
                    if !clients[dst].has_assigned_task(task)
                        && may_move(&clients[src], &clients[dst])
                    {
                        clients.get_mut(src).unwrap().unassign(role, task);
                        clients.get_mut(dst).unwrap().assign(role, task);
                        moved_any = true;
                    }
                }
            }
        }
        if !moved_any {
            return;
        }
    }
}

/// Kafka's `shouldMove`: moving one task from `src` to `dst` must not invert
/// their per-thread skew (total assigned load) and must strictly reduce it.
fn should_move(src: &ClientState, dst: &ClientState) -> bool {
    let skew = src.assigned_task_load() - dst.assigned_task_load();
    if skew <= 0.0 {
        return false;
    }
    let dst_after = (dst.assigned_task_count() as f64 + 1.0) / f64::from(dst.capacity);
    let src_after = (src.assigned_task_count() as f64 - 1.0) / f64::from(src.capacity);
    let proposed = src_after - dst_after;
    if proposed < 0.0 {
        return false;
    }
    proposed < skew
}

// ---------------------------------------------------------------------------
// Step 2: assignStandbyReplicaTasks
// ---------------------------------------------------------------------------

/// Kafka's `StandbyTaskAssignorFactory` inside the HA assignor (no rack
/// helper): configured tag keys → `ClientTagAwareStandbyTaskAssignor`, else
/// `DefaultStandbyTaskAssignor`; then balance the standbys over threads with
/// the assignor's `isAllowedTaskMovement`.
fn assign_standby_replica_tasks(
    clients: &mut Clients,
    stateful_tasks: &BTreeSet<TaskId>,
    num_standby_replicas: usize,
    rack_aware_assignment_tags: &[String],
) {
    if rack_aware_assignment_tags.is_empty() {
        default_standby_task_assignor(clients, stateful_tasks, num_standby_replicas);
        balance_tasks_over_threads(clients, Role::Standby, |_, _| true);
    } else {
        client_tag_aware_standby_task_assignor(
            clients,
            stateful_tasks,
            num_standby_replicas,
            rack_aware_assignment_tags,
        );
        // ClientTagAwareStandbyTaskAssignor.isAllowedTaskMovement: every tag
        // of the source has the same value on the destination.
        balance_tasks_over_threads(clients, Role::Standby, |src, dst| {
            src.tags.iter().all(|(k, v)| dst.tags.get(k) == Some(v))
        });
    }
}

/// The constraint of the standby assignors' queue: the client does not hold
/// the task in any role.
fn does_not_hold(clients: &Clients, c: &ClientId, t: TaskId) -> bool {
    !clients[c].has_assigned_task(t)
}

/// Kafka's `DefaultStandbyTaskAssignor`: for each stateful task (ascending),
/// `num.standby.replicas` times, the least-loaded client (assigned load,
/// then id) that does not hold it; stop early when there is none.
fn default_standby_task_assignor(
    clients: &mut Clients,
    stateful_tasks: &BTreeSet<TaskId>,
    num_standby_replicas: usize,
) {
    let mut pq = ConstrainedPrioritySet::new(does_not_hold, ClientState::assigned_task_load);
    pq.offer_all(clients);
    for &task in stateful_tasks {
        for _ in 0..num_standby_replicas {
            let Some(client) = pq.poll(clients, task, |_| true) else {
                break; // not enough clients: fewer standbys
            };
            clients.get_mut(&client).unwrap().assign_standby(task);
            pq.offer(&client);
        }
    }
}

/// Kafka's `ClientTagAwareStandbyTaskAssignor` (KIP-708).
fn client_tag_aware_standby_task_assignor(
    clients: &mut Clients,
    stateful_tasks: &BTreeSet<TaskId>,
    num_standby_replicas: usize,
    rack_aware_assignment_tags: &[String],
) {
    // fillClientsTagStatistics: every tag key's values, and the clients
    // carrying each (key, value).
    let mut tag_key_to_values: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut tag_entry_to_clients: BTreeMap<(String, String), BTreeSet<ClientId>> = BTreeMap::new();
    for (id, client) in clients.iter() {
        for (k, v) in &client.tags {
            tag_key_to_values
                .entry(k.clone())
                .or_default()
                .insert(v.clone());
            tag_entry_to_clients
                .entry((k.clone(), v.clone()))
                .or_default()
                .insert(id.clone());
        }
    }

    let mut pending_standby_tasks_to_number_remaining: BTreeMap<TaskId, usize> = BTreeMap::new();
    let mut pq = ConstrainedPrioritySet::new(does_not_hold, ClientState::assigned_task_load);

    for &task in stateful_tasks {
        let owners: Vec<ClientId> = clients
            .iter()
            .filter(|(_, c)| c.active.contains(&task))
            .map(|(id, _)| id.clone())
            .collect();
        for active_client in owners {
            // assignStandbyTasksToClientsWithDifferentTags
            pq.offer_all(clients);
            let mut count_of_used_clients = 1; // the active's client
            let mut remaining = num_standby_replicas;
            let mut blocked: BTreeMap<(String, String), BTreeSet<ClientId>> = BTreeMap::new();
            let mut last_used = active_client;
            loop {
                // updateClientsOnAlreadyUsedTagEntries: for each configured
                // tag key the last used client carries, block the clients with
                // its value, unless every value of the key is already used —
                // then the key stops constraining ("partial rack awareness").
                for key in rack_aware_assignment_tags {
                    let Some(value) = clients[&last_used].tags.get(key) else {
                        continue;
                    };
                    if tag_key_to_values[key].len() <= count_of_used_clients {
                        blocked.retain(|(k, _), _| k != key);
                    } else {
                        blocked.insert(
                            (key.clone(), value.clone()),
                            tag_entry_to_clients[&(key.clone(), value.clone())].clone(),
                        );
                    }
                }
                let not_blocked = |c: &ClientId| !blocked.values().any(|set| set.contains(c));
                let Some(client) = pq.poll(clients, task, not_blocked) else {
                    break;
                };
                count_of_used_clients += 1;
                remaining -= 1;
                clients.get_mut(&client).unwrap().assign_standby(task);
                last_used = client;
                if remaining == 0 {
                    break;
                }
            }
            if remaining > 0 {
                pending_standby_tasks_to_number_remaining.insert(task, remaining);
            } else {
                pending_standby_tasks_to_number_remaining.remove(&task);
            }
        }
    }

    // Whatever could not be spread over tag values: least loaded, in task
    // order (Kafka iterates a hash map here; the kip441 docs fix task order).
    pq.offer_all(clients);
    for (task, remaining) in pending_standby_tasks_to_number_remaining {
        for _ in 0..remaining {
            let Some(client) = pq.poll(clients, task, |_| true) else {
                break;
            };
            clients.get_mut(&client).unwrap().assign_standby(task);
            pq.offer(&client);
        }
    }
}

// ---------------------------------------------------------------------------
// Step 3: TaskMovement
// ---------------------------------------------------------------------------

/// `tasksToCaughtUpClients`: for each stateful task, the clients caught up on it.
fn tasks_to_caught_up_clients(
    stateful_tasks: &BTreeSet<TaskId>,
    clients: &Clients,
    acceptable_recovery_lag: u64,
) -> BTreeMap<TaskId, BTreeSet<ClientId>> {
    let mut result = BTreeMap::new();
    for &task in stateful_tasks {
        let caught_up: BTreeSet<ClientId> = clients
            .iter()
            .filter(|(_, c)| is_caught_up(c.lag_for(task), acceptable_recovery_lag))
            .map(|(id, _)| id.clone())
            .collect();
        result.insert(task, caught_up);
    }
    result
}

/// `tasksToClientByLag`: for each stateful task, every client sorted by
/// (lag value, client id).
fn tasks_to_clients_by_lag(
    stateful_tasks: &BTreeSet<TaskId>,
    clients: &Clients,
) -> BTreeMap<TaskId, Vec<ClientId>> {
    let mut result = BTreeMap::new();
    for &task in stateful_tasks {
        let mut by_lag: Vec<ClientId> = clients.keys().cloned().collect();
        by_lag.sort_by(|a, b| {
            lag_value(clients[a].lag_for(task))
                .cmp(&lag_value(clients[b].lag_for(task)))
                .then_with(|| a.cmp(b))
        });
        result.insert(task, by_lag);
    }
    result
}

/// The two lag views the movements read.
struct Lags<'a> {
    caught_up: &'a BTreeMap<TaskId, BTreeSet<ClientId>>,
    by_lag: &'a BTreeMap<TaskId, Vec<ClientId>>,
}

impl Lags<'_> {
    /// `taskIsNotCaughtUpOnClientAndOtherMoreCaughtUpClientsExist`.
    fn needs_move(&self, clients: &Clients, task: TaskId, client: &ClientId) -> bool {
        if self.caught_up[&task].contains(client) {
            return false;
        }
        let most = &self.by_lag[&task][0];
        lag_value(clients[most].lag_for(task)) < lag_value(clients[client].lag_for(task))
    }

    /// The clients before `destination` in the task's by-lag order, in that order.
    fn more_caught_up_than<'s>(
        &'s self,
        task: TaskId,
        destination: &'s ClientId,
    ) -> impl Iterator<Item = &'s ClientId> + 's {
        self.by_lag[&task]
            .iter()
            .take_while(move |c| *c != destination)
    }
}

/// Kafka's `TaskMovement`: a task to move away from `destination` (the
/// client the balanced placement chose, which will get a warm-up).
#[derive(Debug, Clone, PartialEq, Eq)]
struct TaskMovement {
    task: TaskId,
    destination: ClientId,
    number_of_caught_up_clients: usize,
}

/// Kafka's movement comparator: fewest caught-up clients, then task id.
/// Two movements of one task compare equal.
fn by_priority(a: &TaskMovement, b: &TaskMovement) -> Ordering {
    (a.number_of_caught_up_clients, a.task).cmp(&(b.number_of_caught_up_clients, b.task))
}

/// Java's `PriorityQueue<TaskMovement>`, literally: an array heap with
/// OpenJDK's `offer` (sift up) and `poll` (sift down). Equal movements leave
/// in heap-position order, which is what Kafka serves.
struct MovementQueue(Vec<TaskMovement>);

impl MovementQueue {
    fn offer(&mut self, x: TaskMovement) {
        let mut k = self.0.len();
        self.0.push(x.clone());
        while k > 0 {
            let parent = (k - 1) >> 1;
            if by_priority(&x, &self.0[parent]) != Ordering::Less {
                break;
            }
            self.0[k] = self.0[parent].clone();
            k = parent;
        }
        self.0[k] = x;
    }

    fn poll(&mut self) -> Option<TaskMovement> {
        let x = self.0.pop()?;
        if self.0.is_empty() {
            return Some(x);
        }
        let result = self.0[0].clone();
        let n = self.0.len();
        let mut k = 0;
        while k < n >> 1 {
            let mut child = (k << 1) + 1;
            if child + 1 < n && by_priority(&self.0[child], &self.0[child + 1]) == Ordering::Greater
            {
                child += 1;
            }
            if by_priority(&x, &self.0[child]) != Ordering::Greater {
                break;
            }
            self.0[k] = self.0[child].clone();
            k = child;
        }
        self.0[k] = x;
        Some(result)
    }
}

/// Swaps roles: `source`'s standby of `task` becomes the active, the
/// destination's active a standby. Costs no warm-up budget.
fn swap_standby_and_active(
    clients: &mut Clients,
    task: TaskId,
    source: &ClientId,
    dest: &ClientId,
) {
    let s = clients.get_mut(source).unwrap();
    s.unassign_standby(task);
    s.assign_active(task);
    let d = clients.get_mut(dest).unwrap();
    d.unassign_active(task);
    d.assign_standby(task);
}

/// Moves the active of `task` from the destination to `source`; the
/// destination keeps a warm-up while the budget lasts. The budget is
/// decremented on every attempt, going below zero.
fn move_active_and_try_to_warm_up(
    clients: &mut Clients,
    task: TaskId,
    source: &ClientId,
    dest: &ClientId,
    warmups: &mut BTreeMap<ClientId, BTreeSet<TaskId>>,
    remaining_warmup_replicas: &mut i64,
) {
    clients.get_mut(source).unwrap().assign_active(task);
    let budget_left = *remaining_warmup_replicas > 0;
    *remaining_warmup_replicas -= 1;
    let d = clients.get_mut(dest).unwrap();
    d.unassign_active(task);
    if budget_left {
        d.assign_standby(task);
        warmups.entry(dest.clone()).or_default().insert(task);
    }
}

/// The caught-up constraint of the movements' queue.
fn caught_up_constraint<'a>(
    lags: &'a Lags<'a>,
) -> impl Fn(&Clients, &ClientId, TaskId) -> bool + 'a {
    move |_, c, t| lags.caught_up[&t].contains(c)
}

/// Kafka's `assignActiveTaskMovements`; returns the number of movements scheduled.
fn assign_active_task_movements(
    lags: &Lags<'_>,
    clients: &mut Clients,
    warmups: &mut BTreeMap<ClientId, BTreeSet<TaskId>>,
    remaining_warmup_replicas: &mut i64,
) -> usize {
    let mut caught_up_clients_by_load =
        ConstrainedPrioritySet::new(caught_up_constraint(lags), ClientState::assigned_task_load);
    let mut movements = MovementQueue(Vec::new());
    for (id, client) in clients.iter() {
        for &task in &client.active {
            if lags.needs_move(clients, task, id) {
                movements.offer(TaskMovement {
                    task,
                    destination: id.clone(),
                    number_of_caught_up_clients: lags.caught_up[&task].len(),
                });
            }
        }
        caught_up_clients_by_load.offer(id);
    }
    let scheduled = movements.0.len();

    while let Some(movement) = movements.poll() {
        let task = movement.task;
        let dest = &movement.destination;
        // (a) a caught-up client holding a standby: swap roles.
        let standby =
            caught_up_clients_by_load.poll(clients, task, |c| clients[c].has_standby_task(task));
        if let Some(source) = standby {
            swap_standby_and_active(clients, task, &source, dest);
            caught_up_clients_by_load.offer(&source);
            caught_up_clients_by_load.offer(dest);
            continue;
        }
        // (b) the least-loaded caught-up client: move, warm up the destination.
        if let Some(source) = caught_up_clients_by_load.poll(clients, task, |_| true) {
            move_active_and_try_to_warm_up(
                clients,
                task,
                &source,
                dest,
                warmups,
                remaining_warmup_replicas,
            );
            caught_up_clients_by_load.offer(&source);
            caught_up_clients_by_load.offer(dest);
            continue;
        }
        // (c) nobody is caught up: the most caught-up client (KAFKA-13600).
        let source = lags
            .more_caught_up_than(task, dest)
            .next()
            .expect("a movement implies a more caught-up client")
            .clone();
        if clients[&source].has_standby_task(task) {
            swap_standby_and_active(clients, task, &source, dest);
        } else {
            move_active_and_try_to_warm_up(
                clients,
                task,
                &source,
                dest,
                warmups,
                remaining_warmup_replicas,
            );
        }
        caught_up_clients_by_load.offer(&source);
        caught_up_clients_by_load.offer(dest);
    }
    scheduled
}

/// Kafka's `assignStandbyTaskMovements`; returns the number of movements performed.
fn assign_standby_task_movements(
    lags: &Lags<'_>,
    clients: &mut Clients,
    warmups: &mut BTreeMap<ClientId, BTreeSet<TaskId>>,
    remaining_warmup_replicas: &mut i64,
) -> usize {
    let mut caught_up_clients_by_load =
        ConstrainedPrioritySet::new(caught_up_constraint(lags), ClientState::assigned_task_load);
    let mut movements = MovementQueue(Vec::new());
    for (id, client) in clients.iter() {
        for &task in &client.standby {
            // Warm-ups planted by the active phase stay where they are.
            if warmups.get(id).is_some_and(|w| w.contains(&task)) {
                continue;
            }
            if lags.needs_move(clients, task, id) {
                movements.offer(TaskMovement {
                    task,
                    destination: id.clone(),
                    number_of_caught_up_clients: lags.caught_up[&task].len(),
                });
            }
        }
        caught_up_clients_by_load.offer(id);
    }

    let mut moved = 0;
    while let Some(movement) = movements.poll() {
        let task = movement.task;
        let dest = &movement.destination;
        let eligible = |c: &ClientId| !clients[c].has_assigned_task(task);
        // The least-loaded caught-up client not holding the task, else the
        // first more caught-up client (by lag) not holding it.
        let source = caught_up_clients_by_load
            .poll(clients, task, eligible)
            .or_else(|| {
                lags.more_caught_up_than(task, dest)
                    .find(|c| eligible(c))
                    .cloned()
            });
        let Some(source) = source else {
            continue; // nowhere to put it: it stays, not counted
        };
        clients.get_mut(&source).unwrap().assign_standby(task);
        let budget_left = *remaining_warmup_replicas > 0;
        *remaining_warmup_replicas -= 1;
        if budget_left {
            // The destination keeps its copy, now as a warm-up. (Kafka does
            // not record it in `warmups`; the movement list is already built,
            // so recording it here only labels it in the plan.)
            warmups.entry(dest.clone()).or_default().insert(task);
        } else {
            clients.get_mut(dest).unwrap().unassign_standby(task);
        }
        caught_up_clients_by_load.offer(&source);
        caught_up_clients_by_load.offer(dest);
        moved += 1;
    }
    moved
}

// ---------------------------------------------------------------------------
// Step 4: assignStatelessActiveTasks
// ---------------------------------------------------------------------------

/// Each stateless task (ascending) to the client with the least active load
/// (then lowest id); previous owners are ignored.
fn assign_stateless_active_tasks(clients: &mut Clients, stateless_tasks: &BTreeSet<TaskId>) {
    let mut pq = ConstrainedPrioritySet::new(|_, _, _| true, ClientState::active_task_load);
    pq.offer_all(clients);
    for &task in stateless_tasks {
        let client = pq
            .poll(clients, task, |_| true)
            .expect("at least one client");
        clients.get_mut(&client).unwrap().assign_active(task);
        pq.offer(&client);
    }
}
