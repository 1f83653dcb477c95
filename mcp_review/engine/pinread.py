"""Reading the pin file: its TOML tables (:mod:`mcp_review.engine.pintoml`) validated into
the model (:mod:`mcp_review.engine.pins`). Every pin is verified on load (see the model's
module notes)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mcp_review.engine.canonical import loads
from mcp_review.engine.errors import InputError
from mcp_review.engine.instructions import InstructionsPin
from mcp_review.engine.model import DIGEST_SCHEMES, HASHED_FIELDS
from mcp_review.engine.pins import (
    DEFAULT_PATH,
    VERSION,
    Decision,
    KindApproval,
    KindsPin,
    Pin,
    PinFile,
    PinKey,
)
from mcp_review.engine.pintoml import layout, qa, read, table_path
from mcp_review.engine.pintoml import q as _q
from mcp_review.engine.policy import TIERS
from mcp_review.engine.surfaces import KIND_OF_TABLE, SurfacePin

_TOOL_KEYS = (
    "decision",
    "digest",
    "digest_scheme",
    "hashed_fields",
    "decided_at",
    "decided_by",
    "note",
    "server_version",
    "protocol_version",
    "definition",
)

_INSTRUCTIONS_KEYS = (
    "decision",
    "digest",
    "decided_at",
    "decided_by",
    "note",
    "server_version",
    "text",
)


def parse_pins(
    text: str | bytes, *, source: str = DEFAULT_PATH, allow_unverified: bool = False
) -> PinFile:
    """Parse and validate pin-file text. Errors are InputErrors naming the file and the line
    (syntax, from tomllib) or the table (content).

    Every pin's digest is recomputed from its stored definition (see
    :meth:`Pin.integrity_problem`). A pin that does not verify is an InputError naming the tool,
    unless ``allow_unverified``: then it is kept aside in :attr:`PinFile.unverified` (the app
    shows it, the proxy withholds the tool) and the tool reads as unpinned."""
    raw, doc = read(text, source)
    pf = PinFile(path=source, read_bytes=raw)
    if doc is None:
        return pf  # an empty file (`touch mcp-pins.toml`) is an empty pin set
    ver = doc.get("version")
    if not isinstance(ver, int) or isinstance(ver, bool):
        raise InputError("not an mcp-review pin file: no integer 'version' key", source=source)
    if ver > VERSION:
        raise InputError(
            f"pin file version {ver} is newer than this mcp-review understands (version "
            f"{VERSION}); upgrade mcp-review. The file was left unchanged",
            source=source,
        )
    if ver < 1:
        raise InputError(f"invalid pin file version {ver}", source=source)
    servers = doc.get("servers", {})
    if not isinstance(servers, dict):
        raise InputError("'servers' must be a table", source=source)
    pf.version = ver
    pf.extra = {k: v for k, v in doc.items() if k not in ("version", "servers")}
    for sname, st in servers.items():
        where = f"servers.{_q(sname)}"
        if not isinstance(st, dict):
            raise InputError(f"{where} must be a table", source=source)
        if "policy" in st:
            pf.server_policy[sname] = _tier(st["policy"], f"{where}.policy", source)
        tp = st.get("tool_policies", {})
        if not isinstance(tp, dict):
            raise InputError(f"{where}.tool_policies must be a table", source=source)
        for tname, tier in tp.items():
            pf.tool_policy[(sname, tname)] = _tier(
                tier, f"{where}.tool_policies.{_q(tname)}", source
            )
        principals = st.get("principals", {})
        if not isinstance(principals, dict):
            raise InputError(f"{where}.principals must be a table", source=source)
        for pname, pt in principals.items():
            if isinstance(pt, dict) and "instructions" in pt:
                ip = _parse_instructions((sname, pname), pt["instructions"], source)
                problem = ip.integrity_problem()
                if problem is None:
                    pf.instructions[ip.key] = ip
                else:
                    pf.unverified_instructions[ip.key] = (ip, problem)
            if isinstance(pt, dict):
                for table, kind in KIND_OF_TABLE.items():
                    if table in pt:
                        for sp in _parse_surfaces((sname, pname), kind, table, pt[table], source):
                            problem = sp.integrity_problem()
                            if problem is None:
                                pf.surfaces[sp.key] = sp
                            else:
                                pf.unverified_surfaces[sp.key] = (sp, problem)
            if isinstance(pt, dict) and "kinds" in pt:
                for kp in _parse_kinds((sname, pname), pt["kinds"], source):
                    pf.kinds[kp.key] = kp
            tools = pt.get("tools", {}) if isinstance(pt, dict) else None
            if not isinstance(tools, dict):
                raise InputError(
                    f"{where}.principals.{_q(pname)}.tools must be a table", source=source
                )
            for tname, t in tools.items():
                key = (sname, pname, tname)
                pin = _parse_pin(key, t, source)
                problem = pin.integrity_problem()
                if problem is None:
                    if ver < 2:  # one-line JSON: the version 2 layout (same JSON value)
                        pin = replace(pin, definition=_relayout(pin.definition))
                    pf.pins[key] = pin
                else:
                    pf.unverified[key] = (pin, problem)
    pf._base = dict(pf.pins)
    if (pf.unverified or pf.unverified_instructions or pf.unverified_surfaces) and not (
        allow_unverified
    ):
        raise InputError(unverified_message(pf), source=source)
    return pf


def _relayout(text: str) -> str:
    """A verified definition's JSON text in the version 2 layout (same value, same digest)."""
    return layout(loads(text, source="definition"))


