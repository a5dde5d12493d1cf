"""What every hand under one rule set and player count shares, worked out once."""

from __future__ import annotations

from ._options import OptionMemory
from .captures import FACE_MASK, JACK_MASK
from .rules import Rules
from .scoring import sur_cards

__all__ = ["SETUPS", "Setup", "setup_of"]


class Setup:
    """The seating and the rules' parts that a hand reads on every move."""

    __slots__ = ("dealers", "following", "memory", "opening", "rules", "side", "sides",
                 "sur_cards")

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.sides = sides = rules.sides(players)
        self.memory = OptionMemory.of(rules)
        self.side: tuple[int, ...] = tuple(seat % sides for seat in range(players))
        """Each seat's side."""
        self.following: tuple[int, ...] = tuple((seat + 1) % players for seat in range(players))
        """The seat after each seat."""
        self.sur_cards = sur_cards(rules)
        """The cards whose table-clearing capture is a sur (``scoring.sur_cards``)."""
        if rules.opening_any_face_redeal or rules.opening_same_face_redeal:
            opening = FACE_MASK
        else:
            opening = 0 if rules.opening_jacks == "stay" else JACK_MASK
        self.opening = opening
        """The opening table cards the opening-table rule may act on (a jack, or any face)."""
        self.dealers: tuple[int, ...] = tuple(
            seat if rules.dealer_leads else (seat - 1) % players for seat in range(players))
        """The dealer of a hand each seat leads."""


SETUPS: dict[int, Setup] = {}
"""Per rules and players (``id(rules) << 3 | players``)."""


def setup_of(rules: Rules, players: int) -> Setup:
    """The setup of ``rules`` for ``players`` (found by identity: hashing rules costs more
    than dealing); refuses rules of another game and a player count they do not allow."""
    setup = SETUPS.get(id(rules) << 3 | players)
    if setup is None or setup.rules is not rules:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a pasur Rules, not {rules!r}")
        rules.check_players(players)
        setup = Setup(rules, players)
        if len(SETUPS) > 64:
            SETUPS.clear()
        SETUPS[id(rules) << 3 | players] = setup
    return setup
