"""What builds and measures the dice reader's models: training, its crops, evaluation.

Why apart from :mod:`vision`: the table runs :mod:`vision` alone (onnxruntime, numpy, OpenCV);
this package needs PyTorch for training (its own venv, ``make train-venv``) and the shared
photograph sets, as torchvision's ``references/`` sit beside its models. It may import
:mod:`vision`; :mod:`vision` never imports it.
"""
