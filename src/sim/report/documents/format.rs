//! How the documents write values: a figure as a JSON number with its
//! decimals ([`Num`], [`SignedNum`] for one that may be negative), objects whose keys keep a given order ([`InOrder`]),
//! CSV fields quoted only when they must be ([`csv_field`]).

use serde::ser::{Error as _, SerializeMap};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::sim::report::fixed::Fixed;
use crate::sim::report::SignedFixed;

/// A [`Fixed`] as a JSON number with its decimals (`12.350`, not `12.35`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Num(pub(crate) Fixed);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        number(self.0.to_string(), serializer)
    }
}

/// A [`SignedFixed`] as a JSON number with its decimals (`-1.500`; zero is
/// never `-0.000`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SignedNum(pub(crate) SignedFixed);

impl Serialize for SignedNum {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        number(self.0.to_string(), serializer)
    }
}

/// `text`, a number as written, as a JSON number.
fn number<S: Serializer>(text: String, serializer: S) -> Result<S::Ok, S::Error> {
    RawValue::from_string(text)
        .map_err(S::Error::custom)?
        .serialize(serializer)
}

/// An optional figure as an optional [`Num`].
pub(crate) fn opt(value: Option<Fixed>) -> Option<Num> {
    value.map(Num)
}

/// A JSON object whose keys come in the order given (strategies in run
/// order, metrics in output order).
#[derive(Debug)]
pub(crate) struct InOrder<T>(pub(crate) Vec<(String, T)>);

impl<T: Serialize> Serialize for InOrder<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A CSV field, quoted only when it has to be.
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn csv_fields_are_quoted_only_when_they_must_be() {
        assert_eq!(csv_field("kip441"), "kip441");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
    }
}
