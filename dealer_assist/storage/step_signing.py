"""Pending steps signed by the table's signer (notary), so a step changed in the step log after
it was written (a card, a stake) is caught when the table resumes, and the hand voided.

Each step's digest (:func:`step_digest`: SHA-256 of the canonical JSON of its table, hand,
number, kind and payload) is signed by the notary before the step is written
(:meth:`~dealer_assist.notary.client.NotaryClient.sign_step`; the notary signs a hand's step
numbers only forward and never one again with another digest), and the signature stored in the
payload under :data:`SIGNATURE_KEY` (outside what it signs; the callers never see it).
:func:`pending` checks each step against the notary's public key: a step whose signature is
missing or does not verify comes back with ``forged`` saying so.
"""

from __future__ import annotations

import hashlib
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dealer_assist.errors import JournalError
from dealer_assist.notary.client import NotaryClient
from dealer_assist.notary.protocol import step_message
from dealer_assist.ports import PendingStep
from dealer_assist.storage import steps
from dealer_assist.storage.chain import canonical_json
from dealer_assist.storage.notarize import notary_key
from dealer_assist.storage.rows import row_to_step
from dealer_assist.storage.schema import pending_steps
from dealer_assist.storage.signing import PublicKey

SIGNATURE_KEY = "_signer_signature"
_t = pending_steps.c


def step_digest(table_id: str, hand_uid: str, step_no: int, kind: str, payload: Any) -> str:
    """What the signer signs of one step: SHA-256 (64 hex digits) of the canonical JSON of
    ``{table_id, hand_uid, step_no, kind, payload}`` (the payload without its signature)."""
    doc = {
        "table_id": table_id,
        "hand_uid": hand_uid,
        "step_no": step_no,
        "kind": kind,
        "payload": payload,
    }
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


def notary_uid(table_id: str, hand_uid: str) -> str:
    """The hand's name at the notary: the step log's key (a table's own, or one of its
    side logs) and the hand uid."""
    return f"{table_id}/{hand_uid}"


def write(
    engine: Engine,
    notary: NotaryClient | None,
    table_id: str,
    hand_uid: str,
    step_no: int,
    kind: str,
    payload: dict[str, Any],
) -> PendingStep:
    """:func:`dealer_assist.storage.steps.write`, the step signed by ``notary`` first (when
    given). The same step written again is returned as stored, without asking the notary.

    Raises:
        JournalError: as :func:`~dealer_assist.storage.steps.write`; the payload uses
            :data:`SIGNATURE_KEY`.
        NotaryUnavailableError: the notary cannot be reached (nothing is written: the step
            does not take effect). NotaryRefusedError: it refused (a step number of the hand
            already signed with another content).
        SQLAlchemy errors propagate (the journal translates them).
    """
    if SIGNATURE_KEY in payload:
        raise JournalError(f"write_step: {SIGNATURE_KEY!r} is the signer's key in a payload")
    if notary is None:
        return steps.write(engine, table_id, hand_uid, step_no, kind, payload)
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(pending_steps).where(
                _t.table_id == table_id, _t.hand_uid == hand_uid, _t.step_no == step_no
            )
        ).one_or_none()
    if row is not None:  # a retried write: as stored, or refused as a different one
        stored = _strip(row_to_step(row))[0]
        if stored.kind != kind or canonical_json(stored.payload) != canonical_json(payload):
            raise JournalError(
                f"step {step_no} of hand {hand_uid} at table {table_id} was already written "
                "with other content"
            )
        return stored
    digest = step_digest(table_id, hand_uid, step_no, kind, payload)
    signature = notary.sign_step(notary_uid(table_id, hand_uid), step_no, digest)
    signed = {**payload, SIGNATURE_KEY: signature}
    return _strip(steps.write(engine, table_id, hand_uid, step_no, kind, signed))[0]


def pending(
    engine: Engine, table_id: str, notary: NotaryClient | None, key: PublicKey | None
) -> list[PendingStep]:
    """:func:`dealer_assist.storage.steps.pending` with each step checked against the public
    key of ``notary`` (``key`` when already known, else its head's; no notary: nothing is
    checked): a step without a valid signature has ``forged`` set (a sentence naming it).

    Raises:
        NotaryUnavailableError: the notary's key is not known and it cannot be reached.
    """
    if notary is not None and key is None:
        key = notary_key(notary.head())
    out = []
    for step in steps.pending(engine, table_id):
        plain, signature = _strip(step)
        if notary is not None:
            plain = _checked(plain, signature, key, notary.table_id)
        out.append(plain)
    return out


def _checked(
    step: PendingStep, signature: str | None, key: PublicKey | None, signer_table: str
) -> PendingStep:
    what = f"step {step.step_no} ({step.kind}) of hand {step.hand_uid}"
    if key is None:
        reason = f"{what}: the table's signer has no key yet, nothing it signed can be here"
    elif signature is None:
        reason = f"{what} carries no signature of the table's signer: written around it"
    else:
        digest = step_digest(step.table_id, step.hand_uid, step.step_no, step.kind, step.payload)
        message = step_message(
            signer_table, notary_uid(step.table_id, step.hand_uid), step.step_no, digest
        )
        if key.verify(message, signature):
            return step
        reason = (
            f"{what} does not match the signature the table's signer gave it: changed "
            "in the step log after it was written"
        )
    return PendingStep(
        step.table_id,
        step.hand_uid,
        step.step_no,
        step.kind,
        step.payload,
        step.written_at,
        forged=reason,
    )


def _strip(step: PendingStep) -> tuple[PendingStep, str | None]:
    """The step as its writer gave it (without the signature), and the signature."""
    if SIGNATURE_KEY not in step.payload:
        return step, None
    payload = dict(step.payload)
    signature = payload.pop(SIGNATURE_KEY)
    plain = PendingStep(
        step.table_id, step.hand_uid, step.step_no, step.kind, payload, step.written_at
    )
    return plain, signature if isinstance(signature, str) else None
