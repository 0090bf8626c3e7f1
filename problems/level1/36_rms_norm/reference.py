"""level1/36 (RMSNorm over channels), as KernelBench structures a problem: y = x / sqrt(mean(x^2 over dim 1)
+ 1e-5) over [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + self.eps)
        return x / rms


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 112, 64, 512, 512


def get_inputs():
    return [torch.randn(B, C, H, W) * 2 + 1]


def get_init_inputs():
    return []
