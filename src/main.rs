//! The `smoothscale` command line: see `smoothscale --help`.

#![forbid(unsafe_code)]

mod cli;

fn main() {
    std::process::exit(cli::run());
}
