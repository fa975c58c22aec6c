"""Types of the native module (bindings/python/src): text in, text out."""

VERSION: str
MAX_SCENARIO_BYTES: int

class InvariantViolation(RuntimeError):
    """A plan or a simulated run broke an assignment invariant (a bug)."""

def strategies() -> list[tuple[str, str]]: ...
def assign(state_json: str, strategy_name: str, metrics: bool) -> str: ...
def simulate(
    text: str, source: str, strategy_names: list[str], seed: int | None
) -> tuple[str, str, str]: ...
def sweep(
    text: str,
    source: str,
    start: int,
    end: int,
    strategy_names: list[str],
    sets: list[str],
    baseline: str | None = None,
) -> tuple[str, str, str]: ...
def sweep_chunk(
    text: str,
    source: str,
    start: int,
    end: int,
    strategy_names: list[str],
    sets: list[str],
    part_start: int,
    part_end: int,
    baseline: str | None = None,
) -> str: ...
def sweep_merge(
    text: str,
    source: str,
    start: int,
    end: int,
    strategy_names: list[str],
    sets: list[str],
    chunks: list[str],
    baseline: str | None = None,
) -> tuple[str, str, str]: ...
