"""smoothscale from Python: assign stream-processing tasks to instances with
Kafka Streams' KIP-441 assignor and its baselines, and compare the strategies
under churn with smoothscale's deterministic simulator.

The work is done by the Rust library (the native module ``smoothscale._core``);
every document here is the one the ``smoothscale`` command line prints or
writes, byte for byte, parsed into Python values. The same input and seed give
the same result on any machine and thread count.

>>> import smoothscale
>>> "kip441" in smoothscale.strategies()
True

The functions: :func:`strategies`, :func:`assign`, :func:`simulate` (a
:class:`SimulationResult`) and :func:`sweep` (a :class:`SweepResult`, on a Dask
cluster with ``client=``). The tables come as :class:`Rows`, lists of dicts
whose ``.frame`` is the same table as a pandas DataFrame; :data:`PLOTS` names
the charts :meth:`SimulationResult.plot` draws after the SVG files
``smoothscale simulate`` writes.

Bad input raises :class:`ValueError` with the command line's one-line message,
naming the field and the value; a plan that breaks an invariant (a bug in a
strategy) raises :class:`InvariantViolation`. pandas, Dask and matplotlib are
used when installed, never required.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import InvariantViolation

if TYPE_CHECKING:  # pragma: no cover
    import pandas

__all__ = [
    "PLOTS",
    "InvariantViolation",
    "Rows",
    "SimulationResult",
    "SweepResult",
    "__version__",
    "assign",
    "simulate",
    "strategies",
    "sweep",
]

__version__: str = _core.VERSION

#: A cluster state: a dict in the wire format, or its JSON text.
State = Mapping[str, Any] | str | bytes
#: A scenario: a path to a TOML file, or TOML text.
ScenarioSource = str | os.PathLike[str]


def strategies() -> dict[str, str]:
    """The registered strategies, name to one-line description, in the order
    the command line's ``smoothscale strategies`` lists them.

    >>> names = list(strategies())
    >>> names[:3]
    ['kip441', 'kip441-learner', 'sticky']
    >>> strategies()["optimal"].startswith("yardstick")
    True
    """
    return dict(_core.strategies())


def _state_text(state: State) -> str:
    if isinstance(state, str):
        return state
    if isinstance(state, (bytes, bytearray)):
        try:
            return bytes(state).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"the state is not UTF-8: {e}") from None
    if not isinstance(state, Mapping):
        raise ValueError(f"state must be a dict or JSON text, got {type(state).__name__}")
    try:
        return json.dumps(state, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise ValueError(f"the state cannot be written as JSON: {e}") from None


def assign(state: State, strategy: str = "kip441", metrics: bool = False) -> dict[str, Any]:
    """Assign the cluster ``state`` with ``strategy``; the plan as a dict,
    exactly what ``smoothscale assign [--metrics]`` prints, parsed.

    Args:
        state: the cluster, a dict in smoothscale's wire format
            (docs/wire-format.md: ``clients``, ``tasks``, optional ``config``,
            previous owners and lags) or that JSON as text (``str`` or UTF-8
            ``bytes``).
        strategy: the name of a registered strategy (a key of
            :func:`strategies`); ``"kip441"``, Kafka Streams' assignor, by
            default.
        metrics: when true, the plan carries its metrics (balance, moves,
            restore volume) as ``smoothscale assign --metrics`` prints them.

    Returns:
        The plan: ``clients``, each with its ``id`` and its ``active``,
        ``standby`` and ``warmup`` task ids (docs/wire-format.md, "Output"),
        checked against the assignment invariants.

    >>> state = {
    ...     "clients": [{"id": "a", "capacity": 1}, {"id": "b", "capacity": 1}],
    ...     "tasks": [{"id": "0_0", "stateful": True}, {"id": "0_1", "stateful": False}],
    ... }
    >>> plan = assign(state)
    >>> sorted(task for c in plan["clients"] for task in c["active"])
    ['0_0', '0_1']
    >>> assign({"clients": [{"id": "a", "capacity": 0}], "tasks": []})
    Traceback (most recent call last):
    ...
    ValueError: clients[0].capacity must be at least 1, got 0

    Raises:
        ValueError: bad input (the command line's message) or an unknown
            strategy.
        InvariantViolation: the plan breaks an invariant (a bug).

    The GIL is released while the strategy runs.
    """
    if not isinstance(strategy, str):
        raise ValueError(f"strategy must be a name, got {type(strategy).__name__}")
    return json.loads(_core.assign(_state_text(state), strategy, bool(metrics)))


def _scenario(scenario: ScenarioSource) -> tuple[str, str]:
    """The scenario's TOML text and how errors name it (its path, as the
    command line does, or ``scenario`` for text)."""
    if isinstance(scenario, os.PathLike) or (
        isinstance(scenario, str) and "\n" not in scenario and os.path.isfile(scenario)
    ):
        path = os.fspath(scenario)
        try:
            with open(path, "rb") as f:
                raw = f.read(_core.MAX_SCENARIO_BYTES + 1)
        except OSError as e:
            raise ValueError(f"cannot read {path}: {e.strerror}") from None
        if len(raw) > _core.MAX_SCENARIO_BYTES:
            raise ValueError(
                f"{path} is larger than the limit of {_core.MAX_SCENARIO_BYTES} bytes "
                "for a scenario file"
            )
        try:
            return raw.decode("utf-8"), path
        except UnicodeDecodeError as e:
            raise ValueError(f"cannot read {path}: {e}") from None
    if isinstance(scenario, str):
        return scenario, "scenario"
    raise ValueError(f"scenario must be a path or TOML text, got {type(scenario).__name__}")


def _names(strategies: Iterable[str] | str | None) -> list[str]:
    if strategies is None:
        return []
    if isinstance(strategies, str):
        return [strategies]
    names = list(strategies)
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise ValueError(f"strategies[{i}] must be a strategy name, got {type(name).__name__}")
    if not names:
        raise ValueError("strategies must name at least one strategy, got none")
    return names


def _typed(value: str) -> Any:
    """A CSV field as the number it holds (``None`` when empty)."""
    if value == "":
        return None
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        return value


class Rows(list):
    """A table's rows: a ``list`` of dicts, one per row (numbers as numbers,
    empty fields as ``None``), with the table as a pandas DataFrame in
    ``.frame``. :attr:`SimulationResult.timeseries` and
    :attr:`SweepResult.runs` are ``Rows``.

    >>> rows = Rows.of_csv("strategy,t_s\\nkip441,0.0\\n")
    >>> rows
    [{'strategy': 'kip441', 't_s': 0.0}]
    >>> rows == [{"strategy": "kip441", "t_s": 0.0}]
    True
    """

    _csv: str | None = None

    @classmethod
    def of_csv(cls, text: str, rows: list[dict[str, Any]] | None = None) -> Rows:
        """The rows of the CSV ``text`` (``rows`` when given: the same table
        parsed otherwise, as ``runs.json`` holds ``runs.csv``'s)."""
        out = cls(rows if rows is not None else _rows(text))
        out._csv = text
        return out

    @property
    def frame(self) -> pandas.DataFrame:
        """The table as a pandas DataFrame, a column per CSV column, read from
        the CSV the command line writes (pandas must be installed)."""
        if self._csv is None:
            return _pandas().DataFrame(list(self))
        return _frame(self._csv)


def _rows(text: str) -> list[dict[str, Any]]:
    return [{k: _typed(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("pandas is not installed: pip install pandas (or use the rows)") from None
    return pandas


def _frame(text: str) -> pandas.DataFrame:
    return _pandas().read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])


#: The charts :meth:`SimulationResult.plot` draws, by the name of the SVG file
#: ``smoothscale simulate`` writes for each (``availability`` for
#: ``availability.svg``), to the key of :attr:`SimulationResult.series` (the
#: ``timeseries.csv`` column) holding its data. ``plot`` takes either name.
PLOTS: dict[str, str] = {
    "availability": "available_tasks",
    "restoring_tasks": "restoring_tasks",
    "imbalance": "imbalance",
    "restored_records": "restored_records",
    "backlog": "backlog_records",
    "max_replicas": "max_replicas_per_client",
    "unavailability": "unavailable_task_s_so_far",
}


@dataclass(frozen=True)
class SimulationResult:
    """What :func:`simulate` returns: the documents ``smoothscale simulate``
    writes, as text and parsed.

    Attributes:
        summary: ``summary.json``: per strategy its outcome, unavailability,
            restored records, moves, rebalances, convergence, balance, …
            (each figure is defined in docs/simulator.md#metrics).
        timeseries: the rows of ``timeseries.csv``, one per sample and
            strategy (columns ``strategy``, ``t_s``, ``available_tasks``,
            ``restoring_tasks``, ``imbalance``, ``max_replicas_per_client``,
            ``backlog_records``, ``restored_records``), as :class:`Rows`:
            ``timeseries.frame`` is the table as a pandas DataFrame.
        series: the data the command line's SVG charts draw, by
            ``timeseries.csv`` column and then ``unavailable_task_s_so_far``
            (the cumulative unavailability): per series ``title``, ``label``,
            ``unit`` and per strategy the times ``t_s``, the values ``value``
            and ``infeasible_at_s``. :data:`PLOTS` names them as the SVG
            files do.
        summary_json: ``summary.json``'s text, byte for byte.
        timeseries_csv: ``timeseries.csv``'s text, byte for byte.
    """

    summary: dict[str, Any]
    timeseries: Rows
    series: dict[str, dict[str, Any]]
    summary_json: str = field(repr=False)
    timeseries_csv: str = field(repr=False)

    @property
    def frame(self) -> pandas.DataFrame:
        """``timeseries.frame``: the time series as a pandas DataFrame (pandas
        must be installed)."""
        return _frame(self.timeseries_csv)

    def plot(
        self, chart: str = "unavailability", ax: Any = None, *, column: str | None = None
    ) -> Any:
        """Draw one chart over simulated time (minutes), a line per strategy,
        with matplotlib (which must be installed), as the command line's SVG
        file of that name draws it.

        Args:
            chart: the chart, by the name of its SVG file (a key of
                :data:`PLOTS`, ``.svg`` optional) or by its series
                (``timeseries.csv``) column:

                ==================  =============================  ===========
                chart (SVG file)    series column                  unit
                ==================  =============================  ===========
                availability        available_tasks                tasks
                restoring_tasks     restoring_tasks                tasks
                imbalance           imbalance                      tasks/thread
                restored_records    restored_records               records
                backlog             backlog_records                records
                max_replicas        max_replicas_per_client        replicas
                unavailability      unavailable_task_s_so_far      task-s
                ==================  =============================  ===========

                ``unavailability``, the cumulative task-seconds without a
                running active, by default.
            ax: the matplotlib axes to draw on; new axes (a new figure) when
                ``None``.
            column: the former name of ``chart``, still taken.

        Returns:
            The axes drawn on.

        Raises:
            ValueError: ``chart`` names no chart.
        """
        column = _chart(chart if column is None else column, self.series)
        try:
            import matplotlib.pyplot as plt
        except ImportError:  # pragma: no cover - depends on the environment
            raise ImportError("matplotlib is not installed: pip install matplotlib") from None
        one = self.series[column]
        if ax is None:
            _, ax = plt.subplots()
        for strategy, line in one["runs"].items():
            label = strategy
            if line["infeasible_at_s"] is not None:
                label += f" (infeasible at {line['infeasible_at_s']} s)"
            ax.plot([t / 60 for t in line["t_s"]], line["value"], label=label)
        unit = f" ({one['unit']})" if one["unit"] else ""
        ax.set_xlabel("simulated time (min)")
        ax.set_ylabel(one["label"] + unit)
        ax.set_title(f"{one['title']}: {self.summary['scenario']}, seed {self.summary['seed']}")
        ax.legend()
        return ax


def _chart(chart: Any, series: Mapping[str, Any]) -> str:
    """The series key of ``chart``: a chart's (SVG file's) name or a series key.

    >>> _chart("availability.svg", {"available_tasks": {}})
    'available_tasks'
    >>> _chart("nope", {"available_tasks": {}})
    Traceback (most recent call last):
    ...
    ValueError: chart must be one of availability, ..., got 'nope'
    """
    if isinstance(chart, str):
        name = chart.removesuffix(".svg")
        column = PLOTS.get(name, name)
        if column in series:
            return column
    raise ValueError(
        f"chart must be one of {', '.join(PLOTS)} (the SVG files' names) or "
        f"{', '.join(series)} (the series' columns), got {chart!r}"
    )


def simulate(
    scenario: ScenarioSource,
    strategies: Sequence[str] | str | None = None,
    seed: int | None = None,
) -> SimulationResult:
    """Run ``scenario`` with each strategy, as ``smoothscale simulate`` does.

    Args:
        scenario: a path to a TOML scenario file (``str`` or
            ``os.PathLike``, relative to the working directory) or the TOML
            text itself (docs/simulator.md, "Scenario files").
        strategies: the strategies to run, by name (one name or a list of
            distinct names, as ``--strategy``); the scenario's
            ``strategies`` when ``None``.
        seed: the seed of the churn and of the strategies' randomness, an
            integer from 0 to 2^64 - 1 (as ``--seed``); the scenario's
            ``seed`` when ``None``.

    Returns:
        A :class:`SimulationResult`: ``summary``, ``timeseries`` (and its
        ``.frame``), ``series`` and ``plot``.

    >>> text = '''
    ... name = "tiny"
    ... seed = 1
    ... duration = "10m"
    ... [cluster]
    ... clients = 2
    ... restore_rate = 1000
    ... [[subtopologies]]
    ... partitions = 4
    ... stateful = true
    ... state_records = 1000
    ... [[events]]
    ... at = "2m"
    ... kind = "scale_out"
    ... count = 1
    ... '''
    >>> result = simulate(text, strategies=["kip441", "sticky"], seed=1)
    >>> list(result.summary["strategies"])
    ['kip441', 'sticky']
    >>> result.summary["strategies"]["kip441"]["outcome"]
    'completed'
    >>> result.timeseries[0]["strategy"], result.timeseries[0]["t_s"]
    ('kip441', 0.0)

    Raises:
        ValueError: a bad scenario (the command line's message, naming the
            file and the key), strategy or seed.
        InvariantViolation: a run breaks an invariant (a bug).

    The GIL is released while the strategies run (in parallel).
    """
    text, source = _scenario(scenario)
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64
    ):
        raise ValueError(f"seed must be an integer from 0 to 2^64 - 1, got {seed!r}")
    summary, timeseries, series = _core.simulate(text, source, _names(strategies), seed)
    return SimulationResult(
        summary=json.loads(summary),
        timeseries=Rows.of_csv(timeseries),
        series={s["column"]: s for s in json.loads(series)["series"]},
        summary_json=summary,
        timeseries_csv=timeseries,
    )


@dataclass(frozen=True)
class SweepResult:
    """What :func:`sweep` returns: the documents ``smoothscale sweep`` writes,
    as text and parsed.

    Attributes:
        runs: every run's figures, by point (combination of the swept
            values), seed, then strategy: ``runs.json``'s rows (``parameters``,
            ``seed``, ``strategy``, ``outcome`` and ``metrics``, every metric
            under its flat name such as ``unavailable_task_s.total``), as
            :class:`Rows`: ``runs.frame`` is ``runs.csv`` as a pandas
            DataFrame, a column per parameter and metric.
        aggregate: ``sweep.json``: per point and strategy the runs, the
            completed ones, the infeasible seeds and per metric ``n``,
            ``mean``, ``std``, ``ci95_half_width`` (the 95 % confidence
            interval of the mean is mean ± ci95_half_width), ``p50``, ``p95``
            and ``max``; and per point ``paired``: the ``baseline`` and per
            other strategy and metric the differences strategy − baseline
            over the seeds where both completed with a value (``n``,
            ``mean_difference``, ``ci95_half_width``, ``ci95``, ``lower``,
            ``higher``, ``equal``, ``verdict``).
        sweep_json: ``sweep.json``'s text, byte for byte.
        runs_json: ``runs.json``'s text, byte for byte.
        runs_csv: ``runs.csv``'s text, byte for byte.
    """

    runs: Rows
    aggregate: dict[str, Any]
    sweep_json: str = field(repr=False)
    runs_json: str = field(repr=False)
    runs_csv: str = field(repr=False)

    @property
    def frame(self) -> pandas.DataFrame:
        """``runs.frame``: the runs as a pandas DataFrame, a column per
        parameter and metric (pandas must be installed)."""
        return _frame(self.runs_csv)


def _seed_range(seeds: range | int | str) -> tuple[int, int]:
    if isinstance(seeds, bool):
        raise ValueError(f"seeds must be a range, a count or 'A..B', got {seeds!r}")
    if isinstance(seeds, int):
        start, end = 0, seeds
    elif isinstance(seeds, range):
        if seeds.step != 1:
            raise ValueError(f"seeds must be a range with step 1, got {seeds!r}")
        start, end = seeds.start, seeds.stop
    elif isinstance(seeds, str) and ".." in seeds:
        a, _, b = seeds.partition("..")
        try:
            start, end = int(a), int(b)
        except ValueError:
            raise ValueError(f"seeds must be A..B with integers A < B, got {seeds!r}") from None
    else:
        raise ValueError(f"seeds must be a range, a count or 'A..B', got {seeds!r}")
    if not 0 <= start < end <= 2**64 - 1:
        raise ValueError(
            f"seeds must be a non-empty range of integers from 0 to 2^64 - 1, got {start}..{end}"
        )
    return start, end


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    raise ValueError(f"a swept value must be a number, a string or a boolean, got {value!r}")


def _sets(sets: Mapping[str, Sequence[Any]] | None) -> list[str]:
    """``{key: [v1, v2]}`` as the command line's ``--set KEY=V1,V2``."""
    if not sets:
        return []
    out = []
    for key, values in sets.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            values = [values]
        out.append(f"{key}=" + ",".join(_toml_value(v) for v in values))
    return out


def sweep(
    scenario: ScenarioSource,
    seeds: range | int | str,
    strategies: Sequence[str] | str | None = None,
    *,
    sets: Mapping[str, Sequence[Any]] | None = None,
    baseline: str | None = None,
    client: Any = None,
    parts: int | None = None,
) -> SweepResult:
    """Run ``scenario`` with each strategy on every seed of ``seeds`` and every
    combination of the swept values, as ``smoothscale sweep`` does.

    Args:
        scenario: a path to a TOML scenario file (``str`` or
            ``os.PathLike``, relative to the working directory) or the TOML
            text itself.
        seeds: the seeds: a ``range`` with step 1, a count ``n`` for
            ``range(n)``, or ``"A..B"`` (A included, B not), as ``--seeds``.
        strategies: the strategies to run, by name (one name or a list of
            distinct names); the scenario's ``strategies`` when ``None``.
        sets: the values to sweep, by scenario key, as ``--set`` on the
            command line (``{"config.max_warmup_replicas": [1, 2, 4]}`` is
            ``--set config.max_warmup_replicas=1,2,4``); every combination is
            a point, besides the scenario's own ``[sweep]`` table.
        baseline: the strategy the others are compared with seed by seed
            (``aggregate``'s ``paired``), one of the strategies run, as
            ``--baseline``; the first strategy when ``None``.
        client: a ``dask.distributed.Client``: the seeds are run by the
            cluster's workers, each with the Rust simulator, and the result is
            exactly the local sweep's. A script that starts worker processes
            (a ``LocalCluster``, or ``Client()``) must do so under
            ``if __name__ == "__main__":``, since those processes import the
            script again. ``None`` (the default) runs in this process, on
            every core.
        parts: with ``client``, how many contiguous parts the seeds are split
            into, one task each (at most one per seed); four per worker when
            ``None``. Without ``client`` it has no effect.

    Returns:
        A :class:`SweepResult`: ``runs`` (and its ``.frame``) and
        ``aggregate``.

    >>> text = '''
    ... name = "tiny"
    ... seed = 1
    ... duration = "10m"
    ... [cluster]
    ... clients = 2
    ... restore_rate = 1000
    ... [[subtopologies]]
    ... partitions = 4
    ... stateful = true
    ... state_records = 1000
    ... [churn]
    ... events_per_hour = 12
    ... kinds = ["crash", "restart"]
    ... '''
    >>> result = sweep(text, range(1, 4), strategies=["kip441", "sticky"])
    >>> [(r["seed"], r["strategy"]) for r in result.runs][:3]
    [(1, 'kip441'), (1, 'sticky'), (2, 'kip441')]
    >>> result.aggregate["points"][0]["strategies"]["kip441"]["runs"]
    3
    >>> result.aggregate["points"][0]["paired"]["baseline"]
    'kip441'

    Raises:
        ValueError: a bad scenario, seed range, strategy, baseline, swept key
            or value, or ``parts`` (the command line's message).
        InvariantViolation: a run breaks an invariant (a bug).
        KeyboardInterrupt: Ctrl-C stops a local sweep.
    """
    text, source = _scenario(scenario)
    start, end = _seed_range(seeds)
    names = _names(strategies)
    axes = _sets(sets)
    if parts is not None and (not isinstance(parts, int) or isinstance(parts, bool) or parts < 1):
        raise ValueError(f"parts must be a positive integer, got {parts!r}")
    if baseline is not None and not isinstance(baseline, str):
        raise ValueError(f"baseline must be a strategy name, got {type(baseline).__name__}")
    if client is None:
        docs = _core.sweep(text, source, start, end, names, axes, baseline)
    else:
        from ._distributed import sweep_on

        docs = sweep_on(client, text, source, start, end, names, axes, parts, baseline)
    sweep_json, runs_json, runs_csv = docs
    return SweepResult(
        runs=Rows.of_csv(runs_csv, json.loads(runs_json)["runs"]),
        aggregate=json.loads(sweep_json),
        sweep_json=sweep_json,
        runs_json=runs_json,
        runs_csv=runs_csv,
    )
