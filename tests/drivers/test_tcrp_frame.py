"""TCRP/1 frame codec: CRC, encoding rules, the incremental parser (DEVICE_PROTOCOL.md, Frames)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.errors import ProtocolError
from drivers.tcrp.frame import (
    MAX_FRAME_BYTES,
    Frame,
    FrameParser,
    crc16_ccitt_false,
    decode_frame,
    encode_frame,
)


def crc_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE written out bit by bit, independent of the codec's implementation."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def test_crc_check_value() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc_bitwise(b"123456789") == 0x29B1


@given(st.binary(max_size=200))
def test_crc_matches_bitwise_reference(data: bytes) -> None:
    assert crc16_ccitt_false(data) == crc_bitwise(data)


def test_encode_known_frame() -> None:
    raw = encode_frame(12, "CARD", ["D1", "3", "As"])
    body = b"12,CARD,D1,3,As"
    assert raw == b"$" + body + b"*" + f"{crc_bitwise(body):04X}".encode() + b"\r\n"
    assert encode_frame(0, "BEAT", []).startswith(b"$0,BEAT*")


@pytest.mark.parametrize(
    ("seq", "type_", "fields"),
    [
        (-1, "BEAT", []),
        (65536, "BEAT", []),
        (1, "beat", []),
        (1, "", []),
        (1, "CARD", ["a,b"]),
        (1, "CARD", ["a*b"]),
        (1, "CARD", ["a$b"]),
        (1, "CARD", ["a\rb"]),
        (1, "CARD", ["a\nb"]),
        (1, "CARD", ["é"]),
        (1, "CARD", ["x" * 120]),
    ],
)
def test_encode_rejects(seq: int, type_: str, fields: list[str]) -> None:
    with pytest.raises(ProtocolError):
        encode_frame(seq, type_, fields)


def test_encode_accepts_exactly_128_bytes() -> None:
    base = len(encode_frame(65535, "FAULT", [""]))
    raw = encode_frame(65535, "FAULT", ["x" * (MAX_FRAME_BYTES - base)])
    assert len(raw) == MAX_FRAME_BYTES
    assert decode_frame(raw) == Frame(65535, "FAULT", ("x" * (MAX_FRAME_BYTES - base),))


field_text = st.text(
    alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="$*,"),
    max_size=12,
)
frames = st.builds(
    Frame,
    seq=st.integers(0, 65535),
    type=st.from_regex(r"[A-Z][A-Z0-9_]{0,7}", fullmatch=True),
    fields=st.lists(field_text, max_size=5).map(tuple),
)


@given(frames)
def test_round_trip(frame: Frame) -> None:
    raw = encode_frame(frame.seq, frame.type, frame.fields)
    parser = FrameParser()
    assert parser.feed(raw) == [frame]
    assert decode_frame(raw) == frame
    assert parser.dropped == 0


def test_parser_split_and_batched() -> None:
    raws = [encode_frame(i, "CARD", ["D1", str(i), "Kh"]) for i in range(1, 6)]
    stream = b"".join(raws)
    parser = FrameParser()
    got: list[Frame] = []
    for i in range(0, len(stream), 7):  # frames split across feeds
        got += parser.feed(stream[i : i + 7])
    assert [f.seq for f in got] == [1, 2, 3, 4, 5]
    assert FrameParser().feed(stream) == got  # several frames in one feed


def test_parser_skips_noise_and_drops_bad_frames() -> None:
    good1 = encode_frame(1, "BEAT")
    good2 = encode_frame(2, "STATE", ["READY"])
    bad_crc = bytearray(encode_frame(3, "CARD", ["D1", "1", "As"]))
    bad_crc[-4] = ord("0") if bad_crc[-4] != ord("0") else ord("1")  # a wrong CRC digit
    lower_hex = f"{crc_bitwise(b'4,BEAT'):04x}"
    assert lower_hex != lower_hex.upper()  # we send upper case but accept lower case too
    lower_crc = b"$4,BEAT*" + lower_hex.encode() + b"\r\n"
    no_type = b"$5*" + f"{crc_bitwise(b'5'):04X}".encode() + b"\r\n"
    too_long = b"$6,CARD," + b"x" * 200 + b"\r\n"
    cut_short = b"$7,CARD,D1"  # interrupted by the next '$'
    lf_only = encode_frame(8, "BEAT")[:-2] + b"\n"
    stream = (
        b"garbage\r\n"
        + good1
        + bytes(bad_crc)
        + lower_crc
        + no_type
        + too_long
        + cut_short
        + lf_only
        + b"\x00\xff"
        + good2
    )
    parser = FrameParser()
    got = parser.feed(stream)
    assert got == [Frame(1, "BEAT"), Frame(4, "BEAT"), Frame(2, "STATE", ("READY",))]
    assert parser.dropped == 5
    assert parser.skipped_bytes >= len(b"garbage\r\n")


def test_parser_drops_over_length_without_terminator() -> None:
    parser = FrameParser()
    assert parser.feed(b"$1,CARD," + b"x" * 300) == []
    assert parser.dropped == 1
    assert parser.feed(b"yyy\r\n" + encode_frame(2, "BEAT")) == [Frame(2, "BEAT")]


@settings(max_examples=300)
@given(st.lists(st.binary(max_size=64), max_size=8))
def test_parser_never_raises_on_random_bytes(chunks: list[bytes]) -> None:
    parser = FrameParser()
    stream = b"".join(chunks)
    for chunk in chunks:
        for frame in parser.feed(chunk):
            _assert_genuine(frame, stream)


def _assert_genuine(frame: Frame, stream: bytes) -> None:
    """The frame came verbatim from the input and its CRC verifies independently."""
    raw = frame.raw
    assert raw in stream
    star = raw.rindex(b"*")
    assert int(raw[star + 1 : star + 5], 16) == crc_bitwise(raw[1:star])
    assert len(raw) <= MAX_FRAME_BYTES


@settings(max_examples=300)
@given(
    st.lists(frames, min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=6),
    st.lists(st.integers(1, 30), max_size=10),
)
def test_parser_on_mutated_streams(
    sent: list[Frame], flips: list[tuple[int, int]], cuts: list[int]
) -> None:
    stream = bytearray(b"".join(encode_frame(f.seq, f.type, f.fields) for f in sent))
    for pos, value in flips:
        stream[pos % len(stream)] = value
    data = bytes(stream)
    parser = FrameParser()
    got: list[Frame] = []
    pos = 0
    for cut in [*cuts, len(data)]:
        got += parser.feed(data[pos : pos + cut])
        pos += cut
    got += parser.feed(data[pos:])
    for frame in got:
        _assert_genuine(frame, data)
    if not flips:
        assert got == sent
        assert parser.dropped == 0
