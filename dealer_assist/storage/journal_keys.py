"""The signing keys of one journal (docs/AUDIT.md): where they are and who signs each table.

:class:`JournalKeys` owns what the journal knows of its keys: the key folder beside it (a
SQLite journal's ``keys/``, or the folder given; none for a PostgreSQL journal without one, nor
for a notary's journal, whose key is the notary's), each table's signer (decided once per
journal object, inside the first append's write transaction so two writers decide alike), and
the notary's public key once the notary has one.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Connection

from dealer_assist.notary.client import NotaryClient
from dealer_assist.storage.signing import (
    KeyRing,
    KeyStore,
    PublicKey,
    Signer,
    default_keys_folder,
    table_signer,
)


class JournalKeys:
    """A journal's keys (see the module docstring).

    Args:
        keys: the key folder (default: ``keys/`` beside a SQLite journal's file).
        key_file: one table's key file, instead of the folder's.
        notary: the table's signer service; with it no key is read or made here.

    Attributes:
        store: the key folder once :meth:`open` found it (None: nothing is signed here).
        notary_key: the notary's public key, once known.
    """

    def __init__(
        self, keys: str | Path | None, key_file: str | Path | None, notary: NotaryClient | None
    ) -> None:
        self._keys = keys
        self._key_file = key_file
        self._notary = notary
        self.store: KeyStore | None = None
        self.notary_key: PublicKey | None = None
        self._signers: dict[str, Signer | None] = {}

    def open(self, sqlite_file: str | None) -> None:
        """Find the key folder of a journal whose SQLite file is ``sqlite_file`` (None: not a
        SQLite file)."""
        self.store = None
        if self._notary is not None:
            return  # the key is the notary's, never beside the journal
        if self._keys is None and self._key_file is None and sqlite_file is None:
            return
        folder = self._keys or default_keys_folder(Path(sqlite_file or "."))
        self.store = KeyStore(folder, self._key_file)

    def signer(self, conn: Connection, table_id: str) -> Signer | None:
        """The signer of ``table_id``'s entries, decided at its first call (``conn``: the
        append's write transaction); None: its entries stay unsigned.

        Raises:
            JournalError: a table with signed entries whose key is missing or another.
        """
        if table_id not in self._signers:
            store = self.store
            self._signers[table_id] = None if store is None else table_signer(conn, store, table_id)
        return self._signers[table_id]

    def local(self) -> KeyRing | None:
        """The keys a verify of this journal trusts: the notary's key with a notary (once
        known), else the key folder as a (not pinned) :class:`KeyRing`; None when neither."""
        if self._notary is not None:
            return None if self.notary_key is None else KeyRing(any_table=self.notary_key)
        return None if self.store is None else KeyRing(local=self.store)

    def public_key(self, table_id: str) -> PublicKey | None:
        """``table_id``'s public key from the key folder (what the floor pins), or None.
        Raises JournalError for a key file that holds no key."""
        return None if self.store is None else self.store.public_key(table_id)
