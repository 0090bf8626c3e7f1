"""level2/79 (Conv3d + multiply + InstanceNorm + clamp + multiply + channel max), as KernelBench
structures a problem: max over channels of clamp(instance_norm(conv3d(x) * multiplier), -1, 1) *
multiplier; 3x3x3 kernel, non-affine InstanceNorm3d, multiplier [CO, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.multiplier = nn.Parameter(torch.randn(CO, 1, 1, 1))
        self.instance_norm = nn.InstanceNorm3d(CO, eps=1e-5)
        self.clamp_min = -1.0
        self.clamp_max = 1.0

    def forward(self, x):
        x = self.conv(x)
        x = x * self.multiplier
        x = self.instance_norm(x)
        x = torch.clamp(x, self.clamp_min, self.clamp_max)
        x = x * self.multiplier
        return torch.max(x, dim=1)[0]


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias", "multiplier": "multiplier"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
