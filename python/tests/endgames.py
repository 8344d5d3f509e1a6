"""Positions that end in one move, per variant, for hand-played tests.

One table for every variant (``test_package.py`` checks its keys against
``rafle.VARIANTS``, so a new variant is one failing entry here)."""

# (FEN, the one move that ends the game: the other side has no piece left).
# Italian plays on the mirrored board (22 is d3, 19 is e4); spanish too,
# numbered from White's side (its 11 and 14 are italian's 22 and 19).
FINAL_MOVE = {
    "thai": ("W:W18:B14", "18x9"),
    "international": ("W:W28:B23", "28x19"),
    "english": ("B:W18:B14", "14x23"),
    "checkers": ("B:W18,27:B14", "14x23x32"),  # two jumps: a chain of two actions
    "russian": ("W:W22:B18", "22x15"),
    "brazilian": ("W:W22:B18", "22x15"),
    "pool": ("B:W18:B14", "14x23"),
    "italian": ("W:W22:B19", "22x15"),
    "spanish": ("W:W11:B14", "11x18"),
    "czech": ("W:W22:B18", "22x15"),
    "killer": ("W:W28:B23", "28x19"),
    "antidraughts": ("W:W28:B23", "28x19"),  # the side left without a move wins
    "breakthrough": ("W:W28:B23", "28x19"),
    "frisian": ("W:W28:B29", "28x30"),  # along the row
    "turkish": ("W:Wd4:Bd5", "d4:d6"),  # all 64 squares, named
    "canadian": ("W:W50:B44", "50x37"),  # 12x12
}

# Variants where the side without a legal move wins (rule book A1).
NO_MOVE_WINS = {"antidraughts"}


def winner_of(fen: str, variant: str = "thai") -> int:
    """Who wins after the final move of ``fen`` (0 white, 1 black): the side
    to move in the FEN, or its opponent where having no move wins."""
    mover = 0 if fen.startswith("W") else 1
    return 1 - mover if variant in NO_MOVE_WINS else mover


def mover_reward(variant: str) -> float:
    """The reward of the player making the final move."""
    return -1.0 if variant in NO_MOVE_WINS else 1.0
