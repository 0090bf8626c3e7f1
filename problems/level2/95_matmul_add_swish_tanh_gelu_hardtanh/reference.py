"""level2/95 (Matmul + add + Swish + tanh + GELU + Hardtanh), as KernelBench structures a problem: z =
linear(x) + add_value; z = sigmoid(z) * z; hardtanh(gelu(tanh(z)), -1, 1), exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.matmul = nn.Linear(IN, OUT)
        self.add_value = nn.Parameter(torch.randn(OUT))

    def forward(self, x):
        x = self.matmul(x)
        x = x + self.add_value
        x = torch.sigmoid(x) * x
        x = torch.tanh(x)
        x = F.gelu(x)
        return F.hardtanh(x, min_val=-1, max_val=1)


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "matmul.weight", "bias": "matmul.bias", "add_value": "add_value"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN)]


def get_init_inputs():
    return [IN, OUT]
