"""The learned reader: a detector proposes places, a pretrained face network reads each, one
rule decides; run by onnxruntime from the ONNX files in ``vision/models/``. It loads only when a
table reads with it (:func:`vision.reader.open_reader`)."""
