"""Errors the engine raises for bad input: each says what is wrong and where."""

from __future__ import annotations


class InputError(Exception):
    """Bad user-supplied input (a file, a definition, a call log). Maps to exit code 2.

    The message names the file and, where known, the line; it never contains secrets.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(f"{where}{message}")
        self.detail = message


class EarlyExit(Exception):  # not an error: a command finished early
    """A command finished before its usual work (``--list-configs`` printed its list)."""

    def __init__(self, code: int = 0):
        super().__init__(code)
        self.code = code
