"""level1/50 (Conv2d, AlexNet conv1 (11x11, stride 4, padding 2, bias)), as KernelBench structures a
problem: AlexNet's first conv: Conv2d(3->96, k=11, s=4, p=2, bias) over [B, 3, H, W]."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 96, kernel_size=11, stride=4, padding=2)

    def forward(self, x):
        return self.conv1(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "conv1.weight", "bias": "conv1.bias"}

# The full size (spec.yaml's sizes.full).
B, H, W = 256, 224, 224


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return []
