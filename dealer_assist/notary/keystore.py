"""Where the notary keeps each table's Ed25519 key: a file in its state folder (the default) or
a PKCS#11 token (SoftHSM2, a hardware security module) that signs with ``CKM_EDDSA`` and never
lets the private key out.

The notary sees a key only as :class:`TableKey` (sign bytes, give the 32-byte public key), so
both stores give the same signatures of the same messages and the same public key for
enrolment (``python -m dealer_assist.notary key``). The token's store needs the optional extra
``pip install dealer-assist[hsm]`` (python-pkcs11); docs/AUDIT.md "The key in a PKCS#11 token".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_assist.errors import ConfigError, JournalError
from dealer_assist.notary.state import NotaryState

#: The token's key label of a table when none is given (``{table}``: the table id).
DEFAULT_LABEL = "dealer-assist-{table}"
#: The DER object identifier of Ed25519 (RFC 8410), the token key's ``CKA_EC_PARAMS`` curve.
ED25519_OID = "1.3.101.112"


class TableKey(Protocol):
    """One table's signing key, wherever it is kept."""

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data``.

        Raises:
            JournalError: the key's store cannot sign (the token gone, logged out).
        """
        ...

    def public_raw(self) -> bytes:
        """The 32-byte raw Ed25519 public key (what ``floor enrol`` pins)."""
        ...


class KeyStore(Protocol):
    """The tables' keys: found by table id, made when a table has none."""

    def load(self, table: str) -> TableKey | None:
        """The key of ``table``, ``None`` when it has none yet."""
        ...

    def new(self, table: str) -> TableKey:
        """A new key for ``table`` (never over an existing one)."""
        ...


@dataclass(frozen=True)
class FileKey:
    """A key read from the notary's state folder (``keys/<table>.key``)."""

    key: Ed25519PrivateKey

    def sign(self, data: bytes) -> bytes:
        """The Ed25519 signature of ``data`` (64 bytes)."""
        return self.key.sign(data)

    def public_raw(self) -> bytes:
        """The 32-byte raw public key."""
        return self.key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )


class FileKeyStore:
    """The keys as PEM files of a :class:`NotaryState` (the default store)."""

    def __init__(self, state: NotaryState) -> None:
        self.state = state

    def load(self, table: str) -> TableKey | None:
        """The key file of ``table``, ``None`` when absent (JournalError when unreadable)."""
        key = self.state.load_key(table)
        return None if key is None else FileKey(key)

    def new(self, table: str) -> TableKey:
        """A new key file for ``table``, written exclusively."""
        return FileKey(self.state.new_key(table))


@dataclass(frozen=True)
class Pkcs11Settings:
    """The token holding the keys: ``module`` the PKCS#11 library (``.so``), ``token`` its
    label, ``key_label`` each table's key label (``{table}`` replaced by the table id), the
    user PIN read from ``pin_file`` (first line) or the environment variable ``pin_env``."""

    module: Path
    token: str
    key_label: str = DEFAULT_LABEL
    pin_file: Path | None = None
    pin_env: str | None = None

    def pin(self) -> str:
        """The user PIN.

        Raises:
            ConfigError: neither or both of ``pin_file`` and ``pin_env``, the file unreadable,
                the variable unset, or an empty PIN (names which).
        """
        if (self.pin_file is None) == (self.pin_env is None):
            raise ConfigError("pkcs11: give the PIN by exactly one of a file or an env variable")
        if self.pin_file is not None:
            try:
                lines = self.pin_file.read_text(encoding="utf-8").splitlines()
            except OSError as e:
                raise ConfigError(
                    f"pkcs11: cannot read the PIN file {self.pin_file}: {e.strerror}"
                ) from e
            pin, where = (lines[0].strip() if lines else ""), str(self.pin_file)
        else:
            pin, where = os.environ.get(str(self.pin_env), "").strip(), f"${self.pin_env}"
        if not pin:
            raise ConfigError(f"pkcs11: no PIN in {where}")
        return pin


