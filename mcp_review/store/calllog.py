"""Append-only JSONL call log with size-based rotation and recursive redaction of secret keys."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from types import ModuleType
from typing import Any

from mcp_review.store.files import user_state_dir
from mcp_review.store.jsonline import ascii_spelled, separators_escaped
from mcp_review.store.lineseal import LINE_SCHEME, line_bytes, line_sealed, sealed_line
from mcp_review.store.ownedwalk import redact_owned
from mcp_review.store.secretplaces import query_starts
from mcp_review.store.stamp import now_iso as now_iso  # where the log's users import it
from mcp_review.store.textscan import Needle, run_starts, starts_at, sub_at

_orjson: ModuleType | None  # None only where orjson is missing: the stdlib is the fallback
try:  # orjson serialises a 10 MB argument object ~10x faster; json is the exact fallback.
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson ships with every supported setup
    _orjson = None

REDACTED = "[REDACTED]"

# Key names are matched by whole segments: a key is split at camelCase humps, digits and every
# non-alphanumeric character, lower-cased and written "_seg_seg_" (``clientSecret`` →
# ``_client_secret_``, ``X-API-Key`` → ``_x_api_key_``), so ``auth`` matches ``auth`` and
# ``authToken`` but never ``author``, and ``pass`` never matches ``compass``.
_COUNTS = (
    "max|min|num|total|count|limit|budget|used|usage|input|output|prompt|completion|per"
    "|remaining|estimated|reasoning|cached"
)
DEFAULT_REDACT: tuple[str, ...] = (
    # Token counts (max_tokens, num_tokens, token_limit, prompt_tokens...) are ordinary LLM
    # parameters, not secrets: redacting them would make replayed calls look like bad recordings.
    rf"^(?!.*_(?:{_COUNTS})_).*_tokens?_",
    r"_(?:passwords?|passwd|pwd|pass|passphrase|secrets?|auth|authorization|credentials?"
    r"|cookies?|bearer|jwt|privkeys?|apikeys?|sessionid|otp)_",
    r"_(?:api|access|private|priv|ssh|signing|encryption|master|client)_keys?_",
    r"_session_id_",
)
"""Default key patterns: regexes searched in the segmented key (``_seg_seg_``; see above).
A pattern given with ``--redact`` is searched (case-insensitively) in the segmented key and in
the key with every non-alphanumeric character removed (``apikey`` for ``x_api_key``), so
patterns written for either form keep working."""

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_BACKUPS = 3
DEFAULT_MAX_RESULT_BYTES = 256 * 1024
"""A recorded result larger than this (as JSON) keeps its digest and its first bytes only."""

_MIN_SECRET = 6
"""``services.config.MIN_SECRET``: shorter values are never treated as secrets."""

_SEGMENT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_SEP = re.compile(r"[^A-Za-z0-9]+")


def _segmented(key: str) -> str:
    return "_" + "_".join(m.group(0).lower() for m in _SEGMENT.finditer(key)) + "_"


def _fold(key: str) -> str:
    return _SEP.sub("", key).lower()


# Values are redacted inside any string, whatever its key, only in formats that cannot be
# ordinary data: the rest of the string is kept so the recorded call stays replay evidence.
_FORMATS: tuple[tuple[str, str], ...] = (
    # (a fixed part every match holds, the format)
    (
        "-----BEGIN",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE "
        r"KEY(?: BLOCK)?-----|[\s\S]*\Z)",  # PEM private key
    ),
    ("eyJ", r"\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"),  # JWT
    ("_", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}"),  # GitHub tokens
    ("github_pat_", r"\bgithub_pat_[A-Za-z0-9_]{20,}"),
    ("sk-", r"(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"),  # OpenAI / Anthropic
    ("xox", r"\bxox[abpr]-[A-Za-z0-9-]{10,}"),  # Slack
    ("AKIA", r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key id
    ("glpat-", r"\bglpat-[A-Za-z0-9_-]{20,}"),  # GitLab
    ("Bearer ", r"(?<=\bBearer )[A-Za-z0-9._~+/=-]{16,}"),  # a bearer token in text
)
_VALUE_FORMATS = re.compile("|".join(f"(?:{p})" for _, p in _FORMATS))
_FORMAT_STARTS: tuple[Needle, ...] = (
    ("-----BEGIN", 0, 7),  # PEM: found by its G
    ("eyJ", 0, 2),  # JWT: by its J
    (re.compile(r"g(?=h[pousr]_|ithub_pat_|lpat-)"), 0, 0),  # GitHub, GitLab
    (re.compile(r"k(?<=sk)(?=-)"), -1, 0),  # sk-
    (re.compile(r"x(?=ox)"), 0, 0),  # xox
    ("AKIA", 0, 1),  # by its K
    ("Bearer ", 7, 0),  # the token starts after it
)
"""Every place a match of :data:`_VALUE_FORMATS` can start (textscan.Needle): each format's
match starts at one of these fixed parts (``tests/store/test_redaction_fast_path.py`` holds every
format to it). ~2 ms a MiB of text, where the formats tried at every character cost ~150 ms."""
_ANCHORS = "-J_KB:"
"""A character of every fixed part (and of ``://``): a string with none of them holds no secret
format and no URL, which six memchr calls say (~0.05 ms a MiB)."""
_PREFILTER = re.compile(
    r"-(?=----BEGIN)|J(?<=eyJ)|_(?<=gh[pousr]_)|_(?<=github_)pat_|-(?<=sk-)|-(?<=xox[abpr]-)"
    r"|K(?<=AK)IA|-(?<=glpat-)|B(?=earer )|:(?=//)"
)
"""Some secret format (or a URL) may be in a string: one of their fixed parts is there. Each
alternative starts with its rarest character and checks the rest around it, so the regex
engine skips every other character in one scan. One call answers for a short string (most are
clean) at a fraction of the finds' cost; on a long one the finds are cheaper."""
_SHORT = 512
"""Strings shorter than this are checked with :data:`_PREFILTER` first."""
_SOME_FORMATS: dict[tuple[int, ...], re.Pattern[str]] = {}
"""The formats' alternation, keeping only those whose fixed part a string holds (the others
cannot match it): the same leftmost match at every position, so the same replacements."""
_SPARSE = 16
"""Patterns are tried only where they can start while those places are fewer than one in this
many characters. Past that (a text of ``sk-sk-sk-``...) the whole-text regex scan is as fast,
and replaces the same."""


def _formats_in(s: str) -> re.Pattern[str] | None:
    present = tuple(i for i, (fixed, _) in enumerate(_FORMATS) if fixed in s)
    if not present:
        return None
    if len(present) == len(_FORMATS):
        return _VALUE_FORMATS
    pat = _SOME_FORMATS.get(present)
    if pat is None:
        pat = _SOME_FORMATS[present] = re.compile(
            "|".join(f"(?:{_FORMATS[i][1]})" for i in present)
        )
    return pat


def _sub_formats(s: str) -> str:
    """``_VALUE_FORMATS.sub(REDACTED, s)``, the formats tried only where one can start (a whole
    text scanned by the regex cost ~150 ms a MiB of source code or prose)."""
    starts = starts_at(s, _FORMAT_STARTS, len(s) // _SPARSE + 64)
    if starts is None:  # dense: the whole-text scan is as fast here, and replaces the same
        formats = _formats_in(s)
        return s if formats is None else formats.sub(REDACTED, s)
    return sub_at(_VALUE_FORMATS, s, starts, REDACTED) if starts else s


_SCHEME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+.-"
_SCHEME_END = re.compile(r":(?=//)")
_URL_USERINFO = re.compile(r"(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*):[^/\s@]+@")
_URL_QUERY = re.compile(r"([?&])([^=&#\s]+)=([^&#\s]*)")


def _userinfo(m: re.Match[str]) -> str:
    return f"{m.group(1)}:{REDACTED}@"


def _sub_userinfo(s: str) -> str:
    """``_URL_USERINFO.sub``: a match starts where the run of scheme characters before a
    ``://`` begins (its lookbehind rules out a start inside the run): one place per ``://``."""
    starts = run_starts(s, "://", _SCHEME_CHARS, len(s) // _SPARSE + 64, _SCHEME_END)
    if starts is None:
        return _URL_USERINFO.sub(_userinfo, s)
    return sub_at(_URL_USERINFO, s, starts, _userinfo)


class Redactor:
    """Replaces the values of secret-named keys, at any depth, keeping the value's JSON type,
    and secrets in unmistakable formats inside any string.

    The type is kept (strings become ``"[REDACTED]"``, numbers 0, every leaf of an object or
    array redacted) so a redacted call still has the shape replay validates; a ``pattern`` or
    ``minLength`` on the secret itself may then flag it as a bad recording, which is honest.
    Inside other strings only the secret itself is replaced: a JWT, a PEM private key, the
    password in ``scheme://user:password@host``, a secret-named URL query value, a token with a
    well-known prefix (``ghp_``, ``github_pat_``, ``sk-``, ``xoxb-``, ``AKIA``, ``glpat-``) or
    after ``Bearer``.
    """

    def __init__(
        self, patterns: Iterable[str] = DEFAULT_REDACT, scrub: Callable[[str], str] | None = None
    ):
        pats = [p for p in patterns if p]
        self.patterns = tuple(pats)  # (the recorder process compiles the same ones)
        self._re = re.compile("|".join(f"(?:{p})" for p in pats), re.I) if pats else None
        self._names: dict[str, bool] = {}
        self.nonfinite = False
        """The last value redacted kept a NaN or an infinity (lineseal.py: no line seal)."""
        self._scrub = scrub
        """The server's configured secrets by value (``ServerConfig.scrub``: env and header
        values, ``${VAR}`` expansions), replaced by ``***`` in every string and key."""

    def secret_key(self, key: str) -> bool:
        return self._re is not None and (
            self._re.search(_segmented(key)) is not None or self._re.search(_fold(key)) is not None
        )

    def _secret_name(self, key: str) -> bool:
        """:meth:`secret_key`, remembered per name (a large call repeats its keys, a long text
        its query names)."""
        hit = self._names.get(key)
        if hit is None:
            hit = self.secret_key(key)
            if len(self._names) < 4096:
                self._names[key] = hit
        return hit

    def __call__(self, value: Any) -> Any:
        self.nonfinite = False
        return self._walk(value, False)

    def _walk(self, v: Any, hide: bool) -> Any:
        # JSON as parsed holds exactly str, dict, list, int, float, bool and None: those are
        # tested by type first, and string leaves handled in place (a large call is mostly
        # leaves: ~0.2 us a node); subclasses take the long way below.
        t = type(v)
        if t is str:
            return REDACTED if hide else self._text(v)
        if t is dict:
            out = {}
            names, scrub, clean = self._names, self._scrub, _PREFILTER.search
            for k, x in v.items():
                if type(k) is str:
                    h = hide or names.get(k)
                    if h is None:
                        h = self._secret_name(k)
                    if scrub is not None:
                        k = self._value(k)
                else:
                    h = hide
                if type(x) is not str:
                    out[k] = self._walk(x, h)
                elif h:
                    out[k] = REDACTED
                elif scrub is None and len(x) < _SHORT and clean(x) is None:
                    out[k] = x  # the common leaf, without a call
                else:
                    out[k] = self._text(x)
            return out
        if t is list:
            if hide:
                return [self._walk(x, True) for x in v]
            return [self._text(x) if type(x) is str else self._walk(x, False) for x in v]
        if t is int or t is float:
            if hide:
                return 0
            if t is float and v - v != 0:  # NaN or an infinity
                self.nonfinite = True
            return v
        if t is bool or v is None:
            return v
        if isinstance(v, dict):
            return {
                self._value(k) if isinstance(k, str) else k: self._walk(
                    x, hide or (isinstance(k, str) and self._secret_name(k))
                )
                for k, x in v.items()
            }
        if isinstance(v, list):
            return [self._walk(x, hide) for x in v]
        if isinstance(v, str):
            return REDACTED if hide else self.scrub_text(self._value(v))
        if not hide and isinstance(v, float) and v - v != 0:
            self.nonfinite = True
        return 0 if hide else v  # int or float

    def _text(self, s: str) -> str:
        """A string leaf: scrubbed by value, then of secret formats."""
        if self._scrub is not None and len(s) >= _MIN_SECRET:
            s = self._scrub(s)
        return self.scrub_text(s)

    def _value(self, s: str) -> str:
        # No secret is shorter than MIN_SECRET characters (nor a fragment the scrubber matches).
        if self._scrub is None or len(s) < _MIN_SECRET:
            return s
        return self._scrub(s)

    def scrub_text(self, s: str) -> str:
        """``s`` with secrets in unmistakable formats replaced by ``[REDACTED]``."""
        if len(s) < _SHORT:
            if _PREFILTER.search(s) is None:  # one regex call says most short strings are clean
                return s
        elif not any(c in s for c in _ANCHORS):  # six memchr calls, ~0.05 ms a MiB
            return s
        s = _sub_formats(s)
        if "://" in s:
            if "@" in s:  # userinfo needs one
                s = _sub_userinfo(s)
            if self._re is not None and "=" in s:  # a query value needs one
                s = self._sub_query(s)
        return s

    def _query(self, m: re.Match[str]) -> str:
        if self._secret_name(m.group(2)):
            return f"{m.group(1)}{m.group(2)}={REDACTED}"
        return m.group(0)

    def _sub_query(self, s: str) -> str:
        """``_URL_QUERY.sub``, tried only where a query's name runs to an ``=`` (linear in
        ``s``, however dense: secretplaces.py)."""
        return sub_at(_URL_QUERY, s, query_starts(s), self._query)


# Seals ----------------------------------------------------------------------------------------
#
# `rerun` re-sends a recorded call only when the definition it was made against is the approved
# one, and the log line says which that was (``digest``). The line is plain JSON in a folder
# others may write (a cloned repository's ``.mcp-review/``, a shared state folder), and a pin's
# digest is public: anyone can write a line "made against the approved definition" with the
# arguments of their choice. So the proxy seals each record with an HMAC under a key only this
# user can read (``$XDG_STATE_HOME/mcp-review/calllog.key``, 0600, never in the project), and
# ``rerun`` trusts a record's digest, arguments and result only when its seal verifies.

SEAL_FIELD = "seal"
_SEAL_SCHEME = "hmac-sha256:"
_KEY_NAME = "calllog.key"


class SealKeyError(OSError):
    """The seal key exists but cannot be trusted (a link, not a regular file, another owner,
    readable by others, or not a key)."""


def seal_key_path() -> str:
    """``$XDG_STATE_HOME/mcp-review/calllog.key`` (``~/.local/state`` when unset): the user's
    own state, never the project's or the config's ``state_dir``."""
    return os.path.join(user_state_dir(), _KEY_NAME)


def seal_key(*, create: bool) -> bytes | None:
    """The user's seal key; None when there is none (and ``create`` is false). Raises
    SealKeyError for a key file that is not this user's private regular file."""
    path = seal_key_path()
    if create and not os.path.lexists(path):
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            pass  # another proxy made it first: read theirs
        else:
            import secrets

            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise SealKeyError(errno.ELOOP, "is a symbolic link", path) from None
        raise
    with os.fdopen(fd, "rb") as f:
        import stat

        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise SealKeyError(errno.EINVAL, "is not a regular file", path)
        if st.st_uid != os.geteuid():
            raise SealKeyError(errno.EPERM, "is owned by another user", path)
        if st.st_mode & 0o077:
            raise SealKeyError(errno.EPERM, "can be read or written by other users", path)
        text = f.read(200).strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != 32:
        raise SealKeyError(errno.EINVAL, "is not a seal key", path)
    return key


def _seal_bytes(rec: dict[str, Any]) -> bytes:
    body = {k: v for k, v in rec.items() if k != SEAL_FIELD}
    if _orjson is not None and _plain(body):
        # orjson writes these bytes ten times faster (3 ms a MiB); they are json.dumps'
        # exactly once non-ASCII text is escaped as json.dumps escapes it (jsonline.py does
        # it run by run where such runs are sparse, else declines), but for DEL, which
        # json.dumps escapes and orjson does not (raw DEL is only ever inside a string, where
        # the escape means the same), and the record holds no float (exponents are spelled
        # differently) nor an integer past 64 bits (orjson refuses it). Otherwise the stdlib
        # writes them, as always.
        try:
            out: bytes | None = _orjson.dumps(body, option=_orjson.OPT_SORT_KEYS)
        except TypeError:
            out = None
        if out is not None and not out.isascii():
            out = ascii_spelled(out)
        if out is not None:
            return out.replace(b"\x7f", b"\\u007f") if b"\x7f" in out else out
    return json.dumps(
        body, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False
    ).encode()


def _plain(v: Any) -> bool:
    """``v`` holds only strings, booleans, null, integers within 64 bits, and objects with
    string keys of such values, nested at most 64 levels (exact types: a subclass, which the
    stdlib might write otherwise, is not plain)."""
    stack: list[tuple[Any, int]] = [(v, 0)]
    while stack:
        x, depth = stack.pop()
        t = type(x)
        if t is str or t is bool or x is None:
            continue
        if t is int:
            if not -(2**63) <= x < 2**64:
                return False
            continue
        if depth > 64:
            return False
        if t is dict:
            for k, y in x.items():
                if type(k) is not str:
                    return False
                if type(y) is not str:
                    stack.append((y, depth + 1))
        elif t is list:
            stack.extend((y, depth + 1) for y in x if type(y) is not str)
        else:
            return False
    return True


def seal_of(rec: dict[str, Any], key: bytes) -> str:
    """The seal of a record (every field but ``seal`` itself, canonical JSON)."""
    import hashlib
    import hmac

    return (
        _SEAL_SCHEME
        + hmac.digest(key, b"mcp-review call log v1\n" + _seal_bytes(rec), hashlib.sha256).hex()
    )


def sealed(rec: Any, key: bytes | None) -> bool:
    """Whether ``rec`` (as read back) carries a seal that verifies under ``key``."""
    import hmac

    if key is None or not isinstance(rec, dict):
        return False
    got = rec.get(SEAL_FIELD)
    if not isinstance(got, str):
        return False
    if got.startswith(LINE_SCHEME):  # over the line's own bytes (lineseal.py)
        return line_sealed({k: v for k, v in rec.items() if k != SEAL_FIELD}, got, key)
    try:
        want = seal_of(rec, key)
    except (ValueError, TypeError, RecursionError):
        return False
    return hmac.compare_digest(got.encode(), want.encode())


def dumps(value: Any) -> bytes:
    """One JSON line (no trailing newline), UTF-8, compact.

    U+2028/U+2029 are escaped: valid raw in JSON, but ``str.splitlines`` (and JavaScript
    line readers) break a line there. Their UTF-8 bytes can only occur inside a string, where
    the escape means the same character.
    """
    out = None
    if _orjson is not None:
        try:
            out = _orjson.dumps(value)
        except TypeError:  # integers beyond 64 bits: the stdlib keeps them exact
            pass
    if out is None:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        try:
            out = text.encode()
        except UnicodeEncodeError:
            # A lone surrogate (JSON allows the escape "\ud800"; UTF-8 has no bytes for it):
            # written as the escape it was received as, so the record can always be written.
            out = json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode()
    return separators_escaped(out)


class CallLog:
    """The call log of one server: ``{"time","server","principal","tool","id","arguments"}`` lines.

    Those keys are exactly the ones ``engine.replay.load_calls`` accepts as a server-log record.
    Results (``--record-results``) therefore go to a sidecar, ``<path>.results.jsonl``, matched
    by ``time`` + ``id``: a ``result`` key in the call log would make the loader misread every
    line as a bare argument object.

    Each record is one ``write`` to an ``O_APPEND`` file, so two proxies for the same server
    (two clients) never interleave lines. When a write would take the file past ``max_bytes``
    it is renamed to ``.1`` (``.1`` to ``.2``, ... up to ``backups``) first, under an exclusive
    ``flock`` on ``<path>.lock``; a proxy that finds another already rotated just reopens. (A
    proxy still holding the old file may add lines to ``.1`` until it notices, so ``.1`` can
    reach about twice ``max_bytes`` with several writers.)
    """

    def __init__(
        self,
        path: str,
        *,
        server: str,
        principal: str = "default",
        redact: Iterable[str] = DEFAULT_REDACT,
        max_bytes: int = DEFAULT_MAX_BYTES,
        backups: int = DEFAULT_BACKUPS,
        record_results: bool = False,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        scrub: Callable[[str], str] | None = None,
        sealing: tuple[bytes | None, str | None] | None = None,
    ):
        """``scrub``: removes the secrets the server was configured with (by value) from every
        string and key written to the call log and the results log, as the proxy's own log
        does; a call that lost a value to it is marked ``redacted`` like any other.
        ``sealing``: (seal key, ``seal_problem``) as another CallLog of this log has them."""
        self.path = os.path.abspath(path)
        self.max_result_bytes = max_result_bytes
        self.results_path = self.path + ".results.jsonl" if record_results else None
        self.server = server
        self.principal = principal
        self.redactor = Redactor(redact, scrub=scrub)
        self.max_bytes = max_bytes
        self.backups = backups
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        for p in (self.path, self.results_path, self.path + ".lock", self.path + ".unrecorded"):
            # A log planted as a link (a cloned repository's .mcp-review/) must not make the
            # proxy append recorded calls to ~/.bashrc: refused now, O_NOFOLLOW below too.
            if p is not None and os.path.islink(p):
                raise OSError(errno.ELOOP, "is a symbolic link; refusing to write through it", p)
        self._lock_fd = os.open(self.path + ".lock", os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
        self._unrecorded_fd = _open_unrecorded(self.path)
        """The counter of calls forwarded unrecorded (``note_unrecorded``), reserved now so a
        full disk can still count them; -1 when it cannot be (counted on stderr only)."""
        self._fds: dict[str, int] = {}
        self.seal_problem: str | None = None
        """Why records are written without a seal (``rerun`` then never re-sends them)."""
        if sealing is not None:
            self._key, self.seal_problem = sealing
            return
        try:
            self._key = seal_key(create=True)
        except OSError as e:
            self._key = None
            self.seal_problem = f"the seal key {e.filename} {e.strerror}"

    def _sealed(self, rec: dict[str, Any]) -> dict[str, Any]:
        if self._key is not None:
            try:
                rec[SEAL_FIELD] = seal_of(rec, self._key)
            except (ValueError, TypeError, RecursionError):
                pass  # not canonical JSON (NaN, a huge integer): left unsealed, never re-sent
        return rec

    def _line(self, rec: dict[str, Any]) -> bytes:
        """The record's line: sealed over its own bytes (lineseal.py) where orjson writes it
        and it holds no NaN or infinity (the redactor saw none, and none in its id), else as
        before (the canonical seal, or unsealed)."""
        rid = rec.get("id")
        if self._key is not None and not self.redactor.nonfinite:
            if not (type(rid) is float and rid - rid != 0):
                body = line_bytes(rec)
                if body is not None:
                    return sealed_line(body, self._key, SEAL_FIELD)
        return dumps(self._sealed(rec)) + b"\n"

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
        if self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = -1
        if self._unrecorded_fd >= 0:
            os.close(self._unrecorded_fd)
            self._unrecorded_fd = -1

    def note_unrecorded(self) -> int | None:
        """Count one call forwarded without a record (record-only proxy, the log cannot be
        written): the count and the time in ``<log>.unrecorded``, which ``status`` reports.
        The file's bytes were reserved when the log was opened and are overwritten in place,
        so this needs no new disk block. Returns the new count (None: it could not count)."""
        fd = self._unrecorded_fd
        if fd < 0:
            return None
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)  # several proxies may share one log
        try:
            n = (_parse_unrecorded(os.pread(fd, UNRECORDED_BYTES, 0)) or (0, None))[0] + 1
            os.pwrite(fd, _unrecorded_bytes(n, now_iso()), 0)
            return n
        except OSError:
            return None
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def record_call(
        self,
        tool: str,
        arguments: Any,
        rpc_id: Any = None,
        time: str | None = None,
        digest: str | None = None,
        held: dict[str, Any] | None = None,
        owned: bool = False,
    ) -> str:
        """Append one call; returns its timestamp (the key for a later result record).

        ``digest``: the digest of the definition the call was made against (the last one the
        proxy saw listed), so ``rerun`` can tell whether that definition was approved and
        read-only. ``"redacted": true`` marks a call whose arguments lost a value to redaction:
        it can never be rebuilt, so ``rerun`` never re-sends it. ``held``: the call went to a
        held tool (``{"live_digest": …}``, the definition the server serves now; ``digest`` is
        then the approved one the client saw). ``owned``: ``arguments`` are JSON as parsed, held by
        no one else: redacted in place, the same result (store/ownedwalk.py).
        """
        t = time or now_iso()
        rec: dict[str, Any] = {
            "time": t,
            "server": self.server,
            "principal": self.principal,
            "tool": tool,
        }
        if rpc_id is not None:
            rec["id"] = rpc_id
        # MCP makes arguments optional; the loader needs the key, and absent means {}.
        raw = {} if arguments is None else arguments
        try:
            done = redact_owned(self.redactor, raw, _PREFILTER, _SHORT) if owned else None
            red, changed = done if done is not None else (r := self.redactor(raw), r != raw)
        except RecursionError:
            # Nested deeper than the redactor follows (a JSON parser reads ~1,000 levels): the
            # call is still logged, its arguments withheld (and so never re-sent by rerun).
            red, changed = {}, True
        rec["arguments"] = red
        if digest is not None:
            rec["digest"] = digest
        if held is not None:
            rec["held"] = held
        if changed:
            rec["redacted"] = True
        self._append(self.path, self._line(rec))
        return t

    def record_result(
        self, tool: str, rpc_id: Any, call_time: str, response: dict[str, Any]
    ) -> None:
        """Append the reply to a recorded call (results sidecar). A result whose JSON is larger
        than ``max_result_bytes`` is capped: ``result_digest`` (of the comparable result, see
        ``engine.rerun.result_digest``), ``result_bytes`` and the first ``max_result_bytes`` of
        its JSON text as ``result_head`` are kept instead of ``result``."""
        if self.results_path is None:
            return
        rec: dict[str, Any] = {
            "time": now_iso(),
            "call_time": call_time,
            "server": self.server,
            "principal": self.principal,
            "tool": tool,
            "id": rpc_id,
        }
        if "error" in response:
            rec["error"] = self.redactor(response["error"])
        else:
            # Results can echo secrets back (a "whoami" returning the token): same redaction.
            result = self.redactor(response.get("result"))
            body = dumps(result)
            if len(body) > self.max_result_bytes:
                from mcp_review.engine.rerun import result_digest

                try:
                    rec["result_digest"] = result_digest(result)
                except (ValueError, TypeError):  # not hashable as JSON: keep the head only
                    pass
                rec["result_bytes"] = len(body)
                rec["result_truncated"] = True
                rec["result_head"] = body[: self.max_result_bytes].decode("utf-8", "ignore")
            else:
                rec["result"] = result
        self._append(self.results_path, self._line(rec))

    def _append(self, path: str, line: bytes) -> None:
        fd = self._fds.get(path)
        if fd is None:
            fd = self._fds[path] = os.open(
                path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600
            )
        # The hot path is fstat + write: one O_APPEND write() is one whole line even with
        # another proxy appending to the same file. The lock is taken only to rotate.
        size = os.fstat(fd).st_size
        if size and size + len(line) > self.max_bytes:
            fd = self._rotate_locked(path, fd)
        view = memoryview(line)
        while view:  # a short write on a full disk must not leave half a line
            view = view[os.write(fd, view) :]

    def _rotate_locked(self, path: str, fd: int) -> int:
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            # Another proxy rotated first: our fd points at the old file, so only reopen.
            if same:
                self._rotate(path)
            os.close(fd)
            fd = self._fds[path] = os.open(
                path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600
            )
            return fd
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _rotate(self, path: str) -> None:
        if self.backups <= 0:
            os.truncate(path, 0)
            return
        for i in range(self.backups - 1, 0, -1):
            src = f"{path}.{i}"
            if os.path.exists(src):
                os.replace(src, f"{path}.{i + 1}")
        os.replace(path, f"{path}.1")


# Calls forwarded unrecorded -------------------------------------------------------------------
#
# A record-only proxy whose call log cannot be written (a full disk) keeps forwarding (the
# documented choice: recording must not take the agent's tools down) and counts each such
# call in ``<log>.unrecorded``: a fixed-size record, reserved when the log is opened and
# rewritten in place, so counting needs no new block on the full disk. ``status`` reports it.
# (``--enforce`` refuses such a call instead.)

UNRECORDED_SUFFIX = ".unrecorded"
UNRECORDED_BYTES = 128
_UNRECORDED_FORMAT = "mcp-review-unrecorded"


def _unrecorded_bytes(count: int, last: str | None) -> bytes:
    body = json.dumps({"format": _UNRECORDED_FORMAT, "count": count, "last": last}).encode()
    return body.ljust(UNRECORDED_BYTES - 1) + b"\n"


def _parse_unrecorded(raw: bytes) -> tuple[int, str | None] | None:
    try:
        rec = json.loads(raw.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(rec, dict) or rec.get("format") != _UNRECORDED_FORMAT:
        return None
    n, last = rec.get("count"), rec.get("last")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        return None
    return n, last if isinstance(last, str) else None


def _open_unrecorded(log_path: str) -> int:
    """The counter file beside the log, created with its bytes reserved (0600, never through a
    link); -1 when it cannot be opened."""
    path = log_path + UNRECORDED_SUFFIX
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError:
        return -1
    try:
        if os.fstat(fd).st_size < UNRECORDED_BYTES:
            os.pwrite(fd, _unrecorded_bytes(0, None), 0)
    except OSError:
        os.close(fd)
        return -1
    return fd


def read_unrecorded(log_path: str) -> tuple[int, str | None]:
    """(calls a proxy forwarded without recording them in the log at ``log_path``, the time of
    the last); (0, None) when there is no counter or it does not read."""
    try:
        fd = os.open(log_path + UNRECORDED_SUFFIX, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return 0, None
    try:
        raw = os.read(fd, UNRECORDED_BYTES)
    except OSError:
        return 0, None
    finally:
        os.close(fd)
    return _parse_unrecorded(raw) or (0, None)


def log_files(path: str, backups: int = DEFAULT_BACKUPS) -> list[str]:
    """The current log and its rotated backups that exist, oldest first (for replay)."""
    out = [f"{path}.{i}" for i in range(backups, 0, -1) if os.path.exists(f"{path}.{i}")]
    if os.path.exists(path):
        out.append(path)
    return out


# The proxy's held tools -----------------------------------------------------------------------
#
# A proxy that holds tools (docs/proxy.md, "Hold") says which in a state file beside its call
# log, so `status` and the app can show "held by the proxy". Sealed like the call log (a
# planted file must not make a withheld tool read as held), rewritten at least once a minute
# while the proxy runs, and ignored once HELD_STALE seconds old: a dead proxy never reads as
# holding.

HELD_SUFFIX = ".held.json"
HELD_STALE = 600.0
"""Seconds after its last update that a state file stops counting."""
HELD_REFRESH = 60.0
"""Seconds between rewrites of an unchanged state file."""
_HELD_FORMAT = "mcp-review-held"
_HELD_MAX_BYTES = 4 << 20


def held_state_path(log_path: str) -> str:
    """``<log>.held.json``: the state file of the proxy recording to ``log_path``."""
    return os.path.abspath(log_path) + HELD_SUFFIX


def write_held_state(
    path: str,
    *,
    server: str,
    principal: str,
    tools: dict[str, dict[str, str]],
    key: bytes | None,
) -> None:
    """Write the state file atomically (a temporary file beside it, then a rename), 0600,
    never through a link. ``tools``: name -> {pinned_digest, live_digest, since}."""
    rec: dict[str, Any] = {
        "format": _HELD_FORMAT,
        "version": 1,
        "pid": os.getpid(),
        "updated_at": now_iso(),
        "server": server,
        "principal": principal,
        "tools": tools,
    }
    if key is not None:
        rec[SEAL_FIELD] = seal_of(rec, key)
    data = dumps(rec) + b"\n"
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    os.replace(tmp, path)


def remove_held_state(path: str) -> None:
    """Remove the state file if this process wrote it (another proxy on the same log keeps
    its own)."""
    state = _read_held(path)
    if state is not None and state.get("pid") == os.getpid():
        with contextlib.suppress(OSError):
            os.unlink(path)


def _read_held(path: str) -> dict[str, Any] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        raw = f.read(_HELD_MAX_BYTES + 1)
    if len(raw) > _HELD_MAX_BYTES:
        return None
    try:
        rec = json.loads(raw)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) and rec.get("format") == _HELD_FORMAT else None


def mark_held(report: Any, logs: dict[str, str]) -> None:
    """Set ``held_by_proxy`` on each changed tool of ``report`` (engine.status.StatusReport)
    that a live proxy holds: per server, the state file beside its call log (``logs``: server
    -> call log path). Only while the proxy serves the definition approved now (a tool approved
    since is no longer held, whatever a file says)."""
    states: dict[tuple[str, str], dict[str, dict[str, Any]] | None] = {}
    for t in report.tools:
        path = logs.get(t.server)
        if path is None or t.pin is None or str(t.state) not in ("changed", "broken"):
            continue
        k = (t.server, t.principal)
        if k not in states:
            states[k] = read_held_state(
                held_state_path(path), server=t.server, principal=t.principal
            )
        held = (states[k] or {}).get(t.tool)
        if (
            held is not None
            and t.pin.approved
            and held.get("pinned_digest") == t.pin.current_digest()
        ):
            t.held_by_proxy = held


def read_held_state(
    path: str, *, server: str | None = None, principal: str | None = None, now: float | None = None
) -> dict[str, dict[str, Any]] | None:
    """The tools a live proxy holds, per the state file at ``path``: name -> {pinned_digest,
    live_digest, since, pid, updated_at}. None when there is no such file, or it is not
    sealed by this user's key, is of another server or principal, or was last updated more
    than HELD_STALE seconds ago (its proxy is gone)."""
    import time as _time

    rec = _read_held(path)
    if rec is None:
        return None
    try:
        key = seal_key(create=False)
    except OSError:
        return None
    if not sealed(rec, key):
        return None
    if (server is not None and rec.get("server") != server) or (
        principal is not None and rec.get("principal") != principal
    ):
        return None
    updated = rec.get("updated_at")
    tools = rec.get("tools")
    if not isinstance(updated, str) or not isinstance(tools, dict):
        return None
    try:
        at = datetime.fromisoformat(updated.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
    if (now if now is not None else _time.time()) - at > HELD_STALE:
        return None
    out: dict[str, dict[str, Any]] = {}
    for name, t in tools.items():
        if isinstance(t, dict):
            out[name] = {
                "pinned_digest": t.get("pinned_digest"),
                "live_digest": t.get("live_digest"),
                "since": t.get("since"),
                "pid": rec.get("pid"),
                "updated_at": updated,
            }
    return out


# The clients an enforcing proxy served ----------------------------------------------------------
#
# Which hosts count is inferred from what the user runs; the proxy sees each client's
# ``clientInfo`` at ``initialize`` and records it beside the call log, one line per session.
# Unsealed on purpose: a planted line can only add a host to judge (more review, never less).

CLIENTS_SUFFIX = ".clients.jsonl"
CLIENTS_KEPT = 200
"""Lines read back (the newest): a session each; older ones are history."""
_CLIENTS_MAX_BYTES = 64 * 1024


def clients_path(log_path: str) -> str:
    """``<log>.clients.jsonl``: the sessions' clientInfo of the proxy recording to ``log_path``."""
    return log_path + CLIENTS_SUFFIX


def record_client(log_path: str, name: str, version: Any = None) -> None:
    """Append one session's ``clientInfo`` (name and version, bounded) beside the call log."""
    rec = {"at": now_iso(), "client": str(name)[:200]}
    if isinstance(version, str):
        rec["version"] = version[:100]
    line = json.dumps(rec, ensure_ascii=True) + "\n"
    fd = os.open(
        clients_path(log_path), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600
    )
    try:
        os.write(fd, line.encode("ascii"))
    finally:
        os.close(fd)


def read_clients(log_path: str) -> dict[str, str]:
    """The client names recorded beside ``log_path`` (the newest sessions), each with when it
    was last seen; empty without a record. Bounded: the last 64 KB, lines that are not a
    record skipped."""
    path = clients_path(log_path)
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - _CLIENTS_MAX_BYTES))
            data = f.read()
    except OSError:
        return {}
    out: dict[str, str] = {}
    for raw in data.splitlines()[-CLIENTS_KEPT:]:
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("client"), str):
            out[rec["client"]] = str(rec.get("at", ""))[:40]
    return out
