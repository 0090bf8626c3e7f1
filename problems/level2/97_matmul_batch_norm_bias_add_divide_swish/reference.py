"""level2/97 (Matmul + BatchNorm (training mode) + bias add + divide + Swish), as KernelBench
structures a problem: z = (BatchNorm1d(linear(x)) + bias) / 1.0 with batch statistics, bias [1]; z
* sigmoid(z)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.bn = nn.BatchNorm1d(OUT, eps=1e-5, momentum=0.1)
        self.bias = nn.Parameter(torch.randn(1))
        self.divide_value = 1.0

    def forward(self, x):
        x = self.matmul(x)
        x = self.bn(x)
        x = x + self.bias
        x = x / self.divide_value
        return x * torch.sigmoid(x)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {
    "gemm_weight": "matmul.weight",
    "gemm_bias": "matmul.bias",
    "bn_weight": "bn.weight",
    "bn_bias": "bn.bias",
    "bias": "bias",
}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
