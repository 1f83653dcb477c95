"""Tool model, digest, and the vocabulary of changes (classes, directions, Change).

A tool definition is kept as the wire JSON the server sent (lossless), with typed accessors
for the fields the engine reasons about. The digest covers the whole tool as served
(``HASHED_FIELDS``, scheme 3), under a recorded scheme version so pins of an older scheme
migrate instead of being re-quarantined.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from mcp_review.engine.canonical import canonical_bytes, check_json
from mcp_review.engine.errors import InputError

if TYPE_CHECKING:
    from mcp_review.engine.ui_resource import UIResource

DIGEST_SCHEME = 3
"""Version of the digest scheme (canonical form + hashed fields). Stored with every pin."""

HASHED_FIELDS_V1: tuple[str, ...] = (
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
)
"""Scheme 1: the fields hashed before ``execution`` and ``icons`` joined the contract."""

HASHED_FIELDS_V2: tuple[str, ...] = (*HASHED_FIELDS_V1, "execution", "icons")
"""Scheme 2: the named fields, before the whole tool joined the contract: ``_meta``
and keys MCP does not define were outside the digest."""

CONTRACT_FIELDS: tuple[str, ...] = HASHED_FIELDS_V2
"""The fields MCP defines on a tool and the engine reads by name (the schemas, the text, the
annotations, ``execution``, ``icons``); ``_meta`` and any other key are judged as keys of the
tool (engine/rules/meta.py, engine/rules/tool.py)."""

WHOLE_TOOL = "*"
"""The one entry of scheme 3's hashed fields: every key of the tool as served."""

HASHED_FIELDS: tuple[str, ...] = (WHOLE_TOOL,)
"""Wire fields covered by the digest (scheme 3): the whole tool as served, ``_meta`` and keys
MCP does not define included (an app-only tool made model-callable through
``_meta.ui.visibility`` changed nothing the digest saw). Absent fields are left out (absent !=
null), so a tool that declares only fields of scheme 2 has the same digest under schemes 2 and
3 (and under 1 when it declares neither ``execution`` nor ``icons``): no golden digest moves."""

DIGEST_SCHEMES: dict[int, tuple[str, ...]] = {
    1: HASHED_FIELDS_V1,
    2: HASHED_FIELDS_V2,
    3: HASHED_FIELDS,
}
"""Every scheme this mcp-review can verify, with its default hashed fields. All share the
canonical form of ``engine/canonical.py``; a change of that form needs a new scheme here and a
golden test (tests/store/test_golden_digest.py) proves the old ones never move."""

SCHEME_WORDS: dict[int, str] = {
    1: "named fields, before execution and icons",
    2: "named fields, _meta and unknown keys outside the digest",
    3: "the whole tool as served",
}
"""Each scheme in words (``verify`` names the scheme of every pin of an older one)."""


@dataclass(frozen=True, slots=True, eq=False)
class ToolDef:
    """One tool definition as a server sent it (wire/camelCase JSON object)."""

    wire: dict[str, Any]
    _digest: str | None = field(default=None, init=False, repr=False, compare=False)
    """The digest, computed once (``wire`` is never changed after construction)."""
    ui: tuple[UIResource, ...] | None = field(default=None, repr=False, compare=False)
    """The UI resources its ``_meta`` names, as read with the listing or as approved with its
    pin (engine/ui_resource.py); None when none were read (or the pin predates them). Outside
    the digest: a change of them is judged apart (engine/rules/ui.py)."""

    @classmethod
    def from_wire(cls, data: Any, *, source: str = "<tool>") -> ToolDef:
        """Read one definition exactly as sent: any JSON object with a string ``name`` is a tool
        (errors name ``source``). Deviations from the protocol's schema (no ``inputSchema``, a
        description that is not a string, ...) are not errors here: they are findings on the
        tool (:mod:`mcp_review.engine.protocol`), and the typed accessors below read past them."""
        if not isinstance(data, dict):
            raise InputError(
                f"a tool definition must be a JSON object, got {json_kind(data)}", source=source
            )
        name = data.get("name")
        if not isinstance(name, str):
            raise InputError("tool definition has no string 'name'", source=source)
        try:
            check_json(data)
        except (ValueError, TypeError) as e:
            raise InputError(f"tool {name!r}: {e}", source=source) from None
        return cls(wire=data)

    # Typed accessors -------------------------------------------------------------------
    @property
    def name(self) -> str:
        name: str = self.wire["name"]  # from_wire checked it is a string
        return name

    # A field of the wrong JSON type reads as absent here (the digest and the diff still see it
    # exactly as sent, and engine/protocol.py reports it); a missing inputSchema reads as ``{}``.
    @property
    def title(self) -> str | None:
        v = self.wire.get("title")
        return v if isinstance(v, str) else None

    @property
    def description(self) -> str | None:
        v = self.wire.get("description")
        return v if isinstance(v, str) else None

    @property
    def input_schema(self) -> Any:
        v = self.wire.get("inputSchema")
        return v if isinstance(v, (dict, bool)) else {}

    @property
    def output_schema(self) -> Any | None:
        v = self.wire.get("outputSchema")
        return v if isinstance(v, (dict, bool)) else None

    @property
    def annotations(self) -> dict[str, Any]:
        v = self.wire.get("annotations")
        return v if isinstance(v, dict) else {}

    # Digest -----------------------------------------------------------------------------
    def hashed_projection(self) -> dict[str, Any]:
        """What the digest covers (:data:`HASHED_FIELDS`): since scheme 3 the whole tool as
        served, so the hidden-character scan reads ``_meta`` and unknown keys too."""
        return self.wire

    @property
    def digest(self) -> str:
        d = self._digest
        if d is None:
            d = digest_of(self.wire)
            object.__setattr__(self, "_digest", d)  # a cache on a frozen value
        return d


