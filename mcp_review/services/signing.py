"""Signing decisions with the keys people already have, and checking signatures.

- **Keys**: an OpenSSH private key file (ed25519, ECDSA, RSA), or ``ssh-agent`` (the agent
  protocol's identities and sign requests over ``SSH_AUTH_SOCK``), chosen by ``--sign-key``,
  ``MCP_REVIEW_SIGN_KEY`` or the config's ``[signing] key``: ``agent`` (the agent's first
  key), a ``.pub`` file (that key, in the agent), or a private key file (an encrypted one
  falls back to the agent with its ``.pub``).
- **Checks** with the ``cryptography`` package (no ``ssh-keygen`` per decision: 50–100×
  slower at 1,000 decisions); signatures are the ``ssh-keygen -Y sign`` format, so
  ``ssh-keygen -Y verify`` checks them too (docs/security.md).
- **The policy** (``mcp-review-signing.toml``) and its allowed-signers file, read from disk,
  and the policy's own signatures.

The record, the policy's rules and the verdict are :mod:`mcp_review.engine.signed`'s (pure).
"""

from __future__ import annotations

import os
import socket
import struct
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from mcp_review.engine.errors import InputError
from mcp_review.engine.signed import (
    NAMESPACE,
    POLICY_NAMESPACE,
    SigningPolicy,
    chained,
    check_lines,
    parse_policy,
    policy_record,
    record_bytes,
    with_signature,
)
from mcp_review.engine.sshsig import (
    AllowedSigner,
    Reader,
    SshSig,
    build_sshsig,
    fingerprint,
    mpint,
    one_line,
    parse_allowed_signers,
    public_key_line,
    signed_data,
    string,
)
from mcp_review.engine.surfaces import KINDS as SURFACE_KINDS

if TYPE_CHECKING:
    from mcp_review.engine.pins import PinFile
    from mcp_review.services.config import Config

HASH = "sha512"
"""The hash ``ssh-keygen -Y sign`` uses by default."""
POLICY_NAME = "mcp-review-signing.toml"

# Verifying ------------------------------------------------------------------------------------

_KEYS: dict[bytes, Any] = {}


def _public(blob: bytes) -> Any:
    """A ``cryptography`` public key from an SSH public key blob (cached: one signer signs
    many decisions)."""
    key = _KEYS.get(blob)
    if key is not None:
        return key
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    r = Reader(blob)
    kind = r.text()
    if kind == "ssh-ed25519":
        key = ed25519.Ed25519PublicKey.from_public_bytes(r.string())
    elif kind.startswith("ecdsa-sha2-"):
        curves: dict[str, Any] = {
            "nistp256": ec.SECP256R1(),
            "nistp384": ec.SECP384R1(),
            "nistp521": ec.SECP521R1(),
        }
        name = r.text()
        if name not in curves or kind != f"ecdsa-sha2-{name}":
            raise ValueError(f"unsupported ECDSA curve {name!r}")
        key = ec.EllipticCurvePublicKey.from_encoded_point(curves[name], r.string())
    elif kind == "ssh-rsa":
        e = r.mpint()
        n = r.mpint()
        key = rsa.RSAPublicNumbers(e, n).public_key()
    else:
        raise ValueError(f"unsupported key type {kind!r}")
    _KEYS[blob] = key
    return key


def check(sig: SshSig, message: bytes) -> bool:
    """Does ``sig`` sign ``message`` in its own namespace? (``ssh-keygen -Y verify``'s
    cryptographic check, with ``cryptography``.)"""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    try:
        key = _public(sig.public_key)
    except (ValueError, UnicodeDecodeError):
        return False
    data = signed_data(sig.namespace, sig.hash_alg, message)
    try:
        if isinstance(key, ed25519.Ed25519PublicKey):
            if sig.sig_type != "ssh-ed25519":
                return False
            key.verify(sig.sig, data)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            if sig.sig_type != sig.key_type:
                return False
            r = Reader(sig.sig)
            der = encode_dss_signature(r.mpint(), r.mpint())
            h = {256: hashes.SHA256(), 384: hashes.SHA384(), 521: hashes.SHA512()}
            key.verify(der, data, ec.ECDSA(h[key.curve.key_size]))
        elif isinstance(key, rsa.RSAPublicKey):
            rh = {"rsa-sha2-512": hashes.SHA512(), "rsa-sha2-256": hashes.SHA256()}
            if sig.sig_type not in rh:
                return False  # ssh-rsa (SHA-1) signatures are refused, as OpenSSH does
            key.verify(sig.sig, data, padding.PKCS1v15(), rh[sig.sig_type])
        else:
            return False
    except (InvalidSignature, ValueError):
        return False
    return True


