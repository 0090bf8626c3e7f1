"""level2/51 (Gemm + subtract + GlobalAvgPool + LogSumExp + GELU + residual add), as KernelBench
structures a problem: x + gelu(logsumexp(mean(linear(x) - subtract, dim 1, keepdim), dim 1,
keepdim)), subtract [OUT], exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.gemm = nn.Linear(IN, OUT)
        self.subtract = nn.Parameter(torch.randn(OUT))

    def forward(self, x):
        original_x = x.clone().detach()
        x = self.gemm(x)
        x = x - self.subtract
        x = torch.mean(x, dim=1, keepdim=True)
        x = torch.logsumexp(x, dim=1, keepdim=True)
        x = F.gelu(x)
        return x + original_x


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "gemm.weight", "bias": "gemm.bias", "subtract": "subtract"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 2048, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
