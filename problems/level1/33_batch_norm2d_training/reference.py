"""level1/33 (BatchNorm2d (training mode)), as KernelBench structures a problem: BatchNorm2d(C) in training
mode (batch statistics, eps 1e-5) over [B, C, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, C):
        super().__init__()
        self.bn = nn.BatchNorm2d(C, eps=1e-5, momentum=0.1)

    def forward(self, x):
        return self.bn(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "bn.weight", "bias": "bn.bias"}

# The full size (spec.yaml's sizes.full).
B, C, H, W = 64, 64, 512, 512


def get_inputs():
    return [torch.randn(B, C, H, W) * 2 + 1]


def get_init_inputs():
    return [C]
