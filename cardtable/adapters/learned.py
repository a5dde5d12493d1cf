"""A policy learned with a maintained RL library, played without it: features, the
network's forward pass in numpy, and the bot ``learned`` that plays the shipped weights.

The policy is trained with sb3-contrib's MaskablePPO (``examples/train_maskable_ppo.py``
says how; docs/research.md gives its curve).
Its input is the seat's observation tensor and, beside it, what each card in the hand
would do, read from that tensor alone (``PasurFeatures``): the best it takes now, and what
it leaves the next player on the table.  Playing it needs numpy only: the weights are
exported from torch to ``data/*.npz``.

>>> from cardtable.adapters.pasur import PasurEpisode
>>> import random
>>> episode = PasurEpisode()
>>> episode.apply_chance(random.Random(2))
>>> features = PasurFeatures(episode)
>>> x = features(episode.tensor(0))
>>> x.shape, int(x[:52 * PER_CARD].reshape(52, PER_CARD)[:, 0].sum())   # 4 cards held
((470,), 4)
"""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .. import bots, games
from ..game import GameState
from ..pasur import Rules, move_options, sur_cards
from ..pasur.scoring import CLUBS_MASK, card_points
from .base import Episode

__all__ = ["LearnedBot", "MLPPolicy", "PasurFeatures", "feature_size"]

ALL = (1 << 52) - 1
PER_CARD = 8
"""Features of playing each of the 52 cards (zero for a card not held)."""


def feature_size(episode: Episode) -> int:
    """The length of ``PasurFeatures``' output for this episode's game."""
    return 52 * PER_CARD + 52 + 2


def _mask(vector: np.ndarray) -> int:
    out = 0
    for index in np.flatnonzero(vector):
        out |= 1 << int(index)
    return out


