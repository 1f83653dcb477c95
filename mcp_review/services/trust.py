"""Client config files the user trusted: keyed by absolute path and content digest, kept in the
user's state directory (outside any repository).

A cloned repository can carry ``.mcp.json``, ``.vscode/mcp.json`` or ``.cursor/mcp.json``;
discovering one must not start the commands it names. ``mcp-review trust
PATH`` records ``{realpath: sha256 of the bytes}`` in ``$XDG_STATE_HOME/mcp-review/
trusted-configs.json`` (``~/.local/state/mcp-review/`` when XDG_STATE_HOME is unset), so a pull
that changes the file asks again. The store lives outside the repository on purpose: a file the
repository could ship cannot vouch for the repository.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.store.files import user_state_dir

STORE_NAME = "trusted-configs.json"
VERSION = 1


def state_dir() -> Path:
    """``$XDG_STATE_HOME/mcp-review``, else ``~/.local/state/mcp-review`` (XDG: a relative
    XDG_STATE_HOME is ignored)."""
    return Path(user_state_dir())


def store_path() -> Path:
    return state_dir() / STORE_NAME


def digest_bytes(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def key_for(path: str | os.PathLike[str]) -> str:
    """The store's key: the absolute path with links resolved (the file that is really read)."""
    return os.path.realpath(path)


@dataclass(frozen=True, slots=True)
class Entry:
    path: str
    digest: str
    at: str
    by: str


def _load(p: Path) -> dict[str, Any]:
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        return {"version": VERSION, "trusted": {}}
    except OSError as e:
        raise InputError(f"cannot read the trust store: {e.strerror}", source=str(p)) from None
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise InputError(
            "the trust store is not valid JSON; it was left unchanged (delete it to start over)",
            source=str(p),
        ) from None
    if (
        not isinstance(doc, dict)
        or not isinstance(doc.get("trusted"), dict)
        or not isinstance(doc.get("version"), int)
    ):
        raise InputError("not an mcp-review trust store; it was left unchanged", source=str(p))
    if doc["version"] > VERSION:
        raise InputError(
            f"trust store version {doc['version']} is newer than this mcp-review "
            "understands; upgrade mcp-review",
            source=str(p),
        )
    return doc


def entries() -> list[Entry]:
    doc = _load(store_path())
    out = []
    for k, v in sorted(doc["trusted"].items()):
        if isinstance(v, dict) and isinstance(v.get("digest"), str):
            out.append(Entry(k, v["digest"], str(v.get("at", "")), str(v.get("by", ""))))
    return out


def trusted_digest(path: str | os.PathLike[str]) -> str | None:
    """The digest the user trusted for this file, or None."""
    v = _load(store_path())["trusted"].get(key_for(path))
    return v.get("digest") if isinstance(v, dict) and isinstance(v.get("digest"), str) else None


def is_trusted(path: str | os.PathLike[str], data: bytes) -> bool:
    return trusted_digest(path) == digest_bytes(data)


def trust(path: str | os.PathLike[str], data: bytes, *, by: str) -> Entry:
    """Record ``data`` (the bytes the user reviewed) as trusted for ``path``."""
    from mcp_review.store.files import atomic_write, locked

    p = store_path()
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(
            f"cannot create the state directory: {e.strerror}", source=str(p.parent)
        ) from None
    entry = Entry(
        key_for(path), digest_bytes(data), datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), by
    )
    with locked(str(p)):
        doc = _load(p)
        doc["trusted"][entry.path] = {"digest": entry.digest, "at": entry.at, "by": entry.by}
        doc["trusted"] = dict(sorted(doc["trusted"].items()))
        text = json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
        try:
            atomic_write(str(p), text.encode("ascii"))
        except OSError as err:
            raise InputError(
                f"cannot write the trust store: {err.strerror}", source=str(p)
            ) from None
    return entry


def revoke(path: str | os.PathLike[str]) -> bool:
    """Forget a trusted file; True when it was trusted."""
    from mcp_review.store.files import atomic_write, locked

    p = store_path()
    if not p.exists():
        return False
    with locked(str(p)):
        doc = _load(p)
        if doc["trusted"].pop(key_for(path), None) is None:
            return False
        text = json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
        atomic_write(str(p), text.encode("ascii"))
    return True
