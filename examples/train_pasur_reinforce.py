"""Train a small Pasur policy with REINFORCE (numpy only) and plot its learning curve.

The learner sits in seat 0 of ``cardtable/Pasur-v0`` (one hand of standard Pasur, two
players) against cardtable's random bot.  The method is the textbook one (Williams 1992;
Sutton and Barto, chapter 13): a softmax policy linear in features of (state, action),
trained by Monte Carlo policy gradient with a learned baseline, here a linear value of the
observation tensor, with Adam steps.

The features are computed from the environment's observation tensor only (the hand, the
table, the card being played): for playing a card, what it would take from the table
(found with the engine's public ``capture_options``: how many cards, their points, their
clubs, a sur) or what it leaves there, and the table's cards by rank in a block of the
played card's rank; for naming a card to take, its rank, club and points in a block of
the played card's rank.  About 500 weights, all zero at the start: the untrained policy is
the uniformly random player.

Every ``--eval-every`` hands the greedy (argmax) policy plays the same ``--eval-deals``
deals; the plot shows its mean points difference per hand, beside two references measured
on those deals: a random player in seat 0, and cardtable's "greedy" bot in seat 0.

    python examples/train_pasur_reinforce.py --weights pasur_reinforce.npz \
        --out pasur_reinforce.png

It needs the research extra; the plot (``--out``) needs matplotlib too (the arena extra).
The learned weights go to ``--weights`` (numpy's npz: ``theta`` the policy, ``value`` the
baseline).  About two minutes on two cores with the defaults (8000 training hands).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardtable import bots
from cardtable.adapters.gymnasium import PasurEnv
from cardtable.cards import CARDS
from cardtable.pasur import capture_options

RANK = np.arange(52) // 4 + 1          # actions 0..51 and table cards by card.index
CLUB = (np.arange(52) % 4 == 0).astype(float)
POINTS = np.array([1.0 if c.rank in (1, 11) else 0.0 for c in CARDS])
POINTS[[c.index for c in CARDS if c.text in ("2♣", "10♦")]] = (2.0, 3.0)


class ActionFeatures:
    """psi(x, a): features of an action in a state, read from the observation tensor."""

    TAKES, PER_RANK, PER_NAME = 8, 18, 17

    def __init__(self, env: PasurEnv) -> None:
        self.offsets = env.episode.layout("observation").offsets()
        self.rules = env.episode.rules
        self.size = self.TAKES + 13 * self.PER_RANK + 13 * self.PER_NAME + 2

    def piece(self, x: np.ndarray, name: str) -> np.ndarray:
        start, stop = self.offsets[name]
        return x[start:stop]

    def __call__(self, x: np.ndarray, action: int) -> np.ndarray:
        f = np.zeros(self.size)
        table = np.flatnonzero(self.piece(x, "table"))
        if action < 52:                                   # play a card
            f[:self.TAKES] = self.takes(action, table)
            block = self.TAKES + (RANK[action] - 1) * self.PER_RANK
            f[block] = 1.0
            f[block + 1:block + 14] = np.bincount(RANK[table] - 1, minlength=13)
            f[block + 14:block + 18] = (len(table) / 4, CLUB[table].sum() / 4,
                                        POINTS[table].sum() / 4, POINTS[action])
        elif action < 104:                                # name a table card to take
            taken = action - 52
            playing = int(np.argmax(self.piece(x, "pending")))
            block = self.TAKES + 13 * self.PER_RANK + (RANK[playing] - 1) * self.PER_NAME
            f[block] = 1.0
            f[block + RANK[taken]] = 1.0
            f[block + 14:block + 17] = (CLUB[taken], POINTS[taken], 1.0)
        else:                                             # stop
            f[-2:] = (1.0, self.piece(x, "picked").sum())
        return f

    def takes(self, card: int, table: np.ndarray) -> np.ndarray:
        """What playing ``card`` does: its best capture, or what it leaves on the table."""
        options = capture_options(CARDS[card], [CARDS[i] for i in table], self.rules)
        out = np.zeros(self.TAKES)
        if not options:
            out[:3] = (1.0, POINTS[card], (len(table) + 1) / 4)
            return out
        best = [c.index for c in max(options, key=lambda o: (sum(POINTS[c.index] for c in o),
                                                             len(o)))]
        out[3:] = (1.0, (len(best) + 1) / 4, POINTS[best].sum() + POINTS[card],
                   (CLUB[best].sum() + CLUB[card]) / 2,
                   1.0 if len(best) == len(table) and RANK[card] <= 10 else 0.0)
        return out


class Adam:
    """Adam ascent steps for one parameter vector."""

    def __init__(self, size: int, lr: float) -> None:
        self.lr, self.m, self.v, self.t = lr, np.zeros(size), np.zeros(size), 0

    def step(self, param: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        param += self.lr * (self.m / (1 - 0.9 ** self.t)) / (
            np.sqrt(self.v / (1 - 0.999 ** self.t)) + 1e-8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=8000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--eval-every", type=int, default=500)
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="a PNG of the curve (needs matplotlib)")
    parser.add_argument("--weights", default="pasur_reinforce.npz",
                        help="where the learned weights are saved")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    env = PasurEnv(opponent=args.opponent)
    features = ActionFeatures(env)
    theta = np.zeros(features.size)                       # the policy
    value = np.zeros(env.observation_space["observation"].shape[0] + 1)   # the baseline
    policy_steps, value_steps = Adam(theta.size, args.lr), Adam(value.size, args.lr)

    def decide(obs: dict, greedy: bool) -> tuple[int, np.ndarray, np.ndarray, int]:
        x = obs["observation"]
        legal = np.flatnonzero(obs["action_mask"])
        psi = np.stack([features(x, int(a)) for a in legal])
        logits = psi @ theta
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(np.argmax(p)) if greedy else int(rng.choice(len(legal), p=p))
        return int(legal[k]), psi, p, k

    def play(seed: int, greedy: bool) -> tuple[float, list]:
        obs, _ = env.reset(seed=seed)
        steps, done, reward = [], False, 0.0
        while not done:
            action, psi, p, k = decide(obs, greedy)
            steps.append((np.append(obs["observation"], 1.0), psi, p, k))
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        return reward, steps

    def play_bot(seed: int, name: str) -> float:
        bot = bots.make(name, seed=seed)
        env.reset(seed=seed)
        reward, done = 0.0, False
        while not done:
            for action in env.episode.actions_for(bot.choose(env.episode.engine)):
                _, reward, terminated, truncated, _ = env.step(action)
                done = terminated or truncated
        return reward

    eval_seeds = [10**9 + k for k in range(args.eval_deals)]

    def evaluate() -> float:
        return float(np.mean([play(seed, greedy=True)[0] for seed in eval_seeds]))

    started = time.perf_counter()
    random_ref = float(np.mean([play(seed, greedy=False)[0] for seed in eval_seeds]))
    greedy_ref = float(np.mean([play_bot(seed, "greedy") for seed in eval_seeds]))
    print(f"references on {args.eval_deals} deals: random player {random_ref:+.2f}, "
          f"greedy bot {greedy_ref:+.2f} points per hand")
    curve, sampled, window = [(0, evaluate())], [], []
    print(f"hand {0:5d}: learned policy {curve[-1][1]:+.2f}")
    grad, value_grad = np.zeros_like(theta), np.zeros_like(value)
    for hand in range(1, args.episodes + 1):
        reward, steps = play(args.seed * 10**6 + hand, greedy=False)
        window.append(reward)
        for x, psi, p, k in steps:
            error = reward - value @ x        # the return less the baseline
            value_grad += error * x / 10.0    # points come in tens
            grad += error / 10.0 * (psi[k] - p @ psi)   # grad of log pi(a|s)
        if hand % args.batch == 0:
            policy_steps.step(theta, grad / args.batch)
            value_steps.step(value, value_grad / args.batch)
            grad[:], value_grad[:] = 0.0, 0.0
        if hand % args.eval_every == 0:
            curve.append((hand, evaluate()))
            sampled.append((hand, float(np.mean(window))))
            window = []
            print(f"hand {hand:5d}: learned policy {curve[-1][1]:+.2f} (while training: "
                  f"{sampled[-1][1]:+.2f}; {time.perf_counter() - started:.0f} s)")

    np.savez(args.weights, theta=theta, value=value)
    print(f"saved the weights to {args.weights}")
    if args.out is None:
        return
    try:
        import matplotlib
    except ImportError:
        print("no plot: --out needs matplotlib (pip install 'cardtable[arena]')")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(*zip(*curve, strict=True), marker="o", label="learned policy (argmax)")
    ax.plot(*zip(*sampled, strict=True), linestyle=":", label="learned policy while training")
    ax.axhline(random_ref, color="grey", linestyle="--", label="random player")
    ax.axhline(greedy_ref, color="green", linestyle="--", label="cardtable greedy bot")
    ax.set_xlabel("training hands")
    ax.set_ylabel(f"points per hand against {args.opponent}")
    ax.set_title("Pasur (standard, 2 players, seat 0): REINFORCE, linear softmax")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
