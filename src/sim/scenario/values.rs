//! The leaf values of a scenario file, each checking itself as it is read
//! and saying what is wrong with the value as written: bounded integers
//! ([`Int`]), finite numbers ([`Number`]), names from a fixed list
//! ([`Choice`]) and arrays of distinct names ([`names`]).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::limits::{MAX_CPU, MAX_RAM_MB};
use super::spec::{ChurnKind, Protocol};
use crate::model::{one_of, quote, InputError, RackAwareStrategy};

/// A value read, or what is wrong with it at its path.
pub(super) type Read<T> = Result<T, InputError>;

pub(super) fn fail<T>(path: impl Into<String>, message: String) -> Read<T> {
    Err(InputError::new(path, message))
}

/// An integer in `MIN ..= MAX` (TOML integers are signed 64-bit).
#[derive(Debug, Clone, Copy)]
pub(super) struct Int<const MIN: u64, const MAX: u64>(pub(super) u64);

/// At least 1 and at most `u32::MAX`: a count of clients, threads, partitions.
pub(super) type Count = Int<1, { u32::MAX as u64 }>;
/// Any `u32`.
pub(super) type U32 = Int<0, { u32::MAX as u64 }>;
/// Any non-negative integer.
pub(super) type U64 = Int<0, { u64::MAX }>;
/// MiB of RAM: at least 1, at most [`MAX_RAM_MB`].
pub(super) type RamMb = Int<1, MAX_RAM_MB>;

impl<const MIN: u64, const MAX: u64> Int<MIN, MAX> {
    /// The value as `u32`; only for types whose `MAX` fits (`Count`, `U32`).
    pub(super) fn small(self) -> u32 {
        u32::try_from(self.0).expect("MAX fits in u32")
    }
}

struct IntVisitor<const MIN: u64, const MAX: u64>;

impl<const MIN: u64, const MAX: u64> Visitor<'_> for IntVisitor<MIN, MAX> {
    type Value = Int<MIN, MAX>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        match u64::try_from(v) {
            Ok(n) => self.visit_u64(n),
            Err(_) if MIN == 0 => Err(E::custom(format_args!("must not be negative, got {v}"))),
            Err(_) => Err(E::custom(format_args!("must be at least {MIN}, got {v}"))),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        if v < MIN {
            Err(E::custom(format_args!("must be at least {MIN}, got {v}")))
        } else if v > MAX {
            Err(E::custom(format_args!("must be at most {MAX}, got {v}")))
        } else {
            Ok(Int(v))
        }
    }
}

impl<'de, const MIN: u64, const MAX: u64> Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IntVisitor)
    }
}

/// A finite number, integer or float, with the value as written for messages.
#[derive(Debug, Clone)]
pub(super) struct Number {
    pub(super) value: f64,
    pub(super) shown: String,
}

struct NumberVisitor;

impl Visitor<'_> for NumberVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a finite number")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        Ok(Number {
            value: v as f64,
            shown: v.to_string(),
        })
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        Ok(Number {
            value: v as f64,
            shown: v.to_string(),
        })
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        if !v.is_finite() {
            return Err(E::custom(format_args!(
                "must be a finite number, got {v:?}"
            )));
        }
        Ok(Number {
            value: v,
            shown: format!("{v:?}"),
        })
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumberVisitor)
    }
}

/// A value chosen by name from a fixed list.
pub(super) trait Named: Copy + 'static {
    /// The names and their values, in the order messages list them.
    const CHOICES: &'static [(&'static str, Self)];
}

/// One of `T::CHOICES`, by name.
#[derive(Debug, Clone, Copy)]
pub(super) struct Choice<T>(pub(super) T);

struct ChoiceVisitor<T>(PhantomData<T>);

impl<T: Named> ChoiceVisitor<T> {
    fn names() -> Vec<&'static str> {
        T::CHOICES.iter().map(|(name, _)| *name).collect()
    }
}

impl<T: Named> Visitor<'_> for ChoiceVisitor<T> {
    type Value = Choice<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of {}", Self::names().join(", "))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Choice<T>, E> {
        T::CHOICES
            .iter()
            .find(|(name, _)| *name == v)
            .map(|&(_, value)| Choice(value))
            .ok_or_else(|| E::custom(one_of(&Self::names(), v)))
    }
}

impl<'de, T: Named> Deserialize<'de> for Choice<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ChoiceVisitor(PhantomData))
    }
}

impl Named for Protocol {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("cooperative", Protocol::Cooperative),
        ("eager", Protocol::Eager),
    ];
}

impl Named for RackAwareStrategy {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("none", RackAwareStrategy::None),
        ("min_traffic", RackAwareStrategy::MinTraffic),
        ("balance_subtopology", RackAwareStrategy::BalanceSubtopology),
    ];
}

impl Named for ChurnKind {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("crash", ChurnKind::Crash),
        ("restart", ChurnKind::Restart),
        ("scale_out", ChurnKind::ScaleOut),
        ("scale_in", ChurnKind::ScaleIn),
        ("burst", ChurnKind::Burst),
        ("zone_outage", ChurnKind::ZoneOutage),
    ];
}

/// An array of distinct non-empty strings (`cluster.racks`, tag keys).
pub(super) fn names(path: &str, items: Vec<String>) -> Read<Vec<String>> {
    for (i, s) in items.iter().enumerate() {
        if s.is_empty() {
            return fail(
                format!("{path}[{i}]"),
                "must not be empty, got \"\"".to_string(),
            );
        }
        if items[..i].contains(s) {
            return fail(format!("{path}[{i}]"), format!("lists {} twice", quote(s)));
        }
    }
    Ok(items)
}

/// A number that must be greater than 0, with the value as written.
pub(super) fn positive(path: &str, n: &Number) -> Read<f64> {
    if n.value <= 0.0 {
        return fail(path, format!("must be positive, got {}", n.shown));
    }
    if n.value > MAX_CPU {
        return fail(
            path,
            format!(
                "must be at most {MAX_CPU:?} (the limit on cpu), got {}",
                n.shown
            ),
        );
    }
    Ok(n.value)
}
