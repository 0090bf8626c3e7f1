"""level3/3 (DeepNarrowMLP), as KernelBench structures a problem: 17 Linear layers,
D_IN -> H (x16) -> D_OUT, with ReLU after all but the last."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, D_IN, H, D_OUT):
        super().__init__()
        layers = [nn.Linear(D_IN, H), nn.ReLU()]
        for _ in range(15):
            layers += [nn.Linear(H, H), nn.ReLU()]
        layers.append(nn.Linear(H, D_OUT))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, D_IN, H, D_OUT = 1024, 8192, 1024, 8192


def get_inputs():
    return [torch.rand(B, D_IN)]


def get_init_inputs():
    return [D_IN, H, D_OUT]
