"""A sweep split over a Dask cluster of two worker processes returns exactly
what the local sweep returns."""

from __future__ import annotations

import multiprocessing.resource_tracker

import pytest
import smoothscale
from conftest import SIMULATIONS

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster, timeout="60s")
    try:
        yield client
    finally:
        client.close(timeout=30)
        cluster.close(timeout=30)
        # The worker processes started multiprocessing's resource tracker, a
        # process that otherwise outlives the tests by a moment: stop it and
        # wait for it, so that the tests leave no process behind.
        stop = getattr(multiprocessing.resource_tracker._resource_tracker, "_stop", None)
        if stop is not None:
            stop()


@pytest.mark.parametrize("parts", [None, 3, 7])
def test_the_dask_sweep_is_the_local_sweep(client, parts):
    scenario = SIMULATIONS / "random-churn.toml"
    local = smoothscale.sweep(scenario, range(10, 17), ["kip441", "sticky"])
    spread = smoothscale.sweep(
        scenario, range(10, 17), ["kip441", "sticky"], client=client, parts=parts
    )
    assert spread == local
    assert spread.sweep_json == local.sweep_json


def test_the_dask_sweep_with_parameters_and_a_baseline(client):
    scenario = SIMULATIONS / "scale-out.toml"
    sets = {"config.max_warmup_replicas": [1, 2]}
    strategies = ["kip441", "sticky"]
    local = smoothscale.sweep(scenario, "1..3", strategies, sets=sets, baseline="sticky")
    spread = smoothscale.sweep(
        scenario, "1..3", strategies, sets=sets, baseline="sticky", client=client
    )
    assert spread == local
    assert spread.aggregate["points"][0]["paired"]["baseline"] == "sticky"
    with pytest.raises(ValueError, match='^baseline must be one of kip441, sticky, got "nope"$'):
        smoothscale.sweep(scenario, "1..3", strategies, baseline="nope", client=client)


def test_a_bad_scenario_fails_on_the_workers_as_it_does_locally(client, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nduration = "1h"\n[cluster]\nclients = 0\n')
    with pytest.raises(ValueError) as local:
        smoothscale.sweep(path, 3)
    with pytest.raises(ValueError) as spread:
        smoothscale.sweep(path, 3, client=client)
    assert str(spread.value) == str(local.value)


def test_chunks_must_cover_the_sweep():
    from smoothscale import _core

    text = (SIMULATIONS / "scale-out.toml").read_text()
    one = _core.sweep_chunk(text, "s", 1, 3, ["kip441"], [], 1, 2)
    with pytest.raises(ValueError, match='seed 2, strategy "kip441" is missing'):
        _core.sweep_merge(text, "s", 1, 3, ["kip441"], [], [one])
    with pytest.raises(ValueError, match="missing or repeated"):
        _core.sweep_merge(text, "s", 1, 3, ["kip441"], [], [one, one])
    with pytest.raises(ValueError, match="^chunk is not a sweep chunk"):
        _core.sweep_merge(text, "s", 1, 3, ["kip441"], [], ["{}"])
