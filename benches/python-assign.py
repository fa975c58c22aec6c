"""`smoothscale.assign` from Python against the command line's `assign`, on the
10,000 tasks × 1,000 clients preset (sparse lags): whole processes, and the call
alone inside a running interpreter.

    cargo build --release
    pip install ./bindings/python
    python benches/python-assign.py            # from the repository's root

Prints the median and range of wall-clock seconds over the runs (perf_counter
around each subprocess, or around the call), and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import smoothscale

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "target" / "release" / "smoothscale"


def wall(command: list[str], runs: int) -> list[float]:
    """Wall seconds of each of `runs` runs of `command` (after one warm-up)."""
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=120)
        if i:
            times.append(time.perf_counter() - start)
    return times


def call(fn, runs: int) -> list[float]:
    """Wall seconds of each of `runs` calls of `fn` (after one warm-up)."""
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        fn()
        if i:
            times.append(time.perf_counter() - start)
    return times


def show(name: str, times: list[float]) -> float:
    median = statistics.median(times)
    print(f"| {name} | {median:.3f} s | {min(times):.3f}–{max(times):.3f} s |")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--preset", default="10000t_1000c")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state.json"
        with open(state, "w") as f:
            subprocess.run([CLI, "generate", "--preset", args.preset], check=True, stdout=f)
        text = state.read_text()
        as_dict = json.loads(text)
        script = (
            "import sys, smoothscale; "
            "sys.stdout.write(smoothscale._core.assign(open(sys.argv[1]).read(), 'kip441', False))"
        )
        script_dict = (
            "import json, sys, smoothscale; "
            "json.dump(smoothscale.assign(json.load(open(sys.argv[1]))), sys.stdout)"
        )
        print(
            f"{args.preset}, kip441, {args.runs} runs each, smoothscale {smoothscale.__version__}"
        )
        print()
        print("| what | median | range |")
        print("|---|---|---|")
        cli = show(
            "command line: `smoothscale assign FILE` (process)",
            wall([CLI, "assign", state], args.runs),
        )
        text_process = show(
            "Python: read the file, `_core.assign` on the text, print (process)",
            wall([sys.executable, "-c", script, state], args.runs),
        )
        dict_process = show(
            "Python: `json.load`, `assign(dict)`, `json.dump` (process)",
            wall([sys.executable, "-c", script_dict, state], args.runs),
        )
        show(
            "`smoothscale.assign(text)` call (plan parsed into a dict)",
            call(lambda: smoothscale.assign(text), args.runs),
        )
        show(
            "`smoothscale.assign(dict)` call", call(lambda: smoothscale.assign(as_dict), args.runs)
        )
        print()
        print(
            f"Python process / command line: {text_process / cli:.2f} (text), "
            f"{dict_process / cli:.2f} (dicts)"
        )


if __name__ == "__main__":
    main()
