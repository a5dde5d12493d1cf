"""Train a masked Pasur policy with sb3-contrib's MaskablePPO against the ladder's lower
levels, and export it as numpy weights that play without torch.

Why MaskablePPO: it is maintained (Stable-Baselines3's contrib package), it takes the
action mask our environments already give (``env.action_masks()``), so the policy never
spends an action on an illegal move, and PPO is the usual first baseline for card games
with a few hundred thousand decisions of budget.

The learner plays one hand of standard two-player Pasur (``cardtable/Pasur-v0``) in both
seats, against ``beginner`` and ``easy`` (``--opponents``), one environment each.  Its
input is the observation tensor and what each held card would do, read from that tensor
(``cardtable.adapters.pasur.PasurFeatures``).  Training stops after ``--cpu-minutes`` of
this process's CPU time (evaluations not counted).  Every ``--eval-every`` steps the
deterministic policy plays ``--eval-deals`` deals in both seats against ``beginner`` (the
same deals each time); the curve goes to ``--curve`` (JSON) and the best weights to
``--export`` (npz: ``cardtable.adapters.learned.MLPPolicy``).

    pip install -e ".[learn]"
    python examples/train_maskable_ppo.py --cpu-minutes 2            # a quick look
    nice python examples/train_maskable_ppo.py --cpu-minutes 30 \\
        --export cardtable/adapters/data/pasur_maskable_ppo.npz \\
        --curve cardtable/adapters/data/pasur_maskable_ppo.json  # the shipped weights
"""

from __future__ import annotations

import argparse
import json
import math
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

from cardtable.adapters.gymnasium import PasurEnv
from cardtable.adapters.learned import MLPPolicy
from cardtable.adapters.pasur import PER_CARD, PasurFeatures

FEATURES = 52 * PER_CARD + 54


class WithFeatures(gymnasium.Wrapper):
    """The observation tensor with ``PasurFeatures`` after it; rewards in tens of points;
    ``action_masks()`` for MaskablePPO."""

    def __init__(self, env: PasurEnv) -> None:
        super().__init__(env)
        self.features = PasurFeatures(env.episode)
        size = env.observation_space["observation"].shape[0] + self.features.size
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self._mask = np.zeros(env.action_space.n, np.int8)

    def _obs(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        self._mask = obs["action_mask"]
        x = obs["observation"]
        return np.concatenate([x, self.features(x)])

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict]:
        obs, info = self.env.reset(**kwargs)
        return self._obs(obs), info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            info["points"] = reward
        return self._obs(obs), reward / 10.0, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)


class PerCardHead(torch.nn.Module):
    """The actor's logits: one small network shared by the 52 cards scores playing each
    from that card's features, a weight each for the capture-choice flags, and a bias per
    action (what is particular to a card, such as keeping a jack)."""

    def __init__(self, inputs: int, hidden: int = 32) -> None:
        super().__init__()
        self.base = inputs - FEATURES
        self.card = torch.nn.Sequential(torch.nn.Linear(PER_CARD, hidden), torch.nn.Tanh(),
                                        torch.nn.Linear(hidden, 1))
        self.take = torch.nn.Parameter(torch.zeros(1))
        self.stop = torch.nn.Parameter(torch.zeros(1))
        self.bias = torch.nn.Parameter(torch.zeros(105))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        at = self.base
        cards = x[:, at:at + 52 * PER_CARD].reshape(-1, 52, PER_CARD)
        takes = x[:, at + 52 * PER_CARD:at + 52 * PER_CARD + 52]
        stop = x[:, -2:-1]
        logits = torch.cat([self.card(cards).squeeze(-1), self.take * takes, self.stop * stop],
                           dim=1)
        return logits + self.bias


class PerCardPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with ``PerCardHead`` for the actor (the critic an MLP)."""

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = PerCardHead(self.features_dim)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


def export(model: MaskablePPO) -> dict[str, np.ndarray]:
    """The actor as numpy arrays (``MLPPolicy``'s format)."""
    head = model.policy.action_net

    def array(t: torch.Tensor) -> np.ndarray:
        return t.detach().cpu().numpy().astype(np.float32)

    return {"card_w0": array(head.card[0].weight), "card_b0": array(head.card[0].bias),
            "card_w1": array(head.card[2].weight), "card_b1": array(head.card[2].bias),
            "take": array(head.take), "stop": array(head.stop), "bias": array(head.bias),
            "base": np.array([head.base], np.int64)}


def evaluate(weights: dict[str, np.ndarray], deals: list[int], opponent: str) -> dict:
    """The policy (numpy, argmax) in both seats of each deal against ``opponent``: mean
    points difference per hand, per deal pair, with a 95% interval."""
    policy = MLPPolicy(weights)
    per_deal = []
    for seed in deals:
        total = 0.0
        for seat in (0, 1):
            env = WithFeatures(PasurEnv(opponent=opponent, seat=seat))
            obs, _ = env.reset(seed=seed)
            done, reward = False, 0.0
            while not done:
                obs, reward, terminated, truncated, _ = env.step(
                    policy.act(obs, env.action_masks()))
                done = terminated or truncated
            total += reward * 10.0
        per_deal.append(total / 2)
    mean = float(np.mean(per_deal))
    half = 1.96 * float(np.std(per_deal, ddof=1)) / math.sqrt(len(per_deal))
    return {"points": mean, "low": mean - half, "high": mean + half, "deals": len(deals)}


class Budget(BaseCallback):
    """Stops at the CPU budget; evaluates every ``every`` steps, keeps the best weights."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__()
        self.args = args
        self.spent = 0.0           # training CPU seconds
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
        if self.best is None or result["points"] > self.best[0]:
            self.best = (result["points"], weights)
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
            self.mark = time.process_time()     # evaluations are not training
        return self.spent < self.args.cpu_minutes * 60

    def _on_training_end(self) -> None:
        self._evaluate()


def main() -> None:
    import sys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-minutes", type=float, default=2.0)
    parser.add_argument("--opponents", default="beginner,easy")
    parser.add_argument("--eval-every", type=int, default=100_000)
    parser.add_argument("--eval-deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--export", default="pasur_maskable_ppo.npz")
    parser.add_argument("--curve", default="pasur_maskable_ppo.json")
    args = parser.parse_args()
    args.command = "python examples/train_maskable_ppo.py " + " ".join(sys.argv[1:])
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    opponents = args.opponents.split(",")

    def maker(opponent: str, seat: int):
        return lambda: WithFeatures(PasurEnv(opponent=opponent, seat=seat))

    env = DummyVecEnv([maker(o, seat) for o in opponents for seat in (0, 1)])
    model = MaskablePPO(PerCardPolicy, env, n_steps=512, batch_size=256, n_epochs=4,
                        learning_rate=1e-3, gamma=1.0, gae_lambda=0.95, ent_coef=0.01,
                        policy_kwargs={"net_arch": {"pi": [], "vf": [128, 128]}},
                        seed=args.seed, verbose=0)
    budget = Budget(args)
    model.learn(total_timesteps=10**9, callback=budget)
    print(f"trained {budget.spent / 60:.1f} CPU minutes, {model.num_timesteps} steps; "
          f"best {budget.best[0] if budget.best else float('nan'):+.2f} points a hand "
          f"against beginner")


if __name__ == "__main__":
    main()
