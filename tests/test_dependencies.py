"""Every runtime dependency in pyproject.toml is imported by the code that needs it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPORT_NAME = {"python-constraint2": "constraint", "textual-serve": "textual_serve"}
# Issue 13 gives these to the Tokyo Ghoul and CP-SAT work on other branches; drop each from here when it lands.
RESERVED: set[str] = set()  # every runtime dependency is imported by the code that needs it


def _imported() -> set[str]:
    names = set()
    for path in [*ROOT.glob("engine/**/*.py"), *ROOT.glob("solvers/**/*.py"), *ROOT.glob("tui/**/*.py")]:
        for m in re.finditer(r"^\s*(?:from|import)\s+([A-Za-z_][\w]*)", path.read_text("utf-8"), re.M):
            names.add(m.group(1))
    return names


def test_every_runtime_dependency_is_imported():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    dists = [re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0] for d in deps]
    imported = _imported()
    unused = [d for d in dists if d not in RESERVED and IMPORT_NAME.get(d, d).replace("-", "_") not in imported]
    assert unused == [], f"dependencies nothing imports: {unused}"
