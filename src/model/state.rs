//! [`ClusterState`]: everything an assignor sees, valid by construction.

use std::collections::{BTreeMap, BTreeSet};

use super::config::{MAX_TAG_KEYS, MAX_TAG_KEY_LEN, MAX_TAG_VALUE_LEN};
use super::error::{quote, ECHO_MAX_CHARS};
use super::ix::{MAX_CLIENTS, MAX_TASKS};
use super::task_index::TaskIndex;
use super::{
    AssignmentConfig, Client, ClientId, Container, ContainerId, InputError, Lag, Task, TaskId,
};

/// Tasks, clients with their lags and previous assignment, and the config.
///
/// Built only by [`ClusterState::new`], which checks every rule of the model;
/// an invalid state cannot exist. Tasks are kept sorted by id and clients by id.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterState {
    config: AssignmentConfig,
    tasks: Vec<Task>,
    clients: Vec<Client>,
    task_index: TaskIndex,
    /// Columns of `tasks`, for the assignors' passes over every task.
    end_offsets: Vec<u64>,
    stateful_flags: Vec<bool>,
    previous_containers: BTreeMap<ContainerId, Container>,
    observed_restore_rate: Option<u64>,
}

impl ClusterState {
    /// Checks and builds a state. Errors name the offending field by its
    /// position in the given lists (`clients[3].capacity`).
    ///
    /// # Errors
    ///
    /// An [`InputError`] naming the first field that breaks a rule: the
    /// configuration, duplicate or malformed ids, lags or replicas of unknown
    /// or stateless tasks, overlapping roles, tag limits, sizes past
    /// `MAX_TASKS` or `MAX_CLIENTS`.
    pub fn new(
        config: AssignmentConfig,
        tasks: Vec<Task>,
        clients: Vec<Client>,
    ) -> Result<Self, InputError> {
        config.check()?;
        check_limits(tasks.len(), clients.len())?;
        let input_order = InputOrder::new(check_tasks(&tasks)?);
        check_clients(&clients, &tasks, &input_order)?;
        let mut tasks = tasks;
        let mut clients = clients;
        tasks.sort_by_key(|t| t.id);
        clients.sort_by(|a, b| a.id.cmp(&b.id));
        // The ids sorted are the ids `input_order` indexes: reuse its index.
        let task_index = input_order.index;
        let end_offsets = tasks.iter().map(|t| t.end_offset).collect();
        let stateful_flags = tasks.iter().map(|t| t.stateful).collect();
        Ok(ClusterState {
            config,
            tasks,
            clients,
            task_index,
            end_offsets,
            stateful_flags,
            previous_containers: BTreeMap::new(),
            observed_restore_rate: None,
        })
    }

    /// The same state with the containers of the previous plan (Samza's
    /// stored task → container mapping and each container's last client;
    /// see [`Container`]), checked.
    ///
    /// A record may name a client that has left (the container's host is
    /// gone) and tasks the state no longer has (the stored mapping outlives
    /// a task); those are facts for the strategy to read, not errors.
    ///
    /// # Errors
    ///
    /// An [`InputError`] naming the first record that breaks a rule,
    /// `previous_containers[K]` in the order given: an empty name or client
    /// id, a name given twice, a task a record holds both as active and as
    /// standby, or a task active in two records.
    pub fn with_previous_containers(
        mut self,
        containers: Vec<(ContainerId, Container)>,
    ) -> Result<Self, InputError> {
        self.previous_containers = check_containers(containers)?;
        Ok(self)
    }

    /// The containers of the previous plan, by name (empty when the state
    /// carries none).
    pub fn previous_containers(&self) -> &BTreeMap<ContainerId, Container> {
        &self.previous_containers
    }

