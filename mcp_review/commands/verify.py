"""`mcp-review verify [--pins FILE] [--snapshot FILE]`: check a committed pin file without
starting any server (the pre-commit hook and CI lint).

1. the pin file parses and is a version this mcp-review reads;
2. every pin's digest matches its stored definition (under its own digest scheme), and which
   scheme each pin uses (a pin of an older scheme moves to the current one when its tool is
   next decided);
3. the file is in canonical form: exactly what mcp-review itself writes (sorted tables, the
   current layout), so a hand edit or a merge that reordered it shows up before review;
   ``--fix`` rewrites it canonically (locked, atomic; decisions unchanged, nothing logged);
4. with ``--snapshot FILE`` (a committed `snapshot`), `status` against it: the committed tool
   lists have been reviewed;
5. with ``--require-signed``, every decision's SSH signatures under the signing
   policy (services/signing.py): each decision that fails is named with its reasons (unsigned,
   unknown key, wrong digest, a signature over another record, too few signers, a broken
   chain against ``--base REV``), exit 1; a policy or allowed-signers file that cannot be read
   is exit 2. ``--record``/``--signature SERVER PRINCIPAL TOOL`` print a decision's record and
   signature for ``ssh-keygen -Y verify`` (docs/security.md); ``--kind prompt`` (``resource``,
   ``resource-template``) names a prompt's (...) decision instead of a tool's.

Exit 0 when all hold, 1 when the file is not canonical or the snapshot has drift that needs
review, 2 when the pin file (or the snapshot, or the config) cannot be read or a pin does not
verify.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mcp_review.cli_args import add_pins_option, add_require_options, input_options
from mcp_review.engine import exitcodes
from mcp_review.engine.signed import SUBJECTS


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        metavar="FILE",
        help="the config naming the pin file, call logs and tiers (default: "
        "discovered as by every command; optional)",
    )
    add_pins_option(p)
    p.add_argument(
        "--snapshot",
        metavar="FILE",
        help="a committed snapshot (the `snapshot` command's JSON): also run `status` "
        "against it, offline",
    )
    p.add_argument(
        "--fix",
        action="store_true",
        help="rewrite a pin file that is not in canonical form (same decisions)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print problems only")
    add_require_options(p)
    p.add_argument(
        "--record",
        nargs=3,
        metavar=("SERVER", "PRINCIPAL", "TOOL"),
        default=None,
        help="print the canonical record a decision's signatures sign (TOOL '' for a "
        "server's instructions), for ssh-keygen -Y verify",
    )
    p.add_argument(
        "--signature",
        nargs=3,
        metavar=("SERVER", "PRINCIPAL", "TOOL"),
        default=None,
        help="print a decision's signature, armored as ssh-keygen writes it (--index N: the Nth)",
    )
    p.add_argument("--index", type=int, default=1, help=argparse.SUPPRESS)
    p.add_argument(
        "--kind",
        choices=SUBJECTS,
        default="tool",
        help="with --record/--signature: what TOOL names (a prompt's or template's name, a "
        "resource's URI; default: a tool)",
    )


def _first_difference(a: bytes, b: bytes) -> int:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False)):
        if x != y:
            return i + 1
    return min(len(la), len(lb)) + 1


def _old_also_layout(raw: bytes, line: int) -> bool:
    """The first difference (``line``) is an ``also_approved`` written as earlier releases
    wrote it: one escaped string per kept definition (the same value)."""
    lines = raw.splitlines()
    return (
        2 <= line <= len(lines)
        and lines[line - 2] == b"also_approved = ["
        and lines[line - 1].startswith(b'    "')
    )


def _say_schemes(pins: Any) -> None:
    """Which digest scheme each pin uses: a count per scheme, and each pin of an older one by
    name (it moves to the current scheme when its tool is next decided; it verifies and is
    compared under the current scheme meanwhile, its stored definition being whole)."""
    from mcp_review.engine.model import DIGEST_SCHEME, SCHEME_WORDS
    from mcp_review.engine.pintoml import qa

    by_scheme: dict[int, list[Any]] = {}
    for key in sorted(pins.pins):
        p = pins.pins[key]
        by_scheme.setdefault(p.digest_scheme, []).append(p)
    if not by_scheme:
        return
    parts = []
    for scheme in sorted(by_scheme, reverse=True):
        current = " (current)" if scheme == DIGEST_SCHEME else ""
        words = SCHEME_WORDS.get(scheme, "unknown")
        parts.append(f"scheme {scheme}{current}, {words}: {len(by_scheme[scheme])}")
    print("digest schemes: " + "; ".join(parts))
    for scheme in sorted(by_scheme, reverse=True):
        if scheme == DIGEST_SCHEME:
            continue
        for p in by_scheme[scheme]:
            print(
                f"  scheme {scheme}: tool {qa(p.tool)} (server {qa(p.server)}, principal "
                f"{qa(p.principal)}): moves to scheme {DIGEST_SCHEME} when next decided"
            )


def _say_ui(pins: Any) -> None:
    """Each approved pin whose definition names a UI resource and that holds no record of its
    content (written before UI resources were pinned): its content is recorded
    when its tool is next decided; until then only the URI is checked."""
    from mcp_review.engine.pintoml import qa
    from mcp_review.engine.rules.meta import ui_resource_uris
    from mcp_review.engine.ui_resource import PIN_KEY

    for key in sorted(pins.pins):
        p = pins.pins[key]
        if (
            PIN_KEY in p.extra
            or not p.approved
            or ("resourceUri" not in p.definition and ("openai/outputTemplate" not in p.definition))
        ):
            continue
        if ui_resource_uris(p.tool_def().wire.get("_meta")):
            print(
                f"  UI resource: tool {qa(p.tool)} (server {qa(p.server)}, principal "
                f"{qa(p.principal)}): its content is not pinned yet; it is recorded when the "
                "tool is next decided"
            )


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.pins import VERSION
    from mcp_review.services.inputs import resolve
    from mcp_review.store.pinfile import save_pins

    # Parsing verifies every digest (an InputError, exit 2, names each pin that does not).
    inp = resolve(
        input_options(args),
        require_config=False,
        with_calls=args.snapshot is not None,
        server_filter=False,
    )
    inp.print_notes()
    path, pins = inp.pins_path, inp.pins
    if args.record is not None or args.signature is not None:
        return _export(args, pins)
    say = (lambda m: None) if args.quiet else (lambda m: print(m))
    rc = exitcodes.PASS
    if pins.read_bytes is None:
        say(f"{path}: no pin file yet (nothing to verify)")
    else:
        n = len(pins.pins)
        if pins.instructions:  # their digests are verified on read like the tools'
            n_text = f"{n} pin(s) and {len(pins.instructions)} server instructions pin(s)"
        else:
            n_text = f"{n} pin(s)"
        if pins.surfaces:  # prompts, resources, templates: verified on read too
            n_text += f" and {len(pins.surfaces)} prompt/resource/template pin(s)"
        canonical = pins.to_bytes()
        if canonical == pins.read_bytes:
            say(f"{path}: ok: {n_text}, every digest matches its definition, canonical form")
        elif args.fix:
            save_pins(pins, path)
            say(f"{path}: rewritten in canonical form ({n_text}, decisions unchanged)")
        elif pins.version < VERSION:
            print(
                f"{path}: pin file version {pins.version}: every digest matches; run "
                f"`mcp-review verify --fix` to rewrite it as version {VERSION} (definitions "
                "as line-per-line JSON, so re-pins diff as lines; older mcp-review releases "
                "refuse version 2)",
                file=sys.stderr,
            )
            rc = exitcodes.FAIL
        else:
            line = _first_difference(pins.read_bytes, canonical)
            if _old_also_layout(pins.read_bytes, line):
                print(
                    f"{path}:{line}: also_approved in the layout of earlier releases (each "
                    "kept definition one escaped line); every digest matches. Run "
                    "`mcp-review verify --fix` to rewrite it line per line, like definition",
                    file=sys.stderr,
                )
            else:
                print(
                    f"{path}:{line}: not in the form mcp-review writes (order, layout or a "
                    "hand edit); every digest matches. Run `mcp-review verify --fix` to "
                    "rewrite it",
                    file=sys.stderr,
                )
            rc = exitcodes.FAIL
    if pins.read_bytes is not None and not args.quiet:
        _say_schemes(pins)
        _say_ui(pins)
    if args.snapshot is not None:
        from mcp_review.formats import status as fmt

        report = inp.status(inp.snapshot(), witnesses=True, keep_valid_calls=False)
        code = report.exit_code()
        if code != exitcodes.PASS:
            sys.stdout.write(fmt.to_text(report))
            print(
                f"{args.snapshot}: the committed tool lists need review against {path} "
                "(mcp-review status --snapshot …, then approve or deny)",
                file=sys.stderr,
            )
            rc = max(rc, exitcodes.FAIL)
        else:
            say(f"{args.snapshot}: every tool pinned, denied or auto-approvable")
    if args.require_signed:
        rc = max(rc, _signed(args, inp, say))
    return rc


def _export(args: argparse.Namespace, pins: Any) -> int:
    """``--record`` / ``--signature``: one decision's signed bytes, for ssh-keygen."""
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.signed import SIGNATURES, decision_of, record_bytes
    from mcp_review.engine.sshsig import armor, dearmor

    server, principal, tool = args.record or args.signature
    kind = getattr(args, "kind", "tool")
    pin = decision_of(pins, server, principal, tool, kind)
    if pin is None:
        what = "" if kind == "tool" else f" {kind}"
        raise InputError(
            f"no decision for {server!r} / {principal!r} /{what} {tool!r} in the pin file"
        )
    if args.record is not None:
        # ASCII JSON (every other character escaped): exactly the bytes signed, no newline.
        sys.stdout.write(record_bytes(pin).decode("ascii"))
        sys.stdout.flush()
        return exitcodes.PASS
    lines = pin.extra.get(SIGNATURES) or []
    if not isinstance(lines, list) or not 1 <= args.index <= len(lines):
        raise InputError(f"that decision has no signature {args.index} ({len(lines)} signed)")
    try:
        sys.stdout.write(armor(dearmor(str(lines[args.index - 1]))))
    except ValueError as e:
        raise InputError(f"signature {args.index} is malformed: {e}") from None
    return exitcodes.PASS


def _signed(args: argparse.Namespace, inp: Any, say: Any) -> int:
    """``--require-signed``: every decision and the policy (exit 1 naming each failure)."""
    from mcp_review.services import signing

    return signing.require_signed(inp, say, signing_policy=args.signing_policy, base_rev=args.base)
