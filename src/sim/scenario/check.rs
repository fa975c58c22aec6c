//! [`Scenario::check`]: the one place where the rules between a scenario's
//! values and the limits on its sizes and work are checked.

use super::duration::format_duration;
use super::limits::*;
use super::spec::{ChurnKind, EventKind, InputSkew, Protocol, Scenario};
use crate::model::{key_path, quote, InputError, MAX_TAG_KEYS, MAX_TAG_KEY_LEN, MAX_TAG_VALUE_LEN};

type Checked = Result<(), InputError>;

fn fail(path: impl Into<String>, message: String) -> Checked {
    Err(InputError::new(path, message))
}

/// `value` (shown as `shown`) is at most `limit`, a limit on `what`.
fn at_most(path: &str, value: u64, limit: u64, what: &str) -> Checked {
    if value > limit {
        return fail(
            path,
            format!("must be at most {limit} (the limit on {what}), got {value}"),
        );
    }
    Ok(())
}

/// A duration is at most [`MAX_DURATION_MS`].
fn short_enough(path: &str, ms: u64) -> Checked {
    if ms > MAX_DURATION_MS {
        return fail(
            path,
            format!(
                "must be at most {:?} (the limit on durations), got {:?}",
                format_duration(MAX_DURATION_MS),
                format_duration(ms)
            ),
        );
    }
    Ok(())
}

impl Scenario {
    /// Checks the rules between values and the limits (module doc): events
    /// inside the duration naming racks, subtopologies and clients that exist
    /// at that time, churn inside the duration, and every size and amount of
    /// work the scenario asks for. The first problem found is returned as one
    /// line naming the key, `events[2].client must name a live client, got
    /// "c9" (…)`.
    ///
    /// `events` may be in any order: they are replayed in time order (equal
    /// times in list order) and named by their position in the list.
    /// Single values are checked by their types when read
    /// ([`Scenario::from_toml`], with the value as written in the message);
    /// this repeats only the few single-value rules the simulation relies on
    /// (positive durations and counts, a finite positive churn rate), so that
    /// a scenario built in code is safe to run once it has passed. Times are
    /// compared and added with checked arithmetic only.
    ///
    /// # Errors
    ///
    /// The first rule or limit broken, with the key's path and its value.
    pub fn check(&self) -> Result<(), InputError> {
        self.check_durations()?;
        self.check_time()?;
        self.check_sizes()?;
        self.check_resources()?;
        self.check_cluster_tags()?;
        self.check_groups()?;
        self.check_load()?;
        self.check_protocol()?;
        self.check_events()?;
        self.check_perturb()?;
        self.check_churn()?;
        let scripted_clients = self.check_membership()?;
        self.check_clients(scripted_clients)
    }

    fn check_durations(&self) -> Checked {
        let c = &self.cluster;
        let mut durations = vec![
            ("duration".to_string(), self.duration_ms),
            ("step".to_string(), self.step_ms),
            ("sample_every".to_string(), self.sample_every_ms),
            ("cluster.session_timeout".to_string(), c.session_timeout_ms),
            ("cluster.rebalance_pause".to_string(), c.rebalance_pause_ms),
            (
                "cluster.revocation_pause".to_string(),
                c.revocation_pause_ms,
            ),
            (
                "cluster.state_cleanup_delay".to_string(),
                c.state_cleanup_delay_ms,
            ),
            (
                "config.probing_rebalance_interval".to_string(),
                self.config.probing_rebalance_interval_ms,
            ),
        ];
        if let Some(ms) = c.scale_down_timeout_ms {
            durations.push(("cluster.scale_down_timeout".to_string(), ms));
        }
        for (i, e) in self.events.iter().enumerate() {
            durations.push((format!("events[{i}].at"), e.at_ms));
            match e.kind {
                EventKind::RollingBounce {
                    interval_ms,
                    downtime_ms,
                    ..
                } => {
                    durations.push((format!("events[{i}].interval"), interval_ms));
                    durations.push((format!("events[{i}].downtime"), downtime_ms));
                }
                EventKind::RackOutage {
                    duration_ms: Some(ms),
                    ..
                } => durations.push((format!("events[{i}].duration"), ms)),
                _ => {}
            }
        }
        if let Some(churn) = &self.churn {
            durations.push(("churn.from".to_string(), churn.from_ms));
            durations.push(("churn.until".to_string(), churn.until_ms));
            durations.push(("churn.burst_window".to_string(), churn.burst_window_ms));
            durations.push((
                "churn.zone_outage_duration".to_string(),
                churn.zone_outage_ms,
            ));
        }
        if let Some(perturb) = &self.perturb {
            durations.push(("perturb.event_time".to_string(), perturb.event_time_ms));
        }
        durations
            .iter()
            .try_for_each(|(path, ms)| short_enough(path, *ms))
    }

