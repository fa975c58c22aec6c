//! Seeded perturbation of a scripted scenario (`[perturb]`): what a seed
//! changes besides random churn, so that a sweep over seeds of a scripted
//! scenario gives a distribution.
//!
//! Three independent draws, each from its own ChaCha8 stream of the run's
//! seed (streams 1, 2 and 3; random churn draws from stream 0), so that
//! asking for one never changes another's values, nor the churn:
//!
//! - `state_records`: each task, in task-id order, draws `u` and starts with
//!   `round(state_records × (1 + x·u))` records, `u` uniform in `[−1, 1)`;
//! - `write_rate`: each task draws its own factor `1 + x·u` that multiplies
//!   its subtopology's write rate and every `write_spike` rate it gets,
//!   rounded to whole records per second;
//! - `event_time`: each scripted event, in list order, draws a shift of a
//!   whole number of milliseconds uniform in `[−d, +d]`, clamped to
//!   `[0, duration]`.
//!
//! Every task and every event draws whether or not the draw matters (a
//! stateless task, a zero bound), so a value depends only on the seed and
//! its position. The draws are made before any strategy runs and are pure
//! functions of the scenario and the seed, so every strategy meets the same
//! perturbed scenario. Only `u64` draws are used; the mapping to the ranges
//! is this module's own arithmetic, as in `churn`.
//!
//! # Event order and the membership rules
//!
//! Shifted events keep the order they were scripted in: an event whose
//! shifted time falls before that of the event scripted just before it
//! (in time order, equal times in list order) is moved to that time. So the
//! clients crash, restart, join and leave in the scripted sequence, and the
//! membership rules of [`Scenario::check`] still hold except where a rack
//! outage's automatic restart (`duration` after the shifted outage) now
//! falls on the other side of a later event that needs its clients crashed
//! or live. The perturbed scenario is checked again, and such a seed is
//! refused with the rule it breaks, naming `perturb.event_time` and the seed
//! (exit 2): narrow `event_time` below the gaps around the outage.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::spec::Scenario;
use crate::model::InputError;

/// The ChaCha8 stream of the `state_records` draws.
const STATE_STREAM: u64 = 1;
/// The ChaCha8 stream of the `write_rate` draws.
const WRITE_STREAM: u64 = 2;
/// The ChaCha8 stream of the `event_time` draws.
const EVENT_STREAM: u64 = 3;

/// The generator of one kind of draw.
fn stream(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// A draw uniform in `[−1, 1)`, from the top 53 bits of a `u64`.
fn symmetric(rng: &mut ChaCha8Rng) -> f64 {
    let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    2.0 * unit - 1.0
}

/// `value × factor` rounded to the nearest integer (`factor` is in `[0, 2]`
/// and [`Scenario::check`] bounds the product far below `u64::MAX`).
fn scaled(value: u64, factor: f64) -> u64 {
    // Non-negative and bounded by the check's limits; `as` saturates.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let v = (value as f64 * factor).round() as u64;
    v
}

/// What the seed draws for each task, in task-id order (subtopology by
/// subtopology, partitions ascending): its initial changelog and its
/// write-rate factor.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TaskDraws {
    /// Records in each task's changelog at time 0 (its subtopology's
    /// `state_records` when not perturbed).
    pub state_records: Vec<u64>,
    /// Each task's write-rate factor (1 when not perturbed).
    pub write_factor: Vec<f64>,
}

/// A write rate (records/s) as task factor `factor` changes it.
pub(crate) fn write_rate(rate: u64, factor: f64) -> u64 {
    if factor == 1.0 {
        rate
    } else {
        scaled(rate, factor)
    }
}

impl Scenario {
    /// The per-task values seed `seed` draws (module doc): the scenario's
    /// own values when it has no `[perturb]` (or a zero bound).
    pub(crate) fn task_draws(&self, seed: u64) -> TaskDraws {
        let tasks: usize = self
            .subtopologies
            .iter()
            .map(|s| s.partitions as usize)
            .sum();
        let mut draws = TaskDraws {
            state_records: Vec::with_capacity(tasks),
            write_factor: vec![1.0; tasks],
        };
        for s in &self.subtopologies {
            draws
                .state_records
                .extend(std::iter::repeat_n(s.state_records, s.partitions as usize));
        }
        let Some(p) = &self.perturb else {
            return draws;
        };
        if p.state_records > 0.0 {
            let mut rng = stream(seed, STATE_STREAM);
            for records in &mut draws.state_records {
                let factor = 1.0 + p.state_records * symmetric(&mut rng);
                *records = scaled(*records, factor);
            }
        }
        if p.write_rate > 0.0 {
            let mut rng = stream(seed, WRITE_STREAM);
            for factor in &mut draws.write_factor {
                *factor = 1.0 + p.write_rate * symmetric(&mut rng);
            }
        }
        draws
    }

