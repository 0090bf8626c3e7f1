"""level2/25 (Conv2d + min + Tanh + Tanh), as KernelBench structures a problem: tanh(tanh(min over
channels (keepdim) of conv2d(x))) with a 3x3 kernel -> [B, 1, H', W']."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)

    def forward(self, x):
        x = self.conv(x)
        x = torch.min(x, dim=1, keepdim=True)[0]
        x = torch.tanh(x)
        return torch.tanh(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 16, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
