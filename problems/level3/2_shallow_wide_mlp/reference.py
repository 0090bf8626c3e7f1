"""level3/1 (ShallowWideMLP), as KernelBench structures a problem: Linear D_IN -> H1 -> H2 -> D_OUT with
ReLU after the first two."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, D_IN, H1, H2, D_OUT):
        super().__init__()
        self.network = nn.Sequential(
            nn.Linear(D_IN, H1), nn.ReLU(),
            nn.Linear(H1, H2), nn.ReLU(),
            nn.Linear(H2, D_OUT),
        )

    def forward(self, x):
        return self.network(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D_IN, H1, H2, D_OUT = 128, 16384, 32768, 32768, 16384


def get_inputs():
    return [torch.rand(B, D_IN)]


def get_init_inputs():
    return [D_IN, H1, H2, D_OUT]
