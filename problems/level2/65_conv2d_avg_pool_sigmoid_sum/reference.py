"""level2/65 (Conv2d + AvgPool + Sigmoid + sum), as KernelBench structures a problem: sum over (1, 2,
3) of sigmoid(avg_pool2d(conv2d(x), 4)) with a 3x3 kernel, stride 1, no padding -> [B]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.avg_pool = nn.AvgPool2d(kernel_size=4)

    def forward(self, x):
        x = self.conv(x)
        x = self.avg_pool(x)
        x = torch.sigmoid(x)
        return torch.sum(x, dim=[1, 2, 3])


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 8, 64, 384, 384


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
