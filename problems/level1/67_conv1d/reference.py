"""level1/67 (Conv1d), as KernelBench structures a problem: Conv1d(CI->CO, k=3, s=1, p=0, no bias) over [B,
CI, L]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv1d = nn.Conv1d(CI, CO, kernel_size=3, stride=1, padding=0, dilation=1, groups=1, bias=False)

    def forward(self, x):
        return self.conv1d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv1d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, L = 32, 64, 128, 131072


def get_inputs():
    return [torch.rand(B, CI, L)]


def get_init_inputs():
    return [CI, CO]