# Signing --------------------------------------------------------------------------------------


class Agent:
    """A client of ``ssh-agent`` (draft-miller-ssh-agent): list identities, sign."""

    REQUEST_IDENTITIES = 11
    IDENTITIES_ANSWER = 12
    SIGN_REQUEST = 13
    SIGN_RESPONSE = 14
    RSA_SHA2_512 = 4

    def __init__(self, sock_path: str | None = None) -> None:
        path = sock_path or os.environ.get("SSH_AUTH_SOCK")
        if not path:
            raise InputError("no ssh-agent: SSH_AUTH_SOCK is not set")
        self.path = path

    def _call(self, payload: bytes) -> tuple[int, Reader]:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(30)
                s.connect(self.path)
                s.sendall(struct.pack(">I", len(payload)) + payload)
                head = _recv(s, 4)
                (n,) = struct.unpack(">I", head)
                if n > 256 * 1024:
                    raise InputError("ssh-agent sent an oversized reply")
                body = _recv(s, n)
        except OSError as e:
            raise InputError(f"cannot talk to ssh-agent at {self.path}: {e}") from None
        if not body:
            raise InputError("ssh-agent sent an empty reply")
        return body[0], Reader(body[1:])

    def identities(self) -> list[tuple[bytes, str]]:
        code, r = self._call(bytes([self.REQUEST_IDENTITIES]))
        if code != self.IDENTITIES_ANSWER:
            raise InputError("ssh-agent refused to list its keys")
        out = []
        for _ in range(r.u32()):
            blob = r.string()
            out.append((blob, r.string().decode("utf-8", "replace")))
        return out

    def sign(self, public_key: bytes, data: bytes) -> bytes:
        flags = self.RSA_SHA2_512 if Reader(public_key).text() == "ssh-rsa" else 0
        payload = (
            bytes([self.SIGN_REQUEST])
            + string(public_key)
            + string(data)
            + struct.pack(">I", flags)
        )
        code, r = self._call(payload)
        if code != self.SIGN_RESPONSE:
            raise InputError(
                f"ssh-agent refused to sign with {fingerprint(public_key)} (is the key loaded, "
                "or does it need a confirmation?)"
            )
        return r.string()


def _recv(s: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise OSError("connection closed")
        out += chunk
    return out


@dataclass(slots=True)
class Signer:
    """One key that signs decisions: a private key in memory, or a key held by ssh-agent."""

    public_key: bytes
    source: str
    private: Any = None
    agent: Agent | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def raw_sign(self, data: bytes) -> bytes:
        """The SSH signature blob (``string type, string sig``) over ``data``."""
        if self.agent is not None:
            return self.agent.sign(self.public_key, data)
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
        from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

        k = self.private
        kind = Reader(self.public_key).text()
        if isinstance(k, ed25519.Ed25519PrivateKey):
            return string(kind) + string(k.sign(data))
        if isinstance(k, ec.EllipticCurvePrivateKey):
            h = {256: hashes.SHA256(), 384: hashes.SHA384(), 521: hashes.SHA512()}
            r, s = decode_dss_signature(k.sign(data, ec.ECDSA(h[k.curve.key_size])))
            return string(kind) + string(mpint(r) + mpint(s))
        if isinstance(k, rsa.RSAPrivateKey):
            return string("rsa-sha2-512") + string(
                k.sign(data, padding.PKCS1v15(), hashes.SHA512())
            )
        raise InputError(f"{self.source}: unsupported key type {kind!r}")

    def sign(self, message: bytes, namespace: str = NAMESPACE) -> str:
        """The one-line SSHSIG signature of ``message`` (the pin file's form)."""
        raw = self.raw_sign(signed_data(namespace, HASH, message))
        return one_line(build_sshsig(self.public_key, namespace, HASH, raw))

    def sign_pin(self, pin: Any, before: Any) -> Any:
        """``pin`` chained to ``before`` (the decision it replaces, as on disk) and signed.
        A pin that already carries signatures (an undo putting a signed decision back) is kept
        as it was."""
        if pin.extra.get("signatures"):
            return pin
        p = chained(pin, before)
        return with_signature(p, self.sign(record_bytes(p)))


def load_signer(spec: str) -> Signer:
    """The key ``spec`` names (see the module notes); an InputError saying why not."""
    if spec == "agent":
        agent = Agent()
        ids = agent.identities()
        if not ids:
            raise InputError("ssh-agent holds no keys (ssh-add one)")
        return Signer(ids[0][0], "ssh-agent", agent=agent)
    path = os.path.expanduser(spec)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InputError(f"cannot read the signing key: {e.strerror}", source=path) from None
    text = data.decode("utf-8", "replace").strip()
    if not text.startswith("-----BEGIN"):
        try:
            _kind, blob = public_key_line(text)
        except ValueError as e:
            raise InputError(f"not a key: {e}", source=path) from None
        return _in_agent(blob, path)
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        PublicFormat,
        load_ssh_private_key,
    )

    try:
        key = load_ssh_private_key(data, password=None)
    except (TypeError, ValueError) as e:
        pub = path + ".pub"
        if "password" in str(e).lower() or "encrypted" in str(e).lower():
            if os.path.exists(pub):
                return load_signer(pub)
            raise InputError(
                "the key is encrypted: load it into ssh-agent and name its .pub file",
                source=path,
            ) from None
        raise InputError(f"not an OpenSSH private key ({e})", source=path) from None
    line = key.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()
    return Signer(public_key_line(line)[1], path, private=key)