def digest_of(wire: dict[str, Any], fields: tuple[str, ...] = HASHED_FIELDS) -> str:
    """``sha256:<hex>`` over the canonical JSON of the hashed fields of a wire definition
    (``fields`` of :data:`WHOLE_TOOL` alone: every key)."""
    proj = wire if fields == HASHED_FIELDS else {k: wire[k] for k in fields if k in wire}
    return "sha256:" + hashlib.sha256(canonical_bytes(proj)).hexdigest()


def digest_under(wire: dict[str, Any], scheme: int, fields: tuple[str, ...] | list[str]) -> str:
    """The digest of ``wire`` under digest scheme ``scheme`` over ``fields``.

    A pin records the scheme and the hashed fields it was made with, so its digest is verified
    under those (a pin made by an older scheme still verifies). ValueError for a scheme this
    mcp-review does not know: such a pin cannot be verified, so it is not trusted.
    """
    if isinstance(scheme, int) and not isinstance(scheme, bool) and scheme in DIGEST_SCHEMES:
        return digest_of(wire, tuple(fields))
    raise ValueError(f"digest scheme {scheme!r} is unknown to this mcp-review")


def json_kind(v: Any) -> str:
    """A JSON value's kind in words ("a string", "null"), for messages that never quote it."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    return "an object"


class ChangeClass(StrEnum):
    """What a change means for the operator (docs/design.md, Change classes)."""

    BREAKING = "breaking"
    POTENTIALLY_BREAKING = "potentially-breaking"
    COMPATIBLE = "compatible"
    TRUST = "trust"
    COSMETIC = "cosmetic"


class Direction(StrEnum):
    """Which side of the contract a rule judges. On ``output`` the subset direction flips."""

    INPUT = "input"
    OUTPUT = "output"
    TOOL = "tool"  # description, title, annotations, name: not a schema direction


_MISSING: Any = object()


@dataclass(frozen=True, slots=True)
class NewText:
    """A piece of server-written text the model reads that the old definition did not have,
    carried in by a structural change (a new property's description, a new enum value that
    reads as a sentence). ``text`` is already visible and bounded (hidden characters shown as
    tokens, JSON-quoted, cut with an ellipsis): it is safe on every output path."""

    pointer: str
    field: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"pointer": self.pointer, "field": self.field, "text": self.text}


@dataclass(frozen=True, slots=True)
class Change:
    """One classified change at a JSON pointer into the tool definition: which rule fired,
    its class and direction there, and the parameters its message is rendered from.

    ``pointer`` is an RFC 6901 pointer into the *tool definition* (for example
    ``/inputSchema/properties/format/enum``), pointing into the new definition where the
    location exists there and into the old one otherwise.
    """

    rule: str
    cls: ChangeClass
    pointer: str
    params: tuple[tuple[str, str], ...] = ()
    """The rule's message parameters (``where``, ``old``, ``new``, ...), each already quoted:
    visible, single-line and bounded (``rules.render_change`` fills the rule's template with them)."""
    direction: Direction = Direction.INPUT
    witness: Any = field(default=_MISSING, compare=False)
    witness_error: str | None = field(default=None, compare=False)
    promoted: bool = field(default=False, compare=False)
    """True when evidence promoted this change from potentially-breaking to breaking: a witness,
    or a recorded call that still sends a removed property (replay outcome ``ignored``)."""
    disproved: bool = field(default=False, compare=False)
    """A structural breaking verdict the witness search disproved: it tried every value the
    accepting schema takes (a finite one) and found none refused; the change
    is then potentially-breaking and says why it has no witness."""
    new_text: tuple[NewText, ...] = ()
    """Text the model reads that this change brings in (docs/design.md: the trust axis is separate
    from compatibility): a change with any is on the trust axis whatever its class."""
    note: str | None = field(default=None, compare=False)
    """Why a breaking / potentially-breaking change carries no witness when that is not simply
    "none found" (the tool's search budget was spent, the search failed)."""
    new_text_more: int = 0
    """New texts this change brought in beyond the ones carried in ``new_text`` (counted)."""

    @property
    def message(self) -> str:
        """The registry's wording of this change (``rules.render_change``; the formats and the app
        call it themselves, so they can word a change another way)."""
        return _renderer()(self)

    @property
    def settle(self) -> str | None:
        """How to settle a potentially-breaking change (the evidence that would make it
        breaking or compatible); None for every other class (``rules.settle``)."""
        return _settler()(self)

    @property
    def trust(self) -> bool:
        """On the trust axis: a trust-class change, or one that brings in new text."""
        return self.cls is ChangeClass.TRUST or bool(self.new_text)

    @property
    def has_witness(self) -> bool:
        return self.witness is not _MISSING

    @property
    def witness_kind(self) -> str:
        """``call`` (input side: a call the old schema accepts and the new one rejects) or
        ``result`` (output side: a result the server may now return that the old schema, the
        one the client relies on, rejects)."""
        return "result" if self.direction is Direction.OUTPUT else "call"

    @property
    def witness_wording(self) -> tuple[str, str]:
        """(what the witness is, what rejects it): the words every format and the app use."""
        if self.direction is Direction.OUTPUT:
            return ("result the server may now return", "the old schema rejects it")
        return ("call", "rejected under new")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rule": self.rule,
            "class": str(self.cls),
            "pointer": self.pointer,
            "message": self.message,
            "direction": str(self.direction),
        }
        if self.has_witness:
            d["witness"] = self.witness
            d["witness_kind"] = self.witness_kind
            # which schema rejects the witness: the new one (a call), the old one (a result)
            d["witness_rejected_by"] = "old" if self.witness_kind == "result" else "new"
            if self.witness_error:
                d["witness_error"] = self.witness_error
        if self.promoted:
            # By a generated witness, or by a recorded call replay marked "ignored".
            d["promoted_by_witness" if self.has_witness else "promoted_by_replay"] = True
        if self.new_text:
            d["new_text"] = [t.to_json() for t in self.new_text]
        if self.note:
            d["note"] = self.note
        if self.disproved or (self.cls is ChangeClass.BREAKING and not self.has_witness):
            # Why this breaking verdict carries no call that shows it (a hint over other
            # changes, a search budget spent, none found, or recorded calls as the evidence).
            d["no_witness"] = self.note or "no witness searched: the verdict stands on the change"
        settle = self.settle
        if settle:
            d["settle"] = settle
        return d


