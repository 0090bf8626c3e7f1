"""level1/86 (Depthwise-separable Conv2d), as KernelBench structures a problem: depthwise Conv2d(CI->CI,
k=3, p=1, groups CI) then pointwise Conv2d(CI->CO, k=1), no biases."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.depthwise = nn.Conv2d(CI, CI, kernel_size=3, stride=1, padding=1, dilation=1, groups=CI, bias=False)
        self.pointwise = nn.Conv2d(CI, CO, kernel_size=1, stride=1, padding=0, dilation=1, groups=1, bias=False)

    def forward(self, x):
        x = self.depthwise(x)
        return self.pointwise(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"depthwise_weight": "depthwise.weight", "pointwise_weight": "pointwise.weight"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 16, 64, 128, 512, 512


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
