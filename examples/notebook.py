# %% [markdown]
# # smoothscale from Python: KIP-441 against the legacy sticky assignor
#
# A notebook in script form (the `# %%` cells open as a notebook in Jupyter
# with jupytext, or in VS Code); `python examples/notebook.py` runs it top to
# bottom from the repository's root. It needs the package
# (`pip install './bindings/python[plot]'`); pandas and matplotlib are used
# when installed. `--dask ADDRESS` spreads the sweep over the Dask cluster whose
# scheduler is at ADDRESS (`tcp://host:8786`); `--dask local` starts one in this
# process (worker threads: the Rust runs release the GIL).
#
# 1. Simulate the bundled scale-out (three instances holding large state
#    become six) with Kafka Streams' KIP-441 assignor and the legacy sticky
#    assignor.
# 2. Plot the cumulative unavailability over simulated time.
# 3. Sweep 100 seeds of random churn and compare the two strategies'
#    unavailability and convergence, with 95 % confidence intervals.

# %%
import argparse
import os
from pathlib import Path

import smoothscale

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument(
    "--out", type=Path, default=Path("target/notebook"), help="where the figure goes"
)
parser.add_argument(
    "--dask", metavar="ADDRESS", help="run the sweep on this Dask scheduler, or 'local'"
)
args, _ = parser.parse_known_args()
args.out.mkdir(parents=True, exist_ok=True)
ROOT = Path(__file__).resolve().parents[1]
SEEDS = int(os.environ.get("SMOOTHSCALE_EXAMPLE_SEEDS", "100"))

# %% [markdown]
# ## 1. The bundled scale-out

# %%
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

# %% [markdown]
# ## 2. Unavailability over time
#
# Each line is the task-seconds without a running active so far: kip441
# moves stateful tasks only once a warm-up has caught up, so its line stays
# low but climbs a little at each probing rebalance (stateless tasks pause);
# sticky moves actives at once and pays while they restore.

# %%
try:
    import matplotlib

    matplotlib.use(os.environ.get("MPLBACKEND", "Agg"))
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    print("matplotlib is not installed: skipping the plot (pip install matplotlib)")
if plt is not None:
    fig, ax = plt.subplots(figsize=(8, 4.5))
    result.plot("unavailable_task_s_so_far", ax=ax)
    fig.tight_layout()
    fig.savefig(args.out / "unavailability.svg")
    print(f"wrote {args.out / 'unavailability.svg'}")

# %% [markdown]
# The same data as a table: `result.frame` (pandas) or `result.timeseries`.

# %%
try:
    frame = result.frame
    print(frame.groupby("strategy").agg({"available_tasks": "min", "restoring_tasks": "max"}))
except ImportError:
    print(result.timeseries[:3])

# %% [markdown]
# ## 3. A sweep over random churn
#
# Every seed draws other crashes, restarts, joins and leaves; the aggregate
# gives, per strategy and metric, the mean and its 95 % confidence half-width
# (Student's t) over the seeds.

# %%
client = None
if args.dask == "local":
    from dask.distributed import Client, LocalCluster

    client = Client(
        LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    )
elif args.dask:
    from dask.distributed import Client

    client = Client(args.dask, timeout="30s")
sweep = smoothscale.sweep(
    ROOT / "simulations" / "random-churn.toml",
    range(SEEDS),
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
        f"(p95 {down['p95']}), converged in {converge['mean']} ± {converge['ci95_half_width']} s "
        f"({converge['n']} of {part['runs']} runs converged)"
    )
if client is not None:
    client.close()
