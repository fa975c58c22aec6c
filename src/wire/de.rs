//! Reading helpers shared by the documents: objects only (no arrays read as
//! structs), `null` as absent, and the guarded reader (size cap, UTF-8).

use std::fmt;
use std::io::{self, Read};
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// A value that must be a JSON object: serde's derived structs also read an
/// array of their fields in order, which the wire format does not allow.
pub(crate) struct Obj<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjVisitor<T> {
            type Value = T;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }

        deserializer
            .deserialize_map(ObjVisitor(PhantomData))
            .map(Obj)
    }
}

/// An optional field: `null` reads as absent (the default).
pub(crate) fn nullable<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// An optional object field: `null` reads as absent (the default).
pub(crate) fn nullable_object<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<Obj<T>>::deserialize(deserializer)?
        .map(|o| o.0)
        .unwrap_or_default())
}

/// An optional list of objects: `null` reads as absent (empty).
pub(crate) fn nullable_objects<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(objects_of(
        Option::<Vec<Obj<T>>>::deserialize(deserializer)?.unwrap_or_default(),
    ))
}

/// A required list of objects.
pub(crate) fn objects<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(objects_of(Vec::<Obj<T>>::deserialize(deserializer)?))
}

fn objects_of<T>(list: Vec<Obj<T>>) -> Vec<T> {
    list.into_iter().map(|o| o.0).collect()
}

/// What stopped a [`Guarded`] reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// More than the limit was read.
    TooLarge,
    /// The bytes are not UTF-8.
    NotUtf8,
}

/// A reader that counts what it passes on, stops past `limit` bytes, checks
/// that the bytes are UTF-8 (across chunk boundaries) and notes whether any
/// byte other than JSON whitespace went through.
pub(crate) struct Guarded<R> {
    inner: R,
    limit: u64,
    total: u64,
    /// The start of a UTF-8 sequence cut by the end of the last chunk.
    pending: Vec<u8>,
    /// Only JSON whitespace read so far.
    pub blank: bool,
    /// Why reading stopped, when it did.
    pub stop: Option<Stop>,
}

impl<R: Read> Guarded<R> {
    pub(crate) fn new(inner: R, limit: u64) -> Self {
        Guarded {
            inner,
            limit,
            total: 0,
            pending: Vec::new(),
            blank: true,
            stop: None,
        }
    }

    fn fail(&mut self, stop: Stop) -> io::Error {
        self.stop = Some(stop);
        match stop {
            Stop::TooLarge => io::Error::other("input too large"),
            Stop::NotUtf8 => io::Error::new(
                io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            ),
        }
    }

    /// Checks `chunk` as the continuation of the bytes before it.
    fn check_utf8(&mut self, chunk: &[u8]) -> Result<(), Stop> {
        let mut start = 0;
        if let Some(&lead) = self.pending.first() {
            let width = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            let take = (width - self.pending.len()).min(chunk.len());
            if !chunk[..take].iter().all(|b| (0x80..=0xBF).contains(b)) {
                return Err(Stop::NotUtf8);
            }
            self.pending.extend_from_slice(&chunk[..take]);
            start = take;
            if self.pending.len() < width {
                return Ok(());
            }
            if std::str::from_utf8(&self.pending).is_err() {
                return Err(Stop::NotUtf8);
            }
            self.pending.clear();
        }
        match std::str::from_utf8(&chunk[start..]) {
            Ok(_) => Ok(()),
            Err(e) if e.error_len().is_none() => {
                self.pending
                    .extend_from_slice(&chunk[start + e.valid_up_to()..]);
                Ok(())
            }
            Err(_) => Err(Stop::NotUtf8),
        }
    }
}

impl<R: Read> Read for Guarded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(stop) = self.stop {
            return Err(self.fail(stop));
        }
        let n = self.inner.read(buf)?;
        if n == 0 {
            if !self.pending.is_empty() {
                return Err(self.fail(Stop::NotUtf8));
            }
            return Ok(0);
        }
        self.total += n as u64;
        if self.total > self.limit {
            return Err(self.fail(Stop::TooLarge));
        }
        let chunk = &buf[..n];
        if self.blank && !chunk.iter().all(|b| b" \t\n\r".contains(b)) {
            self.blank = false;
        }
        if let Err(stop) = self.check_utf8(chunk) {
            return Err(self.fail(stop));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out one byte per read, the hardest cut for the UTF-8 check.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn run(bytes: &[u8], limit: u64) -> (Result<Vec<u8>, Option<Stop>>, bool) {
        let mut g = Guarded::new(Trickle(bytes), limit);
        let mut out = Vec::new();
        let r = g.read_to_end(&mut out).map(|_| out).map_err(|_| g.stop);
        (r, g.blank)
    }

    #[test]
    fn utf8_split_across_reads_passes_and_bad_bytes_stop() {
        let text = "{\"id\": \"café ☕ 𝄞 \u{2028}\"}";
        assert_eq!(run(text.as_bytes(), 1000).0, Ok(text.as_bytes().to_vec()));
        assert_eq!(
            run(b"{\"id\": \"caf\xe9\"}", 1000).0,
            Err(Some(Stop::NotUtf8))
        );
        assert_eq!(run(b"[\xff]", 1000).0, Err(Some(Stop::NotUtf8)));
        // A lead byte whose continuation never comes.
        assert_eq!(run(b"\"\xe9\"", 1000).0, Err(Some(Stop::NotUtf8)));
        // Cut short at the end.
        assert_eq!(run(b"\"\xe2\x98", 1000).0, Err(Some(Stop::NotUtf8)));
        // An overlong or surrogate sequence.
        assert_eq!(run(b"\xed\xa0\x80", 1000).0, Err(Some(Stop::NotUtf8)));
    }

    #[test]
    fn the_limit_stops_reading_and_blank_is_tracked() {
        assert_eq!(run(b"12345", 5).0, Ok(b"12345".to_vec()));
        assert_eq!(run(b"123456", 5).0, Err(Some(Stop::TooLarge)));
        assert!(run(b" \n\t\r", 10).1);
        assert!(!run(b" x", 10).1);
    }
}
