"""The layers hold: tui above solvers above engine, and only tui touches textual.

Two checks, as in Harlequin: import-linter's static contracts (``[tool.importlinter]`` in
pyproject.toml), and a runtime check that importing every engine and solvers module in a
fresh interpreter loads no UI library.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(*args: str) -> subprocess.CompletedProcess:
    exe = str(LINT) if LINT.exists() else shutil.which("lint-imports")
    if exe is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    return subprocess.run([exe, "--no-cache", "--no-logo", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]


def test_import_contracts_are_declared():
    """The three contracts of DESIGN.md are in pyproject.toml."""
    contracts = {c["name"]: c for c in _config()["contracts"]}
    layers = next(c for c in contracts.values() if c["type"] == "layers")
    assert layers["layers"] == ["tui", "solvers", "engine"]
    forbidden = [c for c in contracts.values() if c["type"] == "forbidden"]
    assert any("textual" in c["forbidden_modules"] and set(c["source_modules"]) == {"engine", "solvers"}
               for c in forbidden)
    assert any(c["source_modules"] == ["engine"] and "platformdirs" in c["forbidden_modules"] for c in forbidden)


def test_import_contracts_hold(tmp_path):
    """``lint-imports`` passes with the project's own configuration."""
    done = _lint()
    if "include_external_packages" in done.stdout + done.stderr:
        pytest.fail("pyproject.toml: add `include_external_packages = true` under [tool.importlinter] "
                    "(the forbidden contracts name external packages)")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout.replace("0 broken", "")


def test_import_contracts_hold_with_external_packages_included(tmp_path):
    """The contracts themselves are kept by the code (checked on a copy of the configuration
    with external packages included, whatever pyproject.toml says today)."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    if "include_external_packages" not in text:
        text = text.replace("[tool.importlinter]\n", "[tool.importlinter]\ninclude_external_packages = true\n", 1)
    config = tmp_path / "pyproject.toml"
    config.write_text(text, "utf-8")
    done = _lint(str(config))
    assert done.returncode == 0, done.stdout + done.stderr
    expected = text.count("[[tool.importlinter.contracts]]")
    assert expected >= 5 and f"Contracts: {expected} kept, 0 broken." in done.stdout


OPTIONAL = ("pyspiel",)  # the [openspiel] extra: only solvers.openspiel imports it


def _modules_loaded_by(packages: tuple[str, ...]) -> list[str]:
    code = textwrap.dedent(f"""
        import importlib, pkgutil, sys
        for name in {packages!r}:
            pkg = importlib.import_module(name)
            for info in pkgutil.walk_packages(pkg.__path__, name + "."):
                try:
                    importlib.import_module(info.name)
                except ModuleNotFoundError as e:  # an optional extra that is not installed here
                    if e.name not in {OPTIONAL!r}:
                        raise
        print("\\n".join(sorted(sys.modules)))
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_engine_and_solvers_load_no_ui_at_runtime():
    """Importing every engine and solvers module in a fresh interpreter loads neither textual nor rich."""
    loaded = _modules_loaded_by(("engine", "solvers"))
    assert "solvers.clue.bots" in loaded and "engine.clue.game" in loaded
    ui = [m for m in loaded if m.split(".")[0] in ("textual", "rich", "tui")]
    assert ui == []


def test_engine_loads_no_io_or_solver_libraries_at_runtime():
    """The engine alone loads no platformdirs, typer, ortools or python-constraint."""
    loaded = _modules_loaded_by(("engine",))
    bad = [m for m in loaded if m.split(".")[0] in ("platformdirs", "typer", "ortools", "constraint", "textual",
                                                    "rich", "solvers", "tui")]
    assert bad == []
