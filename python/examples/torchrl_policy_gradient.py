"""TorchRL with rafle: a masked policy trained by plain policy gradient on
``rafle.gym.VectorEnv`` through TorchRL's ``GymWrapper``.

Each game alternates its players and rewards the player who made the step, so
one policy plays both sides. The env runs in Gymnasium's DISABLED autoreset
mode, which TorchRL prefers: TorchRL resets finished games itself (with
``options={"reset_mask": ...}``). ``info["action_mask"]`` becomes a
tensordict entry, and ``ActionMask`` makes TorchRL's own random actions legal.

    python python/examples/torchrl_policy_gradient.py [--variant thai] [--num-envs 16] [--steps 150] [--iterations 2]
"""

from __future__ import annotations

import argparse

import torch
from gymnasium.vector import AutoresetMode
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.data import Categorical, Composite
from torchrl.envs import Compose, ExplorationType, GymWrapper, TransformedEnv, set_exploration_type
from torchrl.envs.libs.gym import default_info_dict_reader
from torchrl.envs.transforms import ActionMask, DTypeCastTransform
from torchrl.modules import MaskedCategorical, ProbabilisticActor

import rafle.gym


def make_env(variant: str, num_envs: int, seed: int) -> TransformedEnv:
    venv = rafle.gym.VectorEnv(variant, num_envs, seed, autoreset_mode=AutoresetMode.DISABLED)
    env = GymWrapper(venv, categorical_action_encoding=True)
    mask = Categorical(n=2, shape=(num_envs, venv.single_action_space.n), dtype=torch.int8)
    env.set_info_dict_reader(
        default_info_dict_reader(["action_mask"], spec=Composite(action_mask=mask, shape=(num_envs,)))
    )
    # rafle's masks are int8 (Gymnasium's dtype); TorchRL masks are bool.
    cast = DTypeCastTransform(torch.int8, torch.bool, in_keys=["action_mask"])
    return TransformedEnv(env, Compose(cast, ActionMask()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="thai", choices=rafle.VARIANTS)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--steps", type=int, default=150, help="env steps per rollout")
    p.add_argument("--iterations", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)

    env = make_env(args.variant, args.num_envs, args.seed)
    c, n, _ = env.observation_spec["observation"].shape[-3:]
    num_actions = env.action_spec.space.n
    net = nn.Sequential(nn.Flatten(-3), nn.Linear(c * n * n, 128), nn.ReLU(), nn.Linear(128, num_actions))
    actor = ProbabilisticActor(
        TensorDictModule(net, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
    )
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for it in range(1, args.iterations + 1):
        with torch.no_grad(), set_exploration_type(ExplorationType.RANDOM):
            rollout = env.rollout(args.steps, actor, break_when_any_done=False)
        # The reward of a step goes to the player who made it: push up the
        # log-probability of winning steps, down that of losing ones.
        reward = rollout["next", "reward"].squeeze(-1)
        loss = -(actor.get_dist(rollout).log_prob(rollout["action"]) * reward).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        games = int(rollout["next", "done"].sum())
        print(f"it {it:3d}  steps {rollout.numel():6d}  games ended {games:4d}  loss {loss.item():+.4f}")


if __name__ == "__main__":
    main()
