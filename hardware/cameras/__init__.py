"""Frame sources: one interface for the Pi camera, a USB webcam, files and the simulator.

``open_camera(parse_camera(config["camera"]))`` is all the controller needs; which camera it
gets is decided by the ``[camera]`` table of the config::

    [camera]
    kind = "picamera"     # "picamera", "usb", "folder", "video" or "simulated"
    device = 0            # picamera: camera number; usb: index or "/dev/video0";
                          # folder: a directory; video: a file
    width = 640
    height = 480
    bottom_faces = false  # true when the camera looks up through a glass table
    settle_frames = 30    # picamera: frames before exposure is locked
    loop = true           # folder/video: start again after the last frame
    seed = 0              # simulated: scene seed
    unsure = 0.0          # simulated: the share of dice the camera is unsure of (0 to 1)
    dice = "white"        # simulated: the dice's look (DICE_LOOKS); "red-green" (red dice,
                          # green pips as bright as the body) the rule reader reads poorly

Heavy or Pi-only modules (picamera2, the renderer) are imported only when chosen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.errors import ConfigError, reject_unknown_keys
from hardware.cameras.base import FrameSource, check_frame
from vision.zones import Zone

__all__ = [
    "DICE_LOOKS", "KINDS", "CameraSettings", "FrameSource", "check_frame", "open_camera",
    "parse_camera",
]

#: The camera kinds ``[camera] kind`` accepts.
KINDS: tuple[str, ...] = ("picamera", "usb", "folder", "video", "simulated")

_KEYS = ("kind", "device", "width", "height", "bottom_faces", "settle_frames", "loop", "seed",
         "unsure", "dice")
#: the looks of the simulated camera's dice (``[camera] dice``), as the renderer names them
DICE_LOOKS: tuple[str, ...] = ("white", "ivory", "blue", "red", "green", "black", "red-green")


@dataclass(frozen=True)
class CameraSettings:
    """The ``[camera]`` table, checked. ``device=None`` means the kind's default."""

    kind: str = "simulated"
    device: int | str | None = None
    width: int = 640
    height: int = 480
    bottom_faces: bool = False
    settle_frames: int = 30
    loop: bool = True
    seed: int = 0
    unsure: float = 0.0
    dice: str = "white"

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


def _whole(key: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"camera.{key}", value, f"a whole number from {low} to {high}")
    return value


def _flag(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"camera.{key}", value, "true or false")
    return value


def parse_camera(section: Mapping[str, object] | None) -> CameraSettings:
    """Check the config's ``[camera]`` table; an absent table means the simulated camera.

    Raises :class:`ConfigError` naming the key for an unknown kind or key, a size that is not
    a whole number of pixels, a missing ``device`` for a folder or video, and so on.
    """
    section = dict(section or {})
    reject_unknown_keys("camera", section, _KEYS)
    kind = section.get("kind", "simulated")
    if kind not in KINDS:
        raise ConfigError("camera.kind", kind, f"one of {', '.join(KINDS)}")
    device = section.get("device")
    if kind in ("folder", "video"):
        what = "a folder of pictures" if kind == "folder" else "a video file"
        if device is None:
            raise ConfigError("camera.device", None, f"the path of {what} (kind = {kind!r})")
        if not isinstance(device, str) or not device:
            raise ConfigError("camera.device", device, f"the path of {what}, in quotes")
    elif kind == "picamera" and device is not None:
        device = _whole("device", device, 0, 7)
    elif kind == "usb" and device is not None:
        is_path = isinstance(device, str) and device.startswith("/dev/")
        is_index = isinstance(device, int) and not isinstance(device, bool) and 0 <= device <= 63
        if not (is_path or is_index):
            raise ConfigError("camera.device", device,
                              'a camera index (0, 1...) or a path like "/dev/video0"')
    elif kind == "simulated" and device is not None:
        raise ConfigError("camera.device", device, "nothing: the simulated camera has no device")
    dice = section.get("dice", "white")
    if dice not in DICE_LOOKS:
        raise ConfigError("camera.dice", dice, f"one of {', '.join(DICE_LOOKS)} (the simulated "
                          "camera's dice)")
    return CameraSettings(
        kind=kind,
        device=device,
        width=_whole("width", section.get("width", 640), 64, 4056),
        height=_whole("height", section.get("height", 480), 48, 3040),
        bottom_faces=_flag("bottom_faces", section.get("bottom_faces", False)),
        settle_frames=_whole("settle_frames", section.get("settle_frames", 30), 0, 600),
        loop=_flag("loop", section.get("loop", True)),
        seed=_whole("seed", section.get("seed", 0), 0, 2**31 - 1),
        unsure=_share("unsure", section.get("unsure", 0.0)),
        dice=str(dice),
    )


def _share(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ConfigError(f"camera.{key}", value, "a share from 0 to 1, such as 0.3")
    return float(value)


def open_camera(settings: CameraSettings, *, zones: Iterable[Zone] = ()) -> FrameSource:
    """Open the camera ``settings`` describe. Raises ``CameraError`` naming what to check.

    ``zones`` (``vision.zones.Zone``) are needed by the simulated camera only: it draws each
    seat's dice in its zone.
    """
    # lazy: only the camera chosen is imported -- picamera2 exists only on a Pi, and the
    # others pull in OpenCV's video I/O or the renderer, which a Pi camera never needs.
    if settings.kind == "picamera":
        from hardware.cameras.picamera import PiCamera  # lazy: see above

        return PiCamera(int(settings.device or 0), settings.width, settings.height,
                        settle_frames=settings.settle_frames)
    if settings.kind == "usb":
        from hardware.cameras.usb import UsbCamera  # lazy: see above

        device = 0 if settings.device is None else settings.device
        return UsbCamera(device, settings.width, settings.height)
    if settings.kind == "folder":
        from hardware.cameras.files import FolderSource  # lazy: see above

        return FolderSource(str(settings.device), loop=settings.loop)
    if settings.kind == "video":
        from hardware.cameras.files import VideoFileSource  # lazy: see above

        return VideoFileSource(str(settings.device), loop=settings.loop)
    from hardware.cameras.simulated import SimulatedCamera  # lazy: see above

    zones = tuple(zones)
    if not zones:
        raise ValueError("the simulated camera needs the seat zones: pass zones= (for example "
                         "vision.zones.default_zones(seats, width, height))")
    return SimulatedCamera(zones, settings.size, settings.seed,
                           bottom_faces=settings.bottom_faces, dice=settings.dice)
