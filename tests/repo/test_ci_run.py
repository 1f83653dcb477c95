"""`.ci/run` runs exactly what the README says: its install and test commands, and the contracts
(formatting, lint, import layers, types) between them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_block(heading: str) -> list[str]:
    """The commands of the first ```sh block after ``heading`` in the README."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(heading)
    block = text[text.index("```sh\n", start) + 6 :]
    block = block[: block.index("```")]
    return [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]


def ci_commands() -> list[str]:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [x.strip() for x in lines if x.strip() and not x.lstrip().startswith("#")]


def test_ci_runs_the_readmes_test_command_exactly():
    (test,) = readme_block("## Test\n")
    assert test.startswith("python -m pytest"), test
    ci = ci_commands()
    assert ci[-1] == test, f".ci/run's last command {ci[-1]!r} is not the README's {test!r}"
    assert [c for c in ci if "pytest" in c] == [test]


def test_ci_installs_as_the_readme_says_and_checks_the_contracts_first():
    install = [c for c in readme_block("## Install and run\n") if c.startswith("pip install")]
    ci = ci_commands()
    # The README gives the users' line and the developers' (with the test extras): CI installs
    # exactly the developers' one, which the test command needs.
    (dev,) = [c for c in install if "[test]" in c]
    assert dev in ci and not [c for c in install if c != dev and c in ci], (install, ci)
    install = [dev]
    contracts = ["ruff format --check .", "ruff check", "lint-imports", "mypy"]
    at = [ci.index(c) for c in contracts]
    assert at == sorted(at) and ci.index(install[0]) < at[0] and at[-1] < len(ci) - 1, ci
