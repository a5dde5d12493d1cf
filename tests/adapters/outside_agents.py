"""Outside agents for the tests: module:function entries that return pyspiel bots."""

from __future__ import annotations

import pyspiel


class FirstLegal(pyspiel.Bot):
    """Plays the lowest legal action."""

    def __init__(self, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self.player_id = player_id

    def step(self, state):
        return state.legal_actions()[0]


class Peeking(pyspiel.Bot):
    """Reads every hand in the state it is given and plays by them: a cheat."""

    def __init__(self, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self.player_id = player_id

    def step(self, state):
        engine = state.episode.engine
        hidden = sum(c.index for seat in range(engine.players) if seat != self.player_id
                     for c in engine.hands[seat])
        legal = state.legal_actions()
        return legal[hidden % len(legal)]


class Illegal(pyspiel.Bot):
    def __init__(self) -> None:
        pyspiel.Bot.__init__(self)

    def step(self, state):
        return 10_000


def first_legal(game, player_id):
    return FirstLegal(player_id)


def peeking(game, player_id):
    return Peeking(player_id)


def illegal(game, player_id):
    return Illegal()


def not_a_bot(game, player_id):
    return 42


seeded_with: list[int] = []


def seeded(game, player_id, seed):
    seeded_with.append(seed)
    return FirstLegal(player_id)
