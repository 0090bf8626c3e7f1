"""level1/63 (Conv2d, square input, square kernel), as KernelBench structures a problem: Conv2d(CI->CO, k=3,
s=1, p=0, no bias) over [B, CI, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv2d = nn.Conv2d(CI, CO, kernel_size=3, stride=1, padding=0, dilation=1, groups=1, bias=False)

    def forward(self, x):
        return self.conv2d(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv2d.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 16, 16, 128, 1024, 1024


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