    /// The same state with the rate at which one client restored its
    /// replicas' changelogs (standbys and warm-ups together: a client shares
    /// its restore rate among them), in records per second, as the group
    /// leader observed it between the last two rebalances (the lags it
    /// reported then and now; none when the leader has no observation). A
    /// strategy may use it to predict when warm-ups catch up.
    ///
    /// # Errors
    ///
    /// An [`InputError`] at `observed_restore_rate` when the rate is 0.
    pub fn with_observed_restore_rate(mut self, rate: Option<u64>) -> Result<Self, InputError> {
        if rate == Some(0) {
            return Err(InputError::new(
                "observed_restore_rate",
                "must be at least 1 (records per second), got 0",
            ));
        }
        self.observed_restore_rate = rate;
        Ok(self)
    }

    /// The restore rate the group leader observed, records per second per
    /// client ([`ClusterState::with_observed_restore_rate`]).
    pub fn observed_restore_rate(&self) -> Option<u64> {
        self.observed_restore_rate
    }

    /// The assignment settings.
    pub fn config(&self) -> &AssignmentConfig {
        &self.config
    }

    /// All tasks, sorted by id.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The ids of [`ClusterState::tasks`], in the same order, as one compact
    /// list (cheaper to read by position than the tasks themselves).
    pub fn task_ids(&self) -> &[TaskId] {
        self.task_index.ids()
    }

    /// The end offset of every task of [`ClusterState::tasks`], in the same
    /// order, as one compact list.
    pub fn end_offsets(&self) -> &[u64] {
        &self.end_offsets
    }

    /// Whether each task of [`ClusterState::tasks`] is stateful, in the same
    /// order, as one compact list.
    pub fn stateful_flags(&self) -> &[bool] {
        &self.stateful_flags
    }

    /// All clients, sorted by id.
    pub fn clients(&self) -> &[Client] {
        &self.clients
    }

    /// The task with this id.
    pub fn task(&self, id: TaskId) -> Option<&Task> {
        self.task_index.position(id).map(|i| &self.tasks[i])
    }

    /// The position of a task in [`ClusterState::tasks`].
    pub fn task_position(&self, id: TaskId) -> Option<usize> {
        self.task_index.position(id)
    }

    /// The client with this id.
    pub fn client(&self, id: &ClientId) -> Option<&Client> {
        self.clients
            .binary_search_by(|c| c.id.cmp(id))
            .ok()
            .map(|i| &self.clients[i])
    }

    /// The distinct values the clients carry for the tag `key` (a client
    /// without the tag carries none).
    pub fn tag_values(&self, key: &str) -> BTreeSet<&str> {
        self.clients
            .iter()
            .filter_map(|client| client.tags.get(key).map(String::as_str))
            .collect()
    }

    /// The lag of `client` on stateful `task`: the reported lag, or the task's
    /// end offset when the client reported none (no local state).
    pub fn lag(&self, client: &Client, task: &Task) -> Lag {
        client
            .lags
            .get(&task.id)
            .copied()
            .unwrap_or(Lag::Records(task.end_offset))
    }

    /// The same state with other settings, checked again.
    ///
    /// # Errors
    ///
    /// An [`InputError`] when `config` breaks a rule of
    /// [`AssignmentConfig::check`].
    pub fn with_config(&self, config: AssignmentConfig) -> Result<Self, InputError> {
        config.check()?;
        Ok(ClusterState {
            config,
            ..self.clone()
        })
    }
}

/// The path of `key` inside the object at `parent`: `parent.key` for a plain
/// key (ASCII letters, digits, `_`, `-`; at most [`ECHO_MAX_CHARS`]),
/// `parent["any key"]` otherwise, escaped and cut as [`quote`] does, so
/// always one short line.
pub(crate) fn key_path(parent: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= ECHO_MAX_CHARS
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match (plain, parent.is_empty()) {
        (true, true) => key.to_string(),
        (true, false) => format!("{parent}.{key}"),
        (false, _) => format!("{parent}[{}]", quote(key)),
    }
}

