"""level2/69 (Conv2d + HardSwish + ReLU), as KernelBench structures a problem:
relu(hardswish(conv2d(x))) with a 3x3 kernel, stride 1, no padding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)

    def forward(self, x):
        x = self.conv(x)
        x = F.hardswish(x)
        return F.relu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