    fn check_time(&self) -> Checked {
        let (duration, step, every) = (self.duration_ms, self.step_ms, self.sample_every_ms);
        for (path, ms) in [
            ("duration", duration),
            ("step", step),
            ("sample_every", every),
        ] {
            if ms == 0 {
                return fail(path, "must be at least \"1ms\", got \"0ms\"".to_string());
            }
        }
        if every % step != 0 {
            return fail(
                "sample_every",
                format!(
                    "must be a multiple of step {:?}, got {:?}",
                    format_duration(step),
                    format_duration(every)
                ),
            );
        }
        let steps = duration.div_ceil(step);
        if steps > MAX_STEPS {
            return fail(
                "duration",
                format!(
                    "must take at most {MAX_STEPS} steps of {:?} (the limit on physics steps), got {:?}: {steps} steps",
                    format_duration(step),
                    format_duration(duration)
                ),
            );
        }
        // The sample at 0 and one every `every` (`every` is at least 1).
        let samples = (duration / every).saturating_add(1);
        if samples > MAX_SAMPLES {
            return fail(
                "sample_every",
                format!(
                    "must give at most {MAX_SAMPLES} samples over duration {:?} (the limit on samples), got {:?}: {samples} samples",
                    format_duration(duration),
                    format_duration(every)
                ),
            );
        }
        Ok(())
    }

    fn check_sizes(&self) -> Checked {
        let c = &self.cluster;
        at_most(
            "cluster.clients",
            u64::from(c.clients),
            MAX_CLIENTS,
            "clients",
        )?;
        at_most(
            "cluster.restore_rate",
            c.restore_rate,
            MAX_RESTORE_RATE,
            "restore rates",
        )?;
        for (key, rate) in [
            ("cluster.restore_bandwidth", c.restore_bandwidth),
            ("cluster.process_rate", c.process_rate),
        ] {
            if let Some(rate) = rate {
                at_most(key, rate, MAX_RESTORE_RATE, "restore and processing rates")?;
            }
        }
        let mut tasks: u64 = 0;
        for (i, sub) in self.subtopologies.iter().enumerate() {
            let path = |key: &str| format!("subtopologies[{i}].{key}");
            // Each count is at most 2^32 − 1, so this sum cannot overflow.
            tasks = tasks.saturating_add(u64::from(sub.partitions));
            if tasks > MAX_TASKS {
                return fail(
                    path("partitions"),
                    format!(
                        "must keep the tasks at most {MAX_TASKS} (the limit on tasks), got {}: {tasks} tasks so far",
                        sub.partitions
                    ),
                );
            }
            at_most(
                &path("state_records"),
                sub.state_records,
                MAX_STATE_RECORDS,
                "changelog records per task",
            )?;
            at_most(
                &path("write_rate"),
                sub.write_rate,
                MAX_WRITE_RATE,
                "write rates",
            )?;
            at_most(
                &path("input_rate"),
                sub.input_rate,
                MAX_WRITE_RATE,
                "input rates",
            )?;
        }
        Ok(())
    }

