"""rafle.serve: the page of `rafle serve` with Python players. A NetworkAgent
over a PyTorch network made here answers the page's JSON API (its policy
over the legal moves, its value, its moves), spec strings play any
variant, and bad arguments are ValueErrors."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
import torch

import rafle


class TinyNet(torch.nn.Module):
    """obs (K, C, N, N) -> (logits (K, A), value (K,))."""

    def __init__(self, actions: int) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.policy = torch.nn.LazyLinear(actions)
        self.value = torch.nn.LazyLinear(1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = x.flatten(1)
        return self.policy(x), torch.tanh(self.value(x)).squeeze(1)


def post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_a_network_agent_on_the_page() -> None:
    net = TinyNet(rafle.VecEnv("thai", 1).num_actions)
    calls = []

    @torch.no_grad()
    def evaluator(obs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        calls.append(len(obs))
        return net(torch.as_tensor(obs))

    agent = rafle.NetworkAgent(evaluator, simulations=8, name="mine")
    with rafle.serve([agent, "alphabeta:2"], variant="thai", port=0, block=False) as server:
        api = server.url + "api/"
        with urllib.request.urlopen(api + "info", timeout=60) as r:
            info = json.load(r)
        assert info["players"] == ["mine", "alphabeta:2"] and info["variant"] == "thai"
        game = {"variant": "thai", "moves": []}
        code, state = post(api + "state", {"game": game})
        assert code == 200
        legal = sorted(m["move"] for m in state["legal"])
        code, seen = post(api + "inspect", {"game": game, "player": "mine"})
        assert code == 200, seen
        probs = {x["move"]: x["p"] for x in seen["network"]["policy"]}
        assert sorted(probs) == legal
        assert abs(sum(probs.values()) - 1.0) < 1e-4
        assert -1.0 <= seen["network"]["value"] <= 1.0
        assert calls, "the Python evaluator was never called"
        code, moved = post(api + "engine", {"game": game, "player": "mine"})
        assert code == 200 and moved["move"] in legal
        # Spec strings play other variants; the agent only thai.
        intl = {"variant": "international", "moves": []}
        assert post(api + "engine", {"game": intl, "player": "alphabeta:2"})[0] == 200
        code, err = post(api + "engine", {"game": intl, "player": "mine"})
        assert code == 400 and "thai only" in err["error"]


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        rafle.serve(["random"], variant="chess", port=0, block=False)
    with pytest.raises(ValueError, match="player spec"):
        rafle.serve(["minimax:3"], variant="thai", port=0, block=False)
