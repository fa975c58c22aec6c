"""Shared fixtures: the repository's root and the command line, the reference
every test compares the package with (built once with cargo when absent)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SIMULATIONS = ROOT / "simulations"


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `smoothscale` binary: $SMOOTHSCALE_CLI, else target/release's,
    built by `cargo build --release` (bounded to 10 minutes)."""
    given = os.environ.get("SMOOTHSCALE_CLI")
    if given:
        return Path(given)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--bin", "smoothscale"],
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    return ROOT / "target" / "release" / "smoothscale"


def run_cli(cli: Path, *args: str | os.PathLike[str], stdin: str | None = None):
    """Runs the command line (bounded to 5 minutes); returns the process."""
    return subprocess.run(
        [str(cli), *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def normalised(text: str):
    """JSON text as data, so two documents compare by value."""
    return json.loads(text)
