"""Self-play PPO (clipped policy updates, a learned value baseline, GAE) on
rafle.VecEnv, in one readable file.

One small network plays both sides: observations are always in the frame of
the player to act, so "me" and "the opponent" look the same whoever moves.
Illegal actions are masked out of the policy. A multi-capture is a chain of
actions by the same player, which the advantage estimate below handles with
one sign: a value is always "for the player to act", so it flips whenever the
turn passes to the other player.

    python examples/train_ppo.py --variant thai --minutes 6

prints progress and, every --eval-every seconds, the score against the
uniformly random player; at the end, rafle.evaluate's scores (win 1, draw
1/2, loss 0) against random, greedy and alphabeta:2: the policy plays its
best legal action, called once per round with every game where it is to move.
Needs torch (pip install torch); rafle itself does not.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

import rafle


@dataclass
class Config:
    variant: str = "thai"
    minutes: float = 6.0  # wall-clock training budget
    iterations: int = 0  # stop after this many iterations (0 = budget only)
    num_envs: int = 256  # games played side by side
    steps: int = 64  # steps per env per iteration
    max_plies: int = 200  # longer games are cut (scored as draws)
    lr: float = 1e-3
    gamma: float = 0.99  # < 1 so that quicker wins are worth more
    gae_lambda: float = 0.95
    epochs: int = 3
    minibatch: int = 4096
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    hidden: int = 256
    eval_games: int = 400
    eval_every: float = 60.0  # seconds between evaluations
    opponents: str = "random,greedy,alphabeta:2"  # final evaluation
    seed: int = 0


class Policy(nn.Module):
    """MLP trunk, masked policy logits and a value in [-1, 1] for the player to act."""

    def __init__(self, obs_shape: tuple[int, ...], num_actions: int, hidden: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Flatten(),
            nn.Linear(int(np.prod(obs_shape)), hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
        )
        self.pi = nn.Linear(hidden, num_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, torch.tanh(self.v(h)).squeeze(-1)


def evaluate(policy: Policy, cfg: Config, games: int, opponent: str = "random") -> rafle.MatchResult:
    """rafle.evaluate of the greedy (argmax) policy against `opponent`:
    colour-swapped pairs from seeded openings, the policy called with the
    batch of every game where it is to move."""

    @torch.no_grad()
    def best_action(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits, _ = policy(torch.from_numpy(obs), torch.from_numpy(mask))
        return logits.argmax(-1).numpy()

    best_action.__name__ = "ppo"
    return rafle.evaluate(best_action, opponent, variant=cfg.variant, games=games, seed=cfg.seed + 1,
                          max_plies=cfg.max_plies, progress=False)


def train(cfg: Config) -> float:
    torch.manual_seed(cfg.seed)
    torch.distributions.Distribution.set_default_validate_args(False)  # masks are ours
    env = rafle.VecEnv(cfg.variant, num_envs=cfg.num_envs, seed=cfg.seed, max_plies=cfg.max_plies)
    policy = Policy(env.observation_shape, env.num_actions, cfg.hidden)
    opt = torch.optim.Adam(policy.parameters(), lr=cfg.lr)
    T, B = cfg.steps, cfg.num_envs

    # Rollout storage, (T, B, ...).
    obs_buf = torch.zeros((T, B, *env.observation_shape))
    mask_buf = torch.zeros((T, B, env.num_actions), dtype=torch.bool)
    act_buf = torch.zeros((T, B), dtype=torch.long)
    logp_buf = torch.zeros((T, B))
    val_buf = torch.zeros((T, B))
    rew_buf = torch.zeros((T, B))  # to the player who acted
    done_buf = torch.zeros((T, B))
    same_buf = torch.zeros((T, B))  # 1 if the same player acts at t + 1 (a chain goes on)

    obs = torch.from_numpy(env.reset())
    mask = torch.from_numpy(env.legal_mask())
    to_play = env.to_play()
    start = last_eval = time.time()
    it, samples, score = 0, 0, float("nan")
    games, game_plies = 0, 0
    print(f"self-play PPO on {cfg.variant}: {B} envs x {T} steps per iteration")
    while True:
        it += 1
        # 1. Play T steps in every env with the current policy.
        for t in range(T):
            with torch.no_grad():
                logits, value = policy(obs, mask)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
            logp_buf[t], val_buf[t] = dist.log_prob(action), value
            next_obs, reward, terminated, truncated, info = env.step(action.numpy())
            done = terminated | truncated
            rew_buf[t] = torch.from_numpy(reward)
            done_buf[t] = torch.from_numpy(done.astype(np.float32))
            same_buf[t] = torch.from_numpy((info["to_play"] == to_play).astype(np.float32))
            games += len(info["done_envs"])
            game_plies += int(info["episode_length"].sum())
            obs, mask, to_play = (
                torch.from_numpy(next_obs),
                torch.from_numpy(env.legal_mask()),
                info["to_play"],
            )
        samples += T * B

        # 2. Advantages (GAE) with the sign flip: V(s_{t+1}) is for the player
        # to act at t + 1, so it counts negatively when that is the opponent.
        with torch.no_grad():
            _, next_value = policy(obs, mask)
        adv = torch.zeros((T, B))
        last = torch.zeros(B)
        for t in reversed(range(T)):
            nv = next_value if t == T - 1 else val_buf[t + 1]
            sign = (2 * same_buf[t] - 1) * (1 - done_buf[t])
            delta = rew_buf[t] + cfg.gamma * sign * nv - val_buf[t]
            last = delta + cfg.gamma * cfg.gae_lambda * sign * last
            adv[t] = last
        ret = adv + val_buf

        # 3. PPO updates on shuffled minibatches.
        flat = lambda x: x.reshape(T * B, *x.shape[2:])  # noqa: E731
        b_obs, b_mask, b_act = flat(obs_buf), flat(mask_buf), flat(act_buf)
        b_logp, b_adv, b_ret = flat(logp_buf), flat(adv), flat(ret)
        for _ in range(cfg.epochs):
            for idx in torch.randperm(T * B).split(cfg.minibatch):
                logits, value = policy(b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = -torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
                v_loss = (value - b_ret[idx]).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = pg_loss + cfg.vf_coef * v_loss - cfg.ent_coef * entropy
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()

        elapsed = time.time() - start
        out_of_time = elapsed > cfg.minutes * 60 or (cfg.iterations and it >= cfg.iterations)
        line = (
            f"it {it:4d}  {elapsed:6.0f}s  {samples / elapsed:7.0f} samples/s  "
            f"games {games:6d}  plies/game {game_plies / max(games, 1):5.1f}  "
            f"pg {pg_loss.item():+.3f}  v {v_loss.item():.3f}  ent {entropy.item():.2f}"
        )
        if not out_of_time and time.time() - last_eval > cfg.eval_every:
            score = evaluate(policy, cfg, cfg.eval_games).score
            last_eval = time.time()
            line += f"  score vs random {score:.3f}"
        print(line, flush=True)
        if out_of_time:
            break
    print(f"trained {time.time() - start:.0f}s; final evaluation, {cfg.eval_games} games each:")
    for opponent in cfg.opponents.split(","):
        r = evaluate(policy, cfg, cfg.eval_games, opponent)
        print(f"final score vs {opponent} over {r.games} games: {r.score:.3f} "
              f"(+{r.wins} ={r.draws} -{r.losses}, Elo {r.elo:+.0f})", flush=True)
        if opponent == "random":
            score = r.score
    return score


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in Config().__dict__.items():
        p.add_argument("--" + name.replace("_", "-"), type=type(default), default=default)
    train(Config(**vars(p.parse_args())))


if __name__ == "__main__":
    main()
