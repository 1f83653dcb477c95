"""`proxy --url`: usage errors say what is wrong before anything is started (exit 2), and a
header's secret never appears in them."""

from __future__ import annotations

import pytest

from mcp_review.cli import main

SECRET = "tok-CLI-never-shown-12345"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--url", "http://127.0.0.1:9/mcp"], "--url needs --name"),
        (["--url", "ftp://x/mcp", "--name", "r"], "must start with http:// or https://"),
        (["--url", "http://127.0.0.1:9/mcp", "srv", "--name", "r"], "give one of"),
        (["--header", f"Authorization: Bearer {SECRET}", "srv"], "--header goes with --url"),
        (["--url", "http://127.0.0.1:9/mcp", "--name", "r", "--header", SECRET], "'Name: value'"),
        (
            ["--url", "http://127.0.0.1:9/mcp", "--name", "r", "--header", "A: ${env:NOPE_X}"],
            "${NOPE_X} is not set",
        ),
        (
            ["--url", "http://127.0.0.1:9/mcp", "--name", "r", "--max-message-bytes", "0"],
            "--max-message-bytes must be a positive",
        ),
    ],
)
def test_remote_usage_errors(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delenv("NOPE_X", raising=False)
    assert main(["proxy", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err, err
    assert SECRET not in err
