"""The trade-off behind smooth's unmet targets, as a Pareto plot.

Runs random churn (by default the 20 held-out seeds 1000000..1000019: seeds below 1,000,000 are
for development and tuning, `HELD_OUT_SEEDS_FROM` in `src/sim/scenario/seeds.rs`) for kip441,
kip441-learner and smooth at every combination of `max_warmup_replicas` (1, 2, 4, 8) and
`probing_rebalance_interval` (1m, 5m, 10m), and plots each configuration's mean unavailability
against its mean time-weighted imbalance and against its mean time to converge: one point per
strategy and configuration, the Pareto-optimal ones (no other point better on both axes) ringed.
Writes `docs/figures/smooth-pareto.svg` and `smooth-pareto.csv`.

    pip install './bindings/python[plot]'
    python examples/pareto.py            # from the repository's root, about a minute
    python examples/pareto.py --first-seed 0 --seeds 20 --out /tmp/dev   # development seeds

Needs matplotlib; the SVG is byte-for-byte reproducible (no date, a fixed hash salt).
"""

from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

import smoothscale

ROOT = Path(__file__).resolve().parents[1]
STRATEGIES = ["kip441", "kip441-learner", "smooth"]
SETS = {
    "config.max_warmup_replicas": [1, 2, 4, 8],
    "config.probing_rebalance_interval": ["1m", "5m", "10m"],
}
LOOK = {
    "kip441": ("#332288", "o"),
    "kip441-learner": ("#CC6677", "s"),
    "smooth": ("#000000", "X"),
}


# The first seed no tuning has looked at (`smoothscale::sim::scenario::HELD_OUT_SEEDS_FROM`).
HELD_OUT_SEEDS_FROM = 1_000_000


def points(seeds: range) -> list[dict]:
    """One row per strategy and configuration: its parameters and the three means."""
    result = smoothscale.sweep(
        ROOT / "simulations" / "random-churn.toml", seeds, STRATEGIES, sets=SETS
    )
    rows = []
    for point in result.aggregate["points"]:
        for strategy, part in point["strategies"].items():
            m = part["metrics"]
            rows.append(
                {
                    "strategy": strategy,
                    "max_warmup_replicas": point["parameters"]["config.max_warmup_replicas"],
                    "probing_interval": point["parameters"]["config.probing_rebalance_interval"],
                    "unavailable_task_s": m["unavailable_task_s.total"]["mean"],
                    "imbalance": m["imbalance.time_weighted"]["mean"],
                    "converge_s": m["time_to_converge_s"]["mean"],
                    "converged_runs": m["time_to_converge_s"]["n"],
                    "runs": part["runs"],
                }
            )
    return rows


def pareto(rows: list[dict], y: str) -> set[int]:
    """Indices of the rows no other row beats on both unavailability and `y` (lower is better)."""
    front = set()
    for i, a in enumerate(rows):
        if a[y] is None:
            continue
        dominated = any(
            b[y] is not None
            and b["unavailable_task_s"] <= a["unavailable_task_s"]
            and b[y] <= a[y]
            and (b["unavailable_task_s"], b[y]) != (a["unavailable_task_s"], a[y])
            for b in rows
        )
        if not dominated:
            front.add(i)
    return front


def plot(rows: list[dict], out: Path, seeds: range) -> None:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "smoothscale"
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for ax, (y, label) in zip(
        axes,
        [
            ("imbalance", "time-weighted imbalance (tasks/thread, mean)"),
            ("converge_s", "time to converge (s, mean over converged runs)"),
        ],
        strict=True,
    ):
        front = pareto(rows, y)
        for strategy in STRATEGIES:
            color, marker = LOOK[strategy]
            mine = [(i, r) for i, r in enumerate(rows) if r["strategy"] == strategy and r[y]]
            ax.scatter(
                [r["unavailable_task_s"] for _, r in mine],
                [r[y] for _, r in mine],
                color=color,
                marker=marker,
                label=strategy,
                s=36,
            )
            ringed = [r for i, r in mine if i in front]
            ax.scatter(
                [r["unavailable_task_s"] for r in ringed],
                [r[y] for r in ringed],
                facecolors="none",
                edgecolors=color,
                s=160,
                linewidths=1.2,
            )
        ax.set_xlabel("unavailability (task-s, mean)")
        ax.set_ylabel(label)
        ax.grid(True, color="#dddddd", linewidth=0.6)
        ax.legend(title="ringed: Pareto-optimal", fontsize=8, title_fontsize=8)
    fig.suptitle(
        f"random churn, seeds {seeds[0]}..{seeds[-1]}: max_warmup_replicas 1/2/4/8 × probing "
        "interval 1m/5m/10m, one point per strategy and configuration",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--first-seed",
        type=int,
        default=HELD_OUT_SEEDS_FROM,
        help="the first seed (default %(default)s, the first held-out one)",
    )
    parser.add_argument("--seeds", type=int, default=20, help="how many seeds (default 20)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    rows = points(seeds)
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "smooth-pareto.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, args.out / "smooth-pareto.svg", seeds)
    print(f"wrote {os.path.relpath(args.out)}/smooth-pareto.svg and smooth-pareto.csv")


if __name__ == "__main__":
    main()
