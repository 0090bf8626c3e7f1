"""level2/48 (Conv3d + scaling + Tanh + multiply + Sigmoid), as KernelBench structures a problem:
sigmoid(tanh(conv3d(x) * scaling_factor) * bias) with a 3x3x3 kernel; scaling_factor and bias [CO,
1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.scaling_factor = nn.Parameter(torch.randn(CO, 1, 1, 1))
        self.bias = nn.Parameter(torch.randn(CO, 1, 1, 1))

    def forward(self, x):
        x = self.conv(x)
        x = x * self.scaling_factor
        x = torch.tanh(x)
        x = x * self.bias
        return torch.sigmoid(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "scaling_factor": "scaling_factor",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
