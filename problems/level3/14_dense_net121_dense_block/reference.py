"""level3/14 (DenseNet121DenseBlock), as KernelBench structures a problem: 6 layers, each
BatchNorm2d (batch statistics) -> ReLU -> 3x3 Conv2d (padding 1, no bias) to G channels, each
layer's input the concatenation of the block's input and all earlier layers' outputs."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, C0, G):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Sequential(
                nn.BatchNorm2d(C0 + i * G),
                nn.ReLU(),
                nn.Conv2d(C0 + i * G, G, kernel_size=3, padding=1, bias=False),
            )
            for i in range(6)
        ])

    def forward(self, x):
        features = [x]
        h = x
        for layer in self.layers:
            features.append(layer(h))
            h = torch.cat(features, dim=1)
        return h


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C0, G, H, W = 10, 32, 32, 224, 224


def get_inputs():
    return [torch.rand(B, C0, H, W)]


def get_init_inputs():
    return [C0, G]