def unverified_message(pf: PinFile, limit: int = 5) -> str:
    """One message naming every pin that does not verify (up to ``limit``) and what to do."""
    items = sorted(pf.unverified.items())
    ibad = sorted(pf.unverified_instructions.items())
    sbad = sorted(pf.unverified_surfaces.items())
    n = len(items) + len(ibad) + len(sbad)
    lines = [f"{n} pin(s) do not verify, so none of them is trusted:"]
    for (s, p), (_, why) in ibad[:limit]:
        lines.append(f"  the instructions of server {qa(s)} (principal {qa(p)}): {why}")
    for (s, p, k, name), (_, why) in sbad[:limit]:
        lines.append(f"  {k} {qa(name)} (server {qa(s)}, principal {qa(p)}): {why}")
    for (s, p, t), (_, why) in items[:limit]:
        lines.append(f"  tool {qa(t)} (server {qa(s)}, principal {qa(p)}): {why}")
    if len(items) > limit:
        lines.append(f"  … and {len(items) - limit} more")
    # What works on a file in this state (this said "review those tools
    # again in the app", which refuses the file with this same message).
    lines.append(
        "the file was left unchanged; what works: restore it from version control "
        "(`git checkout -- FILE`), or drop each pin that does not verify with `mcp-review "
        "forget` (the tool is then new and reviewed again), e.g.:"
    )
    for s, _p, t in [k for k, _ in items[:limit]]:
        lines.append(f"  mcp-review forget {_shell(s)} {_shell(t)}")
    if ibad:
        lines.append(
            "  (server instructions that do not verify: restore the file; `forget` drops tools)"
        )
    return "\n".join(lines)


def _shell(word: str) -> str:
    """``word`` as one shell word, visible (names are server-written: never raw)."""
    import shlex

    return shlex.quote(qa(word)[1:-1]) if qa(word)[1:-1] == word else qa(word)


def _tier(v: Any, where: str, source: str) -> str:
    if not isinstance(v, str) or v not in TIERS:
        raise InputError(f"{where} must be one of {', '.join(TIERS)}, got {v!r}", source=source)
    return v


def _check_decision_row(t: Any, where: str, body: str, source: str) -> None:
    """The checks every decision table shares (server instructions, prompts, resources,
    templates): a table with a string ``decision`` (approved or denied), ``digest`` and ``body``
    (what was decided), and optional string ``note``, ``server_version``, ``decided_at``,
    ``decided_by``."""
    if not isinstance(t, dict):
        raise InputError(f"{where} must be a table", source=source)
    for k in ("decision", "digest", body):
        if not isinstance(t.get(k), str):
            raise InputError(f"{where}: '{k}' is missing or has the wrong type", source=source)
    if t["decision"] not in ("approved", "denied"):
        raise InputError(f'{where}: \'decision\' must be "approved" or "denied"', source=source)
    for k in ("note", "server_version", "decided_at", "decided_by"):
        if t.get(k) is not None and not isinstance(t[k], str):
            raise InputError(f"{where}: '{k}' must be a string", source=source)


