"""A tool's ``_meta``: what hosts read there, classified like the rest of the tool.

The digest covers the whole tool (scheme 3, engine/model.py), so a change of ``_meta`` is a
change to review; these rules say what it means:

- **the model may now call the tool** (``meta-visibility-model``, a claim of more power: block,
  alone). MCP Apps (``io.modelcontextprotocol/ui``) lets a tool declare
  ``_meta.ui.visibility``: ``["app"]`` means only the host's UI may call it, ``["model"]`` or
  ``["model", "app"]`` that the model may; a tool with ``ui`` metadata and no ``visibility``
  is visible to both (the extension's default: "the field marks the exception"), so losing it
  is gaining ``model``. OpenAI Apps spells it ``_meta["openai/visibility"]`` (``"private"``:
  hidden from the model). A value a host cannot read as a list of audiences (a string, an
  object) reads as visible: a visibility that no longer restricts is the same claim.
- **CSP domains or iframe permissions added** (``meta-csp-widened``, more power: block, alone):
  ``_meta.ui.csp`` (``connectDomains``, ``resourceDomains``, ``frameDomains``,
  ``baseUriDomains``), ``_meta.ui.permissions`` (``camera``, ``microphone``, ``geolocation``,
  ``clipboardWrite``, any other key) and OpenAI's ``openai/widgetCSP`` (``connect_domains``,
  ``resource_domains``, ``frame_domains``): what the UI may reach or use grew.
- **the UI the user sees changed** (``meta-ui-resource-changed``, trust): ``ui.resourceUri``,
  its flat spelling ``ui/resourceUri`` and OpenAI's ``openai/outputTemplate``, added, changed
  or dropped.
- **framework bookkeeping** (``meta-bookkeeping-changed``, cosmetic): keys no host passes to the
  model or shows the user (:data:`BOOKKEEPING`, each with its source).
- **every other ``_meta`` change** (``meta-changed``, trust): a host may pass it on, and it is
  the server's words (``anthropic/alwaysLoad``, ``openai/widgetAccessible``, a vendor key).
"""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import Change, ChangeClass, Direction, pointer_escape
from mcp_review.engine.rules.kit import MISSING, jeq, opt
from mcp_review.engine.rules.registry import Claim, Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import Raw, make

_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_T = Direction.TOOL

RULES: tuple[Rule, ...] = (
    _r(
        "meta-visibility-model",
        _TR,
        _T,
        "the model may now call the tool: its _meta visibility gained the model (MCP Apps "
        "ui.visibility, absent on a tool with ui metadata means model and app; OpenAI "
        "openai/visibility): a claim of more power",
        "_meta {key}: {old} -> {new}: the model may now call this tool (a claim of more power)",
        claim=Claim.META_MORE,
        withheld="_meta claims more power: the model may now call a tool only the host's UI "
        "could call",
    ),
    _r(
        "meta-csp-widened",
        _TR,
        _T,
        "the tool's UI may reach more: CSP domains or iframe permissions added in _meta (a "
        "claim of more power)",
        "_meta {key} added {added}: the tool's UI may now reach or use it (a claim of more power)",
        claim=Claim.META_MORE,
        withheld="_meta claims more power: the tool's UI may now reach or use more",
    ),
    _r(
        "meta-ui-resource-changed",
        _TR,
        _T,
        "the UI resource the tool renders (ui.resourceUri, ui/resourceUri, "
        "openai/outputTemplate) was added, changed or dropped: the UI the user sees",
        "_meta {key} changed: {old} -> {new} (the UI the user sees)",
    ),
    _r(
        "meta-bookkeeping-changed",
        _CO,
        _T,
        "framework bookkeeping in _meta changed (FastMCP's tags, ...): no host passes it to the "
        "model or shows it to the user",
        "_meta {key} changed: {old} -> {new} (framework bookkeeping: no host reads it)",
    ),
    _r(
        "meta-changed",
        _TR,
        _T,
        "_meta changed: a host may pass it to the model or act on it, and it is part of the "
        "pinned contract",
        "_meta {key} changed: {old} -> {new}",
    ),
)

MORE_POWER_RULES = frozenset(r.id for r in RULES if r.claim is Claim.META_MORE)
"""The ``_meta`` rules that are a claim of more power: they block in every tier, the tool
stands alone (engine/kinds.py) and the proxy withholds it (services/proxy/hold.py)."""

