"""level2/10 (ConvTranspose2d + MaxPool + Hardtanh + mean + tanh), as KernelBench structures a
problem: conv_transpose2d (3x3, stride 1, padding 1), MaxPool2d(2, 2), hardtanh(-1, 1), mean over
(2, 3) keepdim, tanh -> [B, CO, 1, 1]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(CI, CO, kernel_size=3, stride=1, padding=1)
        self.maxpool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.hardtanh = nn.Hardtanh(min_val=-1.0, max_val=1.0)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.maxpool(x)
        x = self.hardtanh(x)
        x = torch.mean(x, dim=(2, 3), keepdim=True)
        return torch.tanh(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 64, 64, 256, 256


def get_inputs():
    return [torch.randn(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