    fn check_events(&self) -> Checked {
        if self.events.len() > MAX_EVENTS {
            return fail(
                "events",
                format!(
                    "must list at most {MAX_EVENTS} events (the limit on scripted events), got {}",
                    self.events.len()
                ),
            );
        }
        for (i, e) in self.events.iter().enumerate() {
            let path = |key: &str| format!("events[{i}].{key}");
            if e.at_ms > self.duration_ms {
                return fail(
                    path("at"),
                    format!(
                        "must be at most the scenario's duration {:?}, got {:?}",
                        format_duration(self.duration_ms),
                        format_duration(e.at_ms)
                    ),
                );
            }
            match &e.kind {
                EventKind::ScaleOut { count, .. } | EventKind::ScaleIn { count, .. }
                    if *count == 0 =>
                {
                    return fail(path("count"), "must be at least 1, got 0".to_string());
                }
                EventKind::RollingBounce { interval_ms: 0, .. } => {
                    return fail(
                        path("interval"),
                        "must be at least \"1ms\", got \"0ms\"".to_string(),
                    );
                }
                EventKind::RackOutage {
                    rack, duration_ms, ..
                } => {
                    if !self.cluster.racks.iter().any(|r| r == rack) {
                        let known = if self.cluster.racks.is_empty() {
                            "cluster.racks is empty".to_string()
                        } else {
                            format!("cluster.racks: {}", self.cluster.racks.join(", "))
                        };
                        return fail(
                            path("rack"),
                            format!(
                                "must name a rack of cluster.racks, got {} ({known})",
                                quote(rack)
                            ),
                        );
                    }
                    if *duration_ms == Some(0) {
                        return fail(
                            path("duration"),
                            "must be at least \"1ms\", got \"0ms\"".to_string(),
                        );
                    }
                }
                EventKind::WriteSpike {
                    subtopology,
                    partition,
                    write_rate,
                } => {
                    let n = self.subtopologies.len();
                    let Some(spec) = self.subtopologies.get(*subtopology as usize) else {
                        return fail(
                            path("subtopology"),
                            format!(
                                "must name a subtopology 0..={}, got {subtopology}",
                                n.saturating_sub(1)
                            ),
                        );
                    };
                    if !spec.stateful {
                        return fail(
                            path("subtopology"),
                            format!(
                                "must name a stateful subtopology, got {subtopology} (stateless)"
                            ),
                        );
                    }
                    if let Some(p) = partition.filter(|&p| p >= spec.partitions) {
                        return fail(
                            path("partition"),
                            format!(
                                "must be below subtopologies[{subtopology}].partitions = {}, got {p}",
                                spec.partitions
                            ),
                        );
                    }
                    at_most(
                        &path("write_rate"),
                        *write_rate,
                        MAX_WRITE_RATE,
                        "write rates",
                    )?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Stated CPU, RAM and disk: positive and within [`MAX_CPU`],
    /// [`MAX_RAM_MB`] (RAM and disk alike).
    fn check_resources(&self) -> Checked {
        let cluster = &self.cluster;
        let mut stated = vec![(
            "cluster".to_string(),
            cluster.cpu,
            cluster.ram_mb,
            cluster.disk_mb,
        )];
        for (i, s) in self.subtopologies.iter().enumerate() {
            stated.push((format!("subtopologies[{i}]"), s.cpu, s.ram_mb, s.disk_mb));
        }
        for (at, cpu, ram_mb, disk_mb) in stated {
            if let Some(cpu) = cpu {
                if !(cpu.is_finite() && cpu > 0.0) {
                    return fail(
                        format!("{at}.cpu"),
                        format!("must be positive, got {cpu:?}"),
                    );
                }
                if cpu > MAX_CPU {
                    return fail(
                        format!("{at}.cpu"),
                        format!("must be at most {MAX_CPU:?} (the limit on cpu), got {cpu:?}"),
                    );
                }
            }
            for (key, mb) in [("ram_mb", ram_mb), ("disk_mb", disk_mb)] {
                let Some(mb) = mb else { continue };
                if mb == 0 {
                    return fail(
                        format!("{at}.{key}"),
                        "must be at least 1, got 0".to_string(),
                    );
                }
                at_most(&format!("{at}.{key}"), mb, MAX_RAM_MB, key)?;
            }
        }
        Ok(())
    }

    /// Tags as Kafka allows them (KIP-708) and the replication factor
    /// against the racks.
    fn check_cluster_tags(&self) -> Checked {
        let c = &self.cluster;
        if c.tags.len() > MAX_TAG_KEYS {
            return fail(
                "cluster.tags",
                format!(
                    "must have at most {MAX_TAG_KEYS} keys, got {}: {}",
                    c.tags.len(),
                    c.tags
                        .keys()
                        .map(|k| quote(k))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        for (key, values) in &c.tags {
            let at = key_path("cluster.tags", key);
            if key.is_empty() || key.chars().count() > MAX_TAG_KEY_LEN {
                return fail(
                    "cluster.tags",
                    format!(
                        "keys must have 1 to {MAX_TAG_KEY_LEN} characters, got {}",
                        quote(key)
                    ),
                );
            }
            if values.is_empty() {
                return fail(at, "must list at least one value, got []".to_string());
            }
            for (i, v) in values.iter().enumerate() {
                if v.is_empty() || v.chars().count() > MAX_TAG_VALUE_LEN {
                    return fail(
                        format!("{at}[{i}]"),
                        format!(
                            "must have 1 to {MAX_TAG_VALUE_LEN} characters, got {}",
                            quote(v)
                        ),
                    );
                }
            }
        }
        let rf = c.replication_factor;
        if rf == 0 {
            return fail(
                "cluster.replication_factor",
                "must be at least 1, got 0".to_string(),
            );
        }
        if rf > 1 && rf as usize > c.racks.len() {
            return fail(
                "cluster.replication_factor",
                format!(
                    "must be at most the number of cluster.racks ({}): replicas sit on distinct racks, got {rf}",
                    c.racks.len()
                ),
            );
        }
        Ok(())
    }

    /// The rebalance protocol's options against each other and the events.
    fn check_protocol(&self) -> Checked {
        let c = &self.cluster;
        if c.revocation_pause_ms > c.rebalance_pause_ms {
            return fail(
                "cluster.revocation_pause",
                format!(
                    "must be at most cluster.rebalance_pause {:?} (it is a part of it), got {:?}",
                    format_duration(c.rebalance_pause_ms),
                    format_duration(c.revocation_pause_ms)
                ),
            );
        }
        if c.second_round && c.protocol == Protocol::Eager {
            return fail(
                "cluster.second_round",
                "applies to the cooperative protocol only (cluster.protocol is \"eager\"), got true"
                    .to_string(),
            );
        }
        for (i, e) in self.events.iter().enumerate() {
            if let EventKind::RollingBounce {
                leave_group: Some(true),
                ..
            } = e.kind
            {
                if c.static_membership {
                    return fail(
                        format!("events[{i}].leave_group"),
                        "must be false under cluster.static_membership (static members send no LeaveGroup), got true"
                            .to_string(),
                    );
                }
            }
        }
        Ok(())
    }

    /// Client groups: distinct names, their clients adding up to
    /// `cluster.clients`, sizes and rates within limits, racks among
    /// `cluster.racks` and tag keys among `cluster.tags`.
    fn check_groups(&self) -> Checked {
        let c = &self.cluster;
        if c.groups.is_empty() {
            return Ok(());
        }
        let total: u64 = c.groups.iter().map(|g| u64::from(g.clients)).sum();
        if total != u64::from(c.clients) {
            return fail(
                "cluster.clients",
                format!(
                    "must be the sum of the groups' clients ({total}) when cluster.groups is set, got {}",
                    c.clients
                ),
            );
        }
        for (i, g) in c.groups.iter().enumerate() {
            let at = |key: &str| format!("cluster.groups[{i}].{key}");
            if c.groups[..i].iter().any(|h| h.name == g.name) {
                return fail(
                    at("name"),
                    format!("names a group twice, got {}", quote(&g.name)),
                );
            }
            if g.threads == 0 {
                return fail(at("threads"), "must be at least 1, got 0".to_string());
            }
            if g.restore_rate == 0 {
                return fail(at("restore_rate"), "must be at least 1, got 0".to_string());
            }
            at_most(
                &at("restore_rate"),
                g.restore_rate,
                MAX_RESTORE_RATE,
                "restore rates",
            )?;
            if let Some(rate) = g.process_rate {
                if rate == 0 {
                    return fail(at("process_rate"), "must be at least 1, got 0".to_string());
                }
                at_most(
                    &at("process_rate"),
                    rate,
                    MAX_RESTORE_RATE,
                    "restore and processing rates",
                )?;
            }
            if let Some(rack) = &g.rack {
                if !c.racks.contains(rack) {
                    return fail(
                        at("rack"),
                        format!(
                            "must be one of cluster.racks ({}), got {}",
                            c.racks
                                .iter()
                                .map(|r| quote(r))
                                .collect::<Vec<_>>()
                                .join(", "),
                            quote(rack)
                        ),
                    );
                }
            }
            for (key, value) in &g.tags {
                if !c.tags.contains_key(key) {
                    return fail(
                        key_path(&at("tags"), key),
                        format!(
                            "must be a key of cluster.tags (every client has every tag key), got {}",
                            quote(key)
                        ),
                    );
                }
                if value.is_empty() || value.chars().count() > MAX_TAG_VALUE_LEN {
                    return fail(
                        key_path(&at("tags"), key),
                        format!(
                            "must have 1 to {MAX_TAG_VALUE_LEN} characters, got {}",
                            quote(value)
                        ),
                    );
                }
            }
            let resources = [(g.cpu, g.ram_mb, g.disk_mb)];
            for (cpu, ram_mb, disk_mb) in resources {
                if let Some(cpu) = cpu {
                    if !(cpu.is_finite() && cpu > 0.0 && cpu <= MAX_CPU) {
                        return fail(
                            at("cpu"),
                            format!("must be positive and at most {MAX_CPU:?}, got {cpu:?}"),
                        );
                    }
                }
                for (key, mb) in [("ram_mb", ram_mb), ("disk_mb", disk_mb)] {
                    if mb.is_some_and(|mb| mb == 0 || mb > MAX_RAM_MB) {
                        return fail(
                            at(key),
                            format!("must be 1 to {MAX_RAM_MB}, got {}", mb.unwrap_or(0)),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// The input skew's parameters and each task's input rate after it,
    /// and the processing cost, within their bounds.
    fn check_load(&self) -> Checked {
        for (i, s) in self.subtopologies.iter().enumerate() {
            let path = |key: &str| format!("subtopologies[{i}].{key}");
            match s.input_skew {
                InputSkew::Uniform => {}
                InputSkew::Zipf { exponent } => {
                    if !(exponent > 0.0 && exponent <= 10.0) {
                        return fail(
                            path("zipf_exponent"),
                            format!("must be greater than 0 and at most 10, got {exponent:?}"),
                        );
                    }
                }
                InputSkew::Hot { partitions, factor } => {
                    if partitions == 0 || partitions >= s.partitions {
                        return fail(
                            path("hot_partitions"),
                            format!(
                                "must be at least 1 and fewer than partitions ({}), got {partitions}",
                                s.partitions
                            ),
                        );
                    }
                    if !(1.0..=1000.0).contains(&factor) {
                        return fail(
                            path("hot_factor"),
                            format!("must be at least 1 and at most 1000, got {factor:?}"),
                        );
                    }
                }
            }
            if !(1..=1_000_000).contains(&s.process_cost_milli) {
                return fail(
                    path("process_cost"),
                    format!(
                        "must be at least 0.001 and at most 1000, got {}",
                        f64::from(s.process_cost_milli) / 1000.0
                    ),
                );
            }
            let hottest = s.input_rates().into_iter().max().unwrap_or(0);
            if hottest > MAX_WRITE_RATE {
                return fail(
                    path("input_rate"),
                    format!(
                        "must keep every task's input rate at most {MAX_WRITE_RATE} (the limit on input rates) after input_skew, got {}: partition 0 gets {hottest}",
                        s.input_rate
                    ),
                );
            }
        }
        Ok(())
    }

    /// The perturbation's fractions, and the largest values it may draw
    /// against the limits on state and write rates.
    fn check_perturb(&self) -> Checked {
        let Some(p) = &self.perturb else {
            return Ok(());
        };
        for (key, x) in [
            ("state_records", p.state_records),
            ("write_rate", p.write_rate),
        ] {
            if !(0.0..=1.0).contains(&x) {
                return fail(
                    format!("perturb.{key}"),
                    format!("must be a fraction between 0 and 1, got {x:?}"),
                );
            }
        }
        let top = |value: u64, x: f64| (value as f64 * (1.0 + x)).round();
        for (i, s) in self.subtopologies.iter().enumerate() {
            let drawn = top(s.state_records, p.state_records);
            if drawn > MAX_STATE_RECORDS as f64 {
                return fail(
                    "perturb.state_records",
                    format!(
                        "must keep subtopologies[{i}].state_records = {} at most {MAX_STATE_RECORDS} (the limit on state_records) when drawn, got {:?}: up to {drawn:.0}",
                        s.state_records, p.state_records
                    ),
                );
            }
        }
        let mut rates: Vec<(String, u64)> = self
            .subtopologies
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("subtopologies[{i}].write_rate"), s.write_rate))
            .collect();
        for (i, e) in self.events.iter().enumerate() {
            if let EventKind::WriteSpike { write_rate, .. } = e.kind {
                rates.push((format!("events[{i}].write_rate"), write_rate));
            }
        }
        for (key, rate) in rates {
            let drawn = top(rate, p.write_rate);
            if drawn > MAX_WRITE_RATE as f64 {
                return fail(
                    "perturb.write_rate",
                    format!(
                        "must keep {key} = {rate} at most {MAX_WRITE_RATE} (the limit on write rates) when drawn, got {:?}: up to {drawn:.0}",
                        p.write_rate
                    ),
                );
            }
        }
        Ok(())
    }

    fn check_churn(&self) -> Checked {
        let Some(churn) = &self.churn else {
            return Ok(());
        };
        let x = churn.events_per_hour;
        if !(x.is_finite() && x > 0.0) {
            return fail(
                "churn.events_per_hour",
                format!("must be a finite number greater than 0, got {x:?}"),
            );
        }
        let p = churn.lose_state_probability;
        if !(0.0..=1.0).contains(&p) {
            return fail(
                "churn.lose_state_probability",
                format!("must be between 0 and 1, got {p:?}"),
            );
        }
        if churn.kinds.is_empty() {
            return fail(
                "churn.kinds",
                "must list at least one kind, got []".to_string(),
            );
        }
        if churn.until_ms > self.duration_ms {
            return fail(
                "churn.until",
                format!(
                    "must be at most the scenario's duration {:?}, got {:?}",
                    format_duration(self.duration_ms),
                    format_duration(churn.until_ms)
                ),
            );
        }
        if churn.from_ms >= churn.until_ms {
            let (from, until) = (
                format_duration(churn.from_ms),
                format_duration(churn.until_ms),
            );
            return if churn.until_ms == 0 {
                fail(
                    "churn.until",
                    format!("must be after churn.from {from:?}, got {until:?}"),
                )
            } else {
                fail(
                    "churn.from",
                    format!("must be before churn.until {until:?}, got {from:?}"),
                )
            };
        }
        if !(2..=MAX_BURST_SIZE).contains(&churn.burst_size) {
            return fail(
                "churn.burst_size",
                format!("must be 2 to {MAX_BURST_SIZE}, got {}", churn.burst_size),
            );
        }
        if churn.kinds.contains(&ChurnKind::ZoneOutage)
            && self.cluster.racks.is_empty()
            && self.cluster.groups.iter().all(|g| g.rack.is_none())
        {
            let i = churn
                .kinds
                .iter()
                .position(|k| *k == ChurnKind::ZoneOutage)
                .unwrap_or(0);
            return fail(
                format!("churn.kinds[{i}]"),
                "needs racks (cluster.racks or a group's rack) to take one down, got \"zone_outage\""
                    .to_string(),
            );
        }
        let draws = churn.draws();
        // Each burst crashes up to burst_size clients (a rate past the
        // limit on draws is named below, as without bursts).
        let crashes = draws * f64::from(churn.burst_size);
        if churn.kinds.contains(&ChurnKind::Burst)
            && draws <= MAX_CHURN_EVENTS as f64
            && crashes > MAX_CHURN_EVENTS as f64
        {
            return fail(
                "churn.burst_size",
                format!(
                    "must keep churn draws × burst_size at most {MAX_CHURN_EVENTS} (the limit on churn events), got {}: {draws:.0} draws",
                    churn.burst_size
                ),
            );
        }
        // Also true for a rate so high that the count is infinite.
        if draws.is_nan() || draws > MAX_CHURN_EVENTS as f64 {
            return fail(
                "churn.events_per_hour",
                format!(
                    "must draw at most {MAX_CHURN_EVENTS} churn events from {:?} to {:?} (the limit on churn events), got {x:?}: {draws:.0} events",
                    format_duration(churn.from_ms),
                    format_duration(churn.until_ms)
                ),
            );
        }
        Ok(())
    }

    /// The clients the churn may add besides the scripted ones, then
    /// tasks × clients and the simulated work, against their limits.
    fn check_clients(&self, scripted_clients: u64) -> Checked {
        let mut clients = scripted_clients;
        if let Some(churn) = &self.churn {
            if churn.kinds.contains(&ChurnKind::ScaleOut) {
                // At most MAX_CHURN_EVENTS (checked above).
                #[allow(clippy::cast_possible_truncation)]
                let draws = churn.draws() as u64;
                clients = clients.saturating_add(draws);
                if clients > MAX_CLIENTS {
                    return fail(
                        "churn.events_per_hour",
                        format!(
                            "must keep the clients at most {MAX_CLIENTS} (the limit on clients), got {:?}: {scripted_clients} clients and up to {draws} churn scale-outs",
                            churn.events_per_hour
                        ),
                    );
                }
            }
        }
        let tasks: u64 = self
            .subtopologies
            .iter()
            .map(|s| u64::from(s.partitions))
            .sum();
        let product = tasks.saturating_mul(clients);
        if product > MAX_TASK_CLIENTS {
            return fail(
                "cluster.clients",
                format!(
                    "must keep tasks × clients at most {MAX_TASK_CLIENTS} (the limit on tasks × clients), got {}: {tasks} tasks × up to {clients} clients (with scale-outs and churn)",
                    self.cluster.clients
                ),
            );
        }
        let steps = self.duration_ms.div_ceil(self.step_ms.max(1));
        let work = steps.saturating_mul(tasks.saturating_add(clients));
        if work > MAX_WORK {
            return fail(
                "duration",
                format!(
                    "must keep steps × (tasks + clients) at most {MAX_WORK} (the limit on simulated work), got {:?}: {steps} steps of {:?} × ({tasks} tasks + up to {clients} clients)",
                    format_duration(self.duration_ms),
                    format_duration(self.step_ms)
                ),
            );
        }
        Ok(())
    }
}
