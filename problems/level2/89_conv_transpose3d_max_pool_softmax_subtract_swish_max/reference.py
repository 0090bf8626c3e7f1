"""level2/89 (ConvTranspose3d + MaxPool3d + softmax + subtract + Swish + max), as KernelBench
structures a problem: z = softmax over channels of max_pool3d(conv_transpose3d(x), 2) -
subtract[CO]; max over channels of z * sigmoid(z); 3x3x3 kernel, stride 2, padding 1,
output_padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(CI, CO, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.max_pool = nn.MaxPool3d(kernel_size=2, stride=2)
        self.subtract = nn.Parameter(torch.randn(CO))

    def forward(self, x):
        x = self.conv_transpose(x)
        x = self.max_pool(x)
        x = torch.softmax(x, dim=1)
        x = x - self.subtract.view(1, -1, 1, 1, 1)
        x = torch.sigmoid(x) * x
        return torch.max(x, dim=1)[0]


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "conv_weight": "conv_transpose.weight",
    "conv_bias": "conv_transpose.bias",
    "subtract": "subtract",
}

# The full size (spec.yaml's sizes.full).
B, CI, CO, D, H, W = 128, 3, 16, 16, 32, 32


def get_inputs():
    return [torch.randn(B, CI, D, H, W)]


def get_init_inputs():
    return [CI, CO]
