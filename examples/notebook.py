# %% [markdown]
# # smoothscale from Python: KIP-441 against the legacy sticky assignor
#
# A notebook in script form (the `# %%` cells open as a notebook in Jupyter
# with jupytext, or in VS Code); `python examples/notebook.py` runs it top to
# bottom. It needs the package (`pip install './bindings/python[plot]'`);
# pandas and matplotlib are used when installed. `--dask ADDRESS` spreads the
# sweep over the Dask cluster whose scheduler is at ADDRESS (`tcp://host:8786`);
# `--dask local` starts a cluster of two worker processes on this machine.
#
# 1. Simulate the bundled scale-out (three instances holding large state
#    become six) with Kafka Streams' KIP-441 assignor and the legacy sticky
#    assignor.
# 2. Plot the cumulative unavailability over simulated time.
# 3. Sweep 100 seeds of random churn (held-out seeds, from 1,000,000) and
#    compare the two strategies' unavailability and convergence, with 95 %
#    confidence intervals.
#
# Each cell defines a step; the last cell runs them. The steps run only under
# `if __name__ == "__main__":` because Dask's worker processes import this
# script again (as `__mp_main__`): unguarded, each worker would run the
# notebook and start a cluster of its own. In Jupyter the guard holds, so the
# last cell runs there too.

# %%
import argparse
import os
from pathlib import Path

import smoothscale

# The repository's root: this file's folder's parent (in Jupyter, which has no
# __file__ and runs the notebook in its folder, the working directory's parent).
HERE = Path(__file__).parent if "__file__" in globals() else Path.cwd()
ROOT = HERE.resolve().parent
SEEDS = int(os.environ.get("SMOOTHSCALE_EXAMPLE_SEEDS", "100"))
# Seeds below 1,000,000 are for development and tuning; figures to quote come
# from the held-out ones (`smoothscale::sim::scenario::HELD_OUT_SEEDS_FROM`).
FIRST_SEED = 1_000_000

# %% [markdown]
# ## 1. The bundled scale-out


# %%
def scale_out() -> smoothscale.SimulationResult:
    result = smoothscale.simulate(
        ROOT / "simulations" / "scale-out.toml", strategies=["kip441", "sticky"]
    )
    for name, figures in result.summary["strategies"].items():
        print(
            f"{name:8} unavailable {figures['unavailable_task_s']['total']:9.3f} task-s, "
            f"{figures['rebalances']['total']:3} rebalances, "
            f"converged {figures['time_to_converge_s']} s after the last event, "
            f"restored {figures['restored_records']['total']:,} records"
        )
    return result


# %% [markdown]
# ## 2. Unavailability over time
#
# Each line is the task-seconds without a running active so far (the chart
# `smoothscale simulate` writes as `unavailability.svg`): kip441 moves stateful
# tasks only once a warm-up has caught up, so its line stays low but climbs a
# little at each probing rebalance (stateless tasks pause); sticky moves
# actives at once and pays while they restore. The same data as a table:
# `result.timeseries` (a list of dicts) and `result.timeseries.frame` (pandas).


# %%
def plot(result: smoothscale.SimulationResult, out: Path) -> None:
    try:
        import matplotlib

        matplotlib.use(os.environ.get("MPLBACKEND", "Agg"))
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: skipping the plot (pip install matplotlib)")
    else:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        result.plot("unavailability", ax=ax)
        fig.tight_layout()
        out.mkdir(parents=True, exist_ok=True)
        fig.savefig(out / "unavailability.svg")
        print(f"wrote {out / 'unavailability.svg'}")
    try:
        frame = result.timeseries.frame
        print(frame.groupby("strategy").agg({"available_tasks": "min", "restoring_tasks": "max"}))
    except ImportError:
        print(result.timeseries[:3])


# %% [markdown]
# ## 3. A sweep over random churn
#
# Every seed draws other crashes, restarts, joins and leaves; the aggregate
# gives, per strategy and metric, the mean and its 95 % confidence half-width
# (Student's t) over the seeds, and compares sticky with kip441 seed by seed
# (`paired`: the mean difference, its 95 % confidence interval and a verdict).
# The seeds are held-out ones, from FIRST_SEED on. With a Dask client the
# seeds are split over the cluster's workers and the result is the local
# sweep's, byte for byte.


# %%
def churn(seeds: int, client=None) -> smoothscale.SweepResult:
    sweep = smoothscale.sweep(
        ROOT / "simulations" / "random-churn.toml",
        range(FIRST_SEED, FIRST_SEED + seeds),
        strategies=["kip441", "sticky"],
        client=client,
    )
    point = sweep.aggregate["points"][0]["strategies"]
    for name, part in point.items():
        down = part["metrics"]["unavailable_task_s.total"]
        converge = part["metrics"]["time_to_converge_s"]
        print(
            f"{name:8} over {part['runs']} seeds: "
            f"unavailable {down['mean']} ± {down['ci95_half_width']} task-s "
            f"(p95 {down['p95']}), converged in {converge['mean']} ± "
            f"{converge['ci95_half_width']} s ({converge['n']} of {part['runs']} runs converged)"
        )
    paired = sweep.aggregate["points"][0]["paired"]
    for name, part in paired["strategies"].items():
        d = part["unavailable_task_s.total"]
        print(
            f"paired, {name} - {paired['baseline']} seed by seed: unavailable "
            f"{d['mean_difference']} task-s, 95 % CI {d['ci95']}, lower/higher/equal on "
            f"{d['lower']}/{d['higher']}/{d['equal']} of {d['n']} seeds: {d['verdict']}"
        )
    return sweep


# %%
def main() -> None:
    parser = argparse.ArgumentParser(description="smoothscale from Python: kip441 against sticky")
    parser.add_argument(
        "--out", type=Path, default=Path("target/notebook"), help="where the figure goes"
    )
    parser.add_argument(
        "--dask", metavar="ADDRESS", help="run the sweep on this Dask scheduler, or 'local'"
    )
    args, _ = parser.parse_known_args()  # known: Jupyter passes its own
    plot(scale_out(), args.out)
    if args.dask is None:
        churn(SEEDS)
        return
    from dask.distributed import Client, LocalCluster

    if args.dask == "local":
        with (
            LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
            Client(cluster) as client,
        ):
            churn(SEEDS, client)
    else:
        with Client(args.dask, timeout="30s") as client:
            churn(SEEDS, client)


if __name__ == "__main__":
    main()
