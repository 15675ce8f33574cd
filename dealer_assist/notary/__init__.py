"""The signer (notary): a small service of its own that holds each table's Ed25519 key and signs
only extensions of its own durable head, so whoever can write a table's journal cannot re-sign a
rewritten one (docs/AUDIT.md "Key custody").

:mod:`~dealer_assist.notary.protocol` is the wire format (one JSON line each way over a local
Unix socket), :mod:`~dealer_assist.notary.state` the key files and durable heads,
:mod:`~dealer_assist.notary.server` the service, :mod:`~dealer_assist.notary.client` what a
table's journal uses. Nothing here imports a database library.
"""