def _in_agent(blob: bytes, path: str) -> Signer:
    agent = Agent()
    if not any(b == blob for b, _ in agent.identities()):
        raise InputError(f"ssh-agent does not hold the key {fingerprint(blob)}", source=path)
    return Signer(blob, f"ssh-agent ({path})", agent=agent)


def sign_spec(sign_key: str | None, config: Config | None = None) -> str | None:
    """The key the command signs with: ``--sign-key`` (``sign_key``), else
    ``MCP_REVIEW_SIGN_KEY``, else the config's ``[signing] key``; None: decisions are not
    signed."""
    spec = sign_key or os.environ.get("MCP_REVIEW_SIGN_KEY")
    if not spec and config is not None:
        spec = (getattr(config, "signing", None) or {}).get("key")
    return str(spec) if spec else None


def install(pins: PinFile, sign_key: str | None, config: Config | None = None) -> None:
    """Make every decision saved from ``pins`` signed by the configured key, if any. The key
    is loaded at the first save (a read-only command never touches it); a key that cannot be
    loaded then is an InputError under the lock, before anything is written: a decision meant
    to be signed is never written unsigned."""
    spec = sign_spec(sign_key, config)
    if spec is None:
        return
    loaded: list[Signer] = []

    def sign(pin: Any, before: Any) -> Any:
        if not loaded:
            loaded.append(load_signer(spec))
        return loaded[0].sign_pin(pin, before)

    pins.sign = sign


# The policy on disk ---------------------------------------------------------------------------


@dataclass(slots=True)
class Trust:
    """A signing policy and its allowed-signers file, as read."""

    policy: SigningPolicy
    path: str
    signers: list[AllowedSigner]
    signers_bytes: bytes
    signers_path: str
    outside_repo: bool
    """Read from a path outside the pin file's repository (named by the user's or the CI's
    configuration): trusted as it is. Inside: it must carry its own signatures."""
    notes: list[str] = field(default_factory=list)


def find_policy(signing_policy: str | None, config: Config | None, pins_path: str) -> str | None:
    """Where the signing policy is: ``--signing-policy`` (``signing_policy``),
    ``MCP_REVIEW_SIGNING_POLICY``, the config's ``[signing] policy``, else
    ``mcp-review-signing.toml`` beside the pin file when it exists; None: no policy (nothing
    about signatures changes)."""
    p = signing_policy or os.environ.get("MCP_REVIEW_SIGNING_POLICY")
    if not p and config is not None:
        p = (getattr(config, "signing", None) or {}).get("policy")
    if p:
        return str(p)
    beside = os.path.join(os.path.dirname(os.path.abspath(pins_path)), POLICY_NAME)
    return beside if os.path.exists(beside) else None


def _repo_root(path: str) -> str | None:
    d = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def _under(path: str, root: str) -> bool:
    p = os.path.abspath(path)
    return any(p.startswith(r.rstrip(os.sep) + os.sep) for r in {root, os.path.realpath(root)})


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise InputError(f"cannot read the {what}: {e.strerror}", source=path) from None


