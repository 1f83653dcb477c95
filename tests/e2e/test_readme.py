"""The README's headless command block runs as written, on a local server, with the exit codes
it documents (issue 12, "Must show")."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_cli
from servers.toolserver import ToolServer, serve_http, tool

ROOT = Path(__file__).resolve().parents[2]


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


def run_line(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One README line, its commands run in this process (helpers.run_cli) as the shell would
    run them: ``#`` starts a comment, ``A && B`` runs B when A exits 0, ``> FILE`` / ``>> FILE``
    send stdout to a file, ``$VAR`` and quotes as in sh. Anything else is refused, so a new
    shell construct in the README fails here until it is understood."""
    words = shlex.split(line, comments=True)
    p = subprocess.CompletedProcess(line, 0, "", "")
    while words:
        cmd = words[: words.index("&&")] if "&&" in words else words
        words = words[len(cmd) + 1 :]
        target: tuple[str, str] | None = None
        if len(cmd) >= 2 and cmd[-2] in (">", ">>"):
            target = (cmd[-2], os.path.expandvars(cmd[-1]) if "$" in cmd[-1] else cmd[-1])
            cmd = cmd[:-2]
        assert cmd[0] == "mcp-review", line
        assert not set(cmd) & {"|", "||", ";", "<", "2>", "&"}, f"unsupported shell: {line}"
        p = run_cli(cmd[1:], cwd=cwd, env=env)
        if target is not None:
            with open(cwd / target[1], "a" if target[0] == ">>" else "w") as f:
                f.write(p.stdout)
        if p.returncode:
            break
    return p


def test_readme_block_runs_as_written(project: Path, monkeypatch: pytest.MonkeyPatch):
    lines = readme_block()
    assert len(lines) >= 8 and all(line.startswith("mcp-review ") for line in lines)
    bindir = os.path.dirname(sys.executable)
    env = {
        **os.environ,
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_STEP_SUMMARY": str(project / "summary.md"),
    }
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", env["GITHUB_STEP_SUMMARY"])  # for $VAR above
    seen = []
    for i, line in enumerate(lines):
        if i == len(lines) - 1:  # the last as written, by bash and the installed mcp-review
            p = subprocess.run(
                ["bash", "-c", line], cwd=project, env=env, capture_output=True, text=True
            )
        else:  # the rest in this process: no interpreter start and import mcp per line
            p = run_line(line, project, env)
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
