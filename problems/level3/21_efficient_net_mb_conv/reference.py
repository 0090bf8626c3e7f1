"""level3/21 (EfficientNetMBConv), as KernelBench structures a problem: 1x1 expand conv (6x) -> BN ->
ReLU6, 5x5 depthwise conv (stride 2, padding 2) -> BN -> ReLU6, 1x1 project conv -> BN; convs
without bias, BatchNorm2d with batch statistics, no residual (stride 2)."""
import torch
import torch.nn as nn

KERNEL, STRIDE, EXPAND = 5, 2, 6


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        hidden = CI * EXPAND
        self.expand_conv = nn.Sequential(
            nn.Conv2d(CI, hidden, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
        )
        self.depthwise_conv = nn.Sequential(
            nn.Conv2d(hidden, hidden, kernel_size=KERNEL, stride=STRIDE, padding=(KERNEL - 1) // 2,
                      groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
        )
        self.project_conv = nn.Sequential(
            nn.Conv2d(hidden, CO, kernel_size=1, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(CO),
        )

    def forward(self, x):
        return self.project_conv(self.depthwise_conv(self.expand_conv(x)))


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 10, 112, 192, 224, 224


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