def parse_trust(
    policy_bytes: bytes, signers_bytes: bytes, *, path: str, signers_path: str, outside: bool
) -> Trust:
    from mcp_review.engine.tomlread import loads

    try:
        doc = loads(policy_bytes.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise InputError(f"cannot parse the signing policy: {e}", source=path) from None
    pol = parse_policy(doc, source=path)
    try:
        text = signers_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the allowed-signers file is not UTF-8", source=signers_path) from None
    signers = parse_allowed_signers(text, source=signers_path)
    return Trust(pol, path, signers, signers_bytes, signers_path, outside)


def load_trust(path: str, pins_path: str) -> Trust:
    """The policy at ``path`` and its allowed-signers file; an InputError when either cannot
    be read or parsed (the proxy then refuses to start, saying why)."""
    raw = _read(path, "signing policy")
    from mcp_review.engine.tomlread import loads

    try:
        doc = loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise InputError(f"cannot parse the signing policy: {e}", source=path) from None
    name = doc.get("allowed_signers") if isinstance(doc, dict) else None
    if not isinstance(name, str) or not name:
        raise InputError("'allowed_signers' must name the allowed-signers file", source=path)
    spath = os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(name))
    sbytes = _read(spath, "allowed-signers file")
    root = _repo_root(pins_path)
    # Inside when either file is under the repository by its path or by where it resolves: a
    # link committed in the repository that points elsewhere is still the repository's word.
    outside = root is None or not any(
        _under(f, root) for f in (path, spath, os.path.realpath(path), os.path.realpath(spath))
    )
    return parse_trust(raw, sbytes, path=path, signers_path=spath, outside=outside)


def trust_problems(trust: Trust, base: Trust | None = None) -> list[str]:
    """Why the policy itself cannot be trusted (empty: it can). Outside the repository it is
    trusted as read. Inside, its signatures (namespace ``mcp-review-policy``) must come from
    keys allowed by the policy it replaces (``base``, the target branch's) when it changed,
    else by its own allowed-signers file; and a changed policy must name the base's as its
    ``previous``."""
    if trust.outside_repo:
        return []
    pol = trust.policy
    msg = policy_record(pol, trust.signers_bytes)
    changed = base is not None and policy_record(base.policy, base.signers_bytes) != msg
    judge = base if (base is not None and changed) else trust
    want = max(1, judge.policy.signers)
    out: list[str] = []
    if changed and base is not None and pol.previous != base.policy.digest:
        out.append(
            f"the policy changed but does not name the base policy ({base.policy.digest[:19]}…) "
            "as its previous"
        )
    if not pol.signatures:
        out.append(
            "the signing policy is unsigned (inside the repository it counts only when signed: "
            "mcp-review signing sign)"
        )
        return out
    checked = check_lines(pol.signatures, msg, POLICY_NAMESPACE, judge.signers, check, at=None)
    who = {s.principal for s in checked if s.principal}
    for s in checked:
        if s.problem == "bad signature":
            out.append(
                "a policy signature does not cover this policy and allowed-signers file "
                "(they changed since it was signed)"
            )
        elif s.problem:
            out.append(
                ("a policy signature by " + s.problem)
                if s.problem.startswith("unknown key")
                else s.problem
            )
    if len(who) < want:
        out.append(
            f"the policy is signed by {len(who)} allowed signer(s)"
            + (" of the base policy" if changed else "")
            + f", {want} wanted"
        )
    return out


def _set_previous(path: str, raw: str) -> str:
    """In a git repository, a policy (or allowed-signers file) changed since ``HEAD`` names
    the committed policy as its ``previous`` (so an older policy cannot be put back); the
    signatures over the old text go (they no longer cover it)."""
    import re

    if _repo_root(path) is None:
        return raw
    try:
        base_raw = git_show("HEAD", path)
        if base_raw is None:
            return raw
        trust = load_trust(path, path)
        b_signers = git_show("HEAD", trust.signers_path)
        base = parse_trust(
            base_raw, b_signers or b"", path=path, signers_path=trust.signers_path, outside=False
        )
    except InputError:
        return raw  # no commit yet, or the committed policy does not read: nothing to chain
    same = policy_record(base.policy, base.signers_bytes) == policy_record(
        trust.policy, trust.signers_bytes
    )
    if same or trust.policy.previous == base.policy.digest:
        return raw
    raw = re.sub(r"(?ms)^signatures\s*=\s*\[.*?^\]\n?", "", raw)
    line = f'previous = "{base.policy.digest}"\n'
    if re.search(r"(?m)^previous\s*=", raw):
        return re.sub(r"(?m)^previous\s*=.*\n?", line, raw)
    t = re.search(r"(?m)^\[", raw)
    at = t.start() if t else len(raw)
    return raw[:at] + ("" if raw[:at].endswith("\n") or not at else "\n") + line + raw[at:]


