"""The output formats the commands offer, as one enum: a renderer dispatches on it once
(``match`` ending in ``assert_never``), so a format added here fails the type check at every
renderer that does not yet write it."""

from __future__ import annotations

from enum import StrEnum


class OutputFormat(StrEnum):
    """What ``--format`` names. A member equals its string, so ``args.format`` compares as
    before; :func:`OutputFormat` of a string a parser accepted never fails."""

    TEXT = "text"
    JSON = "json"
    MARKDOWN = "markdown"
    SARIF = "sarif"


REPORT = (OutputFormat.TEXT, OutputFormat.JSON)
"""What a command that reports offers (``--format text|json``)."""

CHECK = tuple(OutputFormat)
"""What ``check`` offers: the report formats and the two a CI reads (Markdown, SARIF)."""


def choices(formats: tuple[OutputFormat, ...]) -> tuple[str, ...]:
    """``--format``'s choices as plain strings: argparse's usage and its "invalid choice"
    message then read exactly as they always have (it quotes a choice with ``repr``)."""
    return tuple(f.value for f in formats)
