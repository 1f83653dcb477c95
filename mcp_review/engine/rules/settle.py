"""How to settle a potentially-breaking change: the evidence that would make it breaking, or
compatible for this operator's clients, worded per rule (messages apart from logic, keyed by
rule id, as ``render`` words the change itself).

A potentially-breaking change is one the engine cannot decide from the two definitions alone
(a property dropped from an open object, a pattern added, a keyword it does not understand,
the tool's execution contract). Each says what to look at: recorded calls replayed against the
new schema (the proxy records them; ``check --calls`` replays them), live results re-checked
(``rerun``), or the clients and deployment themselves.
"""

from __future__ import annotations

from mcp_review.engine.model import Change, ChangeClass, Direction, install_settler

_REPLAY = (
    "record calls through the proxy (or pass them with --calls): a recorded call that the new "
    "schema rejects at {where} makes this breaking; if every recorded call still validates, it "
    "is compatible for your clients"
)
_RESULTS = (
    "rerun recorded read-only calls (mcp-review rerun) or check results your clients received: "
    "a result that the old schema rejects at {where} makes this breaking; if every result still "
    "validates under the old schema, it is compatible for your clients"
)
_BY_HAND = (
    "the engine cannot judge {where}: record calls through the proxy (or pass them with "
    "--calls); a recorded call that the new schema rejects makes this breaking; if every "
    "recorded call still validates and {where} reads the same by hand, it is compatible for "
    "your clients"
)

SETTLE: dict[str, str] = {
    "property-removed-open": (
        "record calls through the proxy (or pass them with --calls): a recorded call that sends "
        "{name} makes this breaking (the server may now ignore it); if no recorded call sends "
        "{name}, it is compatible for your clients"
    ),
    "property-rename-suspected": (
        "record calls through the proxy (or pass them with --calls): a recorded call that sends "
        "{old} makes this breaking (it must now send {new}); if none sends {old}, it is "
        "compatible for your clients"
    ),
    "execution-changed": (
        "check the clients that call this tool: one that cannot run it as the new execution "
        "contract requires (a client without task support, when taskSupport becomes "
        '"required"; one that runs it as a task, when it becomes "forbidden") makes this '
        "breaking; if every client can, it is compatible"
    ),
    "output-schema-removed": (
        "check the clients that read this tool's results: one that validates or reads "
        "structuredContent by the old outputSchema makes this breaking; if none does, it is "
        "compatible"
    ),
    "header-mapping-changed": (
        "over stdio it is compatible; over HTTP, a gateway, load balancer or server that routes "
        "or authorises on the old header makes this breaking: check the deployment's routing "
        "rules"
    ),
    "schema-invalid": _BY_HAND,
    "schema-too-deep": _BY_HAND,
    "engine-error": _BY_HAND,
    "ref-unresolved": _BY_HAND,
    "ref-remote": _BY_HAND,
    "unsupported-keyword-changed": _BY_HAND,
}
"""rule id -> how to settle it (``str.format`` fields: the change's quoted parameters)."""


_OWN_ON_OUTPUT = frozenset({"output-schema-removed"})
"""Output-side rules worded by their own entry (the others by the results' default)."""


OUTSIDE_SETTLE: dict[str, str] = {}
"""How to settle changes judged outside the schema walk (engine/hosts.py's ``host-degrade``)."""


def settle_text(change: Change, templates: dict[str, str] | None = None) -> str | None:
    """How to settle ``change`` when it is potentially-breaking (None otherwise): the rule's own
    wording, else the default for its side (recorded calls on the input side, results on the
    output side). Never raises: a template the change cannot fill falls back to the default."""
    if change.cls is not ChangeClass.POTENTIALLY_BREAKING:
        return None
    fields = dict(change.params)
    fields.setdefault("where", "this location")
    if change.direction is Direction.OUTPUT:
        # Inside an outputSchema the evidence is the results the server returns; the schema
        # dropped as a whole says which clients to ask.
        default = _RESULTS
        template = (
            (templates or SETTLE).get(change.rule, default)
            if change.rule in _OWN_ON_OUTPUT
            else default
        )
    else:
        default = _REPLAY
        template = (templates or SETTLE).get(change.rule) or OUTSIDE_SETTLE.get(
            change.rule, default
        )
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError, AttributeError):
        return default.format(**fields)


install_settler(settle_text)  # Change.settle says it this way (model.py)
