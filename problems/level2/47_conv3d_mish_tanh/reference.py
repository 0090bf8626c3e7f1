"""level2/47 (Conv3d + Mish + Tanh), as KernelBench structures a problem: tanh(mish(conv3d(x))) with a
3x3x3 kernel, stride 1, no padding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)

    def forward(self, x):
        x = self.conv(x)
        x = F.mish(x)
        return torch.tanh(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 32, 64, 32, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
