"""How every classifier stage of the recipe trains (the face network's first stage and its
stage on the reader's places): AdamW, a short linear warm-up then one cosine to nothing,
cross-entropy, a line of progress every 100 batches. One schedule and one loop, so the stages
cannot drift apart (they once held a copy each, the schedule's formula a little different)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable
from typing import Any

#: a progress line every this many batches
LOG_EVERY = 100


def lr_at(step: int, steps: int, base: float, warmup: int) -> float:
    """The rate for batch ``step`` (0-based) of ``steps``: ``base`` reached after ``warmup``
    batches, then halved along one cosine to nothing at the last batch."""
    return base * min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / steps))


def train_classifier(net: Any, batches: Iterable[tuple[Any, Any]], steps: int, base: float,
                     warmup: int, what: str, log: Callable[[str], None] = print) -> Any:
    """``steps`` of ``batches`` (inputs, classes) through ``net``'s trainable parameters
    (AdamW at :func:`lr_at`, weight decay 1e-4); ``net`` in eval mode after. PyTorch is
    imported here, not with the module: the table's tests import nothing of it."""
    import torch
    import torch.nn.functional as F  # noqa: N812

    opt = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=base,
                            weight_decay=1e-4)
    start = time.monotonic()
    net.train()
    seen = right = 0
    for step, (x, y) in enumerate(itertools.islice(batches, steps), start=1):
        for group in opt.param_groups:
            group["lr"] = lr_at(step - 1, steps, base, warmup)
        logits = net(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen += len(y)
        right += int((logits.argmax(1) == y).sum())
        if step % LOG_EVERY == 0:
            log(f"{what} step {step} ({100 * step / steps:.0f}%): loss {loss.item():.3f}, "
                f"right {100 * right / seen:.1f}% of the last {seen} crops, "
                f"{(time.monotonic() - start) / step:.2f} s a step")
            seen = right = 0
    log(f"{what}: {steps} steps in {(time.monotonic() - start) / 60:.1f} minutes")
    return net.eval()
