"""Running a command imports that command's module only (cli.build_parser(only=...)): the
command line it parses and every help text are the same as with every command imported, and
``gate`` on files imports neither another command nor the pin file's, snapshot's or status's
machinery."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_review.cli import COMMANDS, build_parser


def _subs(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_one_commands_parser_is_the_whole_parsers_for_that_command():
    whole = build_parser()
    assert [n for n, _, _ in COMMANDS] == list(_subs(whole))
    for name, module, _ in COMMANDS:
        one = build_parser(name)
        assert one.format_help() == whole.format_help(), name  # the list of commands
        assert list(_subs(one)) == list(_subs(whole))
        assert _subs(one)[name].format_help() == _subs(whole)[name].format_help(), name
        assert _subs(one)[name].get_default("_module") == f"mcp_review.commands.{module}"
        assert _subs(whole)[name].get_default("_module") == f"mcp_review.commands.{module}"
        others = [n for n in _subs(one) if n != name]
        assert all(_subs(one)[n].get_default("_module") is None for n in others)


def test_a_parser_built_earlier_runs_the_commands_run_as_its_module_has_it_now(
    monkeypatch: pytest.MonkeyPatch,
):
    """``main`` looks a command's ``run`` up when it dispatches, not when the parser is built:
    one parser may serve every run of a process (the suite keeps one, tests/conftest.py)."""
    import mcp_review.commands.classify as classify
    from mcp_review import cli

    cli.build_parser("classify")  # built (and, under the suite, kept) before the replacement
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(classify, "run", lambda args: seen.append(args) or 7)
    assert cli.main(["classify", "old.json", "new.json"]) == 7
    assert [(a.command, a.old, a.new) for a in seen] == [("classify", "old.json", "new.json")]


def test_gate_imports_no_other_command(tmp_path: Path):
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    for side, s in (("old", schema), ("new", {**schema, "required": ["q"]})):
        (tmp_path / f"{side}.json").write_text(json.dumps({"name": "t", "inputSchema": s}))
    (tmp_path / "c.jsonl").write_text('{"q": "a"}\n{}\n')
    code = (
        "import sys\n"
        "from mcp_review.cli import main\n"
        "rc = main(['gate', 'old.json', 'new.json', 'c.jsonl', '--format', 'json'])\n"
        "mods = sorted(m for m in sys.modules if m.startswith('mcp_review.'))\n"
        "print(rc, ' '.join(mods), file=sys.stderr)\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    rc, mods = p.stderr.split(" ", 1)
    loaded = set(mods.split())
    assert rc == "1" and json.loads(p.stdout)["replay"]["broken"] == 1
    assert {m for m in loaded if m.startswith("mcp_review.commands.")} == {
        "mcp_review.commands.gate"
    }
    for heavy in ("engine.pins", "engine.snapshot", "engine.status", "services.decisions"):
        assert f"mcp_review.{heavy}" not in loaded, heavy
