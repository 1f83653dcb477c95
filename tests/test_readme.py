"""The README's headless command block runs as written, on a local server, with the exit codes
it documents (issue 12, "Must show")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from servers.toolserver import ToolServer, serve_http, tool

ROOT = Path(__file__).resolve().parents[1]


def readme_block() -> list[str]:
    """The ```sh block that follows "Headless, on the same config" in the README."""
    text = (ROOT / "README.md").read_text()
    start = text.index("Headless, on the same config")
    block = text[text.index("```sh\n", start) + 6 :]
    block = block[: block.index("```")]
    return [line for line in block.splitlines() if line.strip()]


def documented_exit(line: str) -> int:
    m = re.search(r"#.*?\bexits (\d)", line)
    assert m, f"README line documents no exit code: {line}"
    return int(m.group(1))


@pytest.fixture
def project(tmp_path: Path):
    ts = ToolServer(
        [
            tool("create_issue", "Create an issue.", title={"type": "string"}),
            tool("delete_repo", "Delete a repository.", repo={"type": "string"}),
        ]
    )
    with serve_http(ts.http_app()) as url:
        (tmp_path / "mcp-review.toml").write_text(f'[servers.github]\nurl = "{url}"\n')
        yield tmp_path


def test_readme_block_runs_as_written(project: Path):
    lines = readme_block()
    assert len(lines) >= 8 and all(line.startswith("mcp-review ") for line in lines)
    bindir = os.path.dirname(sys.executable)
    env = {
        **os.environ,
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_STEP_SUMMARY": str(project / "summary.md"),
    }
    seen = []
    for line in lines:
        p = subprocess.run(
            ["bash", "-c", line], cwd=project, env=env, capture_output=True, text=True, timeout=120
        )
        seen.append((line.split("#")[0].strip(), p.returncode, documented_exit(line)))
        assert p.returncode == documented_exit(line), (line, p.stdout, p.stderr)
        assert "Traceback" not in p.stderr
    # What they did is on disk: a pin file with the approval and the denial, a summary, a snapshot.
    from mcp_review.engine.pins import Decision
    from mcp_review.store.pinfile import load_pins

    pf = load_pins(str(project / "mcp-pins.toml"))
    assert pf.get("github", "default", "create_issue").decision is Decision.APPROVED
    assert pf.get("github", "default", "delete_repo").decision is Decision.DENIED
    assert "mcp-review check: PASS" in (project / "summary.md").read_text()
    assert (project / "tools.json").exists()
