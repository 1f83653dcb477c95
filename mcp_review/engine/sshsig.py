"""The SSH signature format (OpenSSH's PROTOCOL.sshsig, what ``ssh-keygen -Y sign`` writes) and
git's ``allowed_signers`` file, parsed and built as bytes: no file, no key, no cryptography
(the checks themselves are :mod:`mcp_review.services.signing`'s, with ``cryptography``).

An SSHSIG blob::

    byte[6] "SSHSIG"  uint32 1  string publickey  string namespace  string reserved
    string hash_algorithm  string signature

and what the key signs (so a signature for one namespace never verifies in another)::

    byte[6] "SSHSIG"  string namespace  string reserved  string hash_algorithm  string H(message)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from dataclasses import dataclass

from mcp_review.engine.errors import InputError

MAGIC = b"SSHSIG"
SIG_VERSION = 1
HASHES = ("sha256", "sha512")
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
KEY_TYPES = (
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "ssh-rsa",
)
"""Public key types mcp-review verifies (certificates and security-key types are not)."""


class Reader:
    """SSH wire-format fields from bytes (RFC 4251 ``uint32``, ``string``, ``mpint``)."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def u32(self) -> int:
        if self.pos + 4 > len(self.data):
            raise ValueError("truncated")
        (n,) = struct.unpack_from(">I", self.data, self.pos)
        self.pos += 4
        return int(n)

    def string(self) -> bytes:
        n = self.u32()
        if self.pos + n > len(self.data):
            raise ValueError("truncated")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def text(self) -> str:
        return self.string().decode("utf-8")

    def mpint(self) -> int:
        return int.from_bytes(self.string(), "big", signed=True)

    def done(self) -> bool:
        return self.pos == len(self.data)


def string(b: bytes | str) -> bytes:
    raw = b.encode("utf-8") if isinstance(b, str) else b
    return struct.pack(">I", len(raw)) + raw


def mpint(n: int) -> bytes:
    if n == 0:
        return string(b"")
    raw = n.to_bytes((n.bit_length() + 8) // 8, "big", signed=True)
    return string(raw)


@dataclass(frozen=True, slots=True)
class SshSig:
    """One parsed SSHSIG blob."""

    public_key: bytes
    """The signer's public key blob (``string keytype, …``)."""
    namespace: str
    hash_alg: str
    sig_type: str
    """The signature's algorithm (``ssh-ed25519``, ``ecdsa-sha2-nistp256``, ``rsa-sha2-512``)."""
    sig: bytes
    """The signature proper (for ECDSA: ``mpint r, mpint s``)."""
    reserved: bytes = b""

    @property
    def key_type(self) -> str:
        return Reader(self.public_key).text()


def parse_sshsig(blob: bytes) -> SshSig:
    """An SSHSIG blob; ValueError saying what is wrong."""
    if not blob.startswith(MAGIC):
        raise ValueError("not an SSH signature (no SSHSIG preamble)")
    r = Reader(blob[len(MAGIC) :])
    try:
        version = r.u32()
        if version != SIG_VERSION:
            raise ValueError(f"SSH signature version {version} (only {SIG_VERSION} is known)")
        public_key = r.string()
        namespace = r.text()
        reserved = r.string()
        hash_alg = r.text()
        inner = Reader(r.string())
        sig_type = inner.text()
        sig = inner.string()
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"a malformed SSH signature ({e})") from None
    if not r.done() or not inner.done():
        raise ValueError("a malformed SSH signature (trailing bytes)")
    if hash_alg not in HASHES:
        raise ValueError(f"SSH signature hash {hash_alg!r} (expected sha256 or sha512)")
    return SshSig(public_key, namespace, hash_alg, sig_type, sig, reserved)


def build_sshsig(public_key: bytes, namespace: str, hash_alg: str, signature: bytes) -> bytes:
    """An SSHSIG blob from its parts (``signature``: the ``string type, string sig`` blob an
    SSH key or agent returns)."""
    return (
        MAGIC
        + struct.pack(">I", SIG_VERSION)
        + string(public_key)
        + string(namespace)
        + string(b"")
        + string(hash_alg)
        + string(signature)
    )


def signed_data(namespace: str, hash_alg: str, message: bytes) -> bytes:
    """What the key signs for ``message`` in ``namespace`` (PROTOCOL.sshsig)."""
    h = hashlib.new(hash_alg, message).digest()
    return MAGIC + string(namespace) + string(b"") + string(hash_alg) + string(h)


def armor(blob: bytes) -> str:
    """The armored text ``ssh-keygen -Y sign`` writes (70 base64 characters a line)."""
    b64 = base64.b64encode(blob).decode("ascii")
    lines = [b64[i : i + 70] for i in range(0, len(b64), 70)]
    return BEGIN + "\n" + "\n".join(lines) + "\n" + END + "\n"


