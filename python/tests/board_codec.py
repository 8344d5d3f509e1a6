"""A second, independent reading of rafle's encodings (docs/how-to/rl-view.md)
used by the tests to check the bindings against rafle.Game: the action codec, square geometry and FEN parsing, written from
the spec."""

from __future__ import annotations

import numpy as np

# Board of each variant: (side length, layout). Layout "plain": square 1 is
# b8; "mirrored": the dark squares are where the plain board's light ones
# are, square 1 is a8; "mirrored-from-white": the mirrored board numbered
# from White's side (square 1 is h1, s is the mirrored board's N*N/2+1-s);
# "full": every square playable (square 1 is a8, row by row), pieces step
# along rows and columns only.
# One entry per variant; test_game.py checks the keys against rafle.VARIANTS.
BOARD = {
    "thai": (8, "plain"),
    "international": (10, "plain"),
    "english": (8, "plain"),
    "checkers": (8, "plain"),
    "russian": (8, "plain"),
    "brazilian": (8, "plain"),
    "pool": (8, "plain"),
    "italian": (8, "mirrored"),
    "spanish": (8, "mirrored-from-white"),
    "czech": (8, "plain"),
    "killer": (10, "plain"),
    "antidraughts": (10, "plain"),
    "breakthrough": (10, "plain"),
    "frisian": (10, "plain-orthogonal"),
    "turkish": (8, "full"),
    "canadian": (12, "plain"),
}
# (row, col) step of each direction in the mover's frame: up-left, up-right,
# down-left, down-right (row 0 is the far side), then, on a board whose
# pieces also step along rows and columns ("-orthogonal"), up, down, left,
# right to the next dark square.
DIRS = ((-1, -1), (-1, 1), (1, -1), (1, 1), (-2, 0), (2, 0), (0, -2), (0, 2))
# On the full board: up, down, left, right to the next square.
FULL_DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def mirrored_layout(layout: str) -> bool:
    return layout.startswith("mirrored")


def dirs_of(layout: str) -> tuple[tuple[int, int], ...]:
    """The codec's directions: 4 diagonals, 8 with rows and columns, or the
    4 rows-and-columns steps of the full board."""
    if layout == "full":
        return FULL_DIRS
    return DIRS if layout.endswith("-orthogonal") else DIRS[:4]


def num_dirs(layout: str) -> int:
    return len(dirs_of(layout))


def num_squares(n: int, layout: str = "plain") -> int:
    return n * n if layout == "full" else n * n // 2


def row_col(n: int, s: int, layout: str = "plain") -> tuple[int, int]:
    """0-based row from the top and column of 1-based square s."""
    if layout == "full":
        return divmod(s - 1, n)
    h = n // 2
    if layout == "mirrored-from-white":
        s = n * h + 1 - s
    row, i = divmod(s - 1, h)
    mirrored = mirrored_layout(layout)
    return row, 2 * i + 1 if (row + mirrored) % 2 == 0 else 2 * i


