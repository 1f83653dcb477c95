"""`mcp-review signing init|sign`: turn signed decisions on, and sign the signing policy.

``init --allowed-signers FILE`` writes the signing policy (``mcp-review-signing.toml`` beside
the pin file, or ``--policy``): every decision standing in the pin file now is listed by its
record digest as accepted unsigned (so a later unsigned decision cannot pass by claiming an
earlier time), ``since`` is now, and with a key (``--sign-key``, as for ``approve``) the policy
is signed at once. ``sign`` adds one more signature to it (a change to the policy or to the
allowed-signers file counts only when signed by keys the policy it replaces allows: ``verify
--require-signed --base REV`` checks that). Exit 0 done, 2 when something cannot be read or
the policy exists already (``init``).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from mcp_review.cli_args import add_pins_option, add_sign_option, input_options
from mcp_review.engine import exitcodes
from mcp_review.engine.signed import SUBJECTS

EXAMPLE = (
    "mcp-review signing init --allowed-signers .mcp-review/allowed_signers "
    "--sign-key ~/.ssh/id_ed25519"
)


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "action",
        choices=("init", "sign", "cosign"),
        help="init: write the policy; sign: sign the policy; cosign: add your signature to a "
        "decision (--decision), for a policy that wants more than one signer",
    )
    p.add_argument(
        "--decision",
        nargs=3,
        metavar=("SERVER", "PRINCIPAL", "TOOL"),
        default=None,
        help="cosign: the decision to sign (TOOL '' for a server's instructions)",
    )
    p.add_argument(
        "--kind",
        choices=SUBJECTS,
        default="tool",
        help="cosign: what TOOL names (a prompt's or template's name, a resource's URI; "
        "default: a tool)",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="the config naming the pin file and [signing] (default: discovered)",
    )
    add_pins_option(p)
    add_sign_option(p)
    p.add_argument(
        "--policy",
        metavar="FILE",
        default=None,
        help="the signing policy (default: the config's [signing] policy, else "
        "mcp-review-signing.toml beside the pin file)",
    )
    p.add_argument(
        "--allowed-signers",
        metavar="FILE",
        default=None,
        help="init: the allowed-signers file (git's format), named relative to the policy",
    )
    p.add_argument(
        "--signers",
        type=int,
        default=1,
        help="init: distinct signers each decision needs (default 1)",
    )


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.clock import now_utc
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.signed import record_digest
    from mcp_review.services import signing
    from mcp_review.services.inputs import resolve

    args.signing_policy = args.policy
    inp = resolve(input_options(args), require_config=False, with_calls=False, server_filter=False)
    inp.print_notes()
    where = signing.find_policy(args.signing_policy, inp.config, inp.pins_path) or os.path.join(
        os.path.dirname(os.path.abspath(inp.pins_path)), signing.POLICY_NAME
    )
    key = signing.sign_spec(args.sign_key, inp.config)
    if args.action == "cosign":
        return _cosign(args, inp, key)
    if args.action == "init":
        if args.allowed_signers is None:
            raise InputError("signing init: --allowed-signers FILE is needed")
        if os.path.exists(where):
            raise InputError(
                "a signing policy is there already; `signing sign` signs it", source=where
            )
        if args.signers < 1:
            raise InputError("--signers must be 1 or more")
        rel = os.path.relpath(
            os.path.abspath(args.allowed_signers), os.path.dirname(os.path.abspath(where))
        )
        pins = inp.pins
        standing = sorted(
            record_digest(p)
            for p in [*pins.pins.values(), *pins.instructions.values(), *pins.surfaces.values()]
        )
        body = (
            '# mcp-review signing policy (docs/security.md, "Signed decisions").\n'
            "version = 1\n"
            f"allowed_signers = {_q(rel)}\n"
            f"signers = {args.signers}\n"
            'require = ["*"]\n'
            f"since = {_q(now_utc())}\n"
            "# Decisions standing when signing was turned on, accepted unsigned (record digests).\n"
            "unsigned = [\n" + "".join(f"    {_q(d)},\n" for d in standing) + "]\n"
        )
        from mcp_review.store.files import atomic_write

        # The allowed-signers file must read before anything is written.
        signing.parse_trust(
            body.encode(),
            _read(os.path.join(os.path.dirname(os.path.abspath(where)), rel)),
            path=where,
            signers_path=rel,
            outside=True,
        )
        atomic_write(where, body.encode("utf-8"))
        print(f"{where}: signing turned on; {len(standing)} standing decision(s) accepted unsigned")
        if key is None:
            print(f"{where}: not signed yet: run `mcp-review signing sign --sign-key KEY`")
            return exitcodes.PASS
    if key is None:
        raise InputError("signing sign: no key (--sign-key, $MCP_REVIEW_SIGN_KEY or [signing] key)")
    signer = signing.load_signer(key)
    signing.sign_policy(where, signer)
    print(f"{where}: signed by {signer.fingerprint}")
    return exitcodes.PASS


def _cosign(args: argparse.Namespace, inp: Any, key: str | None) -> int:
    """Add a signature to a decision as it stands (its record unchanged): the second signer of
    a decision the policy wants two for. Saved under the pin file's lock, made against the
    decision read (another decision meanwhile: nothing written), and logged."""
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.signed import SIGNATURES, decision_of, record_bytes, with_signature
    from mcp_review.services import decisions, signing
    from mcp_review.store.pinfile import save_pins

    if args.decision is None:
        raise InputError("signing cosign: --decision SERVER PRINCIPAL TOOL is needed")
    if key is None:
        raise InputError(
            "signing cosign: no key (--sign-key, $MCP_REVIEW_SIGN_KEY or [signing] key)"
        )
    server, principal, tool = args.decision
    kind = getattr(args, "kind", "tool")
    pins = inp.pins
    pin = decision_of(pins, server, principal, tool, kind)
    name = (tool or "(instructions)") if kind == "tool" else f"({kind}) {tool}"
    label = f"{safe_text(server)}/{safe_text(principal)}/{safe_text(name)}"
    if pin is None:
        raise InputError(f"no decision for {label} in the pin file", source=inp.pins_path)
    signer = signing.load_signer(key)
    line = signer.sign(record_bytes(pin))
    have = pin.extra.get(SIGNATURES) or []
    if line in have or any(signer.fingerprint in _fp(x) for x in have):
        print(f"{label} is signed by {signer.fingerprint} already; nothing written")
        return exitcodes.PASS
    new = with_signature(pin, line)
    why = f"co-signed by {signer.fingerprint}"
    if kind != "tool":
        decisions.decide_surface_pin(pins, new, why=why, source="cosign", expect=pin)
    elif tool:
        decisions.record_pin(pins, new, why=why, source="cosign", expect=pin)
    else:
        decisions.decide_instructions_pin(pins, new, why=why, source="cosign", expect=pin)
    save_pins(pins, inp.pins_path)
    print(f"{label}: co-signed by {signer.fingerprint} ({len(have) + 1} signature(s))")
    return exitcodes.PASS


def _fp(line: Any) -> str:
    from mcp_review.engine.sshsig import dearmor, fingerprint, parse_sshsig

    try:
        return fingerprint(parse_sshsig(dearmor(str(line))).public_key)
    except ValueError:
        return ""


def _q(s: str) -> str:
    import json

    return json.dumps(s)


def _read(path: str) -> bytes:
    from mcp_review.engine.errors import InputError

    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise InputError(
            f"cannot read the allowed-signers file: {e.strerror}", source=path
        ) from None