def sign_policy(path: str, signer: Signer) -> str:
    """Add ``signer``'s signature to the policy file at ``path`` (one line in its
    ``signatures``); returns the line. Chained to the committed policy first
    (:func:`_set_previous`)."""
    from mcp_review.store.files import atomic_write

    raw0 = _read(path, "signing policy").decode("utf-8")
    raw1 = _set_previous(path, raw0)
    if raw1 != raw0:
        atomic_write(path, raw1.encode("utf-8"))
    trust = load_trust(path, path)
    line = signer.sign(policy_record(trust.policy, trust.signers_bytes), POLICY_NAMESPACE)
    raw = raw1
    import re

    lines = [*trust.policy.signatures, line]
    block = "signatures = [\n" + "".join(f'    "{x}",\n' for x in lines) + "]\n"
    m = re.search(r"(?ms)^signatures\s*=\s*\[.*?^\]\n?", raw)
    if m:
        raw = raw[: m.start()] + block + raw[m.end() :]
    else:
        # Top-level key: before the first table.
        t = re.search(r"(?m)^\[", raw)
        at = t.start() if t else len(raw)
        raw = raw[:at] + ("" if raw[:at].endswith("\n") or not at else "\n") + block + raw[at:]
    atomic_write(path, raw.encode("utf-8"))
    return line