def square_at(n: int, row: int, col: int, layout: str = "plain") -> int | None:
    mirrored = mirrored_layout(layout)
    if layout == "full":
        return row * n + col + 1 if 0 <= row < n and 0 <= col < n else None
    if not (0 <= row < n and 0 <= col < n) or (row + col + mirrored) % 2 == 0:
        return None
    s = row * (n // 2) + col // 2 + 1
    return n * n // 2 + 1 - s if layout == "mirrored-from-white" else s


def square_of_index(n: int, k: int, layout: str) -> int:
    """Square of 0-based reading-order index k (top-left first): k + 1, or
    N*N/2 - k on a board numbered from White's side."""
    return n * n // 2 - k if layout == "mirrored-from-white" else k + 1


def decode_action(n: int, black: bool, a: int, layout: str = "plain") -> tuple[int, int]:
    """(from, to) real squares of action a played by White or Black."""
    r = n - 1
    squares = num_squares(n, layout)
    sq_dir, dist0 = divmod(a, r)
    sq0, d = divmod(sq_dir, num_dirs(layout))
    frm = square_of_index(n, sq0, layout)
    row, col = row_col(n, frm, layout)
    dr, dc = dirs_of(layout)[d]
    to = square_at(n, row + dr * (dist0 + 1), col + dc * (dist0 + 1), layout)
    assert to is not None, f"action {a} leaves the board"
    if black:
        frm, to = squares + 1 - frm, squares + 1 - to
    return frm, to


def encode_step(n: int, black: bool, frm: int, to: int, layout: str = "plain") -> int:
    """Inverse of decode_action."""
    squares = num_squares(n, layout)
    if black:
        frm, to = squares + 1 - frm, squares + 1 - to
    (r0, c0), (r1, c1) = row_col(n, frm, layout), row_col(n, to, layout)
    if r0 == r1 or c0 == c1:  # along a row or column: dark squares two apart
        dist = (abs(r1 - r0) + abs(c1 - c0)) // (1 if layout == "full" else 2)
    else:
        dist = abs(r1 - r0)
    d = dirs_of(layout).index(((r1 - r0) // dist, (c1 - c0) // dist))
    sq0 = r0 * n + c0 if layout == "full" else r0 * (n // 2) + c0 // 2  # reading order
    return (sq0 * num_dirs(layout) + d) * (n - 1) + dist - 1


def square_of(tok: str, n: int = 8, layout: str = "plain") -> int:
    """The square of a token: a PDN number, or an algebraic name such as c3
    (file from White's left, rank from White's side)."""
    if tok.isdigit():
        return int(tok)
    sq = square_at(n, n - int(tok[1:]), ord(tok[0]) - ord("a"), layout)
    assert sq is not None, f"{tok} is not a dark square"
    return sq


def num_actions(n: int, layout: str = "plain") -> int:
    """Action ids of an N x N board: squares x directions x (N - 1) distances."""
    return num_squares(n, layout) * num_dirs(layout) * (n - 1)


def move_path(move: str, n: int = 8, layout: str = "plain") -> list[int]:
    return [square_of(t, n, layout) for t in move.replace("x", "-").replace(":", "-").split("-")]


def parse_fen(fen: str, n: int = 8, layout: str = "plain") -> tuple[str, dict[int, str]]:
    """Side to move ("white"/"black") and square -> piece ('w','b','W','B')
    from a FEN as rafle writes it (no ranges)."""
    side, *parts = fen.split(":")
    board: dict[int, str] = {}
    for part in parts:
        if part.startswith("R"):  # king-move runs (frisian), no pieces
            continue
        colour, body = part[0], part[1:]
        for tok in filter(None, body.split(",")):
            king = tok.startswith("K")
            sq = square_of(tok[1:] if king else tok, n, layout)
            board[sq] = colour.upper() if king else colour.lower()
    return ("white" if side == "W" else "black"), board


def piece_planes(n: int, fen: str, layout: str = "plain") -> np.ndarray:
    """Planes 0-3 (own men, own kings, opponent men, opponent kings) in the
    frame of the side to move of the FEN."""
    side, board = parse_fen(fen, n, layout)
    me = "w" if side == "white" else "b"
    squares = num_squares(n, layout)
    planes = np.zeros((4, n, n), dtype=np.float32)
    for sq, p in board.items():
        s = squares + 1 - sq if side == "black" else sq
        row, col = row_col(n, s, layout)
        plane = (0 if p.lower() == me else 2) + (1 if p.isupper() else 0)
        planes[plane, row, col] = 1.0
    return planes


def fen_of_planes(n: int, layout: str, obs: np.ndarray) -> str:
    """The position of observation planes 0-3 with the mover as White (the
    planes are in the mover's frame, where the mover's men move up)."""
    own, opp = [], []
    for row in range(n):
        for col in range(n):
            sq = square_at(n, row, col, layout)
            if sq is None:
                continue
            for plane, side, king in ((0, own, ""), (1, own, "K"), (2, opp, ""), (3, opp, "K")):
                if obs[plane, row, col] > 0.5:
                    side.append(f"{king}{sq}")
    return f"W:W{','.join(own)}:B{','.join(opp)}"
