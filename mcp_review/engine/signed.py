"""Signed decisions: the canonical record a decision's SSH signature covers, the
signing policy, and the verdict over a pin file. Pure: the cryptographic check is passed in
(:mod:`mcp_review.services.signing` does it with ``cryptography``), files are read above.

A signed decision keeps three keys beside its other keys in the pin file (one line each)::

    previous = "sha256:…"       # the record digest of the decision it replaced (absent: none)
    seen = ["state:changed", "outcome:review", "kind:…", "cue:…"]   # what the decider was shown
    signatures = [
        "U1NIU0lH…",            # an SSHSIG blob (ssh-keygen -Y sign), its armor's base64 on one line
    ]

The record (:func:`record_bytes`) is canonical JSON (sorted keys, no whitespace, ASCII) of the
server, principal, subject and name (``tool`` and its name, ``instructions`` and ``""``, or
``prompt`` / ``resource`` / ``resource-template`` and its name or URI), the digest decided, the decision, ``seen``, the reason
(the note), the time, who, and ``previous``: a signature moved to another tool, a flipped
decision, an edited digest or reason, all verify no more. A file without these keys reads and
writes as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.sshsig import AllowedSigner, SshSig, dearmor, fingerprint, parse_sshsig

NAMESPACE = "mcp-review-decision"
"""``ssh-keygen -Y sign -n`` of a decision."""
POLICY_NAMESPACE = "mcp-review-policy"
"""… of the signing policy (a policy signature never passes for a decision's, nor back)."""
RECORD_FORMAT = "mcp-review-decision/1"
POLICY_FORMAT = "mcp-review-signing-policy/1"

PREVIOUS = "previous"
SEEN = "seen"
SIGNATURES = "signatures"
SIGNED_KEYS = (PREVIOUS, SEEN, SIGNATURES)

EXPLAIN_BUDGET = 5000
"""Signature checks one verification may spend naming where a failing signature came from."""

CheckSig = Callable[[SshSig, bytes], bool]
"""The cryptographic check: does ``sig`` sign ``message`` (in its own namespace)?"""


def _canon(value: Any) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str
    ).encode("ascii")


def subject_of(pin: Any) -> tuple[str, str]:
    """(subject, name) of a decision: ``("tool", NAME)``, ``("instructions", "")``, or a
    prompt's, resource's or resource template's kind and its name or URI."""
    from mcp_review.engine.surfaces import SurfacePin

    tool = getattr(pin, "tool", None)
    if tool is not None:
        return "tool", tool
    if isinstance(pin, SurfacePin):
        return pin.kind, pin.name
    return "instructions", ""


SUBJECTS = ("tool", "prompt", "resource", "resource-template")
"""What ``--kind`` names on ``verify --record`` and ``signing cosign`` (a tool by default; a
tool named ``""`` is the server's instructions)."""


def decision_of(pins: Any, server: str, principal: str, name: str, kind: str = "tool") -> Any:
    """The decision ``pins`` (an ``engine.pins.PinFile``) holds about ``name`` of ``kind``
    (``tool`` with ``""``: the server's instructions), or None."""
    if kind == "tool":
        return pins.current((server, principal, name))
    return pins.surfaces.get((server, principal, kind, name))


def record(pin: Any) -> dict[str, Any]:
    """The canonical record of a decision (a tool's ``Pin``, an ``InstructionsPin`` or a
    ``SurfacePin``: a prompt, resource or resource template)."""
    subject, name = subject_of(pin)
    extra = pin.extra
    return {
        "format": RECORD_FORMAT,
        "server": pin.server,
        "principal": pin.principal,
        "subject": subject,
        "name": name,
        "digest": pin.digest,
        "decision": str(pin.decision),
        "seen": extra.get(SEEN, []),
        "reason": pin.note,
        "at": pin.decided_at,
        "by": pin.decided_by,
        "previous": extra.get(PREVIOUS),
    } | _ui_record(extra)


def _ui_record(extra: Any) -> dict[str, Any]:
    """A decision's UI resources in its signed record: each URI with its
    content digest, MIME type and content ``_meta`` (the text is bound by its digest); nothing
    for a pin that holds none, so the records of every other decision are unchanged."""
    rows = extra.get("ui_resources")
    if not isinstance(rows, list):
        return {}
    keep = ("uri", "digest", "mime_type", "meta", "error")
    return {"ui": [{k: r[k] for k in keep if k in r} for r in rows if isinstance(r, dict)]}


def record_bytes(pin: Any) -> bytes:
    """The bytes a decision's signatures sign (``mcp-review verify --record`` prints them)."""
    return _canon(record(pin))


