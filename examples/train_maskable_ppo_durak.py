"""Train a masked Transfer Durak policy with sb3-contrib's MaskablePPO against the ladder's
lower levels, and export it as numpy weights that play without torch.

Why MaskablePPO: as for Pasur (``train_maskable_ppo.py``): maintained, it takes the
action mask, and PPO is the usual first baseline at this budget.

Durak numbers 3,200 actions, of which a few are legal at a time, so the learner chooses a
*slot*: the k-th legal move in action order (``cardtable.adapters.durak.SLOTS`` of them).
Its input is the observation tensor and, per slot, what the move spends
(``DurakMoveFeatures``: read from the seat's own legal moves and public counts).  The
actor scores every slot with one small network shared by the slots; the critic is an MLP.
The learner plays two-player Transfer Durak (``cardtable/TransferDurak-v0``) in both seats
against ``--opponents`` (``beginner`` and ``easy``).  Training stops after
``--cpu-minutes`` of this process's CPU time (evaluations not counted).  Every
``--eval-every`` steps the deterministic policy plays ``--eval-deals`` deals in both seats
against ``beginner``; the curve goes to ``--curve`` (JSON) and the weights of the best
evaluation to ``--export`` (npz: ``cardtable.adapters.learned.SlotPolicy``).

    pip install -e ".[learn]"
    nice python examples/train_maskable_ppo_durak.py --cpu-minutes 30 \\
        --export cardtable/adapters/data/durak_maskable_ppo.npz \\
        --curve cardtable/adapters/data/durak_maskable_ppo.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from cardtable.adapters.durak import PER_MOVE, SLOTS, DurakMoveFeatures
from cardtable.adapters.gymnasium import DurakEnv
from cardtable.adapters.learned import SlotPolicy

MOVES = SLOTS * PER_MOVE


class Slots(gymnasium.Wrapper):
    """Actions are slots (the k-th legal move); the observation tensor with each slot's
    features after it; ``action_masks()`` for MaskablePPO."""

    def __init__(self, env: DurakEnv) -> None:
        super().__init__(env)
        self.features = DurakMoveFeatures()
        size = env.observation_space["observation"].shape[0] + MOVES
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(SLOTS)
        self._actions: list[int] = []

    def _obs(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        features, self._actions = self.features(self.env.unwrapped.episode)
        return np.concatenate([obs["observation"], features.ravel()])

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict]:
        obs, info = self.env.reset(**kwargs)
        return self._obs(obs), info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(self._actions[int(action)])
        return self._obs(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(SLOTS, bool)
        mask[:len(self._actions)] = True
        return mask


class PerMoveHead(torch.nn.Module):
    """The actor's logits: one small network shared by the slots scores each legal move
    from its features."""

    def __init__(self, inputs: int, hidden: int = 32) -> None:
        super().__init__()
        self.base = inputs - MOVES
        self.move = torch.nn.Sequential(torch.nn.Linear(PER_MOVE, hidden), torch.nn.Tanh(),
                                        torch.nn.Linear(hidden, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        moves = x[:, self.base:self.base + MOVES].reshape(-1, SLOTS, PER_MOVE)
        return self.move(moves).squeeze(-1)


class PerMovePolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with ``PerMoveHead`` for the actor (the critic an MLP)."""

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = PerMoveHead(self.features_dim)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


def export(model: MaskablePPO) -> dict[str, np.ndarray]:
    """The actor as numpy arrays (``SlotPolicy``'s format)."""
    head = model.policy.action_net

    def array(t: torch.Tensor) -> np.ndarray:
        return t.detach().cpu().numpy().astype(np.float32)

    return {"move_w0": array(head.move[0].weight), "move_b0": array(head.move[0].bias),
            "move_w1": array(head.move[2].weight), "move_b1": array(head.move[2].bias),
            "base": np.array([head.base], np.int64)}


def evaluate(weights: dict[str, np.ndarray], deals: list[int], opponent: str) -> dict:
    """The policy (numpy, argmax) in both seats of each deal against ``opponent``: its
    durak rate, and its mean return per deal pair with a 95% interval."""
    policy = SlotPolicy(weights)
    per_deal, duraks, games = [], 0, 0
    for seed in deals:
        total = 0.0
        for seat in (0, 1):
            env = Slots(DurakEnv(opponent=opponent, seat=seat))
            obs, _ = env.reset(seed=seed)
            done, reward = False, 0.0
            while not done:
                obs, reward, terminated, truncated, _ = env.step(
                    policy.act(obs, env.action_masks()))
                done = terminated or truncated
            total += reward
            duraks += reward < 0
            games += 1
        per_deal.append(total / 2)
    mean = float(np.mean(per_deal))
    half = 1.96 * float(np.std(per_deal, ddof=1)) / math.sqrt(len(per_deal))
    return {"return": mean, "low": mean - half, "high": mean + half,
            "durak_rate": duraks / games, "deals": len(deals)}


class Budget(BaseCallback):
    """Stops at the CPU budget; evaluates every ``every`` steps, keeps the best weights."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__()
        self.args = args
        self.spent = 0.0
        self.mark = time.process_time()
        self.next_eval = 0
        self.curve: list[dict] = []
        self.best: tuple[float, dict[str, np.ndarray]] | None = None
        self.deals = [10**9 + k for k in range(args.eval_deals)]

    def _evaluate(self) -> None:
        weights = export(self.model)
        started = time.process_time()
        result = evaluate(weights, self.deals, "beginner")
        result.update(steps=self.num_timesteps, cpu_minutes=round(self.spent / 60, 2),
                      eval_cpu_seconds=round(time.process_time() - started, 1))
        self.curve.append(result)
        print(json.dumps(result), flush=True)
        if self.best is None or result["return"] > self.best[0]:
            self.best = (result["return"], weights)
            np.savez(self.args.export, **weights)
        Path(self.args.curve).write_text(json.dumps({
            "command": self.args.command, "curve": self.curve,
            "torch_threads": torch.get_num_threads()}, indent=1))

    def _on_step(self) -> bool:
        now = time.process_time()
        self.spent += now - self.mark
        self.mark = now
        if self.num_timesteps >= self.next_eval:
            self._evaluate()
            self.next_eval += self.args.eval_every
            self.mark = time.process_time()
        return self.spent < self.args.cpu_minutes * 60

    def _on_training_end(self) -> None:
        self._evaluate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-minutes", type=float, default=2.0)
    parser.add_argument("--opponents", default="beginner,easy")
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--export", default="durak_maskable_ppo.npz")
    parser.add_argument("--curve", default="durak_maskable_ppo.json")
    args = parser.parse_args()
    args.command = "python examples/train_maskable_ppo_durak.py " + " ".join(sys.argv[1:])
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    opponents = args.opponents.split(",")

    def maker(opponent: str, seat: int):
        return lambda: Slots(DurakEnv(opponent=opponent, seat=seat))

    env = DummyVecEnv([maker(o, seat) for o in opponents for seat in (0, 1)])
    model = MaskablePPO(PerMovePolicy, env, n_steps=512, batch_size=256, n_epochs=4,
                        learning_rate=1e-3, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
                        policy_kwargs={"net_arch": {"pi": [], "vf": [128, 128]}},
                        seed=args.seed, verbose=0)
    budget = Budget(args)
    model.learn(total_timesteps=10**9, callback=budget)
    print(f"trained {budget.spent / 60:.1f} CPU minutes, {model.num_timesteps} steps; "
          f"best {budget.best[0] if budget.best else float('nan'):+.3f} return a game "
          f"against beginner")


if __name__ == "__main__":
    main()
