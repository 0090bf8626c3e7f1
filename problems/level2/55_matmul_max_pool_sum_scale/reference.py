"""level2/55 (Matmul + MaxPool + Sum + scale), as KernelBench structures a problem: sum over dim 1 of
max_pool1d(linear(x) as [B, 1, OUT], 2, 2) * 0.5 -> [B]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.max_pool = nn.MaxPool1d(kernel_size=2)
        self.scale_factor = 0.5

    def forward(self, x):
        x = self.matmul(x)
        x = self.max_pool(x.unsqueeze(1)).squeeze(1)
        x = torch.sum(x, dim=1)
        return x * self.scale_factor


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "matmul.weight", "bias": "matmul.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 128, 32768, 32768


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
