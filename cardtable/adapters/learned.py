"""A policy learned with a maintained RL library, played without it: features, the
network's forward pass in numpy, and the bot ``learned`` that plays the shipped weights.

The policies are trained with sb3-contrib's MaskablePPO (``examples/train_maskable_ppo.py``
for Pasur, ``examples/train_maskable_ppo_durak.py`` for Durak; docs/research.md gives
their curves).  Their input is the seat's observation tensor and, beside it, features the
game's episode gives (``Episode.learned_features``): for Pasur what each card in the hand
would do, read from that tensor alone (``PasurFeatures``, ``MLPPolicy``); for Durak what
each legal move spends (``DurakMoveFeatures``, ``SlotPolicy``, which chooses among the
legal moves by slot).  Playing them needs numpy only: the weights are exported from torch
to ``data/<game>_maskable_ppo.npz``.
"""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .. import bots, games
from ..game import GameState

__all__ = ["LearnedBot", "MLPPolicy", "SlotPolicy", "checkpoint", "load_policy"]


class MLPPolicy:
    """The trained actor, in numpy: one small network shared by the 52 cards scores
    playing each card from its features (``Episode.learned_features``), a weight each scores the
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
        self.per_card = int(self.w0.shape[1])
        self.inputs = self.base + 52 * self.per_card + 54

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        with np.load(path) as data:
            return cls(dict(data))

    def logits(self, x: np.ndarray) -> np.ndarray:
        at = self.base
        block = 52 * self.per_card
        cards = x[at:at + block].reshape(52, self.per_card)
        hidden = np.tanh(cards @ self.w0.T + self.b0)
        out = np.empty(105, np.float32)
        out[:52] = (hidden @ self.w1.T + self.b1)[:, 0]
        out[52:104] = self.take * x[at + block:at + block + 52]
        out[104] = self.stop * x[-2]
        return out + self.bias

    def act(self, x: np.ndarray, mask: np.ndarray) -> int:
        logits = self.logits(x)
        logits = np.where(mask.astype(bool), logits, -np.inf)
        return int(np.argmax(logits))


class SlotPolicy:
    """A trained actor that chooses among the legal moves by slot (Durak's: the k-th legal
    move in action order), in numpy: one small network shared by the slots scores each
    move from its features (``Episode.learned_features``); the best legal slot is played."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        names = ("move_w0", "move_b0", "move_w1", "move_b1", "base")
        missing = [name for name in names if name not in weights]
        if missing:
            raise ValueError(f"the weights lack {', '.join(missing)}")
        self.w0, self.b0 = weights["move_w0"], weights["move_b0"]
        self.w1, self.b1 = weights["move_w1"], weights["move_b1"]
        self.base = int(weights["base"][0])
        self.per_move = int(self.w0.shape[1])

    def logits(self, x: np.ndarray) -> np.ndarray:
        moves = x[self.base:].reshape(-1, self.per_move)
        return (np.tanh(moves @ self.w0.T + self.b0) @ self.w1.T + self.b1)[:, 0]

    def act(self, x: np.ndarray, mask: np.ndarray) -> int:
        logits = np.where(mask.astype(bool), self.logits(x), -np.inf)
        return int(np.argmax(logits))


def load_policy(path: str | Path) -> MLPPolicy | SlotPolicy:
    """The policy whose weights are at ``path`` (its kind read from the weights' names)."""
    with np.load(path) as data:
        weights = dict(data)
    return SlotPolicy(weights) if "move_w0" in weights else MLPPolicy(weights)


def checkpoint(game: str) -> Path:
    """The shipped weights of ``game``'s learned policy."""
    path = resources.files("cardtable.adapters") / "data" / f"{game}_maskable_ppo.npz"
    return Path(str(path))


class LearnedBot:
    """The shipped learned policy of a game as a cardtable bot (two players, each game's
    default rules: what they were trained on).  It reads its seat's observation tensor and
    features of its own legal moves only."""

    def __init__(self, *, seed: int | random.Random | None = None, path: str | None = None,
                 name: str = "learned") -> None:
        self.name = name
        self.path = Path(path) if path else None
        if self.path is not None and not self.path.is_file():
            raise ValueError(f"no learned weights at {self.path}")
        self.policy = load_policy(self.path) if self.path is not None else None
        self._features: Any = None

    def choose(self, state: GameState[Any]) -> Any:
        seat = state.to_move
        if seat is None:
            raise ValueError("there is no move to choose: the game is over")
        spec = games.get(state.view(None)["game"])
        episode = spec.plugin("episode").from_state(state)
        if self._features is None:
            self._features = episode.learned_features()   # ValueError: none for this game
        if self.policy is None:
            shipped = checkpoint(spec.name)
            if not shipped.is_file():
                raise ValueError(f"no learned policy is shipped for {spec.name}")
            self.policy = load_policy(shipped)
        if isinstance(self.policy, SlotPolicy):
            return self._choose_slot(episode, seat)
        made = len(episode.moves)
        while len(episode.moves) == made:
            x = episode.tensor(seat)
            full = np.concatenate([x, self._features(x)])
            if full.shape[0] != self.policy.inputs:
                raise ValueError(f"the learned policy takes {self.policy.inputs} inputs, "
                                 f"this game gives {full.shape[0]} (other rules or players)")
            episode.apply(self.policy.act(full, episode.legal_mask()))
        return episode.moves[-1][1]

    def _choose_slot(self, episode: Any, seat: int) -> Any:
        """One move: the best slot of the legal moves (a slot policy's moves are one
        action each)."""
        assert isinstance(self.policy, SlotPolicy)
        features, actions = self._features(episode)
        tensor = episode.tensor(seat)
        if tensor.shape[0] != self.policy.base:
            raise ValueError(f"the learned policy reads a tensor of {self.policy.base} "
                             f"floats, this game gives {tensor.shape[0]} (other rules or "
                             "players)")
        x = np.concatenate([tensor, features.ravel()])
        mask = np.zeros(len(features), bool)
        mask[:len(actions)] = True
        episode.apply(actions[self.policy.act(x, mask)])
        return episode.moves[-1][1]


def _make_bot(*, seed: int | random.Random | None = None, **options: Any) -> LearnedBot:
    return LearnedBot(seed=seed, **options)


bots.register("learned", _make_bot)
