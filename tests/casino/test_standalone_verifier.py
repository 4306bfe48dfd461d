"""The standalone verifier checks Ed25519 with the standard library only: its few lines of RFC
8032 agree with the ``cryptography`` package on valid, altered and foreign signatures, and it
reads the public key from its PEM as ``cryptography`` writes it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from casino import seal as rules

VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_events.py"


def _verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_events", VERIFIER)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_its_ed25519_agrees_with_cryptography() -> None:
    verifier = _verifier()
    for n in range(12):
        key = Ed25519PrivateKey.generate()
        raw = verifier.load_public_key(rules.public_pem(key).encode("ascii"))
        assert raw == key.public_key().public_bytes_raw()
        assert verifier.key_id(raw) == rules.key_id(key.public_key())
        message = f"the seal of day {n}: é".encode() * (n + 1)
        signature = key.sign(message)
        assert verifier.ed25519_verify(raw, message, signature)
        assert not verifier.ed25519_verify(raw, message + b".", signature)
        flipped = bytes([signature[n] ^ 1]) if n < 64 else b""
        assert not verifier.ed25519_verify(raw, message, signature[:n] + flipped
                                           + signature[n + 1:])
        stranger = Ed25519PrivateKey.generate().public_key().public_bytes_raw()
        assert not verifier.ed25519_verify(stranger, message, signature)
    # RFC 8032, section 7.1, test 1: the empty message
    public = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    signature = bytes.fromhex(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e"
        "39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
    assert verifier.ed25519_verify(public, b"", signature)
    assert not verifier.ed25519_verify(public, b"", signature[:32] + bytes(32))


def test_it_imports_nothing_beyond_the_standard_library() -> None:
    """Run without site-packages (``-S``): it still checks a signature."""
    key = Ed25519PrivateKey.generate()
    program = (f"import sys; sys.path.insert(0, {str(VERIFIER.parent)!r}); import verify_events as v;"
               f"raw = v.load_public_key({rules.public_pem(key)!r}.encode());"
               f"print(v.ed25519_verify(raw, b'x', bytes.fromhex({key.sign(b'x').hex()!r})))")
    done = subprocess.run([sys.executable, "-S", "-c", program], capture_output=True, text=True,
                          check=False)
    assert done.stdout == "True\n", done.stderr
    assert "cryptography" not in VERIFIER.read_text()
