"""UTF-8 checked a piece at a time (ingest.reading.transcripts.utf8_error_at) finds what
decoding the whole file finds, wherever the pieces are cut."""

from __future__ import annotations

import pytest

from ingest.reading import transcripts
from ingest.reading.transcripts import utf8_error_at

TEXT = "plain é ünï 中文 🙂 a🙂b 𝄞\n".encode()


def whole_file_error_at(data: bytes) -> int | None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return None


def damaged(data: bytes) -> list[bytes]:
    """``data`` with, at every offset in turn, a byte dropped, a stray continuation
    byte put in, a lead byte put in and a byte that is never UTF-8 put in."""
    found = []
    for i in range(len(data) + 1):
        found.append(data[:i] + data[i + 1 :])
        for bad in (b"\x80", b"\xe2", b"\xf0\x9f", b"\xff"):
            found.append(data[:i] + bad + data[i:])
    return found


@pytest.mark.parametrize("piece", [1, 2, 3, 4, 5, 7, 64])
def test_pieces_find_the_same_first_bad_byte_as_the_whole_file(monkeypatch, piece):
    monkeypatch.setattr(transcripts, "UTF8_PIECE_BYTES", piece)
    for data in [TEXT, TEXT * 3, b"ascii only\n", b"", *damaged(TEXT)]:
        assert utf8_error_at(data) == whole_file_error_at(data), data


def test_a_valid_file_larger_than_a_piece_is_valid():
    data = TEXT * (transcripts.UTF8_PIECE_BYTES // len(TEXT) + 2)
    assert utf8_error_at(data) is None
    assert utf8_error_at(data + b"\xc3") == len(data)
