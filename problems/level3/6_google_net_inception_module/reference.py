"""level3/6 (GoogleNetInceptionModule), as KernelBench structures a problem: four branches
concatenated on channels: 1x1 conv; 1x1 -> 3x3 (pad 1); 1x1 -> 5x5 (pad 2); 3x3 max pool
(stride 1, pad 1) -> 1x1 conv. No activations."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, C1, R3, C3, R5, C5, CP):
        super().__init__()
        self.branch1x1 = nn.Conv2d(CI, C1, kernel_size=1)
        self.branch3x3 = nn.Sequential(
            nn.Conv2d(CI, R3, kernel_size=1),
            nn.Conv2d(R3, C3, kernel_size=3, padding=1),
        )
        self.branch5x5 = nn.Sequential(
            nn.Conv2d(CI, R5, kernel_size=1),
            nn.Conv2d(R5, C5, kernel_size=5, padding=2),
        )
        self.branch_pool = nn.Sequential(
            nn.MaxPool2d(kernel_size=3, stride=1, padding=1),
            nn.Conv2d(CI, CP, kernel_size=1),
        )

    def forward(self, x):
        return torch.cat([self.branch1x1(x), self.branch3x3(x), self.branch5x5(x), self.branch_pool(x)], dim=1)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, C1, R3, C3, R5, C5, CP, H, W = 10, 480, 192, 96, 208, 16, 48, 64, 224, 224


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, C1, R3, C3, R5, C5, CP]
