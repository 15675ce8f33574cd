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
    # the device's answer to RESEND 11: every kept frame from 11 on; the held ones are
    # confirmed by their second copy and delivered as it comes
    v = w.accept(card(11), 0.4)
    assert [f.seq for f in v.deliver] == [11]
    assert [f.seq for s in (12, 13) for f in w.accept(card(s), 0.4).deliver] == [12, 13]
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


def test_gap_asks_status_then_is_given_up_before_confirmed_frames_only() -> None:
    w = ReceiveWindow(gap_timeout=2.0)
    w.accept(card(1), 0.0)
    w.accept(card(3), 0.0)
    w.accept(card(4), 0.0)
    w.accept(card(3), 0.5)  # the RESEND answer: 2 is gone from the device, 3 came again
    assert w.poll(1.0).deliver == [] and not w.poll(1.0).ask_status
    assert w.poll(2.1).ask_status  # RESEND did not fill it: ask the device
    assert not w.poll(2.2).ask_status  # once per gap
    v = w.poll(4.1)
    assert [f.seq for f in v.deliver] == [3]  # 4 came once: never confirmed, set aside
    assert w.lost == 1 and w.set_aside == 1 and w.expected == 4
    assert w.accept(card(4), 4.2).deliver == [card(4)]  # the device's copy of 4 is taken


def forged(seq: int, text: str = "Qc") -> Frame:
    return Frame(seq, "CARD", ("D1", str(seq), text))


def test_a_forged_frame_early_under_the_next_seq_is_a_conflict_never_delivered() -> None:
    w = ReceiveWindow()
    w.accept(card(10), 0.0)
    v = w.accept(forged(12), 0.1)  # 11 not sent yet, 12 forged
    assert v.deliver == [] and v.resend_from == 11 and v.conflict is None
    assert w.accept(card(11), 0.2).deliver == [card(11)]  # 12 is held, unconfirmed
    v = w.accept(card(12), 0.3)  # the device's own 12
    assert v.deliver == [] and v.conflict == (forged(12), card(12)) and w.conflicts == 1
    assert w.expected == 13  # passed over: the sequence goes on
    assert w.accept(card(13), 0.4).deliver == [card(13)]
    again = w.accept(card(12), 0.5)  # a copy of either is no new conflict
    assert again.duplicate and again.conflict is None and w.conflicts == 1


def test_conflicts_held_ahead_and_after_delivery() -> None:
    w = ReceiveWindow()
    w.accept(card(10), 0.0)
    w.accept(forged(13), 0.1)
    v = w.accept(card(13), 0.2)  # both held ahead of the gap: a conflict at once
    assert v.conflict == (forged(13), card(13)) and v.deliver == []
    got = [f.seq for s in (11, 12) for f in w.accept(card(s), 0.3).deliver]
    assert got == [11, 12] and w.expected == 14  # 13 passed over
    # a forged frame at exactly the expected seq is delivered (it cannot be told yet); the
    # device's frame of that seq, coming later, is a conflict with what was delivered
    assert w.accept(forged(14), 0.4).deliver == [forged(14)]
    v = w.accept(card(14), 0.5)
    assert v.duplicate and v.conflict == (forged(14), card(14)) and w.conflicts == 2


def test_status_answer_sets_aside_frames_beyond_the_device_seq() -> None:
    w = ReceiveWindow(gap_timeout=1.0)
    w.accept(card(100), 0.0)
    w.accept(Frame(350, "BEAT"), 0.1)  # a forged BEAT 250 ahead
    assert w.poll(1.2).ask_status
    w.status_answer(101)  # the device's ACK of STATUS came as its frame 101
    assert w.set_aside == 1 and w.poll(5.0).deliver == [] and w.expected == 101
    got = [f.seq for s in range(101, 110) for f in w.accept(card(s), 5.1).deliver]
    assert got == list(range(101, 110)) and w.lost == 0  # never blinded


def test_a_forged_beat_250_ahead_blinds_nothing_without_a_status_answer() -> None:
    w = ReceiveWindow(gap_timeout=0.5)
    w.accept(card(100), 0.0)
    w.accept(Frame(350, "BEAT"), 0.0)
    for i, s in enumerate(range(101, 140)):  # real frames go on; the timers pass meanwhile
        now = 0.1 * i
        assert w.accept(card(s), now).deliver == [card(s)]
        w.poll(now)
    assert w.expected == 140 and w.lost == 0 and w.set_aside == 1


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
    # the device answers RESEND from the expected seq with every frame from there on
    while w.expected != (start + n) % 65536:
        first = (w.expected - start) % 65536
        delivered += [f.seq for s in seqs[first:] for f in w.accept(card(s), 0.0).deliver]
    assert delivered == seqs and w.conflicts == 0


@settings(max_examples=200)
@given(st.data())
def test_forged_frames_ahead_never_reach_the_game(data: st.DataObject) -> None:
    """Real frames in any order (then the RESEND answers), forged frames with other contents
    slipped in anywhere ahead: no forged frame is delivered, every real one not conflicted is
    delivered once, in order."""
    start = data.draw(st.integers(0, 65535))
    n = data.draw(st.integers(3, 30))
    seqs = [(start + i) % 65536 for i in range(n)]
    # slipped in early, ahead of the expected seq (one at the expected seq cannot be told
    # from the device's until the device's comes: see the test above)
    fakes = data.draw(st.lists(st.sampled_from(seqs[2:]), max_size=4, unique=True))
    reals = data.draw(st.permutations(seqs[1:]))
    w = ReceiveWindow()
    out = list(w.accept(card(seqs[0]), 0.0).deliver)
    for s in fakes:
        out += w.accept(forged(s), 0.0).deliver
    for s in reals:
        out += w.accept(card(s), 0.0).deliver
    while w.expected != (start + n) % 65536:
        first = (w.expected - start) % 65536
        for s in seqs[first:]:
            out += w.accept(card(s), 0.0).deliver
    assert all(f.fields[2] == "As" for f in out)
    assert [f.seq for f in out] == [s for s in seqs if s not in fakes]
    assert w.conflicts == len(fakes)