class PasurFeatures:
    """What each card would do, from a seat's observation tensor (nothing else).

    For each held card, its best move (most gained now less what the table left offers
    the next player): the points and clubs it takes, how many cards, a sur, the next
    player's expected best capture after it, and the same threat if the card were left.
    While a capture is being chosen: which table cards the best capture still takes, and
    whether stopping now makes it.
    """

    def __init__(self, episode: Episode) -> None:
        self.offsets = episode.layout("observation").offsets()
        rules: Rules = episode.rules   # type: ignore[attr-defined]
        self.rules = rules
        self.options = move_options(rules)
        self.surs = sur_cards(rules)
        self.sur_points = rules.sur_points
        self.size = feature_size(episode)
        self._threats: dict[tuple[int, int], float] = {}

    def _piece(self, x: np.ndarray, name: str) -> np.ndarray:
        start, stop = self.offsets[name]
        return x[start:stop]

    def value(self, taken: int, card_bit: int, table: int) -> float:
        """Points now: the counting cards taken with the card, and a sur."""
        if not taken:
            return 0.0
        mask = taken | card_bit
        points = card_points(mask, self.rules) + 0.25 * (mask & CLUBS_MASK).bit_count()
        if taken == table and self.surs & card_bit:
            points += self.sur_points
        return float(points)

    def threat(self, table: int, unseen: int) -> float:
        """The mean over unseen cards of the best the next player takes from ``table``."""
        if not table or not unseen:
            return 0.0
        key = (table, unseen)
        found = self._threats.get(key)
        if found is not None:
            return found
        total = 0.0
        rest = unseen
        while rest:
            low = rest & -rest
            rest ^= low
            best = 0.0
            for move in self.options(low.bit_length() - 1, table):
                if move.taken:
                    best = max(best, self.value(move.taken, low, table))
            total += best
        found = total / unseen.bit_count()
        if len(self._threats) > 200_000:
            self._threats.clear()
        self._threats[key] = found
        return found

    def best(self, index: int, table: int, unseen: int, picked: int = 0
             ) -> tuple[Any, float, float]:
        """The card's best move (among those taking every card of ``picked``), its gain
        and the threat it leaves."""
        bit = 1 << index
        chosen, best_score, best_gain, best_threat = None, -np.inf, 0.0, 0.0
        for move in self.options(index, table):
            if picked & ~move.taken:
                continue
            gain = self.value(move.taken, bit, table)
            after = table & ~move.taken if move.taken else table | bit
            threat = self.threat(after, unseen)
            if gain - threat > best_score:
                chosen, best_score, best_gain, best_threat = move, gain - threat, gain, threat
        return chosen, best_gain, best_threat

    def __call__(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        hand = _mask(self._piece(x, "hand"))
        table = _mask(self._piece(x, "table"))
        seen = hand | table | _mask(self._piece(x, "captured"))
        pending = self._piece(x, "pending")
        unseen = ALL & ~seen
        if pending.any():
            index = int(np.argmax(pending))
            picked = _mask(self._piece(x, "picked"))
            move, _, _ = self.best(index, table, unseen, picked)
            if move is not None:
                rest = move.taken & ~picked
                block = 52 * PER_CARD
                for k in range(52):
                    if rest >> k & 1:
                        out[block + k] = 1.0
                out[-2] = 1.0 if move.taken == picked else 0.0
            out[-1] = 1.0
            return out
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            index = low.bit_length() - 1
            move, gain, threat = self.best(index, table, unseen)
            if move is None:
                continue
            taken = move.taken | low if move.taken else 0
            out[index * PER_CARD:(index + 1) * PER_CARD] = (
                1.0, gain / 5.0, (taken & CLUBS_MASK).bit_count() / 4.0,
                taken.bit_count() / 4.0, 1.0 if move.taken and move.taken == table else 0.0,
                threat / 5.0, card_points(low, self.rules) / 3.0,
                self.threat(table | low, unseen) / 5.0)
        return out


class MLPPolicy:
    """The trained actor, in numpy: one small network shared by the 52 cards scores
    playing each card from its features (``PasurFeatures``), a weight each scores the
    capture-choice flags, and each action has a bias; illegal actions are masked out and
    the best legal one is played."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        names = ("card_w0", "card_b0", "card_w1", "card_b1", "take", "stop", "bias", "base")
        missing = [name for name in names if name not in weights]
        if missing:
            raise ValueError(f"the weights lack {', '.join(missing)}")
        self.w0, self.b0 = weights["card_w0"], weights["card_b0"]
        self.w1, self.b1 = weights["card_w1"], weights["card_b1"]
        self.take, self.stop = float(weights["take"][0]), float(weights["stop"][0])
        self.bias = weights["bias"]
        self.base = int(weights["base"][0])
        self.inputs = self.base + 52 * PER_CARD + 54

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        with np.load(path) as data:
            return cls(dict(data))

    def logits(self, x: np.ndarray) -> np.ndarray:
        at = self.base
        cards = x[at:at + 52 * PER_CARD].reshape(52, PER_CARD)
        hidden = np.tanh(cards @ self.w0.T + self.b0)
        out = np.empty(105, np.float32)
        out[:52] = (hidden @ self.w1.T + self.b1)[:, 0]
        out[52:104] = self.take * x[at + 52 * PER_CARD:at + 52 * PER_CARD + 52]
        out[104] = self.stop * x[-2]
        return out + self.bias

    def act(self, x: np.ndarray, mask: np.ndarray) -> int:
        logits = self.logits(x)
        logits = np.where(mask.astype(bool), logits, -np.inf)
        return int(np.argmax(logits))


def checkpoint(game: str = "pasur") -> Path:
    """The shipped weights of ``game``'s learned policy."""
    path = resources.files("cardtable.adapters") / "data" / f"{game}_maskable_ppo.npz"
    return Path(str(path))


class LearnedBot:
    """The shipped learned policy as a cardtable bot (Pasur, two players, standard
    rules: what it was trained on).  It reads its seat's observation tensor only."""

    def __init__(self, *, seed: int | random.Random | None = None, path: str | None = None,
                 name: str = "learned") -> None:
        self.name = name
        self.path = Path(path) if path else checkpoint("pasur")
        if not self.path.is_file():
            raise ValueError(f"no learned weights at {self.path}")
        self.policy = MLPPolicy.load(self.path)
        self._features: PasurFeatures | None = None

    def choose(self, state: GameState[Any]) -> Any:
        seat = state.to_move
        if seat is None:
            raise ValueError("there is no move to choose: the game is over")
        spec = games.get(state.view(None)["game"])
        if spec.name != "pasur":
            raise ValueError("the learned policy plays Pasur")
        episode = spec.plugin("episode").from_state(state)
        if self._features is None:
            self._features = PasurFeatures(episode)
        made = len(episode.moves)
        while len(episode.moves) == made:
            x = episode.tensor(seat)
            full = np.concatenate([x, self._features(x)])
            if full.shape[0] != self.policy.inputs:
                raise ValueError(f"the learned policy takes {self.policy.inputs} inputs, "
                                 f"this game gives {full.shape[0]} (other rules or players)")
            episode.apply(self.policy.act(full, episode.legal_mask()))
        return episode.moves[-1][1]


def _make_bot(*, seed: int | random.Random | None = None, **options: Any) -> LearnedBot:
    return LearnedBot(seed=seed, **options)


bots.register("learned", _make_bot)
