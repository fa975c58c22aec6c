"""Sweeps split over a Dask cluster: each worker runs a contiguous part of the
seeds with the Rust simulator and answers its runs' figures as a chunk (exact
decimal text); the caller puts the chunks back together in Rust, which checks
that every run of the sweep is there exactly once and aggregates them as a
local sweep does. So the result equals the local sweep's, byte for byte."""

from __future__ import annotations

from typing import Any

from . import _core


def run_part(
    text: str,
    source: str,
    start: int,
    end: int,
    names: list[str],
    axes: list[str],
    part: tuple[int, int],
    baseline: str | None = None,
) -> str:
    """Run on a worker: the seeds ``part`` of the sweep over ``start..end``."""
    return _core.sweep_chunk(text, source, start, end, names, axes, part[0], part[1], baseline)


def split(start: int, end: int, parts: int) -> list[tuple[int, int]]:
    """``start..end`` as at most ``parts`` contiguous, near-equal ranges.

    >>> split(0, 10, 3)
    [(0, 4), (4, 7), (7, 10)]
    >>> split(5, 7, 4)
    [(5, 6), (6, 7)]
    """
    n = end - start
    parts = max(1, min(parts, n))
    size, extra = divmod(n, parts)
    out, at = [], start
    for i in range(parts):
        step = size + (1 if i < extra else 0)
        out.append((at, at + step))
        at += step
    return out


def sweep_on(
    client: Any,
    text: str,
    source: str,
    start: int,
    end: int,
    names: list[str],
    axes: list[str],
    parts: int | None,
    baseline: str | None = None,
) -> tuple[str, str, str]:
    """The sweep's documents, its seeds run by ``client``'s workers."""
    if parts is None:
        workers = len(client.scheduler_info().get("workers", {})) or 1
        parts = 4 * workers
    if not isinstance(parts, int) or isinstance(parts, bool) or parts < 1:
        raise ValueError(f"parts must be a positive integer, got {parts!r}")
    ranges = split(start, end, parts)
    futures = client.map(
        run_part,
        [text] * len(ranges),
        [source] * len(ranges),
        [start] * len(ranges),
        [end] * len(ranges),
        [names] * len(ranges),
        [axes] * len(ranges),
        ranges,
        [baseline] * len(ranges),
        pure=False,
    )
    chunks = client.gather(futures)
    return _core.sweep_merge(text, source, start, end, names, axes, chunks, baseline)
