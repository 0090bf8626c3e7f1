"""level2/1 (Conv2d + ReLU + bias add), as KernelBench structures a problem: relu(conv2d(x)) + bias
with a 3x3 kernel, stride 1, no padding, bias [CO, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1))

    def forward(self, x):
        x = self.conv(x)
        return torch.relu(x) + self.bias


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "bias": "bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 128, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