_RENDERER: list[Callable[[Change], str]] = []
"""How :attr:`Change.message` words a change: the rules' wording, installed by the rules."""


def install_renderer(render: Callable[[Change], str]) -> None:
    """Set how :attr:`Change.message` words a change. ``engine.rules`` installs
    ``render_change`` when it is imported (every change is made by the rules, so it is there
    before any change exists): the rules build on this model, and the model never imports
    them (the model is data below the rules)."""
    _RENDERER[:] = [render]


def _renderer() -> Callable[[Change], str]:
    if not _RENDERER:
        raise RuntimeError("no change wording installed: import mcp_review.engine.rules first")
    return _RENDERER[0]


_SETTLER: list[Callable[[Change], str | None]] = []
"""How :attr:`Change.settle` words the evidence that settles a change: installed by the rules
(``rules.settle``), as the wording of :attr:`Change.message` is."""


def install_settler(settle: Callable[[Change], str | None]) -> None:
    """Set how :attr:`Change.settle` says what would settle a potentially-breaking change
    (``engine.rules`` installs ``settle.settle_text`` when imported; see install_renderer)."""
    _SETTLER[:] = [settle]


def _settler() -> Callable[[Change], str | None]:
    if not _SETTLER:
        raise RuntimeError("no settle wording installed: import mcp_review.engine.rules first")
    return _SETTLER[0]


def pointer_escape(token: str | int) -> str:
    """One RFC 6901 reference token, escaped (``~`` -> ``~0``, then ``/`` -> ``~1``): the one
    place a pointer token is escaped."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_join(base: str, *parts: str | int) -> str:
    """Append RFC 6901 reference tokens to a pointer (escaping ``~`` and ``/``)."""
    out = base
    for p in parts:
        out += "/" + pointer_escape(p)
    return out


def pointer_tokens(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


CLASS_ORDER = {
    ChangeClass.BREAKING: 0,
    ChangeClass.POTENTIALLY_BREAKING: 1,
    ChangeClass.TRUST: 2,
    ChangeClass.COMPATIBLE: 3,
    ChangeClass.COSMETIC: 4,
}
"""Most severe first: the order reports list changes in."""
