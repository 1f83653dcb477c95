"""The command line turned into the services' typed arguments (``mcp_review/cli_args.py``): each
option a command registers reaches the service under its own field, read from the real parser
of ``mcp-review`` (``cli.build_parser``), so a renamed option cannot silently read as "not
given"."""

from __future__ import annotations

import argparse
import ast
import inspect
import textwrap
from collections.abc import Callable

import pytest

from mcp_review.cli import build_parser
from mcp_review.cli_args import group_request, input_options
from mcp_review.engine.errors import InputError
from mcp_review.services.decisions import GroupRequest
from mcp_review.services.inputs import InputOptions


def _parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def _dests() -> set[str]:
    """Every destination any command's parser registers."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest for p in sub.choices.values() for a in p._actions}


def test_every_shared_option_reaches_its_field() -> None:
    args = _parse(
        "status",
        "--config", "c.toml",
        "--server", "a",
        "--server", "b",
        "--timeout", "3",
        "-q",
        "--pins", "p.toml",
        "--calls", "a=logs/date=1/a.jsonl",
        "--hosts", "claude-api,cursor",
        "--candidate",
        "--sign-key", "agent",
        "--snapshot", "s.json",
    )  # fmt: skip
    assert input_options(args) == InputOptions(
        config="c.toml",
        servers=("a", "b"),
        snapshot="s.json",
        candidate=True,
        timeout=3.0,
        pins="p.toml",
        quiet=True,
        sign_key="agent",
        calls=("a=logs/date=1/a.jsonl",),
        hosts="claude-api,cursor",
    )


def test_nothing_given_is_the_default_options() -> None:
    assert input_options(_parse("status")) == InputOptions()


def test_check_names_its_snapshot_option() -> None:
    opts = input_options(
        _parse("check", "--from-snapshot", "s.json"), snapshot_attr="from_snapshot"
    )
    assert (opts.snapshot, opts.snapshot_option) == ("s.json", "--from-snapshot")


def test_list_configs_reaches_resolve() -> None:
    assert input_options(_parse("status", "--list-configs")).list_configs


@pytest.mark.parametrize("command", ["approve", "deny"])
def test_a_positional_server_is_the_one_named(command: str) -> None:
    """``approve``/``deny`` SERVER: ``--candidate`` swaps in that server's candidate only."""
    opts = input_options(_parse(command, "files", "read_file", "--candidate"))
    assert (opts.servers, opts.candidate) == (("files",), True)


def _read_by(function: Callable[..., object]) -> set[str]:
    """The destinations ``function`` reads with ``getattr(args, "NAME", ...)``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    return {
        n.args[1].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "getattr"
        and len(n.args) >= 2
        and isinstance(n.args[1], ast.Constant)
    }


def test_every_option_read_is_one_some_command_registers() -> None:
    """``input_options`` reads with ``getattr`` (commands register different subsets): each
    destination it reads must exist, or a renamed option would read as never given."""
    read = _read_by(input_options) | _read_by(group_request)
    assert {"config", "server", "pins", "calls", "yes"} <= read  # the reading is seen
    assert read <= _dests()
    assert {"snapshot", "from_snapshot"} <= _dests()  # the two snapshot_attr values used


@pytest.mark.parametrize("command", ["approve", "deny"])
def test_group_request_carries_the_group_and_who_decides(command: str) -> None:
    args = _parse(
        command, "--group", "g1", "--except", "a/t", "--except", "b/u", "--by", "me", "--note", "ok"
    )
    req = group_request(args)
    assert req == GroupRequest(
        group="g1",
        except_=("a/t", "b/u"),
        by="me",
        note="ok",
        yes=False,
    )


def test_group_request_reads_yes() -> None:
    assert group_request(_parse("approve", "--group", "g1", "--yes")).yes


@pytest.mark.parametrize(
    "argv",
    [
        ("approve", "files", "--group", "g1"),
        ("deny", "files", "read_file", "--group", "g1"),
        ("approve", "--group", "g1", "--instructions"),
    ],
)
def test_a_group_names_no_single_target(argv: tuple[str, ...]) -> None:
    with pytest.raises(InputError, match="--group decides a group"):
        group_request(_parse(*argv))
