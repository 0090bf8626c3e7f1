"""level3/8 (ResNetBasicBlock), as KernelBench structures a problem: conv3x3 -> BN -> ReLU ->
conv3x3 -> BN, plus a 1x1 conv + BN downsample of x, then ReLU; stride 1, convs without bias,
BatchNorm2d with batch statistics (training mode)."""
import torch
import torch.nn as nn

STRIDE = 1


class Model(nn.Module):
    def __init__(self, CI, CO):
        super().__init__()
        self.conv1 = nn.Conv2d(CI, CO, kernel_size=3, stride=STRIDE, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(CO)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(CO, CO, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(CO)
        self.downsample = nn.Sequential(
            nn.Conv2d(CI, CO, kernel_size=1, stride=STRIDE, bias=False),
            nn.BatchNorm2d(CO),
        )

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + self.downsample(x))


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, CO, H, W = 10, 3, 64, 224, 224


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, CO]
