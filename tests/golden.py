"""Golden games: recorded games of every preset and of the main variations, with the
moves, the result and a digest of every view along the way.

They play the role of python-chess's perft files: any change to the engines that changes
a deal, a legal move, a score or anything a seat or a watcher sees shows up as a golden
game that no longer replays the same.  The files under ``tests/data/golden`` were made once
by ``python tests/golden.py`` (bots playing, seeded) and are only ever read by the tests;
make them again only for a deliberate change of the rules or the views, and say why in the
commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from cardtable import bots, games, records

FOLDER = Path(__file__).parent / "data" / "golden"

CASES: list[tuple[str, str, dict[str, Any], int, int]] = [
    # (game, preset, options, players, seed)
    ("pasur", "standard", {}, 2, 1),
    ("pasur", "standard", {}, 2, 2),
    ("pasur", "wikipedia", {}, 2, 3),
    ("pasur", "wikipedia", {}, 3, 4),
    ("pasur", "wikipedia", {}, 4, 5),
    ("pasur", "turkish", {}, 2, 6),
    ("pasur", "turkish", {}, 4, 7),
    ("pasur", "multicapture", {}, 3, 8),
    ("pasur", "standard", {"opening_jacks": "redeal", "sur_by": "any",
                           "king_queen_take_all": True}, 2, 9),
    ("pasur", "standard", {"jack": "eleven", "sur_scoring": "each", "kids": True}, 2, 10),
    ("durak", "transfer", {}, 2, 11),
    ("durak", "transfer", {}, 3, 12),
    ("durak", "transfer", {}, 4, 13),
    ("durak", "transfer", {}, 6, 14),
    ("durak", "transfer", {"passport": True, "late_transfer": True}, 3, 15),
    ("durak", "transfer", {"partners": True, "neighbours_only": True}, 4, 16),
    ("durak", "transfer", {"pack_size": 24, "trump_six_exchange": True}, 3, 17),
    ("durak", "transfer", {"pack_size": 52, "first_round_limit": 5,
                           "first_round_transfer": False}, 5, 18),
]
"""Every preset, every player count the presets allow, and the variations in use."""


def view_digest(state: Any) -> str:
    """A digest of what the watcher and every seat see now."""
    views = [state.view(None), *(state.view(seat) for seat in range(state.players))]
    text = json.dumps(views, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests(record: records.Record) -> list[str]:
    """The view digest at the start and after every move of a record's replay."""
    return [view_digest(state) for _, _, state in record.states()]


def path_of(case: tuple[str, str, dict[str, Any], int, int]) -> Path:
    game, preset, options, players, seed = case
    tag = "-".join(f"{k}={v}" for k, v in sorted(options.items())) or "preset"
    return FOLDER / f"{game}-{preset}-{players}p-{tag}-seed{seed}.json"


def make(case: tuple[str, str, dict[str, Any], int, int]) -> records.Record:
    """Play one golden game with seeded bots (greedy and random seats mixed)."""
    game, preset, options, players, seed = case
    spec = games.get(game)
    state = spec.start(spec.rules(preset, options), players=players, seed=seed)
    kinds = ["greedy" if seat % 2 == 0 else "random" for seat in range(players)]
    players_ = [bots.make(kind, seed=seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not state.is_over():
        state.push(players_[state.to_move].choose(state))
    record = records.record_of(state, game, seats=[{"bot": kind} for kind in kinds])
    record.finished = None   # no clock time in a golden file
    record.extra["digests"] = digests(record)
    return record


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        record = make(case)
        record.save(path_of(case))
        print(path_of(case).name, len(record.moves), "moves", file=sys.stderr)


if __name__ == "__main__":
    main()
