"""Positions that end in one move, per variant, for hand-played tests."""

# (FEN, the one move that ends the game: the loser has no piece left).
FINAL_MOVE = {
    "thai": ("W:W18:B14", "18x9"),
    "international": ("W:W28:B23", "28x19"),
    "english": ("B:W18:B14", "14x23"),
    "checkers": ("B:W18,27:B14", "14x23x32"),  # two jumps: a chain of two actions
}


def winner_of(fen: str) -> int:
    """The side to move in ``fen`` (0 white, 1 black), who wins with its final move."""
    return 0 if fen.startswith("W") else 1
