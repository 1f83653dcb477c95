"""OAuth tokens `mcp-review login` obtained for a remote server: one JSON file per server under
``<state dir>/oauth/NAME.json``, created 0600 in a 0700 folder (``files.write_secret``) and
never followed through a symbolic link. Nothing else in mcp-review writes them: not the pin
file, a snapshot, a log or the audit log. The proxy reads them and, when the access token
has expired, writes back what the refresh returned."""

from __future__ import annotations

import json
import os
from typing import Any

from mcp_review.store.files import write_secret

FORMAT = "mcp-review-oauth"
VERSION = 1


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "server"


def token_path(state_dir: str, name: str) -> str:
    return os.path.join(state_dir, "oauth", f"{_safe(name)}.json")


def load_tokens(path: str) -> dict[str, Any] | None:
    """The stored record, or None when there is none. ValueError for a file that is not one
    of ours (or a symbolic link: refused, not followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        data = f.read(1 << 20)
    try:
        rec = json.loads(data)
    except ValueError:
        raise ValueError(f"{path}: not a token file (not JSON)") from None
    if not isinstance(rec, dict) or rec.get("format") != FORMAT:
        raise ValueError(f"{path}: not a token file")
    return rec


def save_tokens(path: str, rec: dict[str, Any]) -> None:
    rec = {**rec, "format": FORMAT, "version": VERSION}
    write_secret(path, json.dumps(rec, indent=1, sort_keys=True).encode() + b"\n")