BOOKKEEPING: dict[str, str] = {
    "_fastmcp": "FastMCP 2.x: tool tags (fastmcp/tools/tool.py, to_mcp_tool); seen in the "
    "corpus: elasticsearch-mcp-server 2.1.0, mcp-neo4j-cypher 0.6.0",
    "fastmcp": "FastMCP 3.x: the same tags under the key renamed (elasticsearch-mcp-server "
    "2.1.6, office-word-mcp-server 1.1.11, workspace-mcp 1.6.3 to 2.2.1 in the corpus)",
}
"""Top-level ``_meta`` keys a framework writes for itself, that no host passes to the model or
shows the user (key: the source). Their changes are cosmetic (a FastMCP upgrade that renames
``_fastmcp`` to ``fastmcp`` asks nothing of the operator); their strings are still read for
cues (docs/design.md, Cues)."""

RESOURCE_KEYS = ("ui/resourceUri", "openai/outputTemplate")
"""Flat spellings of the tool's UI resource (beside ``ui.resourceUri``)."""

SPEC_KEYS = frozenset(
    {
        "ui",
        "resourceUri",
        "visibility",
        "csp",
        "permissions",
        "domain",
        "connectDomains",
        "resourceDomains",
        "frameDomains",
        "baseUriDomains",
        "ui/resourceUri",
        "ui/visibility",
        "openai/outputTemplate",
        "openai/visibility",
        "openai/widgetCSP",
        "openai/widgetAccessible",
        *BOOKKEEPING,
    }
)
"""``_meta`` keys the MCP Apps extension, OpenAI Apps and the frameworks define: kept as they are
in a kind's pointer (engine/kinds.py), being no server's words."""

_UI_CSP_KEYS = ("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")
_OPENAI_CSP_KEYS = ("connect_domains", "resource_domains", "frame_domains", "redirect_domains")

_META_CAP = 20
"""Most _meta changes reported per definition; the rest are summarised in one change."""


def _ptr(*keys: str) -> str:
    return "/_meta" + "".join("/" + pointer_escape(k) for k in keys)


def _ui(meta: dict[str, Any]) -> dict[str, Any] | None:
    ui = meta.get("ui")
    return ui if isinstance(ui, dict) else None


def has_ui(meta: Any) -> bool:
    """The tool declares MCP Apps UI metadata (a ``ui`` object or a flat ``ui/…`` key)."""
    if not isinstance(meta, dict):
        return False
    return "ui" in meta or any(isinstance(k, str) and k.startswith("ui/") for k in meta)


def _hidden_from_model_apps(meta: Any) -> bool:
    """MCP Apps: hidden from the model only by a visibility that is a list of strings none of
    which reads as ``"model"`` (absent: model and app; anything else: no restriction a host
    can read)."""
    if not isinstance(meta, dict):
        return False
    ui = _ui(meta)
    vis = ui.get("visibility", MISSING) if ui is not None else MISSING
    if vis is MISSING:
        vis = meta.get("ui/visibility", MISSING)
    # An audience that reads as "model" to a lenient host (case, spaces) is the model.
    return isinstance(vis, list) and all(
        isinstance(v, str) and v.strip().casefold() != "model" for v in vis
    )


def _hidden_from_model_openai(meta: Any) -> bool:
    return isinstance(meta, dict) and meta.get("openai/visibility") == "private"


def ui_resource_uris(meta: Any) -> tuple[str, ...]:
    """Every UI resource URI the tool's ``_meta`` names (``ui.resourceUri``, the flat spellings),
    in that order, each once."""
    if not isinstance(meta, dict):
        return ()
    out: list[str] = []
    ui = _ui(meta)
    for v in (
        ui.get("resourceUri") if ui is not None else None,
        *(meta.get(k) for k in RESOURCE_KEYS),
    ):
        if isinstance(v, str) and v not in out:
            out.append(v)
    return tuple(out)


def _visibility(om: Any, nm: Any) -> list[Change]:
    out: list[Change] = []
    if _hidden_from_model_apps(om) and not _hidden_from_model_apps(nm):
        ou, nu = _ui(om) or {}, (_ui(nm) or {}) if isinstance(nm, dict) else {}
        flat = "ui/visibility" in om and "visibility" not in ou
        key = "ui/visibility" if flat else "ui.visibility"
        ov = om.get("ui/visibility") if flat else ou.get("visibility")
        nv = (
            (nm.get("ui/visibility", MISSING) if isinstance(nm, dict) else MISSING)
            if flat
            else nu.get("visibility", MISSING)
        )
        out.append(
            make(
                "meta-visibility-model",
                _ptr("ui/visibility") if flat else _ptr("ui", "visibility"),
                key=Raw(key),
                old=ov,
                new=opt(nv),
            )
        )
    if _hidden_from_model_openai(om) and not _hidden_from_model_openai(nm):
        nv = nm.get("openai/visibility", MISSING) if isinstance(nm, dict) else MISSING
        out.append(
            make(
                "meta-visibility-model",
                _ptr("openai/visibility"),
                key=Raw("openai/visibility"),
                old="private",
                new=opt(nv),
            )
        )
    return out


