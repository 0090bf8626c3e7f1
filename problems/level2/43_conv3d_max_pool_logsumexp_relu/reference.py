"""level2/43 (Conv3d + MaxPool3d + logsumexp + ReLU), as KernelBench structures a problem:
relu(logsumexp over channels (keepdim) of max_pool3d(conv3d(x), 2)) with a 3x3x3 kernel, stride 1,
padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv = nn.Conv3d(CI, CO, kernel_size=3, stride=1, padding=1)
        self.max_pool = nn.MaxPool3d(kernel_size=2, stride=2)

    def forward(self, x):
        x = self.conv(x)
        x = self.max_pool(x)
        x = torch.logsumexp(x, dim=1, keepdim=True)
        return torch.relu(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"conv_weight": "conv.weight", "conv_bias": "conv.bias"}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 4, 32, 64, 32, 128, 128


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
