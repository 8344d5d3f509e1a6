"""A second, independent reading of rafle's encodings (README.md,
"Architecture": the RL view) used by the tests to check the bindings against
rafle.Game: the action codec, square geometry and FEN parsing, written from
the spec."""

from __future__ import annotations

import numpy as np

# Board of each variant: (side length, mirrored). A mirrored board has its
# dark squares where the plain one has light ones (a8 is square 1 on 8x8).
# One entry per variant; test_package.py checks the keys against rafle.VARIANTS.
BOARD = {
    "thai": (8, False),
    "international": (10, False),
    "english": (8, False),
    "checkers": (8, False),
    "russian": (8, False),
    "brazilian": (8, False),
    "pool": (8, False),
    "italian": (8, True),
    "spanish": (8, True),
    "czech": (8, False),
    "killer": (10, False),
    "antidraughts": (10, False),
    "breakthrough": (10, False),
}
BOARD_SIZE = {v: n for v, (n, _) in BOARD.items()}
# (row, col) step of each direction in the mover's frame: up-left, up-right,
# down-left, down-right (row 0 is the far side).
DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def row_col(n: int, s: int, mirrored: bool = False) -> tuple[int, int]:
    """0-based row from the top and column of 1-based square s."""
    h = n // 2
    row, i = divmod(s - 1, h)
    return row, 2 * i + 1 if (row + mirrored) % 2 == 0 else 2 * i


def square_at(n: int, row: int, col: int, mirrored: bool = False) -> int | None:
    if not (0 <= row < n and 0 <= col < n) or (row + col + mirrored) % 2 == 0:
        return None
    return row * (n // 2) + col // 2 + 1


def decode_action(n: int, black: bool, a: int, mirrored: bool = False) -> tuple[int, int]:
    """(from, to) real squares of action a played by White or Black."""
    r = n - 1
    squares = n * n // 2
    sq_dir, dist0 = divmod(a, r)
    sq0, d = divmod(sq_dir, 4)
    row, col = row_col(n, sq0 + 1, mirrored)
    dr, dc = DIRS[d]
    to = square_at(n, row + dr * (dist0 + 1), col + dc * (dist0 + 1), mirrored)
    assert to is not None, f"action {a} leaves the board"
    frm = sq0 + 1
    if black:
        frm, to = squares + 1 - frm, squares + 1 - to
    return frm, to


def encode_step(n: int, black: bool, frm: int, to: int, mirrored: bool = False) -> int:
    """Inverse of decode_action."""
    squares = n * n // 2
    if black:
        frm, to = squares + 1 - frm, squares + 1 - to
    (r0, c0), (r1, c1) = row_col(n, frm, mirrored), row_col(n, to, mirrored)
    dist = abs(r1 - r0)
    d = DIRS.index(((r1 - r0) // dist, (c1 - c0) // dist))
    return ((frm - 1) * 4 + d) * (n - 1) + dist - 1


def square_of(tok: str, n: int = 8, mirrored: bool = False) -> int:
    """The square of a token: a PDN number, or an algebraic name such as c3
    (file from White's left, rank from White's side)."""
    if tok.isdigit():
        return int(tok)
    sq = square_at(n, n - int(tok[1:]), ord(tok[0]) - ord("a"), mirrored)
    assert sq is not None, f"{tok} is not a dark square"
    return sq


def num_actions(n: int) -> int:
    """Action ids of an N x N board: squares x 4 directions x (N - 1) distances."""
    return n * n // 2 * 4 * (n - 1)


def move_path(move: str, n: int = 8, mirrored: bool = False) -> list[int]:
    return [square_of(t, n, mirrored) for t in move.replace("x", "-").replace(":", "-").split("-")]


def parse_fen(fen: str, n: int = 8, mirrored: bool = False) -> tuple[str, dict[int, str]]:
    """Side to move ("white"/"black") and square -> piece ('w','b','W','B')
    from a FEN as rafle writes it (no ranges)."""
    side, *parts = fen.split(":")
    board: dict[int, str] = {}
    for part in parts:
        colour, body = part[0], part[1:]
        for tok in filter(None, body.split(",")):
            king = tok.startswith("K")
            sq = square_of(tok[1:] if king else tok, n, mirrored)
            board[sq] = colour.upper() if king else colour.lower()
    return ("white" if side == "W" else "black"), board


def piece_planes(n: int, fen: str, mirrored: bool = False) -> np.ndarray:
    """Planes 0-3 (own men, own kings, opponent men, opponent kings) in the
    frame of the side to move of the FEN."""
    side, board = parse_fen(fen, n, mirrored)
    me = "w" if side == "white" else "b"
    squares = n * n // 2
    planes = np.zeros((4, n, n), dtype=np.float32)
    for sq, p in board.items():
        s = squares + 1 - sq if side == "black" else sq
        row, col = row_col(n, s, mirrored)
        plane = (0 if p.lower() == me else 2) + (1 if p.isupper() else 0)
        planes[plane, row, col] = 1.0
    return planes
