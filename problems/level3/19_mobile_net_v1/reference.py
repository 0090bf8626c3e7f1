"""level3/19 (MobileNetV1), as KernelBench structures a problem: 3x3 stride-2 conv -> BN -> ReLU, 13
depthwise-separable blocks (3x3 depthwise -> BN -> ReLU -> 1x1 -> BN -> ReLU), AvgPool2d(7),
Linear(32*C -> NC); convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn

# (input width, output width) in units of C, and the depthwise stride, of the 13 blocks.
BLOCKS = [(1, 2, 1), (2, 4, 2), (4, 4, 1), (4, 8, 2), (8, 8, 1), (8, 16, 2), (16, 16, 1),
          (16, 16, 1), (16, 16, 1), (16, 16, 1), (16, 16, 1), (16, 32, 2), (32, 32, 1)]


def conv_bn(ci, co, stride):
    return nn.Sequential(
        nn.Conv2d(ci, co, kernel_size=3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(co),
        nn.ReLU(inplace=True),
    )


def conv_dw(ci, co, stride):
    return nn.Sequential(
        nn.Conv2d(ci, ci, kernel_size=3, stride=stride, padding=1, groups=ci, bias=False),
        nn.BatchNorm2d(ci),
        nn.ReLU(inplace=True),
        nn.Conv2d(ci, co, kernel_size=1, stride=1, padding=0, bias=False),
        nn.BatchNorm2d(co),
        nn.ReLU(inplace=True),
    )


class Model(nn.Module):
    def __init__(self, C, NC):
        super().__init__()
        layers = [conv_bn(3, C, 2)]
        layers += [conv_dw(a * C, o * C, s) for a, o, s in BLOCKS]
        layers.append(nn.AvgPool2d(7))
        self.model = nn.Sequential(*layers)
        self.fc = nn.Linear(32 * C, NC)

    def forward(self, x):
        x = self.model(x)
        x = x.view(x.size(0), -1)
        return self.fc(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, C, NC = 10, 224, 224, 32, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [C, NC]
