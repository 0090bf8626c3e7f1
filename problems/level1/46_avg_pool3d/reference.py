"""level1/46 (AvgPool3d), as KernelBench structures a problem: AvgPool3d(kernel 3, stride 2, padding 1,
count_include_pad) over [B, C, D, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.avg_pool = nn.AvgPool3d(kernel_size=3, stride=2, padding=1, ceil_mode=False, count_include_pad=True)

    def forward(self, x):
        return self.avg_pool(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, D, H, W = 16, 32, 128, 128, 256


def get_inputs():
    return [torch.rand(B, C, D, H, W)]


def get_init_inputs():
    return []
