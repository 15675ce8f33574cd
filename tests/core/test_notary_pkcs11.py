"""The notary with its key in a PKCS#11 token (SoftHSM2): the token signs (CKM_EDDSA), the
private key never leaves it, and the public key exported for enrolment verifies the journal
(docs/AUDIT.md "The key in a PKCS#11 token")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pkcs11 = pytest.importorskip("pkcs11")

from cryptography.exceptions import InvalidSignature  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey  # noqa: E402

from dealer_assist.notary.client import NotaryClient  # noqa: E402
from dealer_assist.notary.protocol import record_message  # noqa: E402
from dealer_assist.storage import Journal  # noqa: E402
from dealer_assist.storage.signing import KeyRing, public_key_from_hex  # noqa: E402
from tests.fixtures.journal_fixtures import make_entry  # noqa: E402
from tests.fixtures.notary_fixtures import REPO, NotaryProcess  # noqa: E402

pytestmark = pytest.mark.integration

MODULES = ("/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so")
MODULE = next((m for m in MODULES if os.path.exists(m)), None)
TABLE = "UTH-7"
PIN = "246810"


@dataclass
class Token:
    folder: Path
    env: dict[str, str]
    pin_file: Path

    def options(self, label: str = "dealer-assist-{table}") -> list[str]:
        return [
            "--key-store",
            "pkcs11",
            "--pkcs11-module",
            str(MODULE),
            "--pkcs11-token",
            "notary",
            "--pkcs11-key-label",
            label,
            "--pkcs11-pin-file",
            str(self.pin_file),
        ]


@pytest.fixture(name="token")
def token_fixture() -> Iterator[Token]:
    if MODULE is None or shutil.which("softhsm2-util") is None:
        pytest.skip("SoftHSM2 is not installed (apt-get install softhsm2)")
    folder = Path(tempfile.mkdtemp(prefix="hsm", dir="/tmp"))  # short: the socket lives here
    (folder / "tokens").mkdir()
    conf = folder / "softhsm2.conf"
    conf.write_text(
        f"directories.tokendir = {folder / 'tokens'}\nobjectstore.backend = file\n"
        "log.level = ERROR\n"
    )
    env = {**os.environ, "SOFTHSM2_CONF": str(conf)}
    subprocess.run(
        [
            "softhsm2-util",
            "--init-token",
            "--free",
            "--label",
            "notary",
            "--so-pin",
            "13579111",
            "--pin",
            PIN,
        ],
        env=env,
        check=True,
        capture_output=True,
    )
    pin_file = folder / "pin"
    pin_file.write_text(PIN + "\n")
    try:
        yield Token(folder, env, pin_file)
    finally:
        shutil.rmtree(folder)


#: run in a child process: SoftHSM2 reads SOFTHSM2_CONF once per process, and each test has
#: its own token folder
MAKE_KEY = """
import sys, pkcs11
from pkcs11 import Attribute, KeyType, Mechanism
from pkcs11.util.ec import encode_named_curve_parameters
module, pin, label = sys.argv[1:]
with pkcs11.lib(module).get_token(token_label="notary").open(user_pin=pin, rw=True) as s:
    params = s.create_domain_parameters(KeyType.EC_EDWARDS,
        {Attribute.EC_PARAMS: encode_named_curve_parameters("1.3.101.112")}, local=True)
    pub, _ = params.generate_keypair(mechanism=Mechanism.EC_EDWARDS_KEY_PAIR_GEN, store=True,
                                     label=label)
    print(bytes(pub[Attribute.EC_POINT])[-32:].hex())
"""
PRIVATE_FLAGS = """
import sys, pkcs11
from pkcs11 import Attribute, ObjectClass
module, pin, label = sys.argv[1:]
with pkcs11.lib(module).get_token(token_label="notary").open(user_pin=pin) as s:
    k = s.get_key(object_class=ObjectClass.PRIVATE_KEY, label=label)
    print(bool(k[Attribute.SENSITIVE]), bool(k[Attribute.EXTRACTABLE]))
"""


def in_token(token: Token, script: str, label: str) -> str:
    """``script`` run on the token in a child process; what it printed."""
    out = subprocess.run(
        [sys.executable, "-c", script, str(MODULE), PIN, label],
        env=token.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def exported_key(token: Token, state: Path, label: str) -> str:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "dealer_assist.notary",
            "key",
            "--state",
            str(state),
            "--table",
            TABLE,
            *token.options(label),
        ],
        cwd=REPO,
        env=token.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def test_the_token_signs_and_its_public_key_verifies(tmp_path: Path, token: Token) -> None:
    public = bytes.fromhex(in_token(token, MAKE_KEY, f"dealer-assist-{TABLE}"))
    state = token.folder / "state"
    assert exported_key(token, state, "dealer-assist-{table}") == public.hex()
    notary = NotaryProcess(state, token.folder / "n.sock", token.options(), token.env)
    notary.start()
    try:
        c = NotaryClient(notary.socket, TABLE, timeout=5.0)
        with Journal(str(tmp_path / "j.db"), notary=c) as j:
            stored = [j.append_hand(make_entry(i, hand_uid=f"h{i}")) for i in range(1, 3)]
        head = c.head()
    finally:
        notary.stop()
    assert head.public_key == public.hex()
    key = Ed25519PublicKey.from_public_bytes(public)
    for entry in stored:
        assert entry.signature is not None
        key.verify(bytes.fromhex(entry.signature), record_message(entry.hash))
    with pytest.raises(InvalidSignature):
        key.verify(bytes.fromhex(stored[0].signature or ""), record_message(stored[1].hash))
    with Journal(str(tmp_path / "j.db"), create=False, read_only=True) as j:
        result = j.verify(
            KeyRing(any_table=public_key_from_hex(head.public_key, "t")), require_signed=True
        )
    assert result.ok and result.signatures_checked == 2, result.reason
    assert not list(state.rglob("*.key"))


def test_a_table_without_a_key_gets_one_made_in_the_token(token: Token) -> None:
    state = token.folder / "state"
    public = exported_key(token, state, "da-{table}")
    assert len(public) == 64
    assert exported_key(token, state, "da-{table}") == public  # found again, not made again
    assert not list(state.rglob("*.key"))  # no key file: the key is the token's
    # made by the token: sensitive, never extractable
    assert in_token(token, PRIVATE_FLAGS, f"da-{TABLE}") == "True False"


def test_a_wrong_pin_stops_the_notary_with_a_sentence(token: Token) -> None:
    token.pin_file.write_text("000000\n")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "dealer_assist.notary",
            "serve",
            "--state",
            str(token.folder / "state"),
            "--socket",
            str(token.folder / "n.sock"),
            *token.options(),
        ],
        cwd=REPO,
        env=token.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "PIN of token 'notary' is wrong" in out.stderr
