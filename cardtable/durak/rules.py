"""The rules of Transfer Durak as data: one ``Rules`` value per way of playing.

The preset "transfer" is exactly the agreements of the Portuguese source
(``rules/durak-transfer.pt.txt``): 2 to 6 players, 36 cards, a limit of six attack cards
also in the first round, no trump-six exchange, transfers by playing cards only and no
late transfer.  Every other field is a variation the source names or that players of
online Durak expect; each is off in the preset.

>>> from cardtable.game import rule_options
>>> PRESETS["transfer"] == Rules()
True
>>> [o.name for o in rule_options(Rules)][:3]
['pack_size', 'first_round_limit', 'first_round_transfer']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game import check_options

__all__ = ["DEFAULT_PRESET", "HAND_SIZE", "PRESETS", "ROUND_LIMIT", "ROUND_MOVES", "Rules"]

HAND_SIZE = 6
"""Hands are filled up to six cards after every round (larger hands stay)."""

ROUND_LIMIT = 6
"""No round ever holds more than six attack cards."""

ROUND_MOVES = 100
"""No round holds more than 100 moves, so a game of ``max_rounds`` rounds holds at most
``max_rounds * ROUND_MOVES``: the moves that put attack cards on the table (attacks,
throw-ins, transfers) each add one card or more, and there are at most 6; at most 6
defences; a trump shown as a passport is shown once a round (at most 13); one take; one
trump exchange a game (the lowest trump is then the face-up card).  Passes: each thrower
passes at most once between two of those moves, so at most 5 (six players) times 14
stretches.  6 + 6 + 13 + 1 + 1 + 70 = 97."""


@dataclass(frozen=True)
class Rules:
    """One way of playing Transfer Durak; the defaults are the source's agreements."""

    pack_size: int = field(default=36, metadata={
        "doc": "cards in the pack: 36 (6 to A), 24 (9 to A, 2-4 players) or 52 (2 to A)",
        "choices": (24, 36, 52)})
    first_round_limit: int = field(default=6, metadata={
        "doc": "most attack cards in the first round of a game (later rounds: 6)",
        "choices": (5, 6)})
    first_round_transfer: bool = field(default=True, metadata={
        "doc": "the defender may transfer in the first round of a game"})
    passport: bool = field(default=False, metadata={
        "doc": "transfer by showing a trump of the attacked rank, which stays in the hand "
               "(each card shown once per round)"})
    late_transfer: bool = field(default=False, metadata={
        "doc": "Kyiv: cards added after a defence may be transferred while every unbeaten "
               "attack card has one rank"})
    neighbours_only: bool = field(default=False, metadata={
        "doc": "only the attacker and the defender's two neighbours may throw in"})
    partners: bool = field(default=False, metadata={
        "doc": "4 players as 2 teams or 6 as 3 teams, partners seated apart "
               "(team = seat % teams); a team loses with its durak"})
    trump_six_exchange: bool = field(default=False, metadata={
        "doc": "the holder of the lowest trump may swap it for the face-up trump card "
               "while another card lies on it"})
    max_rounds: int = field(default=500, metadata={
        "doc": "the game is drawn when this many rounds end with no durak (with three "
               "players or more, taking in turn can go round for ever)"})

    def __post_init__(self) -> None:
        check_options(self)
        if self.max_rounds < 1:
            raise ValueError(f"rule option 'max_rounds' must be 1 or more, "
                             f"not {self.max_rounds!r}")

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players these rules allow: read from the pack and ``partners``
        (not an option of its own, unlike Pasur's)."""
        most = 6 if self.pack_size != 24 else 4
        return tuple(n for n in range(2, most + 1) if not self.partners or n in (4, 6))

    def check_players(self, players: int) -> None:
        """Refuse a number of players these rules cannot deal for, saying why."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, not {players!r}")
        allowed = self.player_counts
        if players not in allowed:
            why = ""
            if self.partners:
                why = " (partners: 4 players as 2 teams or 6 as 3 teams)"
            elif self.pack_size == 24:
                why = " (a pack of 24 cards deals six each to at most 4 players)"
            raise ValueError(f"Transfer Durak with these rules takes "
                             f"{', '.join(map(str, allowed))} players, not {players}{why}")

    def teams(self, players: int) -> int:
        """How many teams sit at the table: the players themselves without partners."""
        return players // 2 if self.partners else players


PRESETS: dict[str, Rules] = {
    "transfer": Rules(),
}
"""Named rule sets; "transfer" is the source's own."""

DEFAULT_PRESET = "transfer"