def dearmor(text: str) -> bytes:
    """The blob of an armored signature, or of its one-line base64 form (the pin file's)."""
    s = text.strip()
    if s.startswith(BEGIN):
        if not s.endswith(END):
            raise ValueError("an armored SSH signature without its END line")
        s = s[len(BEGIN) : -len(END)]
    try:
        return base64.b64decode("".join(s.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not base64") from None


def one_line(blob: bytes) -> str:
    """The pin file's form of a signature: the armor's base64 on one line."""
    return base64.b64encode(blob).decode("ascii")


def fingerprint(public_key: bytes) -> str:
    """``SHA256:…`` as ``ssh-keygen -l`` prints it."""
    d = hashlib.sha256(public_key).digest()
    return "SHA256:" + base64.b64encode(d).decode("ascii").rstrip("=")


def public_key_line(line: str) -> tuple[str, bytes]:
    """(key type, key blob) of an OpenSSH public key line (``ssh-ed25519 AAAA… comment``)."""
    parts = line.split()
    if len(parts) < 2:
        raise ValueError("not an OpenSSH public key line")
    try:
        blob = base64.b64decode(parts[1], validate=True)
        kind = Reader(blob).text()
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ValueError("not an OpenSSH public key (bad base64)") from None
    if kind != parts[0]:
        raise ValueError(f"key type {parts[0]!r} does not match the key ({kind!r})")
    return kind, blob


# allowed_signers (ssh-keygen(1) "ALLOWED SIGNERS", git's gpg.ssh.allowedSignersFile) ------------


@dataclass(frozen=True, slots=True)
class AllowedSigner:
    """One line: who (principal patterns) may sign with which key, for which namespaces, when."""

    principals: tuple[str, ...]
    key_type: str
    key: bytes
    line: int
    namespaces: tuple[str, ...] | None = None
    valid_after: str | None = None
    """``YYYYMMDDHHMMSS`` (UTC), compared with a decision's time."""
    valid_before: str | None = None
    cert_authority: bool = False

    def allows(self, principal_or_none: str | None, namespace: str, at: str | None) -> bool:
        """This line lets its key sign in ``namespace`` at ``at`` (an ISO time; None: no
        time check)."""
        if self.cert_authority:
            return False  # certificates are not verified: such a line allows nothing here
        if self.namespaces is not None and not any(_match(p, namespace) for p in self.namespaces):
            return False
        if at is not None and (self.valid_after is not None or self.valid_before is not None):
            t = re.sub(r"\D", "", at)[:14].ljust(14, "0")
            if self.valid_after is not None and t < self.valid_after:
                return False
            if self.valid_before is not None and t >= self.valid_before:
                return False
        return principal_or_none is None or any(
            _match(p, principal_or_none) for p in self.principals
        )


def _match(pattern: str, s: str) -> bool:
    """OpenSSH's ``match_pattern_list`` for one pattern list (``*``, ``?``, ``!negation``)."""
    ok = False
    for p in pattern.split(","):
        neg = p.startswith("!")
        p = p[1:] if neg else p
        rx = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in p)
        if re.fullmatch(rx, s, flags=re.S):
            if neg:
                return False
            ok = True
    return ok


def _token(s: str, i: int, *, keep: bool = False) -> tuple[str, int]:
    """One whitespace-separated token of a line, double quotes grouping (dropped unless
    ``keep``: the options' own splitting needs them)."""
    while i < len(s) and s[i] in " \t":
        i += 1
    out = []
    quoted = False
    while i < len(s):
        c = s[i]
        if c == '"':
            quoted = not quoted
            if keep:
                out.append(c)
        elif c in " \t" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    if quoted:
        raise ValueError("an unterminated quote")
    return "".join(out), i


def _when(v: str) -> str:
    digits = v.rstrip("Zz")
    if not digits.isdigit() or len(digits) not in (8, 12, 14):
        raise ValueError(f"a time {v!r} (expected YYYYMMDD[HHMM[SS]][Z])")
    return digits.ljust(14, "0")


def parse_allowed_signers(text: str, *, source: str) -> list[AllowedSigner]:
    """Every line of an allowed-signers file; an InputError naming the line on a bad one."""
    out: list[AllowedSigner] = []
    for n, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        try:
            principals, i = _token(s, 0)
            opt_or_type, j = _token(s, i, keep=True)
            opts: dict[str, str | None] = {}
            if opt_or_type.replace('"', "") not in KEY_TYPES and not opt_or_type.startswith(
                ("ssh-", "ecdsa-", "sk-")
            ):
                for o in _split_opts(opt_or_type):
                    k, _, v = o.partition("=")
                    opts[k.lower()] = v if _ else None
                key_type, j = _token(s, j)
            else:
                key_type = opt_or_type.replace('"', "")
            b64, _end = _token(s, j)
            kind, blob = public_key_line(f"{key_type} {b64}")
            for k in opts:
                if k not in ("cert-authority", "namespaces", "valid-after", "valid-before"):
                    raise ValueError(f"unknown option {k!r}")
            ns = opts.get("namespaces")
            after, before = opts.get("valid-after"), opts.get("valid-before")
            out.append(
                AllowedSigner(
                    principals=tuple(p for p in principals.split(",") if p),
                    key_type=kind,
                    key=blob,
                    line=n,
                    namespaces=tuple(ns.split(",")) if ns is not None else None,
                    valid_after=_when(after) if after else None,
                    valid_before=_when(before) if before else None,
                    cert_authority="cert-authority" in opts,
                )
            )
        except ValueError as e:
            raise InputError(f"not an allowed-signers line: {e}", source=source, line=n) from None
    return out


def _split_opts(s: str) -> list[str]:
    out: list[str] = []
    cur: list[str] = []
    quoted = False
    for c in s:
        if c == '"':
            quoted = not quoted
        elif c == "," and not quoted:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(c)
    out.append("".join(cur))
    return [o.replace('"', "") for o in out if o]
