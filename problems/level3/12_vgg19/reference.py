"""level3/12 (VGG19), as KernelBench structures a problem: 16 3x3 Conv2d (padding 1, bias) + ReLU
layers in five blocks (2, 2, 4, 4, 4 convs), each block followed by MaxPool2d(2, 2), then Linear
512*(H/32)*(W/32) -> FC -> FC -> NC with ReLU between (Dropout p = 0)."""
import torch
import torch.nn as nn

CONVS_PER_BLOCK = (2, 2, 4, 4, 4)
CHANNELS = (64, 128, 256, 512, 512)


class Model(nn.Module):
    def __init__(self, H, W, FC, NC):
        super().__init__()
        layers = []
        ci = 3
        for convs, co in zip(CONVS_PER_BLOCK, CHANNELS):
            for _ in range(convs):
                layers += [nn.Conv2d(ci, co, kernel_size=3, padding=1), nn.ReLU(inplace=True)]
                ci = co
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(
            nn.Linear(512 * (H // 32) * (W // 32), FC), nn.ReLU(inplace=True), nn.Dropout(p=0.0),
            nn.Linear(FC, FC), nn.ReLU(inplace=True), nn.Dropout(p=0.0),
            nn.Linear(FC, NC),
        )

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, H, W, FC, NC = 10, 224, 224, 4096, 1000


def get_inputs():
    return [torch.rand(B, 3, H, W)]


def get_init_inputs():
    return [H, W, FC, NC]