def record_digest(pin: Any) -> str:
    return "sha256:" + hashlib.sha256(record_bytes(pin)).hexdigest()


def seen_of(status: Any) -> list[str]:
    """What a decider was shown about a tool (an ``engine.status.ToolStatus``): its state, the
    policy's outcome, the kinds of change pending and the cues its new text introduces. Carried
    in the record, so a policy can ask more signers of a blocked change or a claim of more power."""
    from mcp_review.engine.kinds import pending_kinds

    state = getattr(status, "state", None) or getattr(status, "status", "")
    outcome = getattr(status.policy, "outcome", status.policy)  # the app's row: the Outcome
    out = [f"state:{state}", f"outcome:{outcome}"]
    if getattr(status, "previously_denied", False):
        out.append("previously-denied")
    try:
        out += sorted({f"kind:{k.key}" for k in pending_kinds(status)})
    except (AttributeError, TypeError, ValueError):
        pass
    out += sorted({f"cue:{c.rule}" for c in getattr(status, "cues", ())})
    return out


def with_seen(pin: Any, seen: Sequence[str]) -> Any:
    return replace(pin, extra={**pin.extra, SEEN: list(seen)})


def unsigned(pin: Any) -> Any:
    """``pin`` without signature keys (a new decision made from an older one's pin)."""
    if not any(k in pin.extra for k in SIGNED_KEYS):
        return pin
    return replace(pin, extra={k: v for k, v in pin.extra.items() if k not in SIGNED_KEYS})


def chained(pin: Any, before: Any) -> Any:
    """``pin`` (unsigned yet) naming the decision it replaces (``before``; None: none)."""
    extra = {k: v for k, v in pin.extra.items() if k not in (PREVIOUS, SIGNATURES)}
    if before is not None:
        extra[PREVIOUS] = record_digest(before)
    return replace(pin, extra=extra)


def with_signature(pin: Any, line: str) -> Any:
    sigs = [s for s in pin.extra.get(SIGNATURES, []) if isinstance(s, str)]
    return replace(pin, extra={**pin.extra, SIGNATURES: [*sigs, line]})


# The policy -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rule:
    when: tuple[str, ...]
    """Seen terms (``outcome:block``, ``kind:annotation-…``, ``decision:denied``); a term
    matches a seen entry equal to it or starting with it."""
    signers: int


