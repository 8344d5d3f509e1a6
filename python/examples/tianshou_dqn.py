"""Tianshou with rafle: a DQN agent against a random one, on the PettingZoo
AEC env wrapped by Tianshou's ``PettingZooEnv`` (as in Tianshou's own
tic-tac-toe example).

The learner plays ``player_0`` (White), the random agent ``player_1``; both
use the action mask that the env puts in every observation. A short run, to
show the wiring; strength needs far longer training.

    python python/examples/tianshou_dqn.py [--variant thai] [--steps 300]
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import rafle
import rafle.pettingzoo


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="thai", choices=rafle.VARIANTS)
    p.add_argument("--steps", type=int, default=300, help="env steps of training")
    p.add_argument("--num-envs", type=int, default=4)
    p.add_argument("--test-games", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    def make_env() -> PettingZooEnv:
        return PettingZooEnv(rafle.pettingzoo.env(args.variant))

    env = make_env()
    net = Net(
        state_shape=env.observation_space["observation"].shape,
        action_shape=env.action_space.n,
        hidden_sizes=[128],
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.0
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.95,
        target_update_freq=100,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    agents = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)

    train_envs = DummyVectorEnv([make_env for _ in range(args.num_envs)])
    test_envs = DummyVectorEnv([make_env for _ in range(args.test_games)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1000)
    buffer = VectorReplayBuffer(10_000, len(train_envs))
    train = Collector[CollectStats](agents, train_envs, buffer, exploration_noise=True)
    test = Collector[CollectStats](agents, test_envs, exploration_noise=True)
    train.reset()
    result = agents.run_training(
        OffPolicyTrainerParams(
            training_collector=train,
            test_collector=test,
            max_epochs=1,
            epoch_num_steps=args.steps,
            collection_step_num_env_steps=20,
            test_step_num_episodes=args.test_games,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,
            multi_agent_return_reduction=lambda rewards: rewards[:, 0],  # the learner's
            show_progress=False,
        )
    )
    final = test.collect(n_episode=args.test_games, reset_before_collect=True)
    print(
        f"trained {result.train_step} steps ({result.update_step} updates); "
        f"learner's mean reward over {final.n_collected_episodes} test games: "
        f"{final.returns[:, 0].mean():+.2f}"
    )

if __name__ == "__main__":
    main()