@dataclass(frozen=True)
class Pkcs11Key:
    """A private key object in the token: signing is done by the token (``CKM_EDDSA``)."""

    handle: Any  # pkcs11.PrivateKey
    raw: bytes
    label: str

    def sign(self, data: bytes) -> bytes:
        """The token's Ed25519 signature of ``data`` (64 bytes)."""
        import pkcs11

        try:
            signature = bytes(self.handle.sign(data, mechanism=pkcs11.Mechanism.EDDSA))
        except pkcs11.PKCS11Error as e:
            raise JournalError(
                f"notary: the token cannot sign with {self.label}: {type(e).__name__} {e}"
            ) from e
        if len(signature) != 64:
            raise JournalError(f"notary: the token gave a {len(signature)}-byte signature")
        return signature

    def public_raw(self) -> bytes:
        """The 32-byte raw public key."""
        return self.raw


class Pkcs11KeyStore:
    """The tables' keys in a PKCS#11 token, one logged-in session kept open (the notary's lock
    serializes its use). A new key is made in the token (sensitive, never extractable).

    Raises:
        ConfigError: python-pkcs11 not installed, the module not loadable, no token with that
            label, or a wrong PIN (names which).
    """

    def __init__(self, settings: Pkcs11Settings) -> None:
        try:
            import pkcs11
        except ImportError as e:
            raise ConfigError(
                "pkcs11: python-pkcs11 is not installed (pip install 'dealer-assist[hsm]')"
            ) from e
        self.settings = settings
        pin = settings.pin()
        try:
            lib = pkcs11.lib(str(settings.module))
        except (pkcs11.PKCS11Error, RuntimeError, OSError) as e:
            raise ConfigError(f"pkcs11: cannot load the module {settings.module}: {e}") from e
        try:
            token = lib.get_token(token_label=settings.token)
            self._session = token.open(user_pin=pin, rw=True)
        except pkcs11.NoSuchToken as e:
            raise ConfigError(f"pkcs11: no token labelled {settings.token!r}") from e
        except pkcs11.PinIncorrect as e:
            raise ConfigError(f"pkcs11: the PIN of token {settings.token!r} is wrong") from e
        except pkcs11.PKCS11Error as e:
            raise ConfigError(
                f"pkcs11: cannot open token {settings.token!r}: {type(e).__name__} {e}"
            ) from e

    def _label(self, table: str) -> str:
        return self.settings.key_label.replace("{table}", table)

    def load(self, table: str) -> TableKey | None:
        """The token's key labelled for ``table``, ``None`` when the token has none."""
        import pkcs11
        from pkcs11 import Attribute, ObjectClass

        label = self._label(table)
        try:
            priv = self._session.get_key(object_class=ObjectClass.PRIVATE_KEY, label=label)
            pub = self._session.get_key(object_class=ObjectClass.PUBLIC_KEY, label=label)
            point = bytes(pub[Attribute.EC_POINT])
        except pkcs11.NoSuchKey:
            return None
        except pkcs11.MultipleObjectsReturned as e:
            raise JournalError(f"notary: the token has several keys labelled {label!r}") from e
        except pkcs11.PKCS11Error as e:
            raise JournalError(
                f"notary: cannot read key {label!r} of the token: {type(e).__name__} {e}"
            ) from e
        return Pkcs11Key(priv, _raw_point(point, label), label)

    def new(self, table: str) -> TableKey:
        """A new Ed25519 key pair made in the token for ``table``."""
        import pkcs11
        from pkcs11 import Attribute, KeyType, Mechanism
        from pkcs11.util.ec import encode_named_curve_parameters

        label = self._label(table)
        try:
            params = self._session.create_domain_parameters(
                KeyType.EC_EDWARDS,
                {Attribute.EC_PARAMS: encode_named_curve_parameters(ED25519_OID)},
                local=True,
            )
            pub, priv = params.generate_keypair(
                mechanism=Mechanism.EC_EDWARDS_KEY_PAIR_GEN,
                store=True,
                label=label,
                private_template={Attribute.SENSITIVE: True, Attribute.EXTRACTABLE: False},
            )
            point = bytes(pub[Attribute.EC_POINT])
        except pkcs11.PKCS11Error as e:
            raise JournalError(
                f"notary: the token cannot make key {label!r}: {type(e).__name__} {e}"
            ) from e
        return Pkcs11Key(priv, _raw_point(point, label), label)


def _raw_point(point: bytes, label: str) -> bytes:
    """The 32 bytes of ``CKA_EC_POINT``: a DER OCTET STRING (``04 20`` + 32) or, from some
    tokens, the bare 32 bytes."""
    if len(point) == 34 and point[:2] == b"\x04\x20":
        return point[2:]
    if len(point) == 32:
        return point
    raise JournalError(f"notary: key {label!r} of the token is not an Ed25519 key")
