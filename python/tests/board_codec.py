"""A second, independent reading of rafle's encodings (README.md,
"Architecture": the RL view) used by the tests to check the bindings against
rafle.Game: the action codec, square geometry and FEN parsing, written from
the spec."""

from __future__ import annotations

import numpy as np

BOARD_SIZE = {"thai": 8, "international": 10, "english": 8, "checkers": 8}
# (row, col) step of each direction in the mover's frame: up-left, up-right,
# down-left, down-right (row 0 is the far side).
DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def row_col(n: int, s: int) -> tuple[int, int]:
    """0-based row from the top and column of 1-based square s."""
    h = n // 2
    row, i = divmod(s - 1, h)
    return row, 2 * i + 1 if row % 2 == 0 else 2 * i


def square_at(n: int, row: int, col: int) -> int | None:
    if not (0 <= row < n and 0 <= col < n) or (row + col) % 2 == 0:
        return None
    return row * (n // 2) + col // 2 + 1


def decode_action(n: int, black: bool, a: int) -> tuple[int, int]:
    """(from, to) real squares of action a played by White or Black."""
    r = n - 1
    squares = n * n // 2
    sq_dir, dist0 = divmod(a, r)
    sq0, d = divmod(sq_dir, 4)
    row, col = row_col(n, sq0 + 1)
    dr, dc = DIRS[d]
    to = square_at(n, row + dr * (dist0 + 1), col + dc * (dist0 + 1))
    assert to is not None, f"action {a} leaves the board"
    frm = sq0 + 1
    if black:
        frm, to = squares + 1 - frm, squares + 1 - to
    return frm, to


def encode_step(n: int, black: bool, frm: int, to: int) -> int:
    """Inverse of decode_action."""
    squares = n * n // 2
    if black:
        frm, to = squares + 1 - frm, squares + 1 - to
    (r0, c0), (r1, c1) = row_col(n, frm), row_col(n, to)
    dist = abs(r1 - r0)
    d = DIRS.index(((r1 - r0) // dist, (c1 - c0) // dist))
    return ((frm - 1) * 4 + d) * (n - 1) + dist - 1


def move_path(move: str) -> list[int]:
    return [int(t) for t in move.replace("x", "-").split("-")]


def parse_fen(fen: str) -> tuple[str, dict[int, str]]:
    """Side to move ("white"/"black") and square -> piece ('w','b','W','B')
    from a FEN as rafle writes it (no ranges)."""
    side, *parts = fen.split(":")
    board: dict[int, str] = {}
    for part in parts:
        colour, body = part[0], part[1:]
        for tok in filter(None, body.split(",")):
            king = tok.startswith("K")
            sq = int(tok[1:] if king else tok)
            board[sq] = colour.upper() if king else colour.lower()
    return ("white" if side == "W" else "black"), board


def piece_planes(n: int, fen: str) -> np.ndarray:
    """Planes 0-3 (own men, own kings, opponent men, opponent kings) in the
    frame of the side to move of the FEN."""
    side, board = parse_fen(fen)
    me = "w" if side == "white" else "b"
    squares = n * n // 2
    planes = np.zeros((4, n, n), dtype=np.float32)
    for sq, p in board.items():
        s = squares + 1 - sq if side == "black" else sq
        row, col = row_col(n, s)
        plane = (0 if p.lower() == me else 2) + (1 if p.isupper() else 0)
        planes[plane, row, col] = 1.0
    return planes
