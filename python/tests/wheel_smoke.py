"""Run inside a fresh venv holding only the rafle wheel and numpy (see
test_wheel.py): the environment, players, arena, rafle.search with a numpy
evaluator and PDN reading work with no torch, gymnasium or Ray."""

import importlib.util

import numpy as np

import rafle

for absent in ["torch", "gymnasium", "pettingzoo", "ray"]:
    assert importlib.util.find_spec(absent) is None, f"{absent} is installed in the wheel's venv"

env = rafle.VecEnv("international", 8, seed=1)
obs = env.reset()
for _ in range(50):
    obs, reward, terminated, truncated, info = env.step(env.sample_legal_actions())
assert obs.shape == (8, *env.observation_shape)

m = rafle.evaluate("alphabeta:2", rafle.Player("random", "thai", seed=3), variant="thai", games=4, progress=False)
assert m.wins + m.draws + m.losses == 4


russian = rafle.VecEnv("russian", 2)


def uniform(obs):
    """A numpy evaluator: uniform policy logits, value 0."""
    return np.zeros((len(obs), russian.num_actions), np.float32), np.zeros(len(obs), np.float32)


out = rafle.search(russian, uniform, simulations=8)
assert out.action.shape == (2,)
games = rafle.read_pdn(m.pdn)
assert len(games) == 4 and games[0].game().ply == len(games[0])
print("wheel smoke ok", rafle.__version__)
