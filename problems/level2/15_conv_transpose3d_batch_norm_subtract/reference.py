"""level2/15 (ConvTranspose3d + BatchNorm + subtract spatial mean), as KernelBench structures a
problem: conv_transpose3d (3x3x3, stride 2, padding 1), BatchNorm3d (batch statistics), minus the
spatial mean over (2, 3, 4)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1)
        self.batch_norm = nn.BatchNorm3d(CO, eps=1e-5, momentum=0.1)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.batch_norm(x)
        return x - torch.mean(x, dim=(2, 3, 4), keepdim=True)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "bn_weight": "batch_norm.weight",
    "bn_bias": "batch_norm.bias",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 16, 32, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
