"""level2/78 (ConvTranspose3d + MaxPool3d + MaxPool3d + channel sum), as KernelBench structures a
problem: sum over channels (keepdim) of max_pool3d(max_pool3d(conv_transpose3d(x), 2), 3); 5x5x5
kernel, stride 2, padding 2."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=5, stride=2, padding=2)
        self.max_pool1 = nn.MaxPool3d(kernel_size=2)
        self.max_pool2 = nn.MaxPool3d(kernel_size=3)

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.max_pool1(x)
        x = self.max_pool2(x)
        return torch.sum(x, dim=1, keepdim=True)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv_transpose.weight", "conv_bias": "conv_transpose.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 16, 32, 64, 32, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
