"""Gymnasium spaces for episodes: a ``{"observation", "action_mask"}`` dict per seat."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .base import Episode

__all__ = ["action_space", "observation_space", "observe"]


def observation_space(episode: Episode, kind: str = "observation") -> spaces.Dict:
    """The space of ``observe``: a float32 tensor (counts up to 52, flags 0 or 1) and the
    int8 mask of legal actions."""
    layout = episode.layout(kind)
    high = np.ones(layout.size, np.float32)
    for name, (start, stop) in layout.offsets().items():
        if name in episode.count_pieces:
            high[start:stop] = 52.0
    return spaces.Dict({
        "observation": spaces.Box(low=0.0, high=high, shape=(layout.size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(episode.num_actions,), dtype=np.int8),
    })


def action_space(episode: Episode) -> spaces.Discrete:
    return spaces.Discrete(episode.num_actions)


def observe(episode: Episode, seat: int, kind: str = "observation",
            to_act: bool = True) -> dict[str, np.ndarray]:
    """``seat``'s observation; the mask is all zeros unless ``seat`` is to act."""
    mask = episode.legal_mask() if to_act and episode.current_player() == seat \
        else np.zeros(episode.num_actions, np.int8)
    return {"observation": episode.tensor(seat, kind), "action_mask": mask}