def _strings(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _widened(ov: Any, nv: Any, keys: tuple[str, ...], base: tuple[str, ...]) -> list[Change]:
    """CSP domain lists under ``base`` that gained a domain (or a whole list that appeared)."""
    od = ov if isinstance(ov, dict) else {}
    nd = nv if isinstance(nv, dict) else {}
    out = []
    for k in keys:
        added = [d for d in _strings(nd.get(k)) if d not in _strings(od.get(k))]
        if added:
            out.append(
                make(
                    "meta-csp-widened",
                    _ptr(*base, k),
                    key=Raw(".".join((*base, k)) if base[0] == "ui" else f"{base[0]}.{k}"),
                    added=added,
                )
            )
    return out


def _permissions(ov: Any, nv: Any) -> list[Change]:
    od = ov if isinstance(ov, dict) else {}
    nd = nv if isinstance(nv, dict) else {}
    added = sorted(k for k in nd if k not in od and nd[k] is not False and nd[k] is not None)
    if not added:
        return []
    return [
        make("meta-csp-widened", _ptr("ui", "permissions"), key=Raw("ui.permissions"), added=added)
    ]


def _generic(key: str, ov: Any, nv: Any, *keys: str) -> Change:
    return make("meta-changed", _ptr(*keys), key=key, old=opt(ov), new=opt(nv))


def judge_meta(om: Any, nm: Any) -> list[Change]:
    """The changes of ``_meta`` from ``om`` to ``nm`` (each MISSING when absent)."""
    if jeq(om, nm):
        return []
    out = _visibility(om, nm)
    claimed = {c.pointer for c in out}
    if not (om is MISSING or isinstance(om, dict)) or not (nm is MISSING or isinstance(nm, dict)):
        # Not an object (engine/protocol.py reports it): one change for the whole field, and
        # the claims judged as if it were absent.
        out.append(
            make("meta-changed", "/_meta", key=Raw("(the whole field)"), old=opt(om), new=opt(nm))
        )
        return out
    od = om if isinstance(om, dict) else {}
    nd = nm if isinstance(nm, dict) else {}
    rest: list[Change] = []
    for key in sorted({*od, *nd}):
        ov, nv = od.get(key, MISSING), nd.get(key, MISSING)
        if jeq(ov, nv):
            continue
        if key in BOOKKEEPING:
            rest.append(
                make("meta-bookkeeping-changed", _ptr(key), key=key, old=opt(ov), new=opt(nv))
            )
        elif key in RESOURCE_KEYS:
            rest.append(
                make("meta-ui-resource-changed", _ptr(key), key=key, old=opt(ov), new=opt(nv))
            )
        elif key == "ui":
            rest += _judge_ui(ov, nv, claimed)
        elif key == "openai/widgetCSP":
            widened = _widened(ov, nv, _OPENAI_CSP_KEYS, ("openai/widgetCSP",))
            rest += widened or [_generic(key, ov, nv, key)]
        elif _ptr(key) in claimed:
            continue  # the claim of more power says it
        else:
            rest.append(_generic(key, ov, nv, key))
    if len(rest) > _META_CAP:
        more = len(rest) - _META_CAP
        rest = [
            *rest[:_META_CAP],
            make(
                "meta-changed", "/_meta", key=Raw(f"({more} more keys)"), old=Raw("…"), new=Raw("…")
            ),
        ]
    return out + rest


def _judge_ui(ov: Any, nv: Any, claimed: set[str]) -> list[Change]:
    """``_meta.ui``, key by key (a ``ui`` that is not an object: one change for it)."""
    if not (ov is MISSING or isinstance(ov, dict)) or not (nv is MISSING or isinstance(nv, dict)):
        return [_generic("ui", ov, nv, "ui")]
    od = ov if isinstance(ov, dict) else {}
    nd = nv if isinstance(nv, dict) else {}
    out: list[Change] = []
    for k in sorted({*od, *nd}):
        a, b = od.get(k, MISSING), nd.get(k, MISSING)
        if jeq(a, b):
            continue
        where = f"ui.{k}"
        if k == "resourceUri":
            out.append(
                make(
                    "meta-ui-resource-changed",
                    _ptr("ui", k),
                    key=Raw(where),
                    old=opt(a),
                    new=opt(b),
                )
            )
        elif k == "visibility" and _ptr("ui", k) in claimed:
            continue
        elif k == "csp":
            out += _widened(a, b, _UI_CSP_KEYS, ("ui", "csp")) or [_generic(where, a, b, "ui", k)]
        elif k == "permissions":
            out += _permissions(a, b) or [_generic(where, a, b, "ui", k)]
        else:
            out.append(_generic(where, a, b, "ui", k))
    return out
