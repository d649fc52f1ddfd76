"""Every example session in the docs, and every file in ``examples/``, is one ``unmask solve`` accepts.

A JSON code block in ``docs/*.md`` or the README that has a ``log`` is an example solve file: it
must be a whole session (the ``unmask-session/1`` wrapper included), solve with exit 0, and give
``status: ok``. A sketch with ``...`` in place of values is not JSON, so it cannot pass for one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tui.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def doc_examples() -> list[tuple[str, str]]:
    """(where, text) of every code block that shows a session log."""
    out = []
    for path in DOCS:
        text = path.read_text("utf-8")
        for m in BLOCK.finditer(text):
            body = m.group(2)
            if re.search(r'"log"\s*:', body):
                out.append((f"{path.name}:{text[: m.start()].count(chr(10)) + 1}", body))
    return out


EXAMPLES = doc_examples()
# every assist session in examples/ (the finished games there are play sessions: the replay's, issue 25)
FILES = sorted(p for p in (ROOT / "examples").glob("*.json") if not p.name.endswith("-finished.json"))


def _solves(data: dict, tmp_path: Path) -> None:
    assert data.get("format") == "unmask-session/1" and data.get("mode") == "assist", "not a whole session file"
    f = tmp_path / "example.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    r = CliRunner().invoke(app, ["solve", data["game"], str(f), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["status"] == "ok"


def test_the_docs_have_examples():
    assert len(EXAMPLES) >= 2 and FILES


@pytest.mark.parametrize(("where", "text"), EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_each_doc_example_is_a_session_unmask_solve_accepts(where, text, tmp_path):
    _solves(json.loads(text), tmp_path)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_each_example_file_solves(path, tmp_path):
    _solves(json.loads(path.read_text("utf-8")), tmp_path)
