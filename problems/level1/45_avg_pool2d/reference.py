"""level1/45 (AvgPool2d), as KernelBench structures a problem: AvgPool2d(kernel 11, stride 11, padding 0)
over [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.avg_pool = nn.AvgPool2d(kernel_size=11, stride=11, padding=0, ceil_mode=False, count_include_pad=True)

    def forward(self, x):
        return self.avg_pool(x)


WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 16, 64, 2048, 2048


def get_inputs():
    return [torch.rand(B, C, H, W)]


def get_init_inputs():
    return []
