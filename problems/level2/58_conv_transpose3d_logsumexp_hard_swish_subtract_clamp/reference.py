"""level2/58 (ConvTranspose3d + LogSumExp + "HardSwish" + subtract + clamp), as KernelBench structures
a problem: l = logsumexp over channels (keepdim) of conv_transpose3d(x) (3x3x3, stride 2, padding
1); clamp(l * sigmoid(l + 3) / 6 - bias, -1, 1), bias [1, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.bias = nn.Parameter(torch.randn(1, 1, 1, 1))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = torch.logsumexp(x, dim=1, keepdim=True)
        x = x * torch.sigmoid(x + 3) / 6
        x = x - self.bias
        return torch.clamp(x, min=-1, max=1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
