"""level1/76 (Conv1d, dilated and strided), as KernelBench structures a problem: Conv1d(CI->CO, k=3, s=3,
p=0, dilation 4, no bias) over [B, CI, L]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv1d = nn.Conv1d(CI, CO, kernel_size=3, stride=3, padding=0, dilation=4, groups=1, bias=False)

    def forward(self, x):
        return self.conv1d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv1d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, L = 64, 64, 128, 524280


def get_inputs():
    return [torch.rand(B, CI, L)]


def get_init_inputs():
    return [CI, CO]
