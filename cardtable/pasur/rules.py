"""The rules of Pasur: one option per rule point, and one preset per source.

Every rule point of the team's rules digest (VARIANTS.md, kept with the rule sources
outside this repository) and every variation the sources name is a field of ``Rules``.
The four presets are the four sources; ``standard`` (playpasur.com, the Persian
reference) is the default everywhere.

>>> PRESETS["standard"].target, PRESETS["turkish"].target
(62, 51)
>>> PRESETS["turkish"].forced_capture
False
>>> Rules(jack="wild")
Traceback (most recent call last):
...
ValueError: rule option 'jack' must be one of ['sweep', 'sweep_all', 'eleven'], not 'wild'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..game import check_options

__all__ = ["DEFAULT_PRESET", "PRESETS", "Rules"]


def _option(default: Any, doc: str, choices: tuple[Any, ...] | None = None) -> Any:
    metadata: dict[str, Any] = {"doc": doc}
    if choices is not None:
        metadata["choices"] = choices
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class Rules:
    """A complete Pasur rule set.  The defaults are the standard (playpasur) game.

    Change options with ``dataclasses.replace`` or ``cardtable.game.rules_with``; every
    value is checked when the rules are made, so a bad one fails early with its name.
    """

    # -- players and seats ------------------------------------------------------------
    player_counts: tuple[int, ...] = field(default=(2,), metadata={
        "doc": "how many players these rules allow (2 to 4); standard is a two-player game",
        "each_of": (2, 3, 4)})
    teams_of_four: bool = _option(
        True, "four players play as two teams of partners facing (side = seat % 2)")
    dealer_leads: bool = _option(
        False, "the dealer leads the hand (turkish); otherwise the player after the dealer")
    clockwise: bool = _option(
        False, "turn order is drawn clockwise (display only: seat order is turn order)")
    # -- the opening table --------------------------------------------------------------
    opening_jacks: str = _option(
        "replace", "a jack among the 4 opening table cards: replace it from the stock, "
        "replace a single one (a second jack redeals), redeal, deal the table again (its "
        "cards back into the stock; the hands stay), or let it stay",
        ("replace", "replace_one", "redeal", "redeal_table", "stay"))
    opening_same_face_redeal: int = field(default=0, metadata={
        "doc": "redeal when this many queens, or this many kings, open the table (0: never)",
        "values": (0, 2, 3, 4)})
    opening_any_face_redeal: bool = _option(
        False, "redeal when any J, Q or K opens the table (a playpasur family variation)")
    # -- captures -----------------------------------------------------------------------
    forced_capture: bool = _option(
        True, "a card that can capture must capture (another card may be played instead)")
    multi_sets: bool = _option(
        False, "a number card may take several disjoint sets at once, each making 11 with it")
    king_queen_take_all: bool = _option(
        False, "a king takes every king on the table and a queen every queen, not just one")
    jack: str = _option(
        "sweep", "a jack takes every number card and jack (sweep), every card (sweep_all), "
        "or counts 11 and takes a jack or number cards summing to 11 (eleven)",
        ("sweep", "sweep_all", "eleven"))
    kids: bool = _option(
        False, "kids' pasur: no sums to 11; a number card takes a table card of its own rank")
    # -- surs ---------------------------------------------------------------------------
    sur_by: str = _option(
        "number", "which captures that clear the table are surs: by a number card only, "
        "by a number card or a jack, by any card but a jack, or by any card",
        ("number", "number_or_jack", "not_jack", "any"))
    sur_in_last_deal: bool = _option(
        False, "surs made in the last deal round count")
    sur_scoring: str = _option(
        "net", "net: each side scores for its surs beyond the most of any other side; "
        "each: every sur scores", ("net", "each"))
    sur_points: int = _option(5, "points per scoring sur")
    sur_cap: int | None = _option(
        None, "a side with this many match points or more scores nothing for surs "
        "(None: no cap)")
    # -- scoring ------------------------------------------------------------------------
    bonus: str = _option(
        "clubs", "the big bonus goes to the side with the most clubs, or the most cards",
        ("clubs", "cards"))
    bonus_points: int = _option(7, "points of the big bonus (a tie for most gives it to nobody)")
    bonus_minimum: int = _option(
        7, "the bonus also needs at least this many clubs or cards (0: no minimum)")
    ace_points: int = _option(1, "points per ace")
    jack_points: int = _option(1, "points per jack")
    two_clubs_points: int = _option(2, "points for the 2♣")
    ten_diamonds_points: int = _option(3, "points for the 10♦ (2 in some families)")
    seven_diamonds_points: int = _option(0, "points for the 7♦ (1 in some local rules)")
    # -- the match ----------------------------------------------------------------------
    target: int = _option(
        62, "a side reaching this total at the end of a hand wins (the higher total if "
        "several do; a tie at the top plays another hand)")
    fixed_hands: int | None = _option(
        None, "play exactly this many hands instead of to a target (a tie plays on); "
        "None: play to the target")
    max_hands: int = _option(
        200, "the match is drawn when no side has won after this many hands (so that no "
        "rule set plays forever)")

    def __post_init__(self) -> None:
        counts = self.player_counts
        if isinstance(counts, int):
            counts = (counts,)
        try:
            counts = tuple(sorted(set(counts)))
        except TypeError:
            raise ValueError(f"player_counts must be a list of player counts, "
                             f"not {counts!r}") from None
        if not counts or any(type(n) is not int or n not in (2, 3, 4) for n in counts):
            raise ValueError(f"player_counts must be some of 2, 3 and 4, not {counts!r}")
        object.__setattr__(self, "player_counts", counts)
        check_options(self)
        if self.opening_same_face_redeal not in (0, 2, 3, 4):
            raise ValueError("rule option 'opening_same_face_redeal' is 0 (never) or 2, 3 "
                             f"or 4 cards of one face rank, not {self.opening_same_face_redeal!r}")
        if self.target < 1:
            raise ValueError(f"rule option 'target' must be 1 or more, not {self.target!r}")
        if self.fixed_hands is not None and self.fixed_hands < 1:
            raise ValueError("rule option 'fixed_hands' must be 1 or more (or None), "
                             f"not {self.fixed_hands!r}")
        if self.max_hands < 1:
            raise ValueError(f"rule option 'max_hands' must be 1 or more, not {self.max_hands!r}")
        if self.fixed_hands is not None and self.fixed_hands > self.max_hands:
            raise ValueError(f"rule option 'fixed_hands' ({self.fixed_hands}) cannot be more "
                             f"than 'max_hands' ({self.max_hands})")

    @property
    def scores_points(self) -> bool:
        """Whether a hand can score a point at all: some counting card is worth points, or
        the bonus can be won (its minimum is within the 13 clubs or the 52 cards), or a sur
        scores (and the sur cap is not 0).  When none can, a match ends drawn instead of
        playing 0-0 hands forever (``Match``).

        >>> Rules().scores_points, Rules(ace_points=0, jack_points=0, two_clubs_points=0,
        ...     ten_diamonds_points=0, bonus_points=0, sur_points=0).scores_points
        (True, False)
        """
        cards = (self.ace_points, self.jack_points, self.two_clubs_points,
                 self.ten_diamonds_points, self.seven_diamonds_points)
        bonus = self.bonus_points > 0 and self.bonus_minimum <= (13 if self.bonus == "clubs"
                                                                 else 52)
        surs = self.sur_points > 0 and self.sur_cap != 0
        return any(cards) or bonus or surs

    def sides(self, players: int) -> int:
        """How many scoring sides ``players`` players form under these rules."""
        return 2 if players == 4 and self.teams_of_four else players

    def check_players(self, players: int) -> None:
        """Refuse a player count these rules do not allow, saying which ones they do."""
        if players not in self.player_counts:
            allowed = " or ".join(str(n) for n in self.player_counts)
            preset = next((name for name, rules in PRESETS.items() if rules == self), None)
            what = f"the {preset} rules" if preset else "these rules"
            hint = ""
            if preset == "standard":
                hint = ("; the standard game is for two (its four-player team form is a "
                        "family variation: set player_counts=(2, 4)), or choose the "
                        "'wikipedia', 'turkish' or 'multicapture' preset")
            raise ValueError(f"{what} are for {allowed} players, not {players!r}"
                             f" (player_counts={self.player_counts}){hint}")


_STANDARD = Rules()

PRESETS: dict[str, Rules] = {
    # playpasur.com, the Persian reference: the defaults above.
    "standard": _STANDARD,
    # The English Wikipedia article.
    "wikipedia": dataclasses.replace(
        _STANDARD, player_counts=(2, 3, 4), teams_of_four=False, clockwise=True,
        opening_jacks="replace_one", sur_by="not_jack", sur_scoring="each",
        bonus_minimum=0, target=60),
    # The Turkish-origin "Passur" (Portuguese text).
    "turkish": dataclasses.replace(
        _STANDARD, player_counts=(2, 3, 4), teams_of_four=False, dealer_leads=True,
        opening_jacks="redeal", opening_same_face_redeal=3, forced_capture=False,
        jack="sweep_all", sur_by="not_jack", sur_in_last_deal=True, bonus="cards",
        bonus_minimum=0, target=51),
    # The Portuguese how-to with its multi-set captures.
    "multicapture": dataclasses.replace(
        _STANDARD, player_counts=(2, 3, 4), opening_jacks="replace_one",
        opening_same_face_redeal=2, multi_sets=True, king_queen_take_all=True,
        sur_by="any", sur_in_last_deal=True, sur_scoring="each"),
}
"""One rule set per source; see docs/pasur.md for the table."""

DEFAULT_PRESET = "standard"
