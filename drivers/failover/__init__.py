"""Source failover: a table's card sources in priority order behind one CardSource.

Failover: a table lists its sources in priority order (serial shuffler, USB reader,
camera, manual). The first one that opens is used. A source that fails between hands is replaced by
the next one with a visible notice (:class:`~dealer_assist.events.SourceSwitched`); one that fails
mid-hand voids the hand, because its LinkLost reaches the table's misdeal detector first, and the
next hand runs on the next source. Every card keeps the name of the source that read it
(``CardRead.source``), which the journal stores per card.

"Failed" means: LinkLost not followed by LinkRestored within ``switch_after`` seconds (a replugged
USB reader or a reconnected serial line comes back on its own, so a short glitch does not cost the
table its best source), an identity alarm, or a transport error from a command. At a new hand
(:meth:`~drivers.failover.chain.FailoverSource.shuffle`) a lost source is replaced at once. A fault
the device reports and clears itself (JAM, DOOR_OPEN) is not a failure: it voids the hand but the
source stays. Nor is a refusal (NAK, :class:`~dealer_assist.errors.CommandRefusedError`): the device
answered, so it is there; the refusal goes to the caller and the source stays. A command that got no
answer is not a failure by itself either: the heartbeat decides (LinkLost).

Failback: a higher-priority source that failed (or did not open at start) is opened again in a
background thread at most every ``failback_interval`` seconds, while a lower one is in use. One that
opens waits as the *standby* (its events are watched, not passed on) and takes over at the next
:meth:`~drivers.failover.chain.FailoverSource.shuffle`, i.e. between hands, never during one, with a
:class:`~dealer_assist.events.SourceSwitched` notice (a standby with a fault not cleared waits for a
later hand; one whose link goes again or whose identity changes is closed and tried again later; if
the source in use fails meanwhile, the standby replaces it at once). One that does not open stays
failed until the next attempt; the attempts never block a command or a hand, and each is bounded by
the source's own open timeouts. A source is reopened through its own ``open()`` after ``close()``:
every driver supports that (TcrpDevice on serial or USB starts a new session, an emulator:// source
a new child, the camera a new worker).

A :class:`~drivers.manual.ManualSource` in the chain is opened with the chain and its cards are
always passed on, so the dealer's keypad can enter a card the reader missed whichever source is
active. The optional capabilities of a source (:class:`~dealer_assist.source.LinkAware`,
:class:`~dealer_assist.source.StatusRequester`, :class:`~dealer_assist.source.HistorySource`) are
always present here and are those of the active source, with the defaults of
:class:`~dealer_assist.source.ForwardingSource` when it lacks one.

One module per part; the chain holds the others as collaborators, each owning its own state:

- :mod:`~drivers.failover.chain`: :class:`~drivers.failover.chain.FailoverSource`, the chain as
  one CardSource: which source is in use, switching to the next one with a notice, and back to
  the standby at a new hand;
- :mod:`~drivers.failover.failback`: :class:`~drivers.failover.failback.Failback`, the thread
  that reopens higher-priority sources;
- :mod:`~drivers.failover.standby`: :class:`~drivers.failover.standby.Standby`, a reopened
  source and its health until the next hand;
- :mod:`~drivers.failover.timer`: :class:`~drivers.failover.timer.RevivalTimer`, when the next
  failback attempt is due;
- :mod:`~drivers.failover.table`: :func:`~drivers.failover.table.open_table_sources`, a table's
  configured sources as one chain.
"""