@dataclass(frozen=True, slots=True)
class SigningPolicy:
    """Who may decide what, and how many must agree (``mcp-review-signing.toml``)."""

    source: str
    allowed_signers: str
    """The allowed-signers file as the policy names it (relative to the policy file)."""
    signers: int = 1
    require: tuple[str, ...] = ("*",)
    """Which decisions need a signature: ``*`` every one, else those matching a term."""
    rules: tuple[Rule, ...] = ()
    servers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Server → the allowed-signers principals whose signatures count for it."""
    unsigned: frozenset[str] = frozenset()
    """Record digests of decisions accepted unsigned (those standing when signing was turned on)."""
    allow_unsigned: tuple[str, ...] = ()
    """Terms an unsigned approval may pass by (``outcome:auto-approve``: a tier's re-pin),
    matched only against what the engine itself finds against the base's decision
    (:func:`found`), never against the file's own ``seen``."""
    since: str = ""
    previous: str | None = None
    """The policy digest of the policy this one replaces."""
    signatures: tuple[str, ...] = ()
    digest: str = ""
    """sha256 of the policy without its signatures (canonical JSON)."""


_POLICY_KEYS = {
    "version",
    "allowed_signers",
    "signers",
    "require",
    "rule",
    "servers",
    "unsigned",
    "allow_unsigned",
    "since",
    "previous",
    "signatures",
}


def _int(v: Any, what: str, source: str) -> int:
    if type(v) is not int or v < 0:
        raise InputError(f"{what} must be a whole number ≥ 0", source=source)
    return v


def _strs(v: Any, what: str, source: str) -> tuple[str, ...]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise InputError(f"{what} must be a list of strings", source=source)
    return tuple(v)


def parse_policy(doc: Mapping[str, Any], *, source: str) -> SigningPolicy:
    """The policy from its TOML document; an InputError naming what is wrong (fail closed:
    an unknown key may be a rule this release does not know)."""
    for k in doc:
        if k not in _POLICY_KEYS:
            raise InputError(
                f"unknown key {k!r} (expected one of: {', '.join(sorted(_POLICY_KEYS))})",
                source=source,
            )
    if doc.get("version") != 1:
        raise InputError("'version' must be 1", source=source)
    signers_file = doc.get("allowed_signers")
    if not isinstance(signers_file, str) or not signers_file:
        raise InputError("'allowed_signers' must name the allowed-signers file", source=source)
    rules = []
    raw_rules = doc.get("rule", [])
    if not isinstance(raw_rules, list):
        raise InputError("'rule' must be an array of tables ([[rule]])", source=source)
    for i, r in enumerate(raw_rules):
        if not isinstance(r, dict) or set(r) - {"when", "signers"} or "when" not in r:
            raise InputError(f"[[rule]] {i + 1}: takes 'when' and 'signers'", source=source)
        rules.append(
            Rule(
                _strs(r["when"], "[[rule]] when", source),
                _int(r.get("signers", 1), "[[rule]] signers", source),
            )
        )
    servers_raw = doc.get("servers", {})
    if not isinstance(servers_raw, dict):
        raise InputError("'servers' must be a table", source=source)
    servers: dict[str, tuple[str, ...]] = {}
    for name, t in servers_raw.items():
        if not isinstance(t, dict) or set(t) - {"signers"}:
            raise InputError(f"[servers.{json.dumps(name)}] takes 'signers'", source=source)
        servers[name] = _strs(t.get("signers", []), f"servers.{name}.signers", source)
    since = doc.get("since", "")
    previous = doc.get("previous")
    if not isinstance(since, str) or not (previous is None or isinstance(previous, str)):
        raise InputError("'since' and 'previous' must be strings", source=source)
    body = {k: v for k, v in doc.items() if k != "signatures"}
    return SigningPolicy(
        source=source,
        allowed_signers=signers_file,
        signers=_int(doc.get("signers", 1), "'signers'", source),
        require=_strs(doc.get("require", ["*"]), "'require'", source),
        rules=tuple(rules),
        servers=servers,
        unsigned=frozenset(_strs(doc.get("unsigned", []), "'unsigned'", source)),
        allow_unsigned=_strs(doc.get("allow_unsigned", []), "'allow_unsigned'", source),
        since=since,
        previous=previous,
        signatures=_strs(doc.get("signatures", []), "'signatures'", source),
        digest="sha256:" + hashlib.sha256(_canon(body)).hexdigest(),
    )


def _matches(term: str, seen: Iterable[str]) -> bool:
    return term == "*" or any(s == term or s.startswith(term) for s in seen)


def needed(policy: SigningPolicy, rec: Mapping[str, Any]) -> int:
    """How many distinct signers ``rec`` needs under ``policy`` (0: none)."""
    raw = rec.get("seen")
    seen = [
        *[s for s in (raw if isinstance(raw, list) else []) if isinstance(s, str)],
        "decision:" + str(rec["decision"]),
    ]
    base = policy.signers if any(_matches(t, seen) for t in policy.require) else 0
    extra = [r.signers for r in policy.rules if any(_matches(t, seen) for t in r.when)]
    return max([base, *extra])


def policy_record(policy: SigningPolicy, signers_bytes: bytes) -> bytes:
    """What the policy's signatures sign: the policy (without its signatures), the
    allowed-signers file's bytes and the policy it replaces, by digest."""
    return _canon(
        {
            "format": POLICY_FORMAT,
            "policy": policy.digest,
            "allowed_signers": "sha256:" + hashlib.sha256(signers_bytes).hexdigest(),
            "previous": policy.previous,
        }
    )


# Verifying ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Signed:
    """One signature line, checked."""

    fingerprint: str
    principal: str | None
    """The allowed-signers principals of its key (None: unknown key, or it failed)."""
    problem: str | None = None


def check_lines(
    lines: Sequence[Any],
    message: bytes,
    namespace: str,
    signers: Sequence[AllowedSigner],
    check: CheckSig,
    *,
    at: str | None,
) -> list[Signed]:
    """Each signature line over ``message``, with the principal its key belongs to."""
    out: list[Signed] = []
    for line in lines:
        if not isinstance(line, str):
            out.append(Signed("?", None, "a signature that is not a string"))
            continue
        try:
            sig = parse_sshsig(dearmor(line))
        except ValueError as e:
            out.append(Signed("?", None, f"a malformed signature ({e})"))
            continue
        fp = fingerprint(sig.public_key)
        if sig.namespace != namespace:
            out.append(Signed(fp, None, f"a signature for namespace {sig.namespace!r}"))
            continue
        entries = [e for e in signers if e.key == sig.public_key]
        ok = [e for e in entries if e.allows(None, namespace, at)]
        if not entries:
            out.append(Signed(fp, None, f"unknown key {fp} (not in allowed_signers)"))
            continue
        if not ok:
            out.append(Signed(fp, None, f"key {fp} is not allowed for this namespace or at {at}"))
            continue
        if not check(sig, message):
            out.append(Signed(fp, None, "bad signature"))
            continue
        out.append(Signed(fp, ",".join(ok[0].principals)))
    return out


@dataclass(frozen=True, slots=True)
class Failure:
    """One decision that does not verify, and why (each reason a short phrase)."""

    label: str
    reasons: tuple[str, ...]
    key: tuple[str, str, str] = ("", "", "")
    """(server, principal, tool); the tool is ``""`` for a server's instructions and for a
    prompt, resource or template (see :attr:`surface`)."""
    surface: tuple[str, str, str, str] | None = None
    """For a prompt, resource or resource template: its (server, principal, kind, name)."""


def _key(pin: Any) -> tuple[str, str, str]:
    return (pin.server, pin.principal, getattr(pin, "tool", None) or "")


def _surface(pin: Any) -> tuple[str, str, str, str] | None:
    subject, name = subject_of(pin)
    if subject in ("tool", "instructions"):
        return None
    return (pin.server, pin.principal, subject, name)


def _label(pin: Any) -> str:
    subject, name = subject_of(pin)
    if subject == "instructions":
        name = "(instructions)"
    elif subject != "tool":
        name = f"({subject}) {name}"
    return f"{pin.server}/{pin.principal}/{name}"


def _was(base: Any, pin: Any) -> Any:
    """The base's decision about what ``pin`` decides (None: none, or no base)."""
    if base is None:
        return None
    sk = _surface(pin)
    if sk is not None:
        return base.surfaces.get(sk)
    return base.current(_key(pin))


def verify_decisions(
    pins: Any,
    policy: SigningPolicy,
    signers: Sequence[AllowedSigner],
    check: CheckSig,
    *,
    base: Any = None,
    digests: Mapping[tuple[str, str, str], Sequence[str]] | None = None,
) -> tuple[list[Failure], int]:
    """Every decision of ``pins`` (an ``engine.pins.PinFile``) against ``policy``: (the
    decisions that fail with their reasons, the number that verified). ``base``: the pin file
    the change is made on (CI: the target branch's); each decision that differs from the
    base's must name the base's decision as its ``previous`` (else its chain is broken: an
    older signed decision replayed, or history dropped). ``digests``: digests each decision
    was made on elsewhere (the audit log's, the base's), tried to name an edited digest."""
    every: list[Any] = [
        *pins.pins.values(),
        *pins.instructions.values(),
        *pins.surfaces.values(),
    ]
    records: dict[str, Any] = {}  # filled on the first signature that needs explaining
    records_of = every
    budget = [EXPLAIN_BUDGET]
    failures: list[Failure] = []
    good = 0
    for p, problem in [
        *pins.unverified.values(),
        *pins.unverified_instructions.values(),
        *pins.unverified_surfaces.values(),
    ]:
        failures.append(Failure(_label(p), (f"wrong digest: {problem}",), _key(p), _surface(p)))
    for p in every:
        sk = _surface(p)
        more = (digests or {}).get((*sk[:2], f"{sk[2]} {sk[3]}") if sk else _key(p), ())
        if (was := _was(base, p)) is not None:
            more = [*more, was.digest]
        reasons = _check_one(p, policy, signers, check, records, base, more, budget, records_of)
        if reasons:
            failures.append(Failure(_label(p), tuple(reasons), _key(p), sk))
        else:
            good += 1
    failures.sort(key=lambda f: f.label)
    return failures, good


def _check_one(
    p: Any,
    policy: SigningPolicy,
    signers: Sequence[AllowedSigner],
    check: CheckSig,
    records: dict[str, Any],
    base: Any,
    digests: Sequence[str] = (),
    budget: list[int] | None = None,
    every: Sequence[Any] = (),
) -> list[str]:
    rec = record(p)
    msg = _canon(rec)
    rd = "sha256:" + hashlib.sha256(msg).hexdigest()
    reasons: list[str] = []
    was = _was(base, p)
    lines = p.extra.get(SIGNATURES, [])
    if not lines and policy.allow_unsigned and was is not None and getattr(p, "tool", None):
        # An unsigned approval the policy lets pass (a tier's re-pin, never chained: nobody
        # signed it), only when the engine itself finds it so against the base's decision.
        if any(_matches(t, found(p, was)) for t in policy.allow_unsigned):
            return reasons
    if base is not None:
        if (
            was is not None
            and record_digest(was) != rd
            and p.extra.get(PREVIOUS) != (record_digest(was))
        ):
            reasons.append(
                "broken chain: its previous decision is not the one in the base "
                f"({record_digest(was)[:19]}…): an older signed decision replayed, or "
                "history rewritten"
            )
    if not isinstance(lines, list):
        lines = [lines]
    n = needed(policy, rec)
    if policy.rules and getattr(p, "tool", None) is not None:
        # A signer's own ``seen`` could leave out what makes a rule ask more signers: what
        # the engine finds itself (the definition alone, or against the base's) counts too.
        raw = rec.get("seen")
        mine = [x for x in (raw if isinstance(raw, list) else []) if isinstance(x, str)]
        n = max(n, needed(policy, {**rec, "seen": [*mine, *found(p, was)]}))
    if not lines:
        if n and rd not in policy.unsigned:
            reasons.append("unsigned" + (f" (the policy wants {n} signers)" if n > 1 else ""))
        return reasons
    checked = check_lines(lines, msg, NAMESPACE, signers, check, at=str(p.decided_at))
    allowed = policy.servers.get(p.server)
    who: set[str] = set()
    # Hard: a signature that is there and does not hold (tampering); soft: a signature that
    # does not count (an unknown key, a signer not for this server), which fails the decision
    # only when the signers that count are too few.
    hard: list[str] = []
    soft: list[str] = []
    for i, s in enumerate(checked):
        if s.problem == "bad signature":
            if not records and every:
                records.update((record_digest(x), x) for x in every)
            hard.append(_explain(lines[i], p, rec, records, check, digests, budget))
        elif s.problem and s.problem.startswith(("unknown key", "key ")):
            soft.append(s.problem)
        elif s.problem:
            hard.append(s.problem)
        elif s.principal is not None:
            if allowed is not None and not set(s.principal.split(",")) & set(allowed):
                soft.append(f"{s.principal} may not decide for server {p.server!r}")
            else:
                who.add(s.principal)
    reasons += hard
    if len(who) < n:
        reasons += soft
        if not reasons:
            reasons.append(
                f"too few signers: {len(who)} ({', '.join(sorted(who)) or 'none'}), "
                f"the policy wants {n}"
            )
        else:
            reasons.append(f"{len(who)} valid signer(s), the policy wants {n}")
    return reasons


def found(pin: Any, was: Any = None) -> list[str]:
    """What the engine itself finds about an approval's definition: the policy's outcome (in
    the ``tiered`` tier, whose blocks every tier shares) for the definition alone (``was``
    None: as a new tool), or against ``was``, the decision it replaced (the base's). Empty
    for a denial, an unchanged definition, or a definition that does not read."""
    from mcp_review.engine.compare import compare
    from mcp_review.engine.policy import decide, facts_for

    if str(pin.decision) != "approved" or (was is not None and was.digest == pin.digest):
        return []
    try:
        new = pin.tool_def()
        if was is None:
            facts = facts_for(None, new)
        else:
            old = was.tool_def()
            cmp = compare(old, new, witnesses=False)
            facts = facts_for(old, new, cmp.changes, previously_denied=not was.approved)
    except (InputError, ValueError, TypeError, RecursionError):
        return []
    return [f"outcome:{decide('tiered', facts).outcome}"]


def _explain(
    line: str,
    p: Any,
    rec: Mapping[str, Any],
    records: Mapping[str, Any],
    check: CheckSig,
    digests: Sequence[str] = (),
    budget: list[int] | None = None,
) -> str:
    """Why a signature from an allowed key does not verify over this decision's record. The
    search for the record it was moved from shares ``budget`` (checks left in this run): a file
    of thousands of bad signatures costs a bounded number of checks, not their square."""
    sig = parse_sshsig(dearmor(line))
    flipped = {**rec, "decision": "denied" if rec["decision"] == "approved" else "approved"}
    if check(sig, _canon(flipped)):
        return f"decision flipped: the signature is over {flipped['decision']!r}"
    for d in dict.fromkeys(digests):
        if d != rec["digest"] and check(sig, _canon({**rec, "digest": d})):
            return f"wrong digest: the signature is over {d[:19]}…, the pin holds {rec['digest'][:19]}…"
    left = budget if budget is not None else [EXPLAIN_BUDGET]
    for other in records.values():
        if left[0] <= 0:
            break
        if other is p:
            continue
        left[0] -= 1
        if check(sig, record_bytes(other)):
            return f"a signature over another record (moved from {_label(other)})"
    return (
        "a signature over another record: the digest, decision, reason, time or previous "
        "decision differ from what was signed"
    )
