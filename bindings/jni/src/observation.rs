//! The observation message (Java → Rust, `docs/crossing-format.md`): what a
//! Kafka Streams group leader remembers of the plan it returned (the lag of
//! each of its standbys and warm-ups then) and what the members report now,
//! for the core's restore-rate rule (`smoothscale::restore_rate::observe`).
//! Java keeps the memory and writes this message; the rule is only here.

use std::collections::{BTreeMap, BTreeSet};

use smoothscale::model::TaskId;
use smoothscale::restore_rate;

use crate::bytes::{FormatError, Reader};

/// "SMSO" as a little-endian `u32`: the first four bytes of an observation
/// message.
pub const OBSERVATION_MAGIC: u32 = u32::from_le_bytes(*b"SMSO");

/// The observation format version.
pub const OBSERVATION_VERSION: u32 = 1;

/// A replica: the member holding it (Java's number for its process, in this
/// message only) and its task.
pub type Replica = (u32, TaskId);

/// A decoded observation message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// Milliseconds between the rebalance that returned the plan and now; 0
    /// when the leader's clock went back.
    pub elapsed_ms: u64,
    /// Kafka's `acceptable.recovery.lag`.
    pub acceptable_recovery_lag: u64,
    /// Each replica's lag in records when the plan was returned.
    pub before: BTreeMap<Replica, u64>,
    /// The lags in records its member reports now (a replica whose member is
    /// gone or reports none is not here).
    pub now: BTreeMap<Replica, u64>,
}

impl Observation {
    /// The observed restore rate, records per second, by the core's rule;
    /// `None` when the observation gives none (the leader keeps its previous
    /// one).
    pub fn observe(&self) -> Option<u64> {
        restore_rate::observe(
            &self.before,
            &self.now,
            self.elapsed_ms,
            self.acceptable_recovery_lag,
        )
    }
}

/// Decodes an observation message. A negative lag (Kafka's `−2`, running,
/// or `−3`, unknown) is no record count: its entry is left out, as a replica
/// without a lag.
///
/// # Errors
/// A malformed message, naming the field and byte offset: a replica listed
/// twice in one list, a negative `acceptable_recovery_lag`.
pub fn decode(bytes: &[u8]) -> Result<Observation, FormatError> {
    let mut r = Reader::new(bytes);
    r.header(OBSERVATION_MAGIC, OBSERVATION_VERSION)?;
    let elapsed = r.i64(&|| "elapsed_ms".into())?;
    let elapsed_ms = u64::try_from(elapsed).unwrap_or(0);
    let acceptable_recovery_lag = r.non_negative(&|| "acceptable_recovery_lag".into())?;
    let before = read_lags(&mut r, "before")?;
    let now = read_lags(&mut r, "now")?;
    r.finish()?;
    Ok(Observation {
        elapsed_ms,
        acceptable_recovery_lag,
        before,
        now,
    })
}

fn read_lags(r: &mut Reader<'_>, list: &str) -> Result<BTreeMap<Replica, u64>, FormatError> {
    let n = r.count(&|| list.into(), 20)?;
    let mut lags = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for k in 0..n {
        let field = |name: &str| format!("{list}[{k}].{name}");
        let at = r.offset();
        let member = r.u32(&|| field("member"))?;
        let task = TaskId::new(
            r.u32(&|| field("subtopology"))?,
            r.u32(&|| field("partition"))?,
        );
        let lag = r.i64(&|| field("lag"))?;
        if !seen.insert((member, task)) {
            return Err(r.error(
                format!("{list}[{k}]"),
                at,
                format!("must not list a replica twice, got member {member} task {task} again"),
            ));
        }
        if let Ok(lag) = u64::try_from(lag) {
            lags.insert((member, task), lag);
        }
    }
    Ok(lags)
}
