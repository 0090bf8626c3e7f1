"""level2/28 (BMM + InstanceNorm + sum + residual add + multiply), as KernelBench structures a
problem: z = instance_norm of each row of linear(x) (InstanceNorm2d without affine, on [B, 1, 1,
OUT]); (z + y) * y."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, IN, OUT):
        super().__init__()
        self.bmm = nn.Linear(IN, OUT)
        self.instance_norm = nn.InstanceNorm2d(OUT, eps=1e-5, momentum=0.1)

    def forward(self, x, y):
        x = self.bmm(x)
        x = self.instance_norm(x.unsqueeze(1).unsqueeze(1)).squeeze(1).squeeze(1)
        x = x + y
        return x * y


# Each weight of spec.yaml -> the parameter of Model that holds it.
WEIGHTS = {"weight": "bmm.weight", "bias": "bmm.bias"}

# The full size (spec.yaml's sizes.full).
B, IN, OUT = 1024, 8192, 8192


def get_inputs():
    return [torch.randn(B, IN), torch.randn(B, OUT)]


def get_init_inputs():
    return [IN, OUT]
