"""`assign` against the command line: the same plans, the same errors."""

from __future__ import annotations

import json

import pytest
import smoothscale
from conftest import ROOT, normalised, run_cli

EXAMPLE = ROOT / "examples" / "scale-out.json"


@pytest.mark.parametrize("strategy", list(smoothscale.strategies()))
@pytest.mark.parametrize("metrics", [False, True])
def test_assign_equals_the_command_line(cli, strategy, metrics):
    args = ["assign", "--strategy", strategy, *(["--metrics"] if metrics else []), EXAMPLE]
    done = run_cli(cli, *args)
    assert done.returncode == 0, done.stderr
    text = EXAMPLE.read_text()
    # The same plan from a dict, from JSON text and from bytes.
    for state in (json.loads(text), text, text.encode()):
        plan = smoothscale.assign(state, strategy=strategy, metrics=metrics)
        assert plan == normalised(done.stdout)


def test_strategies_are_the_command_lines(cli):
    done = run_cli(cli, "strategies")
    listed = [line.split(None, 1) for line in done.stdout.splitlines()]
    assert [(n, d.strip()) for n, d in listed] == list(smoothscale.strategies().items())


def _state(**changes):
    state = {
        "clients": [{"id": "a", "capacity": 2}, {"id": "b", "capacity": 1}],
        "tasks": [{"id": "0_0", "stateful": True}, {"id": "0_1", "stateful": False}],
    }
    state.update(changes)
    return state


BAD_STATES = [
    (_state(clients=[{"id": "a", "capacity": 0}]), "clients[0].capacity"),
    (_state(clients=[{"id": "a", "capacity": 1}, {"id": "a", "capacity": 1}]), "clients[1].id"),
    (_state(tasks=[{"id": "0_0"}, {"id": "0_0"}]), "tasks[1].id"),
    (_state(config={"num_standby_replicas": -1}), "config.num_standby_replicas"),
    (_state(config={"max_warmup_replicas": 0}), "config.max_warmup_replicas"),
    (_state(colour="blue"), "colour"),
    (_state(tasks=[{"id": "0_0", "input_rate": -5}]), "tasks[0].input_rate"),
    (_state(tasks=[{"id": "0_0", "input_rate": 2.5}]), "tasks[0].input_rate"),
    ({"clients": "a", "tasks": []}, "clients"),
]


@pytest.mark.parametrize("state,field", BAD_STATES)
def test_bad_input_raises_the_command_lines_message(cli, state, field):
    text = json.dumps(state)
    done = run_cli(cli, "assign", "-", stdin=text)
    assert done.returncode == 2
    expected = done.stderr.strip().removeprefix("error: ")
    with pytest.raises(ValueError) as raised:
        smoothscale.assign(state)
    assert str(raised.value) == expected
    assert field in str(raised.value)


def test_infeasible_input_is_bad_input(cli):
    # Heron's first-fit refuses an instance under 192 MB of RAM.
    state = _state(tasks=[{"id": "0_0", "stateful": False, "ram_mb": 100}])
    done = run_cli(cli, "assign", "--strategy", "heron-ffd", "-", stdin=json.dumps(state))
    assert done.returncode == 2
    with pytest.raises(ValueError) as raised:
        smoothscale.assign(state, strategy="heron-ffd")
    assert str(raised.value) == done.stderr.strip().removeprefix("error: ")


@pytest.mark.parametrize(
    "state,says",
    [
        ({"clients": [], "tasks": [], "x": float("nan")}, "cannot be written as JSON"),
        ({"clients": {1, 2}}, "cannot be written as JSON"),
        (b"\xff", "not UTF-8"),
        ("{", "EOF"),
        (42, "state must be a dict or JSON text, got int"),
    ],
)
def test_states_that_are_not_json_raise_value_error(state, says):
    with pytest.raises(ValueError, match=says):
        smoothscale.assign(state)


def test_an_unknown_strategy_names_the_known_ones():
    with pytest.raises(ValueError, match=r"^strategy must be one of kip441, .*got \"nope\"$"):
        smoothscale.assign(_state(), strategy="nope")


def test_smooth_reads_input_rates():
    # Two clients with two stateless tasks each, both hot ones on a: with the
    # observed input rates smooth swaps a hot and a cold one, so that each
    # client runs one hot task; without them the counts are already even.
    rates = {"0_0": 900, "0_1": 10, "0_2": 900, "0_3": 10}
    clients = [
        {"id": "a", "previous_active": ["0_0", "0_2"]},
        {"id": "b", "previous_active": ["0_1", "0_3"]},
    ]

    def hot_per_client(tasks):
        plan = smoothscale.assign({"clients": clients, "tasks": tasks}, strategy="smooth")
        return [sum(rates[t] > 100 for t in c["active"]) for c in plan["clients"]]

    assert hot_per_client([{"id": t, "input_rate": r} for t, r in rates.items()]) == [1, 1]
    assert hot_per_client([{"id": t} for t in rates]) == [2, 0]
