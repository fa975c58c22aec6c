"""`simulate` and `sweep` against the command line: the same documents, byte
for byte, and the same errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
import smoothscale
from conftest import ROOT, SIMULATIONS, run_cli


@pytest.mark.parametrize("name", ["scale-out", "rack-outage"])
def test_simulate_writes_what_the_command_line_writes(cli, tmp_path, name):
    scenario = SIMULATIONS / f"{name}.toml"
    done = run_cli(cli, "simulate", scenario, "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    # A path as the command line is given it, a pathlib.Path, and the text.
    for given in (
        str(scenario.relative_to(ROOT)) if os.getcwd() == str(ROOT) else str(scenario),
        scenario,
    ):
        result = smoothscale.simulate(given)
        assert result.summary_json == (tmp_path / "summary.json").read_text()
        assert result.timeseries_csv == (tmp_path / "timeseries.csv").read_text()
    from_text = smoothscale.simulate(scenario.read_text())
    assert from_text.summary_json == result.summary_json
    # plot() names the charts as the command line's SVG files: one file per
    # chart, titled with the series' title.
    assert sorted(p.stem for p in tmp_path.glob("*.svg")) == sorted(smoothscale.PLOTS)
    for chart, column in smoothscale.PLOTS.items():
        svg = (tmp_path / f"{chart}.svg").read_text()
        assert f"{result.summary['scenario']}: {result.series[column]['title']}\n" in svg


def test_simulate_with_chosen_strategies_and_seed(cli, tmp_path):
    scenario = SIMULATIONS / "random-churn.toml"
    done = run_cli(
        cli,
        "simulate",
        scenario,
        "--strategy",
        "sticky",
        "--strategy",
        "kip441",
        "--seed",
        "3",
        "--out",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    result = smoothscale.simulate(scenario, strategies=["sticky", "kip441"], seed=3)
    assert result.summary_json == (tmp_path / "summary.json").read_text()
    assert list(result.summary["strategies"]) == ["sticky", "kip441"]


def test_the_plots_data_is_the_time_series():
    result = smoothscale.simulate(SIMULATIONS / "scale-out.toml", strategies=["kip441", "sticky"])
    assert list(result.series)[-1] == "unavailable_task_s_so_far"
    available = result.series["available_tasks"]["runs"]["sticky"]
    rows = [r for r in result.timeseries if r["strategy"] == "sticky"]
    assert available["t_s"] == [r["t_s"] for r in rows]
    assert available["value"] == [r["available_tasks"] for r in rows]
    # The cumulative unavailability ends at the summary's total (samples
    # hold interval means, to 3 decimals: exact up to that rounding).
    for strategy, line in result.series["unavailable_task_s_so_far"]["runs"].items():
        total = result.summary["strategies"][strategy]["unavailable_task_s"]["total"]
        assert total > 0 and line["value"][-1] == pytest.approx(total, rel=1e-3)
    frame = result.timeseries.frame
    assert list(frame.columns)[:2] == ["strategy", "t_s"] and len(frame) == len(result.timeseries)
    # The old spelling, result.frame, is the same table.
    assert result.frame.equals(frame)


def test_plot_takes_the_chart_or_the_column(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = smoothscale.simulate(SIMULATIONS / "scale-out.toml", strategies=["kip441", "sticky"])
    titles = set()
    for chart, column in smoothscale.PLOTS.items():
        by_chart = result.plot(chart)
        assert [line.get_ydata().tolist() for line in by_chart.get_lines()] == [
            line["value"] for line in result.series[column]["runs"].values()
        ]
        for name in (column, f"{chart}.svg"):
            assert result.plot(name).get_title() == by_chart.get_title()
        # The former keyword.
        assert result.plot(column=column).get_title() == by_chart.get_title()
        titles.add(by_chart.get_title())
        plt.close("all")
    assert len(titles) == len(smoothscale.PLOTS)
    assert result.plot().get_title().startswith("cumulative unavailability: scale-out")
    plt.close("all")
    with pytest.raises(ValueError, match=r"^chart must be one of availability, .*got 'nope'"):
        result.plot("nope")


def test_the_tables_are_lists_with_frames():
    import pickle

    result = smoothscale.simulate(SIMULATIONS / "scale-out.toml", strategies=["kip441"])
    rows = result.timeseries
    assert isinstance(rows, list) and isinstance(rows, smoothscale.Rows)
    assert rows == smoothscale._rows(result.timeseries_csv)
    again = pickle.loads(pickle.dumps(result))
    assert again == result and again.timeseries.frame.equals(rows.frame)
    sweep = smoothscale.sweep(SIMULATIONS / "scale-out.toml", 2, ["kip441"])
    assert sweep.runs.frame.equals(sweep.frame)
    assert list(sweep.runs.frame["seed"]) == [r["seed"] for r in sweep.runs]
    with pytest.raises(ValueError, match="^parts must be a positive integer"):
        smoothscale.sweep(SIMULATIONS / "scale-out.toml", 2, ["kip441"], parts=0)


TINY = """name = "tiny"
seed = 1
duration = "10m"
strategies = ["kip441", "sticky"]
[cluster]
clients = 2
restore_rate = 1000
[[subtopologies]]
partitions = 4
stateful = true
state_records = 1000
"""

BAD_SCENARIOS = [
    (TINY.replace("clients = 2", "clients = 0"), "cluster.clients"),
    (TINY.replace('"10m"', '"soon"'), "duration"),
    (TINY.replace('"sticky"', '"nope"'), "strategies[1]"),
    (TINY.replace("clients = 2", "clients = 2\ncolour = 3"), "cluster.colour"),
    (TINY.replace("seed = 1\n", ""), "seed"),
]


@pytest.mark.parametrize("text,field", BAD_SCENARIOS)
def test_a_bad_scenario_raises_the_command_lines_message(cli, tmp_path, text, field):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    done = run_cli(cli, "simulate", path, "--out", tmp_path / "out")
    assert done.returncode == 2
    with pytest.raises(ValueError) as raised:
        smoothscale.simulate(path)
    assert str(raised.value) == done.stderr.strip().removeprefix("error: ")
    assert field in str(raised.value)
    with pytest.raises(ValueError) as from_text:
        smoothscale.simulate(text)
    assert str(from_text.value) == "scenario" + str(raised.value).removeprefix(str(path))
    assert not (tmp_path / "out").exists()


def test_bad_arguments_name_themselves():
    scenario = SIMULATIONS / "scale-out.toml"
    with pytest.raises(ValueError, match=r"^strategies must be one of .*got \"nope\""):
        smoothscale.simulate(scenario, strategies=["nope"])
    with pytest.raises(ValueError, match=r"^strategies names \"sticky\" twice"):
        smoothscale.simulate(scenario, strategies=["sticky", "sticky"])
    with pytest.raises(ValueError, match="^seed must be"):
        smoothscale.simulate(scenario, seed=-1)
    with pytest.raises(ValueError, match="^cannot read"):
        smoothscale.simulate(ROOT / "no-such.toml")
    with pytest.raises(ValueError, match="^seeds must"):
        smoothscale.sweep(scenario, range(3, 3))
    with pytest.raises(ValueError, match=r'^baseline must be one of kip441, got "sticky"$'):
        smoothscale.sweep(scenario, 2, ["kip441"], baseline="sticky")
    with pytest.raises(ValueError, match="^baseline must be a strategy name, got int$"):
        smoothscale.sweep(scenario, 2, ["kip441"], baseline=1)


@pytest.mark.parametrize(
    "extra", [[], ["--set", "config.max_warmup_replicas=1,3", "--baseline", "sticky"]]
)
def test_sweep_writes_what_the_command_line_writes(cli, tmp_path, extra):
    scenario = SIMULATIONS / "scale-out.toml"
    done = run_cli(
        cli,
        "sweep",
        scenario,
        "--seeds",
        "1..5",
        "--strategy",
        "kip441",
        "--strategy",
        "sticky",
        *extra,
        "--out",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    sets = {"config.max_warmup_replicas": [1, 3]} if "--set" in extra else None
    baseline = "sticky" if "--baseline" in extra else None
    result = smoothscale.sweep(
        scenario, range(1, 5), ["kip441", "sticky"], sets=sets, baseline=baseline
    )
    assert result.sweep_json == (tmp_path / "sweep.json").read_text()
    assert result.runs_json == (tmp_path / "runs.json").read_text()
    assert result.runs_csv == (tmp_path / "runs.csv").read_text()
    assert len(result.runs) == (2 if sets else 1) * 4 * 2
    assert len(result.frame) == len(result.runs)
    # Every point pairs the other strategy with the baseline, every metric.
    for point in result.aggregate["points"]:
        paired = point["paired"]
        assert paired["baseline"] == (baseline or "kip441")
        other = "kip441" if baseline else "sticky"
        assert list(paired["strategies"]) == [other]
        compared = paired["strategies"][other]
        assert list(compared) == list(point["strategies"][other]["metrics"])
        moves = compared["active_moves"]
        assert moves["lower"] + moves["higher"] + moves["equal"] == moves["n"] == 4


def test_ctrl_c_stops_a_sweep():
    # A sweep of many seeds in a child process, interrupted once it runs.
    # The child restores Python's own Ctrl-C handler: a command a shell
    # starts in the background (`./run-tests &`) ignores SIGINT, and a
    # Python started with SIGINT ignored keeps ignoring it.
    code = textwrap.dedent(
        f"""
        import signal, sys, smoothscale
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        try:
            scenario = {str(SIMULATIONS / "random-churn.toml")!r}
            smoothscale.sweep(scenario, range(0, 50000), ["kip441"])
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "started"
        # Let the sweep start (its runs take far longer than this in all).
        import time

        time.sleep(1.5)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 3 and "interrupted" in out


def test_a_sweep_releases_the_gil():
    # While a sweep runs in another thread, this thread keeps running Python.
    import threading

    done = threading.Event()
    ticks = 0

    def work():
        smoothscale.sweep(SIMULATIONS / "random-churn.toml", range(0, 12), ["kip441"])
        done.set()

    thread = threading.Thread(target=work)
    thread.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    thread.join(timeout=120)
    assert ticks > 50, ticks