/// The sizes the strategies' packed `u32` positions can hold (see
/// [`super::ix`]): checked here once, so no strategy checks them again.
fn check_limits(tasks: usize, clients: usize) -> Result<(), InputError> {
    if tasks > MAX_TASKS {
        return Err(InputError::new(
            "tasks",
            format!("must have at most {MAX_TASKS} tasks, got {tasks}"),
        ));
    }
    if clients > MAX_CLIENTS {
        return Err(InputError::new(
            "clients",
            format!("must have at most {MAX_CLIENTS} clients, got {clients}"),
        ));
    }
    Ok(())
}

/// Checks the records of [`ClusterState::with_previous_containers`].
fn check_containers(
    containers: Vec<(ContainerId, Container)>,
) -> Result<BTreeMap<ContainerId, Container>, InputError> {
    let mut by_name: BTreeMap<ContainerId, (usize, Container)> = BTreeMap::new();
    let mut active_in: BTreeMap<TaskId, usize> = BTreeMap::new();
    for (i, (name, container)) in containers.into_iter().enumerate() {
        let at = |field: &str| format!("previous_containers[{i}].{field}");
        if name.as_str().is_empty() {
            return Err(InputError::new(at("id"), "must not be empty, got \"\""));
        }
        if container.client.as_str().is_empty() {
            return Err(InputError::new(at("client"), "must not be empty, got \"\""));
        }
        if let Some((j, _)) = by_name.get(&name) {
            return Err(InputError::new(
                at("id"),
                format!(
                    "duplicates previous_containers[{j}].id, got {}",
                    quote(name.as_str())
                ),
            ));
        }
        if let Some(id) = container.active.intersection(&container.standby).next() {
            return Err(InputError::new(
                at("standby"),
                format!("names {id}, which is also in active of the same container"),
            ));
        }
        for &id in &container.active {
            if let Some(j) = active_in.insert(id, i) {
                return Err(InputError::new(
                    at("active"),
                    format!("names {id}, which previous_containers[{j}] runs as active too"),
                ));
            }
        }
        by_name.insert(name, (i, container));
    }
    Ok(by_name.into_iter().map(|(n, (_, c))| (n, c)).collect())
}

fn check_tasks(tasks: &[Task]) -> Result<BTreeMap<TaskId, usize>, InputError> {
    let mut index = BTreeMap::new();
    for (i, task) in tasks.iter().enumerate() {
        if let Some(j) = index.insert(task.id, i) {
            return Err(InputError::new(
                format!("tasks[{i}].id"),
                format!("duplicates tasks[{j}].id, got {}", task.id),
            ));
        }
        if let Some(cpu) = task.cpu {
            if !(cpu.is_finite() && cpu >= 0.0) {
                return Err(InputError::new(
                    format!("tasks[{i}].cpu"),
                    format!("must be a finite number at least 0, got {cpu}"),
                ));
            }
        }
    }
    Ok(index)
}

/// Task id → its position in the input, answered by a [`TaskIndex`] over
/// the sorted ids (O(1) per lookup for runs of partitions) instead of a
/// tree: `ClusterState::new` looks up every previous task and lag once.
struct InputOrder {
    index: TaskIndex,
    input_position: Vec<usize>,
}

impl InputOrder {
    fn new(by_id: BTreeMap<TaskId, usize>) -> InputOrder {
        let (ids, input_position) = by_id.into_iter().unzip();
        InputOrder {
            index: TaskIndex::new(ids),
            input_position,
        }
    }

    fn get(&self, id: &TaskId) -> Option<usize> {
        self.index.position(*id).map(|p| self.input_position[p])
    }
}

fn check_clients(clients: &[Client], tasks: &[Task], index: &InputOrder) -> Result<(), InputError> {
    let mut seen: BTreeMap<&ClientId, usize> = BTreeMap::new();
    for (i, client) in clients.iter().enumerate() {
        let at = |field: &str| format!("clients[{i}].{field}");
        if client.id.as_str().is_empty() {
            return Err(InputError::new(at("id"), "must not be empty, got \"\""));
        }
        if let Some(j) = seen.insert(&client.id, i) {
            return Err(InputError::new(
                at("id"),
                format!(
                    "duplicates clients[{j}].id, got {}",
                    quote(client.id.as_str())
                ),
            ));
        }
        if client.capacity < 1 {
            return Err(InputError::new(
                at("capacity"),
                format!("must be at least 1, got {}", client.capacity),
            ));
        }
        if let Some(cpu) = client.cpu {
            if !(cpu.is_finite() && cpu >= 0.0) {
                return Err(InputError::new(
                    at("cpu"),
                    format!("must be a finite number at least 0, got {cpu}"),
                ));
            }
        }
        check_tags(client, &at)?;
        check_history(client, tasks, index, &at)?;
    }
    Ok(())
}

