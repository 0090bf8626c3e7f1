"""level3/45 (UNetSoftmax), as KernelBench structures a problem: a 4-level U-Net whose DoubleConv is
[3x3 conv (bias, padding 1) -> BatchNorm2d (batch statistics) -> Softmax over the width] x 2;
MaxPool2d(2, 2) down, ConvTranspose2d(k2, s2) up, skips concatenated [up, skip], final 1x1 conv."""
import torch
import torch.nn as nn


class DoubleConv(nn.Module):
    def __init__(self, ci, co):
        super().__init__()
        self.double_conv = nn.Sequential(
            nn.Conv2d(ci, co, kernel_size=3, padding=1),
            nn.BatchNorm2d(co),
            nn.Softmax(dim=-1),
            nn.Conv2d(co, co, kernel_size=3, padding=1),
            nn.BatchNorm2d(co),
            nn.Softmax(dim=-1),
        )

    def forward(self, x):
        return self.double_conv(x)


class Model(nn.Module):
    def __init__(self, CI, F, CO):
        super().__init__()
        self.encoder1 = DoubleConv(CI, F)
        self.pool1 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder2 = DoubleConv(F, 2 * F)
        self.pool2 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder3 = DoubleConv(2 * F, 4 * F)
        self.pool3 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.encoder4 = DoubleConv(4 * F, 8 * F)
        self.pool4 = nn.MaxPool2d(kernel_size=2, stride=2)
        self.bottleneck = DoubleConv(8 * F, 16 * F)
        self.upconv4 = nn.ConvTranspose2d(16 * F, 8 * F, kernel_size=2, stride=2)
        self.decoder4 = DoubleConv(16 * F, 8 * F)
        self.upconv3 = nn.ConvTranspose2d(8 * F, 4 * F, kernel_size=2, stride=2)
        self.decoder3 = DoubleConv(8 * F, 4 * F)
        self.upconv2 = nn.ConvTranspose2d(4 * F, 2 * F, kernel_size=2, stride=2)
        self.decoder2 = DoubleConv(4 * F, 2 * F)
        self.upconv1 = nn.ConvTranspose2d(2 * F, F, kernel_size=2, stride=2)
        self.decoder1 = DoubleConv(2 * F, F)
        self.final_conv = nn.Conv2d(F, CO, kernel_size=1)

    def forward(self, x):
        enc1 = self.encoder1(x)
        enc2 = self.encoder2(self.pool1(enc1))
        enc3 = self.encoder3(self.pool2(enc2))
        enc4 = self.encoder4(self.pool3(enc3))
        h = self.bottleneck(self.pool4(enc4))
        h = self.decoder4(torch.cat((self.upconv4(h), enc4), dim=1))
        h = self.decoder3(torch.cat((self.upconv3(h), enc3), dim=1))
        h = self.decoder2(torch.cat((self.upconv2(h), enc2), dim=1))
        h = self.decoder1(torch.cat((self.upconv1(h), enc1), dim=1))
        return self.final_conv(h)


# The weight list `params` is named as this Model's state_dict names it: no entries needed.
WEIGHTS = {}

# The full size (spec.yaml's sizes.full).
B, CI, H, W, F, CO = 8, 8, 64, 512, 64, 4


def get_inputs():
    return [torch.rand(B, CI, H, W)]


def get_init_inputs():
    return [CI, F, CO]