def _parse_instructions(key: tuple[str, str], t: Any, source: str) -> InstructionsPin:
    where = f"servers.{_q(key[0])}.principals.{_q(key[1])}.instructions"
    _check_decision_row(t, where, "text", source)
    return InstructionsPin(
        server=key[0],
        principal=key[1],
        decision=t["decision"],
        digest=t["digest"],
        text=t["text"],
        decided_at=t.get("decided_at", ""),
        decided_by=t.get("decided_by", ""),
        note=t.get("note") or "",
        server_version=t.get("server_version"),
        extra={k: v for k, v in t.items() if k not in _INSTRUCTIONS_KEYS},
    )


_SURFACE_KEYS = (
    "decision",
    "digest",
    "decided_at",
    "decided_by",
    "note",
    "server_version",
    "definition",
)


def _parse_surfaces(
    key: tuple[str, str], kind: str, table: str, t: Any, source: str
) -> list[SurfacePin]:
    """``[servers.S.principals.P.<prompts|resources|resource_templates>."KEY"]``."""
    where = f"servers.{_q(key[0])}.principals.{_q(key[1])}.{table}"
    if not isinstance(t, dict):
        raise InputError(f"{where} must be a table", source=source)
    out = []
    for name, row in t.items():
        at = f"{where}.{_q(name)}"
        _check_decision_row(row, at, "definition", source)
        out.append(
            SurfacePin(
                server=key[0],
                principal=key[1],
                kind=kind,
                name=name,
                decision=row["decision"],
                digest=row["digest"],
                definition=row["definition"],
                decided_at=row.get("decided_at", ""),
                decided_by=row.get("decided_by", ""),
                note=row.get("note") or "",
                server_version=row.get("server_version"),
                extra={k: v for k, v in row.items() if k not in _SURFACE_KEYS},
            )
        )
    return out


_KIND_KEYS = ("kind", "label", "group", "decided_at", "decided_by", "note")


def _parse_kinds(key: tuple[str, str], t: Any, source: str) -> list[KindsPin]:
    """``[servers.S.principals.P.kinds]``: per tool, the kinds approved on its live digest.
    Anything malformed is an InputError naming the table (the file is never overwritten)."""
    where = f"servers.{_q(key[0])}.principals.{_q(key[1])}.kinds"
    if not isinstance(t, dict):
        raise InputError(f"{where} must be a table", source=source)
    out = []
    for tool, row in t.items():
        at = f"{where}.{_q(tool)}"
        if not isinstance(row, dict):
            raise InputError(f"{at} must be a table", source=source)
        digest, approved = row.get("digest"), row.get("approved")
        if not isinstance(digest, str) or not digest.startswith("sha256:"):
            raise InputError(
                f"{at}: 'digest' must be a string starting with 'sha256:'", source=source
            )
        if not isinstance(approved, list):
            raise InputError(f"{at}: 'approved' must be an array of tables", source=source)
        extra = sorted(set(row) - {"digest", "approved"})
        if extra:
            raise InputError(f"{at}: unknown key {_q(extra[0])}", source=source)
        items = []
        for i, a in enumerate(approved):
            if not isinstance(a, dict) or not all(
                isinstance(a.get(k, ""), str) for k in _KIND_KEYS
            ):
                raise InputError(
                    f"{at}.approved[{i}] must be a table of strings ({', '.join(_KIND_KEYS)})",
                    source=source,
                )
            if not a.get("kind") or not a.get("group"):
                raise InputError(
                    f"{at}.approved[{i}]: 'kind' and 'group' are required", source=source
                )
            items.append(KindApproval(**{k: a.get(k, "") for k in _KIND_KEYS}))
        out.append(
            KindsPin(key[0], key[1], tool, digest, tuple(sorted(items, key=lambda x: x.kind)))
        )
    return out