def git_show(rev: str, path: str) -> bytes | None:
    """``path`` as it was at git revision ``rev`` (None: not there)."""
    if not rev or rev.startswith("-") or any(c in rev for c in "\n\0"):
        raise InputError(f"--base {rev!r}: not a git revision")  # never an option to git
    d = os.path.dirname(os.path.abspath(path))
    try:
        out = subprocess.run(
            ["git", "-C", d, "show", f"{rev}:./{os.path.basename(path)}"],
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise InputError(f"--base: cannot run git: {e}") from None
    if out.returncode != 0:
        err = out.stderr.decode("utf-8", "replace")
        if "does not exist" in err or "exists on disk, but not in" in err:
            return None
        raise InputError(f"--base {rev}: git show failed: {err.strip()[:300]}")
    return out.stdout


# Verifying a pin file -------------------------------------------------------------------------


@dataclass(slots=True)
class Verdict:
    """A pin file's signed decisions under a policy."""

    failures: list[Any]
    """engine.signed.Failure: each decision that does not verify, with its reasons."""
    good: int
    policy_problems: list[str]
    """Why the policy itself is not trusted (then no decision counts as verified)."""

    @property
    def ok(self) -> bool:
        return not self.failures and not self.policy_problems


def vet(
    pins: PinFile,
    trust: Trust,
    *,
    base: PinFile | None = None,
    base_trust: Trust | None = None,
    audit_path: str | None = None,
) -> Verdict:
    """Every decision of ``pins`` and the policy itself (``base``/``base_trust``: the pin file
    and policy the change is made on, e.g. the target branch's). ``audit_path``: the audit log,
    whose digests name an edited digest in a failure's reason."""
    from mcp_review.engine.signed import verify_decisions

    problems = trust_problems(trust, base_trust)
    digests: dict[tuple[str, str, str], list[str]] = {}
    if audit_path is not None:
        from mcp_review.store import audit

        try:
            for r in audit.read(audit_path):
                d = r.get("new_digest")
                if r.get("event") == "decision" and isinstance(d, str):
                    name = str(r.get("tool") or "")
                    if not name and r.get("subject") in SURFACE_KINDS:  # engine.signed keys it so
                        name = f"{r.get('subject')} {r.get('name')}"
                    k = (str(r.get("server")), str(r.get("principal")), name)
                    digests.setdefault(k, []).append(d)
        except (OSError, ValueError):
            pass  # only a better reason is lost
    failures, good = verify_decisions(
        pins, trust.policy, trust.signers, check, base=base, digests=digests
    )
    return Verdict(failures, good, problems)


def withhold_unsigned(policy: str, pins_path: str) -> Any:
    """The proxy's ``--require-signed``: a callable given each pin file read, which sets aside
    every decision that does not verify (its tool, prompt, resource or template is then withheld
    with the reason, as a pin that does not verify is). The policy and the allowed-signers file are read now (an
    InputError when they cannot be: the proxy refuses to start) and again at each pin file
    read (one that no longer reads withholds everything: the pin file check fails)."""
    load_trust(policy, pins_path)

    def run(pins: PinFile) -> None:
        trust = load_trust(policy, pins_path)
        v = vet(pins, trust)
        failed = "signed-decision check failed: "
        bad: list[tuple[tuple[str, str, str], str]] = [
            (f.key, failed + "; ".join(f.reasons)) for f in v.failures if f.surface is None
        ]
        surfaces: list[tuple[tuple[str, str, str, str], str]] = [
            (f.surface, failed + "; ".join(f.reasons)) for f in v.failures if f.surface is not None
        ]
        if v.policy_problems:
            why = "the signing policy is not trusted: " + "; ".join(v.policy_problems)
            bad = [(k, why) for k in [*pins.pins, *((s, p, "") for s, p in pins.instructions)]]
            surfaces = [(sk, why) for sk in pins.surfaces]
        for key, why in bad:
            if key[2]:
                pin = pins.pins.pop(key, None)
                if pin is not None:
                    pins.unverified[key] = (pin, why)
            else:
                ipin = pins.instructions.pop(key[:2], None)
                if ipin is not None:
                    pins.unverified_instructions[key[:2]] = (ipin, why)
        # A prompt, resource or template whose decision does not verify is withheld as one
        # whose pin does not verify (services/proxy/surfaces_gate.py).
        for skey, why in surfaces:
            spin = pins.surfaces.pop(skey, None)
            if spin is not None:
                pins.unverified_surfaces[skey] = (spin, why)

    return run


class Resolved(Protocol):
    """What :func:`require_signed` reads of a command's resolved inputs
    (``services.inputs.Inputs``, which imports this module: named by shape, not by import)."""

    @property
    def pins_path(self) -> str: ...

    @property
    def pins(self) -> PinFile: ...

    @property
    def config(self) -> Config | None: ...


def require_signed(
    inp: Resolved, say: Callable[[str], None], *, signing_policy: str | None, base_rev: str | None
) -> int:
    """``--require-signed`` for a command that has resolved its inputs: every decision and the
    policy checked, each failure on stderr (names made safe), exit 1 when any; an InputError
    (exit 2) when there is no policy or it cannot be read."""
    import sys

    from mcp_review.engine.hidden import safe_text
    from mcp_review.store.audit import audit_path_for

    path, pins = inp.pins_path, inp.pins
    where = find_policy(signing_policy, inp.config, path)
    if where is None:
        raise InputError(
            "--require-signed: no signing policy (--signing-policy, $MCP_REVIEW_SIGNING_POLICY, "
            f"the config's [signing] policy, or {POLICY_NAME} beside the pin file)"
        )
    trust = load_trust(where, path)
    base = base_trust = None
    if base_rev is not None:
        base, base_trust = _base(base_rev, path, trust)
    v = vet(pins, trust, base=base, base_trust=base_trust, audit_path=audit_path_for(path))
    for p in v.policy_problems:
        print(f"{where}: signing policy not trusted: {safe_text(p)}", file=sys.stderr)
    for f in v.failures:
        print(f"{path}: {safe_text(f.label)}: {safe_text('; '.join(f.reasons))}", file=sys.stderr)
    if v.ok:
        outside = " (read from outside the repository)" if trust.outside_repo else ""
        say(f"{path}: ok: {v.good} decision(s) verify under {where}{outside}")
        if base is None and not trust.outside_repo:
            say(
                f"{path}: note: no --base: a change to the policy was checked only against "
                "itself, and no decision against the one it replaced"
            )
        return 0
    print(
        f"{path}: {len(v.failures)} decision(s) do not verify under the signing policy"
        + (", and the policy itself is not trusted" if v.policy_problems else ""),
        file=sys.stderr,
    )
    return 1


def _base(rev: str, path: str, trust: Trust) -> tuple[Any, Trust | None]:
    """The pin file and the signing policy at git revision ``rev``."""
    from mcp_review.engine.pinread import parse_pins

    raw = git_show(rev, path)
    base = parse_pins(raw, source=f"{rev}:{path}", allow_unverified=True) if raw else None
    pol = git_show(rev, trust.path)
    signers = git_show(rev, trust.signers_path)
    base_trust = None
    if pol is not None and signers is not None:
        base_trust = parse_trust(
            pol,
            signers,
            path=f"{rev}:{trust.path}",
            signers_path=f"{rev}:{trust.signers_path}",
            outside=False,
        )
    return base, base_trust
