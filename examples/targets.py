#!/usr/bin/env python3
"""smooth against its targets on every bundled scenario, paired by seed.

Runs `smoothscale sweep` on each `simulations/*.toml` with smooth, kip441
and kip441-learner (smooth the baseline), each scripted scenario perturbed
per seed as the paper's headline is (each task's state size and write rate
within ±20 %, each event's time within ±2 minutes or a tenth of the run,
unshifted where a shift would break a membership rule), and prints, per
target, a Markdown table of what the sweep itself computed (`sweep.json`'s
`paired` block): the other strategy's figure minus smooth's, averaged over
the seeds where both have one, its 95 % confidence interval, the seeds where
smooth's was lower / higher, and the verdict (✓ smooth significantly lower,
✗ significantly higher, `ns` no significant difference).

Seeds default to the held-out 1000000..1000020; figures for the README come
from those. Needs the release binary (`cargo build --release`).

    python3 examples/targets.py [--seeds A..B] [--out DIR] [--only a,b]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "smoothscale"
STRATEGIES = ["smooth", "kip441", "kip441-learner"]
EVENT_SHIFT_MS = 120_000

# (metric key, title, against): each target of the issue.
TARGETS = [
    ("unavailable_task_s.total", "unavailable (task-s)", ["kip441", "kip441-learner"]),
    ("backlog.record_s", "lag (record-s)", ["kip441", "kip441-learner"]),
    ("worst_drain_s", "drain (s)", ["kip441", "kip441-learner"]),
    ("rebalances.total", "rebalances", ["kip441"]),
    ("time_to_converge_s", "converge (s)", ["kip441-learner"]),
    ("time_to_full_redundancy_s", "full redundancy (s)", ["kip441-learner"]),
]


def duration_ms(value: int | str) -> int:
    if isinstance(value, int):
        return value
    units = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
    return sum(int(n) * units[u] for n, u in re.findall(r"(\d+)(ms|s|m|h|d)", value))


def sweep(name: str, seeds: str, out: Path) -> dict:
    path = ROOT / "simulations" / f"{name}.toml"
    scenario = tomllib.loads(path.read_text())
    args = [str(BINARY), "sweep", str(path), "--seeds", seeds, "--out", str(out / name)]
    for s in STRATEGIES:
        args += ["--strategy", s]
    args += ["--baseline", "smooth"]
    tries = [args]
    if "churn" not in scenario and "perturb" not in scenario:
        sized = args + ["--set", "perturb.state_records=0.2", "--set", "perturb.write_rate=0.2"]
        shift = min(EVENT_SHIFT_MS, duration_ms(scenario["duration"]) // 10)
        tries = [sized + ["--set", f'perturb.event_time="{shift}ms"'], sized]
    for i, attempt in enumerate(tries):
        done = subprocess.run(attempt, capture_output=True, text=True)
        if done.returncode == 0:
            return json.loads((out / name / "sweep.json").read_text())
        if i == len(tries) - 1:
            sys.exit(f"{name}: {done.stderr.strip()}")
    raise AssertionError


def cell(paired: dict, other: str, key: str) -> str:
    p = paired["strategies"][other].get(key)
    if p is None or p["n"] == 0:
        return "-"
    mark = {"higher": "✓", "lower": "✗"}.get(p["verdict"], "ns")
    if p["n"] < 2:
        return f"{p['mean_difference']:,.1f} (n {p['n']}) {mark}"
    lo, hi = p["ci95"]
    # The other's lower / higher counts are smooth's higher / lower.
    return f"{p['mean_difference']:,.1f} [{lo:,.1f}, {hi:,.1f}] {p['higher']}/{p['lower']} {mark}"


def nevers(point: dict, key: str) -> str:
    parts = []
    for s in STRATEGIES:
        stats = point["strategies"][s]
        missing = stats["completed"] - stats["metrics"][key]["n"]
        if missing:
            parts.append(f"{s} {missing}")
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1000000..1000020")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "targets")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    names = sorted(p.stem for p in (ROOT / "simulations").glob("*.toml"))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    points = {n: sweep(n, args.seeds, args.out)["points"][0] for n in names}
    print(
        f"seeds {args.seeds}; each cell: other − smooth, mean [95 % CI],"
        " seeds smooth lower/higher, verdict"
    )
    for key, title, against in TARGETS:
        print(f"\n**{title}**\n")
        print(
            "| scenario | "
            + " | ".join(f"{o} − smooth" for o in against)
            + " | runs without a value |"
        )
        print("|---|" + "---|" * len(against) + "---|")
        for n in names:
            cells = [cell(points[n]["paired"], o, key) for o in against]
            print(f"| {n} | " + " | ".join(cells) + f" | {nevers(points[n], key)} |")
    print("\n**p95 unavailable (task-s) and most replicas on one client**\n")
    print(
        "| scenario | " + " | ".join(f"p95 {s}" for s in STRATEGIES) + " | smooth's most replicas |"
    )
    print("|---|" + "---|" * (len(STRATEGIES) + 1))
    for n in names:
        m = {s: points[n]["strategies"][s]["metrics"] for s in STRATEGIES}
        p95 = [f"{m[s]['unavailable_task_s.total']['p95']:,.3f}" for s in STRATEGIES]
        most = m["smooth"]["max_replicas_per_client"]["max"]
        print(f"| {n} | " + " | ".join(p95) + f" | {most:g} |")


if __name__ == "__main__":
    main()