fn check_tags(client: &Client, at: &dyn Fn(&str) -> String) -> Result<(), InputError> {
    if client.tags.len() > MAX_TAG_KEYS {
        return Err(InputError::new(
            at("tags"),
            format!(
                "must have at most {MAX_TAG_KEYS} keys, got {}",
                client.tags.len()
            ),
        ));
    }
    for (key, value) in &client.tags {
        if key.is_empty() || key.chars().count() > MAX_TAG_KEY_LEN {
            return Err(InputError::new(
                at("tags"),
                format!(
                    "keys must have 1 to {MAX_TAG_KEY_LEN} characters, got {}",
                    quote(key)
                ),
            ));
        }
        if value.chars().count() > MAX_TAG_VALUE_LEN {
            return Err(InputError::new(
                key_path(&at("tags"), key),
                format!(
                    "must have at most {MAX_TAG_VALUE_LEN} characters, got {}",
                    quote(value)
                ),
            ));
        }
    }
    Ok(())
}

fn check_history(
    client: &Client,
    tasks: &[Task],
    index: &InputOrder,
    at: &dyn Fn(&str) -> String,
) -> Result<(), InputError> {
    let lookup = |field: &str, id: &TaskId| -> Result<&Task, InputError> {
        index
            .get(id)
            .map(|k| &tasks[k])
            .ok_or_else(|| InputError::new(at(field), format!("names unknown task {id}")))
    };
    for id in &client.previous_active {
        lookup("previous_active", id)?;
    }
    for id in &client.previous_standby {
        let task = lookup("previous_standby", id)?;
        if !task.stateful {
            return Err(InputError::new(
                at("previous_standby"),
                format!("names stateless task {id}: only stateful tasks have standbys"),
            ));
        }
        if client.previous_active.contains(id) {
            return Err(InputError::new(
                at("previous_standby"),
                format!("names {id}, which is also in previous_active of the same client"),
            ));
        }
    }
    if let Some(id) = client
        .previous_warmup
        .iter()
        .find(|id| !client.previous_standby.contains(id))
    {
        return Err(InputError::new(
            at("previous_warmup"),
            format!("names {id}, which is not in previous_standby of the same client (warm-ups are listed in both)"),
        ));
    }
    for id in client.lags.keys() {
        // The path is formatted only for an error: this loop runs once per lag.
        match index.get(id).map(|k| &tasks[k]) {
            None => lookup(&format!("lags.{id}"), id).map(|_| ())?,
            Some(task) if !task.stateful => {
                return Err(InputError::new(
                    at(&format!("lags.{id}")),
                    "is a lag for a stateless task: only stateful tasks have lags",
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod limit_tests {
    use super::{check_limits, MAX_CLIENTS, MAX_TASKS};

    #[test]
    fn sizes_past_the_position_limits_are_rejected_naming_the_limit() {
        assert!(check_limits(MAX_TASKS, MAX_CLIENTS).is_ok());
        let tasks = check_limits(MAX_TASKS + 1, 1).unwrap_err();
        assert_eq!(
            tasks.to_string(),
            format!(
                "tasks must have at most 4294967295 tasks, got {}",
                MAX_TASKS + 1
            )
        );
        let clients = check_limits(1, MAX_CLIENTS + 1).unwrap_err();
        assert_eq!(
            clients.to_string(),
            "clients must have at most 1073741824 clients, got 1073741825"
        );
    }
}
