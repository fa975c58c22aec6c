//! Unit tests of the KIP-441 steps that the full assignor cannot reach alone.
