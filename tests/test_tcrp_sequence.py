"""Receive-side sequencing: dedupe, gaps, RESEND, wrap-around, restart (DEVICE_PROTOCOL.md,
Reliability)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.tcrp.frame import Frame
from drivers.tcrp.sequence import ReceiveWindow


def card(seq: int) -> Frame:
    return Frame(seq, "CARD", ("D1", str(seq), "As"))


def test_in_order_delivery_and_ack() -> None:
    w = ReceiveWindow()
    for seq in (40, 41, 42):
        v = w.accept(card(seq), 0.0)
        assert v.deliver == [card(seq)] and v.ack and not v.duplicate
    v = w.accept(Frame(43, "BEAT"), 0.0)
    assert v.deliver == [Frame(43, "BEAT")] and not v.ack  # BEAT is never acknowledged


def test_duplicate_is_reacked_not_delivered() -> None:
    w = ReceiveWindow()
    w.accept(card(5), 0.0)
    w.accept(card(6), 0.0)
    v = w.accept(card(5), 0.1)
    assert v.duplicate and v.ack and v.deliver == []


def test_gap_holds_frames_and_asks_resend_once_per_interval() -> None:
    w = ReceiveWindow(resend_interval=0.3)
    w.accept(card(10), 0.0)
    v = w.accept(card(12), 0.0)
    assert v.deliver == [] and v.ack and v.resend_from == 11
    assert w.accept(card(13), 0.1).resend_from is None  # already asked
    assert w.poll(0.2).resend_from is None
    assert w.poll(0.31).resend_from == 11  # still missing: ask again
    v = w.accept(card(11), 0.4)
    assert [f.seq for f in v.deliver] == [11, 12, 13]
    assert w.expected == 14


def test_wraps_modulo_65536() -> None:
    w = ReceiveWindow()
    got = [f.seq for s in (65534, 65535, 0, 1) for f in w.accept(card(s), 0.0).deliver]
    assert got == [65534, 65535, 0, 1]
    v = w.accept(card(3), 0.0)  # 2 missing, across nothing special
    assert v.resend_from == 2


def test_half_window_boundary() -> None:
    w = ReceiveWindow()
    w.accept(card(0), 0.0)  # expected is now 1
    assert w.accept(card((1 - 32768) % 65536), 0.0).duplicate  # 32768 behind: duplicate
    w2 = ReceiveWindow()
    w2.accept(card(0), 0.0)
    v = w2.accept(card(1 + 32767), 0.0)  # 32767 ahead: beyond the device's history
    assert not v.duplicate and v.far_ahead and v.resend_from is None and not v.ack
    v = w2.accept(card(1 + 256), 0.0)  # 256 ahead: a gap RESEND can fill
    assert not v.duplicate and not v.far_ahead and v.resend_from == 1


def test_hello_seq0_restarts() -> None:
    hello = Frame(0, "HELLO", ("TCRP1", "M", "1", "S"))
    w = ReceiveWindow(restart_window=1.5)
    for s in range(100, 104):
        w.accept(card(s), 0.0)
    v = w.accept(hello, 1.0)
    assert v.restarted and v.deliver == [hello] and v.ack
    assert w.accept(card(1), 1.0).deliver == [card(1)]
    other = Frame(0, "HELLO", ("TCRP1", "M", "1", "OTHER"))
    assert w.accept(other, 1.3).restarted  # a different HELLO is a restart at once
    assert w.accept(other, 5.0).restarted  # so is the same one long after


def test_repeated_restart_hello_decided_by_next_frame() -> None:
    hello = Frame(0, "HELLO", ("TCRP1", "M", "1", "S"))
    # a retransmission: the device's next frame follows the old sequence
    w = ReceiveWindow(restart_window=1.5)
    w.accept(hello, 0.0)
    for s in (1, 2, 3):
        w.accept(card(s), 0.1)
    held = w.accept(hello, 0.2)
    assert held.ack and held.deliver == [] and not held.restarted
    v = w.accept(card(4), 0.3)
    assert v.earlier_duplicate and not v.restarted and v.deliver == [card(4)]
    # a second restart soon after the first: the next frame follows seq 0
    w = ReceiveWindow(restart_window=1.5)
    w.accept(hello, 0.0)
    for s in range(1, 20):
        w.accept(card(s), 0.1)
    assert w.accept(hello, 0.5).deliver == []
    v = w.accept(card(1), 0.6)
    assert v.restarted and v.deliver == [hello, card(1)]
    assert w.accept(card(2), 0.7).deliver == [card(2)]


def test_gap_given_up_after_timeout() -> None:
    w = ReceiveWindow(gap_timeout=2.0)
    w.accept(card(1), 0.0)
    w.accept(card(3), 0.0)
    w.accept(card(4), 0.0)
    assert w.poll(1.0).deliver == []
    v = w.poll(2.1)
    assert [f.seq for f in v.deliver] == [3, 4]
    assert w.lost == 1


@settings(max_examples=200)
@given(st.data())
def test_any_arrival_order_delivers_each_frame_once_in_order(data: st.DataObject) -> None:
    start = data.draw(st.integers(0, 65535))
    n = data.draw(st.integers(1, 40))
    seqs = [(start + i) % 65536 for i in range(n)]
    # every frame arrives at least once; some twice; in any order, but the first one first
    # (the host takes the first frame it receives as the start of the sequence)
    extra = data.draw(st.lists(st.sampled_from(seqs), max_size=20))
    rest = data.draw(st.permutations(seqs[1:] + extra))
    w = ReceiveWindow()
    delivered = [f.seq for s in [seqs[0], *rest] for f in w.accept(card(s), 0.0).deliver]
    assert delivered == seqs
