"""level2/50 (ConvTranspose3d + scaling + AvgPool + bias add + scaling), as KernelBench structures a
problem: (avg_pool3d(conv_transpose3d(x) * scale1, 2) + bias) * scale2; 3x3x3 kernel, stride 2,
padding 1; scale1, scale2 0-dim, bias [CO, 1, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.scale1 = nn.Parameter(torch.tensor(0.5))
        self.avg_pool = nn.AvgPool3d(kernel_size=2)
        self.bias = nn.Parameter(torch.randn(CO, 1, 1, 1))
        self.scale2 = nn.Parameter(torch.tensor(1.0))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = x * self.scale1
        x = self.avg_pool(x)
        x = x + self.bias
        return x * self.scale2


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "scale1": "scale1",
    "bias": "bias",
    "scale2": "scale2",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
