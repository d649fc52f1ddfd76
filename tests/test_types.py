"""The type checker is part of the suite: mypy over engine/ and solvers/ (config in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean():
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    assert shutil.which(sys.executable)
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, "mypy found type errors:\n" + done.stdout + done.stderr
