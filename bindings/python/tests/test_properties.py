"""Whatever dict it is given, `assign` returns a plan or raises ValueError:
never another exception, never a crash (SMOOTHSCALE_PY_CASES sets the cases;
200 in CI)."""

from __future__ import annotations

import os

import smoothscale
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CASES = int(os.environ.get("SMOOTHSCALE_PY_CASES", "200"))

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
)
ids = st.one_of(
    *[st.sampled_from(["a", "b", "c", "0_0", "0_1", "1_0", "1_1"])] * 6,
    st.text(max_size=4),
    st.integers(-3, 3),
)


def mostly(valid):
    """``valid`` four times in five, else any scalar."""
    return st.one_of(valid, valid, valid, valid, scalars)


def values(leaf):
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=8,
    )


def shapes(mostly):
    """Clients, tasks and config, each field valid or (through ``mostly``) not."""
    client = st.fixed_dictionaries(
        {"id": mostly(st.sampled_from(["a", "b", "c", "d"]))},
        optional={
            "capacity": mostly(st.integers(-1, 4)),
            "rack": mostly(st.sampled_from(["r1", "r2"])),
            "tags": mostly(
                st.dictionaries(
                    st.sampled_from(["zone", "az"]), st.sampled_from(["z1", "z2"]), max_size=2
                )
            ),
            "cpu": mostly(st.floats(-1, 16)),
            "ram_mb": mostly(st.integers(-1, 65536)),
            "disk_mb": mostly(st.integers(-1, 65536)),
            "host": mostly(st.sampled_from(["h1", "h2"])),
            "previous_active": mostly(st.lists(ids, max_size=3)),
            "previous_standby": mostly(st.lists(ids, max_size=3)),
            "previous_warmup": mostly(st.lists(ids, max_size=2)),
            "lags": mostly(
                st.dictionaries(
                    st.sampled_from(["0_0", "0_1", "1_0", "x"]),
                    mostly(st.integers(-2, 10**6)),
                    max_size=3,
                )
            ),
            "leaving": mostly(st.booleans()),
        },
    )
    task = st.fixed_dictionaries(
        {"id": mostly(st.sampled_from(["0_0", "0_1", "0_2", "1_0", "1_1", "2_0"]))},
        optional={
            "stateful": mostly(st.booleans()),
            "end_offset": mostly(st.integers(-1, 10**9)),
            "input_rate": mostly(st.integers(-1, 10**6)),
            "ram_mb": mostly(st.integers(0, 4096)),
            "cpu": mostly(st.floats(0, 4)),
            "racks": mostly(st.lists(st.sampled_from(["r1", "r2"]), max_size=2)),
        },
    )
    config = st.dictionaries(
        st.sampled_from(
            [
                "num_standby_replicas",
                "max_warmup_replicas",
                "acceptable_recovery_lag",
                "probing_rebalance_interval_ms",
                "rack_aware_strategy",
                "unknown",
            ]
        ),
        mostly(st.integers(-2, 5)),
        max_size=3,
    )
    return client, task, config


def near_valid(mostly):
    client, task, config = shapes(mostly)
    return st.fixed_dictionaries(
        {
            "clients": st.lists(client, max_size=5, unique_by=lambda c: repr(c["id"])),
            "tasks": st.lists(task, max_size=8, unique_by=lambda t: repr(t["id"])),
        },
        optional={"config": config},
    )


def well_typed(valid):
    return valid


# Well-typed states (values may still break the model's rules), states with
# some ill-typed fields, and anything at all.
anything = st.dictionaries(
    st.sampled_from(["clients", "tasks", "config", "previous_containers", "extra"]),
    values(st.one_of(scalars, ids)),
    max_size=4,
)
states = st.one_of(near_valid(well_typed), near_valid(well_typed), near_valid(mostly), anything)


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=states, strategy=st.sampled_from(list(smoothscale.strategies())))
def test_assign_raises_only_value_error(state, strategy):
    try:
        plan = smoothscale.assign(state, strategy=strategy)
    except ValueError as e:
        assert str(e) and "\n" not in str(e)
    else:
        assert isinstance(plan, dict) and "clients" in plan
