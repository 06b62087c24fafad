"""Small sequence and image-to-image networks for the model survey, as a user would
write them with torch.nn (random weights; exported by export_torch_models.py with
static shapes): recurrent layers (unrolled by glow-import), dilated and depthwise
Conv1d stacks, torch's own Transformer layers, a U-Net, and a Whisper-tiny-shaped
audio encoder over 30 s of audio (attention over 1500 frames). Each entry: name ->
(module builder, input shape, output name)."""
import math

import torch
from torch import nn


class LastStepLSTM(nn.Module):
    """2-layer LSTM (input 128, hidden 256) over 64 steps, a linear head on the last."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(128, 256, num_layers=2, batch_first=True)
        self.head = nn.Linear(256, 10)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.head(y[:, -1])


class BidirectionalGRU(nn.Module):
    """2-layer bidirectional GRU (40 features, hidden 128), per-step 30-way logits."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(40, 128, num_layers=2, bidirectional=True, batch_first=True)
        self.head = nn.Linear(256, 30)

    def forward(self, x):
        y, _ = self.gru(x)
        return self.head(y)


def tcn():
    """Dilated Conv1d stack (dilations 1-16, 128 channels) and a 30-way 1x1 output."""
    layers, channels = [], 40
    for dilation in (1, 2, 4, 8, 16):
        layers += [nn.Conv1d(channels, 128, 3, padding=dilation, dilation=dilation),
                   nn.BatchNorm1d(128), nn.ReLU()]
        channels = 128
    return nn.Sequential(*layers, nn.Conv1d(128, 30, 1))


def separable_conv1d():
    """QuartzNet-style blocks: depthwise Conv1d (kernels 33, 39, 51), pointwise, BN."""
    layers, channels = [], 64
    for kernel in (33, 39, 51):
        layers += [nn.Conv1d(channels, channels, kernel, padding=kernel // 2, groups=channels),
                   nn.Conv1d(channels, 256, 1), nn.BatchNorm1d(256), nn.ReLU()]
        channels = 256
    return nn.Sequential(*layers, nn.Conv1d(256, 29, 1))


def transformer_encoder():
    """torch's TransformerEncoder: 3 pre-norm layers, width 256, 8 heads, FFN 1024."""
    layer = nn.TransformerEncoderLayer(256, 8, 1024, batch_first=True, norm_first=True)
    return nn.TransformerEncoder(layer, 3, enable_nested_tensor=False)


def double_conv(inputs, outputs):
    return nn.Sequential(nn.Conv2d(inputs, outputs, 3, padding=1), nn.BatchNorm2d(outputs),
                         nn.ReLU(), nn.Conv2d(outputs, outputs, 3, padding=1),
                         nn.BatchNorm2d(outputs), nn.ReLU())


class UNet(nn.Module):
    """A 3-level U-Net: max pools down, ConvTranspose up, skip concatenations."""

    def __init__(self):
        super().__init__()
        self.down1, self.down2, self.down3 = double_conv(3, 32), double_conv(32, 64), double_conv(64, 128)
        self.pool = nn.MaxPool2d(2)
        self.up2, self.conv2 = nn.ConvTranspose2d(128, 64, 2, stride=2), double_conv(128, 64)
        self.up1, self.conv1 = nn.ConvTranspose2d(64, 32, 2, stride=2), double_conv(64, 32)
        self.out = nn.Conv2d(32, 2, 1)

    def forward(self, x):
        a = self.down1(x)
        b = self.down2(self.pool(a))
        c = self.down3(self.pool(b))
        y = self.conv2(torch.cat([self.up2(c), b], 1))
        y = self.conv1(torch.cat([self.up1(y), a], 1))
        return self.out(y)


class WhisperEncoder(nn.Module):
    """Whisper-tiny's audio encoder shape: two Conv1d (80 mel bins -> 384, the second
    with stride 2) with GELU, sinusoidal positions, 4 pre-norm Transformer layers (6
    heads, FFN 1536, GELU) and a final LayerNorm, over 3000 mel frames (1500 positions:
    each softmax row holds 1500 scores, 54 MB of scores per layer)."""

    def __init__(self, width=384, heads=6, layers=4, positions=1500):
        super().__init__()
        self.conv1 = nn.Conv1d(80, width, 3, padding=1)
        self.conv2 = nn.Conv1d(width, width, 3, stride=2, padding=1)
        steps = torch.exp(-math.log(10000) * torch.arange(width // 2) / (width // 2 - 1))
        angles = torch.arange(positions)[:, None] * steps[None]
        self.register_buffer("positions", torch.cat([torch.sin(angles), torch.cos(angles)], 1))
        layer = nn.TransformerEncoderLayer(width, heads, 4 * width, 0.0, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(width)

    def forward(self, mel):
        x = nn.functional.gelu(self.conv1(mel))
        x = nn.functional.gelu(self.conv2(x)).permute(0, 2, 1)
        return self.norm(self.layers(x + self.positions[: x.shape[1]]))


SEQUENCE_MODELS = {
    "torch_lstm": (LastStepLSTM, (1, 64, 128), "logits"),
    "torch_gru": (BidirectionalGRU, (4, 100, 40), "logits"),
    "torch_tcn": (tcn, (2, 40, 400), "logits"),
    "torch_separable_conv1d": (separable_conv1d, (1, 64, 256), "logits"),
    "torch_transformer_encoder": (transformer_encoder, (2, 64, 256), "hidden"),
    "torch_unet": (UNet, (1, 3, 128, 128), "mask"),
    "torch_whisper_encoder": (WhisperEncoder, (1, 80, 3000), "hidden"),
}
