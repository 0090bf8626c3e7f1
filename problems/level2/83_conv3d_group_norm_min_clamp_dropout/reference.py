"""level2/83 (Conv3d + GroupNorm + min + clamp + dropout), as KernelBench structures a problem:
clamp(minimum(group_norm(conv3d(x), 8 groups), 0), 0, 1) * (keep * 1.25): a 3x3x3 kernel, then
dropout with p = 0.2, its keep mask given as an input."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3)
        self.norm = nn.GroupNorm(num_groups=8, num_channels=CO, eps=1e-5)
        self.min_value = 0.0
        self.max_value = 1.0
        self.dropout_p = 0.2

    def forward(self, x, keep):
        x = self.conv(x)
        x = self.norm(x)
        x = torch.minimum(x, torch.full((), self.min_value, dtype=x.dtype, device=x.device))
        x = torch.clamp(x, min=self.min_value, max=self.max_value)
        return x * (keep * (1.0 / (1.0 - self.dropout_p)))


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "gn_weight": "norm.weight",
    "gn_bias": "norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 64, 64


def get_inputs():
    return [torch.randn(B, CI, D, H, W), (torch.rand(B, CO, D - 2, H - 2, W - 2) < 0.8).float()]


def get_init_inputs():
    return [CI, CO]
