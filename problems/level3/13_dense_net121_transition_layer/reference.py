"""level3/13 (DenseNet121TransitionLayer), as KernelBench structures a problem: BatchNorm2d (batch
statistics, as in training mode) -> ReLU -> 1x1 Conv2d without bias -> AvgPool2d(2, 2)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.transition = nn.Sequential(
            nn.BatchNorm2d(CI, eps=1e-5, momentum=0.1),
            nn.ReLU(),
            nn.Conv2d(CI, CO, kernel_size=1, bias=False),
            nn.AvgPool2d(kernel_size=2, stride=2),
        )

    def forward(self, x):
        return self.transition(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 128, 32, 64, 256, 256


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