    /// The scenario seed `seed` meets: each scripted event moves by a whole
    /// number of milliseconds drawn uniformly in `[−event_time,
    /// +event_time]` ([`PerturbSpec::event_time_ms`](super::PerturbSpec::event_time_ms)), clamped to `[0,
    /// duration]` and never before the event scripted before it (time
    /// order, equal times in list order), and the result is checked again by
    /// [`Scenario::check`]. The draws come from their own ChaCha8 stream of
    /// `seed`, apart from the churn's, so every strategy run with `seed`
    /// meets the same events. The result's `event_time` is 0 (its events are
    /// drawn already), so perturbing it again changes nothing more; the
    /// per-task `state_records` and `write_rate` draws are made when the run
    /// builds its cluster, from the same seed on streams of their own.
    /// Without `[perturb]` or with a zero `event_time` the result equals
    /// `self`.
    ///
    /// # Errors
    ///
    /// The rule of [`Scenario::check`] the shifted events break (a rack
    /// outage's restart moved past an event that needs its clients in
    /// another state), at the path `perturb.event_time`, with the seed and
    /// the broken rule.
    pub fn perturbed(&self, seed: u64) -> Result<Scenario, InputError> {
        let mut out = self.clone();
        let Some(p) = &mut out.perturb else {
            return Ok(out);
        };
        let d = p.event_time_ms;
        if d == 0 {
            return Ok(out);
        }
        p.event_time_ms = 0;
        let mut rng = stream(seed, EVENT_STREAM);
        // Draws in list order; the shift of `2d + 1` values is taken in 128
        // bits (`d` is at most 3650 days, so the bias of the modulo is below
        // 2^-25).
        let span = u128::from(d) * 2 + 1;
        let shifted: Vec<u64> = out
            .events
            .iter()
            .map(|e| {
                let offset = u64::try_from(u128::from(rng.next_u64()) % span).unwrap_or(0);
                let at = if offset >= d {
                    e.at_ms.saturating_add(offset - d)
                } else {
                    e.at_ms.saturating_sub(d - offset)
                };
                at.min(self.duration_ms)
            })
            .collect();
        // Keep the scripted order: in time order (equal times in list
        // order), no event before the one scripted before it.
        let mut order: Vec<usize> = (0..out.events.len()).collect();
        order.sort_by_key(|&i| self.events[i].at_ms);
        let mut floor = 0;
        for i in order {
            let at = shifted[i].max(floor);
            out.events[i].at_ms = at;
            floor = at;
        }
        out.check().map_err(|e| {
            InputError::new(
                "perturb.event_time",
                format!(
                    "= {:?} breaks a rule with seed {seed}: {e} (narrow event_time, or change the seed)",
                    super::duration::format_duration(d)
                ),
            )
        })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_draws_stay_in_range() {
        let mut rng = stream(7, STATE_STREAM);
        for _ in 0..10_000 {
            let u = symmetric(&mut rng);
            assert!((-1.0..1.0).contains(&u), "{u}");
        }
    }

    #[test]
    fn streams_differ_from_the_churn_stream() {
        let mut churn = ChaCha8Rng::seed_from_u64(7);
        let mut state = stream(7, STATE_STREAM);
        let mut write = stream(7, WRITE_STREAM);
        let first = [churn.next_u64(), state.next_u64(), write.next_u64()];
        assert_ne!(first[0], first[1]);
        assert_ne!(first[0], first[2]);
        assert_ne!(first[1], first[2]);
    }

    /// Two subtopologies of 4 and 3 partitions, 1,000 records and 200 rec/s
    /// per task, from the TOML reader.
    fn small(perturb: &str) -> Scenario {
        Scenario::from_toml(&format!(
            "name = \"p\"\nseed = 1\nduration = \"1h\"\n\
             [cluster]\nclients = 2\nrestore_rate = 100\n\
             [[subtopologies]]\npartitions = 4\nstateful = true\nstate_records = 1000\nwrite_rate = 200\n\
             [[subtopologies]]\npartitions = 3\nstateful = true\nstate_records = 1000\nwrite_rate = 200\n\
             [[events]]\nat = \"10m\"\nkind = \"scale_out\"\n\
             [[events]]\nat = \"20m\"\nkind = \"crash\"\nclient = \"c2\"\n\
             [[events]]\nat = \"20m\"\nkind = \"restart\"\nclient = \"c2\"\n\
             [[events]]\nat = \"59m50s\"\nkind = \"scale_in\"\n{perturb}"
        ))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn without_perturb_the_draws_are_the_scenarios_values() {
        for text in [
            "",
            "[perturb]\n",
            "[perturb]\nstate_records = 0\nwrite_rate = 0\nevent_time = 0\n",
        ] {
            let s = small(text);
            let draws = s.task_draws(5);
            assert_eq!(draws.state_records, vec![1000; 7]);
            assert_eq!(draws.write_factor, vec![1.0; 7]);
            assert_eq!(s.perturbed(5).unwrap().events, s.events);
        }
    }

    /// ±20 % of 1,000 records: every draw in [800, 1,200]; ±10 % of
    /// 200 rec/s: every rate in [180, 220]. The same seed draws the same
    /// values, another seed others, and one bound does not change the
    /// other's draws.
    #[test]
    fn task_draws_are_within_bounds_and_deterministic() {
        let s = small("[perturb]\nstate_records = 0.2\nwrite_rate = 0.1\n");
        let draws = s.task_draws(7);
        assert_eq!(draws.state_records.len(), 7);
        assert!(
            draws.state_records.iter().all(|r| (800..=1200).contains(r)),
            "{draws:?}"
        );
        let rates: Vec<u64> = draws
            .write_factor
            .iter()
            .map(|&f| write_rate(200, f))
            .collect();
        assert!(rates.iter().all(|r| (180..=220).contains(r)), "{rates:?}");
        assert!(draws.write_factor.iter().all(|f| (0.9..=1.1).contains(f)));
        assert_eq!(s.task_draws(7), draws);
        let other = s.task_draws(8);
        assert_ne!(other.state_records, draws.state_records);
        assert_ne!(other.write_factor, draws.write_factor);
        // Not one value for all.
        assert!(draws
            .state_records
            .iter()
            .any(|&r| r != draws.state_records[0]));
        let alone = small("[perturb]\nstate_records = 0.2\n").task_draws(7);
        assert_eq!(alone.state_records, draws.state_records);
        assert_eq!(alone.write_factor, vec![1.0; 7]);
        // The first draw by hand: the state stream's first u64 of seed 7.
        let mut rng = stream(7, STATE_STREAM);
        let u = symmetric(&mut rng);
        let want = 1000.0 * (1.0 + 0.2 * u);
        assert!(
            (draws.state_records[0] as f64 - want).abs() <= 0.5,
            "{want}"
        );
    }

    /// ±30 s on events at 10m, 20m, 20m and 59m50s of a 1 h run: each moves
    /// by at most 30 s, the last stays within the hour, the crash and
    /// restart at 20m keep their order, and the result is a fixed point.
    #[test]
    fn event_times_move_within_bounds_in_order() {
        let s = small("[perturb]\nevent_time = \"30s\"\n");
        let mut moved = 0;
        for seed in 0..200 {
            let p = s.perturbed(seed).unwrap();
            assert_eq!(p, s.perturbed(seed).unwrap());
            assert_eq!(p.perturb.as_ref().unwrap().event_time_ms, 0);
            assert_eq!(p.perturbed(seed + 1).unwrap(), p);
            for (a, b) in s.events.iter().zip(&p.events) {
                assert_eq!(a.kind, b.kind);
                assert!(
                    a.at_ms.abs_diff(b.at_ms) <= 30_000,
                    "seed {seed}: {} → {}",
                    a.at_ms,
                    b.at_ms
                );
                assert!(b.at_ms <= 3_600_000);
                moved += usize::from(a.at_ms != b.at_ms);
            }
            assert!(
                p.events[1].at_ms <= p.events[2].at_ms,
                "seed {seed}: crash after restart"
            );
            assert!(p.events.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        }
        assert!(moved > 700, "{moved} of 800 events moved");
        assert_ne!(
            s.perturbed(1).unwrap().events,
            s.perturbed(2).unwrap().events
        );
    }

    /// A rack outage from 10m for 10m restarts r1's client at 20m; a crash
    /// of that client at 20m5s needs it live. Shifts of up to 1 min move
    /// the restart past the crash for some seeds: those are refused naming
    /// `perturb.event_time` and the seed.
    #[test]
    fn a_seed_that_breaks_the_membership_is_refused() {
        let s = Scenario::from_toml(
            "name = \"p\"\nseed = 1\nduration = \"1h\"\n\
             [cluster]\nclients = 2\nracks = [\"r1\", \"r2\"]\nrestore_rate = 100\n\
             [[subtopologies]]\npartitions = 2\n\
             [[events]]\nat = \"10m\"\nkind = \"rack_outage\"\nrack = \"r1\"\nduration = \"10m\"\n\
             [[events]]\nat = \"20m5s\"\nkind = \"crash\"\nclient = \"c0\"\n\
             [perturb]\nevent_time = \"1m\"\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut refused = 0;
        for seed in 0..50 {
            match s.perturbed(seed) {
                Ok(p) => assert!(p.events[0].at_ms + 600_000 <= p.events[1].at_ms),
                Err(e) => {
                    refused += 1;
                    assert_eq!(e.path, "perturb.event_time");
                    assert!(e.message.contains(&format!("seed {seed}")), "{e}");
                    assert!(e.message.contains("events[1].client"), "{e}");
                    assert!(!e.to_string().contains('\n'));
                }
            }
        }
        assert!(refused > 0 && refused < 50, "{refused}");
    }

    #[test]
    fn unit_factor_keeps_the_rate() {
        assert_eq!(write_rate(200, 1.0), 200);
        assert_eq!(write_rate(200, 1.1), 220);
        assert_eq!(write_rate(200, 0.9), 180);
        assert_eq!(write_rate(0, 1.7), 0);
    }
}
