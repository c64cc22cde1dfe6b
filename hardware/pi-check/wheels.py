"""make pi-check: the table's compiled dependencies were installed as aarch64 wheels and work.

Run by ``hardware/pi-check/inside.sh`` in the arm64 root after each of the README's installs
(``--pi-os``: the Pi OS one, where numpy is Debian's ``python3-numpy``, not a wheel). A wheel
built for another machine cannot install there, but pip could have compiled one from source
(slow, and a Pi might lack the compiler): each wheel's ``WHEEL`` tags say which it was. Each
package is also used once (numpy, OpenCV's JPEG decoder, an ONNX Runtime session on the
shipped dice model, gpiozero's mock pins, cheroot's server class), since an installed wheel
can still fail to load its libraries. Prints one line per package; exit 1 naming the first
that is not an aarch64 (or pure Python) wheel or does not work.
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import platform
import sys

#: The packages the table needs that matter on a Pi, and whether their wheel is compiled.
PACKAGES = {"numpy": True, "opencv-python-headless": True, "onnxruntime": True,
            "cheroot": False, "gpiozero": False}
MODELS = pathlib.Path(__file__).resolve().parents[2] / "vision" / "models"


def wheel_tags(name: str) -> list[str]:
    """The ``Tag:`` lines of the installed distribution's WHEEL file."""
    text = importlib.metadata.distribution(name).read_text("WHEEL") or ""
    return [line.split(":", 1)[1].strip() for line in text.splitlines()
            if line.startswith("Tag:")]


def use(name: str) -> str:
    """Use the package once; a few words saying what worked."""
    if name == "numpy":
        import numpy as np

        return f"numpy matmul {int((np.ones((64, 64)) @ np.ones((64, 64)))[0, 0])}"
    if name == "opencv-python-headless":
        import cv2
        import numpy as np

        ok, data = cv2.imencode(".jpg", np.full((32, 32, 3), 200, np.uint8))
        back = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return f"cv2 {cv2.__version__} JPEG round trip {back.shape}" if ok else "imencode failed"
    if name == "onnxruntime":
        import onnxruntime as ort

        model = min(MODELS.glob("*.onnx"))
        session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
        return f"session on {model.name}, inputs {[i.name for i in session.get_inputs()]}"
    if name == "gpiozero":
        from gpiozero import Button, Device
        from gpiozero.pins.mock import MockFactory

        Device.pin_factory = MockFactory()
        button = Button(17)
        button.pin.drive_low()
        return f"mock pin pressed: {button.is_pressed}"
    if name == "cheroot":
        from cheroot import wsgi

        return f"cheroot.wsgi.Server {wsgi.Server.__name__}"
    raise ValueError(name)


def from_debian(name: str) -> bool:
    """Whether the installed distribution is Debian's package (in the system's site-packages)."""
    where = pathlib.Path(str(importlib.metadata.distribution(name).locate_file("")))
    return where.resolve() == pathlib.Path("/usr/lib/python3/dist-packages")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    pi_os = args == ["--pi-os"]
    if args and not pi_os:
        print(f"wheels.py: unknown arguments {args}; the only one is --pi-os", file=sys.stderr)
        return 2
    machine = platform.machine()
    if machine != "aarch64":
        print(f"wheels.py: this is {machine}, not aarch64", file=sys.stderr)
        return 1
    for name, compiled in PACKAGES.items():
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            print(f"wheels.py: {name} is not installed", file=sys.stderr)
            return 1
        tags = wheel_tags(name)
        fits = any("aarch64" in t for t in tags) if compiled else any(
            t.endswith("-none-any") for t in tags)
        if pi_os and name == "numpy":  # Pi OS's own, which picamera2's simplejpeg needs
            fits = from_debian(name)
            tags = ["Debian's python3-numpy"] if fits else tags
        if not fits:
            kind = "an aarch64" if compiled else "a pure-Python"
            print(f"wheels.py: {name} {version} was not installed from {kind} wheel "
                  f"(tags {tags or 'none: built from source'})", file=sys.stderr)
            return 1
        try:
            worked = use(name)
        except Exception as e:  # any failure to load is the finding
            print(f"wheels.py: {name} {version} is installed but fails: {e!r}",
                  file=sys.stderr)
            return 1
        print(f"wheel: {name} {version} [{', '.join(tags)}]: {worked}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
