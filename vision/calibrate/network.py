"""The face network as PyTorch can train it at the table, and back to ONNX for onnxruntime.

Why its own module: the table runs the face network with onnxruntime from ``faces.onnx``, whose
shipped form is 8-bit (:mod:`vision_lab.quantize`, QDQ: int8 weights, each activation rounded
through a QuantizeLinear/DequantizeLinear pair, and the ReLU6 clips taken away because the
rounding's range already clips). A table's calibration (:mod:`vision.calibrate.teach`) trains
that network further on the table's own dice, so the network is turned back into floats first
(:func:`float_graph`): each int8 weight becomes its float value, and each activation pair
becomes the clip its range stood for, which restores the ReLU6 exactly where quantisation had
taken it away. ``onnx2torch`` then makes it a trainable module (its batch norms are folded
into the convolutions, as the recipe exported them: there are no batch-norm statistics left
to estimate again). :func:`export` writes the trained module back as a float ``faces.onnx``.

PyTorch, ``onnx`` and ``onnx2torch`` come with the ``learn`` extra (``pip install
'bidou-table[learn]'``, ``make learn``); the table never imports this module: it reads the
exported file with onnxruntime.
"""

from __future__ import annotations

import os
import pathlib
from typing import Any

import numpy as np

from vision.learned.crops import FACE_INPUT
from vision.learned.face_model import Head

# PyTorch's OpenMP threads sleep when they wait: spinning, a training step ran 23 times slower
# while another process held a core (vision_lab's training sets the same); set before PyTorch
# is first imported, which happens only in the functions below and in vision.calibrate.teach
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

#: what a missing PyTorch is told
NEEDS_TORCH = ("teaching the table's own network needs PyTorch: install the learn extra "
               "(pip install 'bidou-table[learn]', or make learn) and calibrate again")


#: what a calibration says when it fits the head alone for want of PyTorch
HEAD_ONLY = ("PyTorch is not installed here, so only the learned reader's head is fitted: "
             "install the learn extra (pip install 'bidou-table[learn]', or make learn) to "
             "teach the table its own network.")


#: set to "0", a calibration fits the learned reader's head alone even where PyTorch is
#: installed (a table without minutes to spare; the test suite, but for the tests of teaching)
NO_TEACHING = "BIDOU_TABLE_TEACH"
#: what a calibration says when told not to teach
TOLD_NOT_TO = (f"{NO_TEACHING}=0: only the learned reader's head is fitted, the table's own "
               "network is not taught.")


def learn_extra() -> bool:
    """Whether the learn extra (PyTorch, onnx, onnx2torch) can be imported here."""
    try:
        import onnx  # noqa: F401  # lazy: only asked when a table is calibrated
        import onnx2torch  # noqa: F401  # lazy: as above
        import torch  # noqa: F401  # lazy: as above
    except ImportError:
        return False
    return True


def float_graph(path: pathlib.Path) -> Any:
    """``path``'s network as an ``onnx.ModelProto`` in floats: a float network unchanged, an
    8-bit one (QDQ) with its weights dequantised and each activation's QuantizeLinear/
    DequantizeLinear pair replaced by a Clip to the range the pair could hold."""
    import onnx  # lazy: the learn extra's, only when a table is taught
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    if not any(n.op_type == "QuantizeLinear" for n in graph.node):
        return model
    producer = {out: n for n in graph.node for out in n.output}
    new_inits: dict[str, np.ndarray] = {}
    clips = []
    dropped = set()
    for node in graph.node:
        if node.op_type != "DequantizeLinear":
            continue
        source, scale, zero = node.input[0], node.input[1], node.input[2]
        s, z = inits[scale].astype(np.float32), inits[zero].astype(np.float32)
        if source in inits:  # a weight or a bias: its float value
            q = inits[source].astype(np.float32)
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            if s.ndim == 1 and s.size > 1:
                shape = [1] * q.ndim
                shape[axis] = -1
                s, z = s.reshape(shape), z.reshape(shape)
            new_inits[node.output[0]] = ((q - z) * s).astype(np.float32)
            dropped.add(id(node))
            continue
        quant = producer[source]  # an activation: QuantizeLinear -> DequantizeLinear
        low = float((np.iinfo(inits[quant.input[2]].dtype).min - z) * s)
        high = float((np.iinfo(inits[quant.input[2]].dtype).max - z) * s)
        lo_name, hi_name = f"{node.output[0]}_clip_min", f"{node.output[0]}_clip_max"
        new_inits[lo_name] = np.array(low, np.float32)
        new_inits[hi_name] = np.array(high, np.float32)
        clips.append((node, helper.make_node("Clip", [quant.input[0], lo_name, hi_name],
                                             [node.output[0]])))
        dropped.update({id(node), id(quant)})
    nodes = []
    clip_for = {id(old): new for old, new in clips}
    for node in graph.node:
        if id(node) in clip_for:
            nodes.append(clip_for[id(node)])
        elif id(node) not in dropped:
            nodes.append(node)
    used = {name for n in nodes for name in n.input}
    kept_inits = [numpy_helper.from_array(v, k) for k, v in inits.items() if k in used
                  and k not in new_inits]
    kept_inits += [numpy_helper.from_array(v, k) for k, v in new_inits.items() if k in used]
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept_inits)
    del graph.value_info[:]
    onnx.checker.check_model(model)
    return model


def trainable(faces: pathlib.Path, head: Head) -> Any:
    """A ``torch.nn.Module``: ``faces``' network (floats, :func:`float_graph`) as ``trunk``
    and ``head`` (its temperature folded in) as ``fc``; BGR crops 0-255 -> logits."""
    import onnx2torch  # lazy: the learn extra's, only when a table is taught
    import torch  # lazy: the learn extra's, only when a table is taught

    class Network(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk = onnx2torch.convert(float_graph(faces))
            self.fc = torch.nn.Linear(head.weight.shape[1], head.weight.shape[0])
            with torch.no_grad():
                self.fc.weight.copy_(torch.from_numpy(head.weight / head.temperature))
                self.fc.bias.copy_(torch.from_numpy(head.bias / head.temperature))

        def forward(self, bgr: torch.Tensor) -> torch.Tensor:
            return self.fc(self.trunk(bgr))

    return Network()


def export(net: Any, faces: pathlib.Path, head: pathlib.Path) -> None:
    """``net``'s trunk as a float ONNX network at ``faces`` and its ``fc`` as a head at
    ``head`` (:meth:`vision.learned.face_model.Head.save`), each written aside and put in place."""
    import torch  # lazy: the learn extra's, only when a table is taught

    net.eval()
    aside = faces.with_name(f".{faces.name}.tmp")
    try:
        with torch.no_grad():
            torch.onnx.export(net.trunk, torch.zeros(2, 3, FACE_INPUT, FACE_INPUT), str(aside),
                              opset_version=13, input_names=["crops"],
                              output_names=["features"],
                              dynamic_axes={"crops": {0: "n"}, "features": {0: "n"}},
                              dynamo=False)
        aside.replace(faces)
    finally:
        aside.unlink(missing_ok=True)
    Head(net.fc.weight.detach().numpy().astype(np.float32),
         net.fc.bias.detach().numpy().astype(np.float32), 1.0).save(head)
