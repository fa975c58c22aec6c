//! Little-endian reading and writing for the crossing format
//! (`docs/crossing-format.md`): a checked [`Reader`] whose errors name the
//! field and byte offset, and a [`Writer`].

use std::fmt;

/// Why a byte array is not a valid message: the field, where it starts, and
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The field being read (`clients[3].lags[0].task`).
    pub field: String,
    /// The byte offset where that field starts.
    pub offset: usize,
    /// What is wrong, starting with a verb.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (byte {}) {}", self.field, self.offset, self.message)
    }
}

impl std::error::Error for FormatError {}

/// A cursor over a message; every read checks that the bytes are there.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// The current byte offset.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// An error about `field`, which started at `offset`.
    pub fn error(
        &self,
        field: impl Into<String>,
        offset: usize,
        message: impl Into<String>,
    ) -> FormatError {
        FormatError {
            field: field.into(),
            offset,
            message: message.into(),
        }
    }

    fn take<const N: usize>(&mut self, field: &dyn Fn() -> String) -> Result<[u8; N], FormatError> {
        let end = self.at.checked_add(N).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(self.error(
                field(),
                self.at,
                format!(
                    "must have {N} bytes, got {} (the message ends at byte {})",
                    self.bytes.len() - self.at,
                    self.bytes.len()
                ),
            ));
        };
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[self.at..end]);
        self.at = end;
        Ok(out)
    }

    /// A message's first eight bytes: its magic (four ASCII bytes read as a
    /// little-endian `u32`) and its format version.
    ///
    /// # Errors
    /// Another magic or version, naming both values.
    pub fn header(&mut self, magic: u32, version: u32) -> Result<(), FormatError> {
        let at = self.offset();
        let got = self.u32(&|| "magic".into())?;
        if got != magic {
            let name = String::from_utf8_lossy(&magic.to_le_bytes()).into_owned();
            return Err(self.error(
                "magic",
                at,
                format!("must be {magic:#010x} ({name:?}), got {got:#010x}"),
            ));
        }
        let at = self.offset();
        let got = self.u32(&|| "version".into())?;
        if got != version {
            return Err(self.error("version", at, format!("must be {version}, got {got}")));
        }
        Ok(())
    }

    /// One byte.
    ///
    /// # Errors
    /// The message ends first.
    pub fn u8(&mut self, field: &dyn Fn() -> String) -> Result<u8, FormatError> {
        Ok(self.take::<1>(field)?[0])
    }

    /// A `u32`.
    ///
    /// # Errors
    /// The message ends first.
    pub fn u32(&mut self, field: &dyn Fn() -> String) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.take(field)?))
    }

    /// An `i32`.
    ///
    /// # Errors
    /// The message ends first.
    pub fn i32(&mut self, field: &dyn Fn() -> String) -> Result<i32, FormatError> {
        Ok(i32::from_le_bytes(self.take(field)?))
    }

    /// An `i64`.
    ///
    /// # Errors
    /// The message ends first.
    pub fn i64(&mut self, field: &dyn Fn() -> String) -> Result<i64, FormatError> {
        Ok(i64::from_le_bytes(self.take(field)?))
    }

    /// An `i64` that must be at least 0, as a `u64`.
    ///
    /// # Errors
    /// The message ends first, or the value is negative.
    pub fn non_negative(&mut self, field: &dyn Fn() -> String) -> Result<u64, FormatError> {
        let at = self.at;
        let v = self.i64(field)?;
        u64::try_from(v)
            .map_err(|_| self.error(field(), at, format!("must be at least 0, got {v}")))
    }

    /// A count that must fit in the bytes left, each entry taking at least
    /// `min_entry_bytes`: a corrupt count fails here instead of allocating.
    ///
    /// # Errors
    /// The message ends first, or the count cannot fit in what is left.
    pub fn count(
        &mut self,
        field: &dyn Fn() -> String,
        min_entry_bytes: usize,
    ) -> Result<usize, FormatError> {
        let at = self.at;
        let n = self.u32(field)?;
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let left = self.bytes.len() - self.at;
        if n.saturating_mul(min_entry_bytes) > left {
            return Err(self.error(
                field(),
                at,
                format!("count must fit in the {left} bytes left, got {n}"),
            ));
        }
        Ok(n)
    }

    /// A length-prefixed UTF-8 string.
    ///
    /// # Errors
    /// The message ends first, or the bytes are not UTF-8.
    pub fn str(&mut self, field: &dyn Fn() -> String) -> Result<String, FormatError> {
        let at = self.at;
        let len = self.count(field, 1)?;
        let raw = &self.bytes[self.at..self.at + len];
        self.at += len;
        String::from_utf8(raw.to_vec())
            .map_err(|e| self.error(field(), at, format!("must be UTF-8, got {e}")))
    }

    /// Fails unless every byte was read.
    ///
    /// # Errors
    /// Bytes are left after the last field.
    pub fn finish(&self) -> Result<(), FormatError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error(
                "end of message",
                self.at,
                format!(
                    "must follow the last field, got {} more bytes",
                    self.bytes.len() - self.at
                ),
            ))
        }
    }
}

/// An append-only little-endian buffer.
#[derive(Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// An empty buffer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Writer {
            bytes: Vec::with_capacity(capacity),
        }
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    /// A `u32`.
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// An `i32`.
    pub fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// An `i64`.
    pub fn i64(&mut self, v: i64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// A count: every list this crate writes is bounded by the model's
    /// limits (fewer than 2³² tasks or clients), so it fits a `u32`.
    pub fn count(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }

    /// A length-prefixed UTF-8 string.
    pub fn str(&mut self, s: &str) {
        self.count(s.len());
        self.bytes.extend_from_slice(s.as_bytes());
    }
}
