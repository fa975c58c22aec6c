//! The `smoothscale-bench` package holds criterion benchmarks only (see
//! `README.md` beside this file); this empty library gives the package a root.
