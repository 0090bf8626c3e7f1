"""level2/98 (Matmul + AvgPool1d + GELU + scale + max), as KernelBench structures a problem: z =
avg_pool1d(linear(x) as [B, 1, OUT], 16).squeeze(1); max over dim 1 of gelu(z) * 2.0 -> [B], exact
GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.avg_pool = nn.AvgPool1d(kernel_size=16)
        self.scale_factor = 2.0

    def forward(self, x):
        x = self.matmul(x)
        x = self.avg_pool(x.unsqueeze(1)).squeeze(1)
        x = F.gelu(x)
        x = x * self.scale_factor
        return torch.max(x, dim=1).values


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "matmul.weight", "bias": "matmul.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
