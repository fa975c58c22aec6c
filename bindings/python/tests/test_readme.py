"""The Python docs run: every ```python and ```sh block of README.md's "## Python"
section and of the package's own README is executed from the repository's root, and
what it prints is compared with the ```text block that follows it, so a doc that lies
fails. The API the README spells out (signatures, chart names) is checked against the
package's.

- A ```python block of ``>>>`` lines is a doctest (ELLIPSIS, NORMALIZE_WHITESPACE).
- Any other ```python block is a script, run as ``python FILE`` (so ``__name__`` is
  ``"__main__"`` and Dask's worker processes import it as a file).
- A ```sh block holds commands: ``pip install PATH[EXTRAS]`` is not run (the package is
  installed) but PATH must be the package and EXTRAS its extras; ``python ...`` is run.
  Any other command fails the test until it is taught here.
- A ```text block is the exact output of the block before it.
"""

from __future__ import annotations

import doctest
import inspect
import os
import re
import shlex
import subprocess
import sys
import tomllib

import pytest
import smoothscale
from conftest import ROOT

PACKAGE = ROOT / "bindings" / "python"
FENCE = re.compile(r"^```([\w-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


def python_section() -> str:
    """README.md up to the end of its "## Python" section, everything before the
    section blanked (so line numbers are the file's)."""
    text = (ROOT / "README.md").read_text()
    start = text.index("\n## Python\n")
    end = text.find("\n## ", start + 1)
    return "\n" * text.count("\n", 0, start) + text[start : end if end >= 0 else len(text)]


def blocks(text: str) -> list[tuple[str, str, int]]:
    """The fenced blocks of ``text``: (language, body, line of the opening fence)."""
    return [(m[1], m[2], text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def cases() -> list[pytest.param]:
    """Each code block with the output it documents (``None``: none shown)."""
    out = []
    for name, text in [
        ("README.md", python_section()),
        ("bindings/python/README.md", (PACKAGE / "README.md").read_text()),
    ]:
        found = blocks(text)
        for i, (lang, body, line) in enumerate(found):
            if lang == "text":
                assert i > 0 and found[i - 1][0] in ("python", "sh"), (
                    f"{name}: the text block at line {line} follows no code block"
                )
                continue
            assert lang in ("python", "sh"), f"{name}: a {lang or 'bare'} block at line {line}"
            shown = found[i + 1][1] if i + 1 < len(found) and found[i + 1][0] == "text" else None
            # A script that starts a Dask cluster of its own takes tens of
            # seconds: with the long runs (run-tests --long; CI).
            marks = [pytest.mark.long] if "LocalCluster" in body else []
            out.append(
                pytest.param(lang, body, shown, name, line, id=f"{name}:{line}", marks=marks)
            )
    return out


def run(args: list[str], timeout: int = 240) -> str:
    """Runs ``args`` from the repository's root (matplotlib drawing off screen,
    the notebook's seeds its default); its standard output."""
    env = {k: v for k, v in os.environ.items() if k != "SMOOTHSCALE_EXAMPLE_SEEDS"}
    env["MPLBACKEND"] = "Agg"
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{shlex.join(args)} exited {done.returncode}:\n{done.stderr}"
    return done.stdout


def pip_install_target(args: list[str]) -> None:
    """``pip install PATH[EXTRAS]``: PATH is this package, EXTRAS its extras."""
    assert args[:2] == ["pip", "install"] and len(args) == 3, shlex.join(args)
    path, _, extras = args[2].partition("[")
    assert (ROOT / path).resolve() == PACKAGE, f"{path} is not bindings/python"
    declared = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra in filter(None, extras.rstrip("]").split(",")):
        assert extra in declared, f"{args[2]}: no extra {extra!r}"


@pytest.mark.parametrize("lang,body,shown,name,line", cases())
def test_the_block_runs_and_prints_what_the_readme_shows(
    lang, body, shown, name, line, tmp_path, monkeypatch
):
    if lang == "python" and body.lstrip().startswith(">>>"):
        assert shown is None, f"{name}:{line}: a doctest shows its output inline"
        monkeypatch.chdir(ROOT)
        monkeypatch.setenv("MPLBACKEND", "Agg")
        test = doctest.DocTestParser().get_doctest(
            body, {"__name__": "__main__"}, f"{name}:{line}", str(ROOT / name), line
        )
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=report.append)
        assert runner.failures == 0 and runner.tries > 0, "".join(report)
        return
    if lang == "python":
        script = tmp_path / "example.py"
        script.write_text(body)
        printed = run([sys.executable, str(script)])
    else:
        printed = ""
        for command in body.splitlines():
            args = shlex.split(command, comments=True)
            if not args:
                continue
            if args[0] == "pip":
                pip_install_target(args)
            elif args[0] in ("python", "python3"):
                printed += run([sys.executable, *args[1:]])
            else:
                pytest.fail(f"{name}:{line}: the test does not know {args[0]!r}: {command}")
    if shown is not None:
        assert printed == shown, f"{name}:{line} prints\n{printed}\nnot\n{shown}"


def spelled(function, prefix: str) -> str:
    """``function``'s signature as the README writes it: no annotations, "" quotes."""
    signature = inspect.signature(function)
    plain = signature.replace(
        parameters=[p.replace(annotation=p.empty) for p in signature.parameters.values()],
        return_annotation=signature.empty,
    )
    return f"`{prefix}{str(plain).replace(chr(39), chr(34))}`"


def test_the_readme_spells_every_function_as_it_is():
    text = python_section()
    for name in ("strategies", "assign", "simulate", "sweep"):
        assert spelled(getattr(smoothscale, name), f"smoothscale.{name}") in text
    # plot's former keyword (column=) is left out.
    plot = smoothscale.SimulationResult.plot
    assert spelled(plot, "plot").replace("(self, ", "(").replace(", *, column=None", "") in text


def test_the_readme_lists_the_charts_as_they_are():
    result = smoothscale.simulate(ROOT / "simulations" / "scale-out.toml", strategies=["kip441"])
    rows = [
        [cell.strip().strip("`") for cell in line.strip("|").split("|")]
        for line in python_section().splitlines()
        if line.startswith("| `")
    ]
    assert rows == [
        [chart, column, result.series[column]["label"], result.series[column]["unit"]]
        for chart, column in smoothscale.PLOTS.items()
    ]
    assert list(smoothscale.PLOTS.values()) == list(result.series)
    # timeseries.csv holds every series but the last (the cumulative unavailability).
    assert set(result.timeseries[0]) == {"strategy", "t_s", *list(result.series)[:-1]}


def test_every_parameter_is_documented():
    documented = [
        smoothscale.strategies,
        smoothscale.assign,
        smoothscale.simulate,
        smoothscale.sweep,
        smoothscale.SimulationResult.plot,
    ]
    for function in documented:
        doc = inspect.getdoc(function)
        for parameter in inspect.signature(function).parameters:
            if parameter != "self":
                assert re.search(rf"^\s+{parameter}: \S", doc, re.M), (
                    f"{function.__qualname__} does not document {parameter}"
                )
    for result in (smoothscale.SimulationResult, smoothscale.SweepResult):
        doc = inspect.getdoc(result)
        for name in result.__dataclass_fields__:
            assert re.search(rf"^\s+{name}: \S", doc, re.M), f"{result.__name__}.{name}"


@pytest.mark.long
def test_the_notebook_prints_what_the_readme_says(tmp_path):
    """The README quotes examples/notebook.py's figures over the held-out seeds
    1,000,000 to 1,000,099: the means ± 95 % half-widths and the paired
    comparison of sticky with kip441."""
    quoted = re.search(
        r"kip441\s+unavailable ([\d.]+) ± ([\d.]+) task-s, sticky\s+([\d.]+) ± ([\d.]+)",
        python_section(),
    )
    assert quoted, "the README quotes no notebook figures"
    quoted_pair = re.search(
        r"sticky\s+−\s+kip441\s+([\d.-]+)\s+task-s,\s+95\s+%\s+CI\s+\[([\d.-]+),\s+([\d.-]+)\],"
        r"\s+sticky\s+higher\s+on\s+(\d+)\s+of\s+(\d+)\s+seeds",
        python_section(),
    )
    assert quoted_pair, "the README quotes no paired notebook figures"
    script = ROOT / "examples" / "notebook.py"
    printed = run([sys.executable, str(script), "--out", str(tmp_path)], timeout=280)
    figures = {
        name: (mean, half)
        for name, mean, half in re.findall(
            r"^(\w+)\s+over 100 seeds: unavailable ([\d.]+) ± ([\d.]+) task-s", printed, re.M
        )
    }
    assert figures == {"kip441": quoted.group(1, 2), "sticky": quoted.group(3, 4)}, printed
    pair = re.search(
        r"^paired, sticky - kip441 seed by seed: unavailable ([\d.-]+) task-s, "
        r"95 % CI \[([\d.-]+), ([\d.-]+)\], lower/higher/equal on \d+/(\d+)/\d+ of (\d+) seeds",
        printed,
        re.M,
    )
    assert pair and pair.groups() == quoted_pair.groups(), printed
    assert (tmp_path / "unavailability.svg").exists()
