"""level3/27 (RegNet), as KernelBench structures a problem: three stages of two (3x3 conv with bias,
padding 1 -> BatchNorm2d with batch statistics -> ReLU) then MaxPool2d(2, 2), global average
pooling, Linear(C3 -> NC)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, C1, C2, C3, NC):
        super().__init__()
        stages = []
        ci = CI
        for co in (C1, C2, C3):
            stages.append(nn.Sequential(
                nn.Conv2d(ci, co, kernel_size=3, padding=1),
                nn.BatchNorm2d(co),
                nn.ReLU(),
                nn.Conv2d(co, co, kernel_size=3, padding=1),
                nn.BatchNorm2d(co),
                nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2),
            ))
            ci = co
        self.feature_extractor = nn.Sequential(*stages)
        self.fc = nn.Linear(C3, NC)

    def forward(self, x):
        x = self.feature_extractor(x)
        x = torch.mean(x, dim=[2, 3])
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, C1, C2, C3, H, W, NC = 8, 3, 64, 128, 256, 224, 224, 10


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, C1, C2, C3, NC]