def _parse_pin(key: PinKey, t: Any, source: str) -> Pin:
    # Read once per pinned tool (10,000 on a fleet): the table's path is worded only for an
    # error, and the common case (every field of the right type) is checked in one go.
    if not isinstance(t, dict):
        raise InputError(f"{table_path(key)} must be a table", source=source)
    get = t.get
    dec, digest, definition = get("decision"), get("digest"), get("definition")
    scheme = get("digest_scheme", 1)  # a pin that records no scheme predates it: scheme 1
    fields = get("hashed_fields", _ABSENT)
    note, sv, pv = get("note"), get("server_version"), get("protocol_version")
    if not (
        type(dec) is str
        and type(digest) is str
        and type(definition) is str
        and type(scheme) is int
        and (dec == "approved" or dec == "denied")
        and digest.startswith("sha256:")
        and (fields is _ABSENT or (type(fields) is list and all(type(f) is str for f in fields)))
        and (note is None or type(note) is str)
        and (sv is None or type(sv) is str)
        and (pv is None or type(pv) is str)
    ):
        return _parse_pin_slowly(key, t, source)  # names the problem, as always
    if fields is _ABSENT:
        fields = list(DIGEST_SCHEMES.get(scheme, HASHED_FIELDS))  # the scheme's own fields
    extra = {k: v for k, v in t.items() if k not in _TOOL_KEY_SET}
    decided_at, decided_by = get("decided_at", ""), get("decided_by", "")
    return Pin(
        server=key[0],
        principal=key[1],
        tool=key[2],
        decision=_DECISIONS[dec],
        digest=digest,
        definition=definition,
        decided_at=decided_at if type(decided_at) is str else str(decided_at),
        decided_by=decided_by if type(decided_by) is str else str(decided_by),
        digest_scheme=scheme,
        hashed_fields=tuple(fields),
        note=note or "",
        server_version=sv,
        protocol_version=pv,
        extra=extra,
    )


def _parse_pin_slowly(key: PinKey, t: Any, source: str) -> Pin:
    """:func:`_parse_pin` field by field: every error, in the order they have always come."""
    where = table_path(key)
    if not isinstance(t, dict):
        raise InputError(f"{where} must be a table", source=source)

    def need(k: str, typ: type | tuple[type, ...]) -> Any:
        v = t.get(k)
        if not isinstance(v, typ) or isinstance(v, bool):
            raise InputError(f"{where}: '{k}' is missing or has the wrong type", source=source)
        return v

    dec = need("decision", str)
    if dec not in ("approved", "denied"):
        raise InputError(
            f'{where}: \'decision\' must be "approved" or "denied", got {dec!r}', source=source
        )
    digest = need("digest", str)
    # A pin that records no scheme predates the record: scheme 1, with scheme 1's fields.
    scheme = t.get("digest_scheme", 1)
    if not isinstance(scheme, int) or isinstance(scheme, bool):
        raise InputError(f"{where}: 'digest_scheme' must be an integer", source=source)
    if not digest.startswith("sha256:"):
        raise InputError(f"{where}: 'digest' must start with 'sha256:'", source=source)
    fields = t.get("hashed_fields", list(DIGEST_SCHEMES.get(scheme, HASHED_FIELDS)))
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise InputError(f"{where}: 'hashed_fields' must be a list of strings", source=source)
    opt = {}
    for k in ("note", "server_version", "protocol_version"):
        v = t.get(k)
        if v is not None and not isinstance(v, str):
            raise InputError(f"{where}: '{k}' must be a string", source=source)
        opt[k] = v
    return Pin(
        server=key[0],
        principal=key[1],
        tool=key[2],
        decision=Decision(dec),
        digest=digest,
        definition=need("definition", str),
        decided_at=str(t.get("decided_at", "")),
        decided_by=str(t.get("decided_by", "")),
        digest_scheme=scheme,
        hashed_fields=tuple(fields),
        note=opt["note"] or "",
        server_version=opt["server_version"],
        protocol_version=opt["protocol_version"],
        extra={k: v for k, v in t.items() if k not in _TOOL_KEYS},
    )


_DECISIONS = {"approved": Decision.APPROVED, "denied": Decision.DENIED}
_TOOL_KEY_SET = frozenset(_TOOL_KEYS)
_ABSENT = object()
