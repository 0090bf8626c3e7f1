"""level3/20 (MobileNetV2), as KernelBench structures a problem: 3x3 stride-2 conv (32) -> BN ->
ReLU6, 17 inverted-residual blocks (optional 1x1 expand -> BN -> ReLU6, 3x3 depthwise -> BN ->
ReLU6, 1x1 project -> BN) with NO residual add, 1x1 conv to 1280 -> BN -> ReLU6, global average
pooling, Dropout(0), Linear(1280 -> NC); convs without bias, BatchNorm2d with batch statistics."""
import torch
import torch.nn as nn

# (expansion t, output channels c, blocks n, first stride s) per stage.
STAGES = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
          (6, 160, 3, 2), (6, 320, 1, 1)]


def inverted_residual(ci, co, stride, t):
    hidden = ci * t
    layers = []
    if t != 1:
        layers += [nn.Conv2d(ci, hidden, 1, 1, 0, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True)]
    layers += [
        nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False),
        nn.BatchNorm2d(hidden),
        nn.ReLU6(inplace=True),
        nn.Conv2d(hidden, co, 1, 1, 0, bias=False),
        nn.BatchNorm2d(co),
    ]
    return nn.Sequential(*layers)


class Model(nn.Module):
    def __init__(self, NC):
        super().__init__()
        features = [nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6(inplace=True)]
        ci = 32
        for t, c, n, s in STAGES:
            for i in range(n):
                features.append(inverted_residual(ci, c, s if i == 0 else 1, t))
                ci = c
        features += [nn.Conv2d(ci, 1280, 1, 1, 0, bias=False), nn.BatchNorm2d(1280), nn.ReLU6(inplace=True),
                     nn.AdaptiveAvgPool2d((1, 1))]
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(0.0), nn.Linear(1280, NC))

    def forward(self, x):
        x = self.features(x)
        x = x.view(x.size(0), -1)
        return self.classifier(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, NC = 10, 224, 224, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [NC]
