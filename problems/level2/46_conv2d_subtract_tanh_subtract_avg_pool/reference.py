"""level2/46 (Conv2d + subtract + Tanh + subtract + AvgPool), as KernelBench structures a problem:
avg_pool2d(tanh(conv2d(x) - 0.5) - 0.2, 2) with a 3x3 kernel, stride 1, no padding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.subtract1_value = 0.5
        self.subtract2_value = 0.2
        self.avgpool = nn.AvgPool2d(kernel_size=2)

    def forward(self, x):
        x = self.conv(x)
        x = x - self.subtract1_value
        x = torch.tanh(x)
        x = x - self.subtract2_value
        return self.avgpool(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 128, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
