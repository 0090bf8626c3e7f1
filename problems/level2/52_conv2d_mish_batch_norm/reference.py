"""level2/52 (Conv2d + activation (Mish) + BatchNorm (training mode)), as KernelBench structures a
problem: BatchNorm2d (batch statistics) of tanh(softplus(c)) * c, c = conv2d(x) with a 3x3 kernel,
stride 1, no padding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv2d(CI, CO, kernel_size=3)
        self.bn = nn.BatchNorm2d(CO, eps=1e-5, momentum=0.1)

    def forward(self, x):
        x = self.conv(x)
        x = torch.multiply(torch.tanh(F.softplus(x)), x)
        return self.bn(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv.weight",
    "conv_bias": "conv.bias",
    "bn_weight": "bn.weight",
    "bn_bias": "bn.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 64, 64, 128, 128, 128


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
