"""Frame sources: files, video, simulator, and the clear errors of missing or failing cameras."""

from __future__ import annotations

import pathlib
import sys
import types

import cv2
import numpy as np
import pytest

from engine.errors import CameraError, ConfigError
from hardware.cameras import (
    DICE_LOOKS,
    CameraSettings,
    FrameSource,
    check_frame,
    open_camera,
    parse_camera,
)
from hardware.cameras.files import FolderSource, VideoFileSource
from hardware.cameras.picamera import PiCamera
from hardware.cameras.simulated import SimulatedCamera
from hardware.cameras.usb import UsbCamera
from simulator.table_scenes import render_table
from vision.zones import default_zones

SEATS = ["Ann", "Bob", "Cy", "Dee"]
ZONES = default_zones(SEATS, 320, 240)


def picture(value: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    """A small non-blank picture, different for each ``value``."""
    w, h = size
    image = np.full((h, w, 3), 60 + 20 * value, np.uint8)
    cv2.circle(image, (w // 2, h // 2), 8 + value, (255, 255, 255), -1)
    return image


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name, value in (("b.png", 2), ("a.png", 1), ("c.jpg", 3)):
        cv2.imwrite(str(tmp_path / name), picture(value))
    (tmp_path / "notes.txt").write_text("not a picture")
    return tmp_path


def test_folder_source_reads_pictures_in_name_order_and_loops(folder) -> None:
    with FolderSource(folder) as source:
        assert isinstance(source, FrameSource)
        frames = [source.read() for _ in range(4)]
    assert [p.name for p in source.paths] == ["a.png", "b.png", "c.jpg"]
    assert np.array_equal(frames[0], picture(1)) and np.array_equal(frames[1], picture(2))
    assert np.array_equal(frames[3], frames[0])
    assert frames[2].shape == (48, 64, 3) and frames[2].dtype == np.uint8


def test_folder_source_without_loop_ends_with_a_clear_error(folder) -> None:
    source = FolderSource(folder, loop=False)
    for _ in range(3):
        source.read()
    with pytest.raises(CameraError, match=r"has shown all 3 pictures: the replay is over$"):
        source.read()


def test_folder_that_does_not_exist_or_is_empty(tmp_path) -> None:
    with pytest.raises(CameraError, match=r"there is no folder .*nowhere; check \[camera\] device"):
        FolderSource(tmp_path / "nowhere")
    with pytest.raises(CameraError, match=r"the folder has no pictures"):
        FolderSource(tmp_path)


def test_folder_with_a_corrupt_picture_names_it(tmp_path) -> None:
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(CameraError, match=r"broken\.jpg is not a picture OpenCV can read"):
        FolderSource(tmp_path).read()


def test_read_after_close_is_a_clear_error(folder) -> None:
    source = FolderSource(folder)
    source.close()
    source.close()
    with pytest.raises(CameraError, match=r"is closed: open it again"):
        source.read()


def write_video(path: pathlib.Path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for i in range(count):
        writer.write(picture(i + 1))
    writer.release()


def test_video_file_source_gives_every_frame_then_ends(tmp_path) -> None:
    path = tmp_path / "game.avi"
    write_video(path, 3)
    with VideoFileSource(path) as source:
        frames = [source.read() for _ in range(3)]
        with pytest.raises(CameraError, match=r"has reached the end of the video"):
            source.read()
    assert all(f.shape == (48, 64, 3) for f in frames)
    assert frames[0].mean() < frames[2].mean()


def test_video_file_source_loops_when_asked(tmp_path) -> None:
    path = tmp_path / "game.avi"
    write_video(path, 2)
    with VideoFileSource(path, loop=True) as source:
        assert len([source.read() for _ in range(5)]) == 5


def test_video_file_missing_or_not_a_video(tmp_path) -> None:
    with pytest.raises(CameraError, match=r"there is no video file"):
        VideoFileSource(tmp_path / "none.mp4")
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"garbage" * 10)
    with pytest.raises(CameraError, match=r"OpenCV cannot open bad\.mp4 as a video"):
        VideoFileSource(bad)


def test_usb_camera_that_does_not_exist_names_the_device() -> None:
    with pytest.raises(CameraError) as caught:
        UsbCamera("/dev/video99")
    assert str(caught.value) == (
        "no USB camera at /dev/video99: check the cable and `v4l2-ctl --list-devices`"
    )


def test_black_frames_are_refused_naming_the_camera() -> None:
    with pytest.raises(CameraError) as caught:
        check_frame("usb:0", np.zeros((48, 64, 3), np.uint8))
    assert str(caught.value) == (
        "camera 'usb:0' returns black frames: check the lens cap, the lighting and the exposure"
    )
    assert isinstance(caught.value, OSError)


def test_blank_frames_and_wrong_shapes_are_refused() -> None:
    with pytest.raises(CameraError, match=r"returns blank frames \(all one colour\)"):
        check_frame("usb:0", np.full((48, 64, 3), 200, np.uint8))
    with pytest.raises(CameraError, match=r"gave a uint8 frame of shape \(48, 64\)"):
        check_frame("usb:0", np.full((48, 64), 200, np.uint8))
    with pytest.raises(CameraError, match=r"gave no picture"):
        check_frame("usb:0", None)


def test_simulated_camera_draws_the_dice_that_were_set() -> None:
    cam = SimulatedCamera(ZONES, size=(320, 240))
    empty = cam.read()
    cam.set_dice("Ann", [1, 2, 3])
    thrown = cam.read()
    assert thrown.shape == (240, 320, 3)
    assert not np.array_equal(empty, thrown)
    assert np.array_equal(thrown, cam.read())  # still table, same frame
    ann = ZONES[0]
    changed = np.abs(thrown.astype(int) - empty.astype(int)).max(axis=2) > 60  # white dice
    assert changed.sum() > 300
    assert changed[ann.y:ann.y + ann.h, ann.x:ann.x + ann.w].sum() == changed.sum()
    cam.clear("Ann")
    assert cam.dice() == {}


def test_simulated_camera_frames_are_render_table_s_though_drawn_ahead() -> None:
    """The camera draws each next throw's surface and noise ahead: every frame must still be
    the pixels :func:`render_table` draws for its dice and seed (seed + throws so far), and a
    frame a reader draws on must not change the frames after it."""
    cam = SimulatedCamera(ZONES, size=(320, 240), seed=11)

    def drawn(throws: int) -> np.ndarray:
        return render_table(ZONES, cam.dice(), 11 + throws, (320, 240))

    assert np.array_equal(cam.read(), drawn(0))  # no dice yet
    for throws, (seat, values) in enumerate([("Ann", [1, 2, 3]), ("Bob", [6, 5, 4]),
                                             ("Ann", [2, 2, 2])], start=1):
        cam.set_dice(seat, values)
        frame = cam.read()
        assert np.array_equal(frame, drawn(throws))
        frame[:] = 0
        assert np.array_equal(cam.read(), drawn(throws))
    cam.set_dice("Cy", [5, 5, 5])  # two throws and no read between: past the one drawn ahead
    cam.set_dice("Dee", [1, 1, 1])
    assert np.array_equal(cam.read(), drawn(5))
    cam.close()


def test_simulated_camera_refuses_bad_dice_and_unknown_seats() -> None:
    cam = SimulatedCamera(ZONES, size=(320, 240))
    with pytest.raises(ValueError, match=r"no zone for seat 'Zed'; zones are: Ann, Bob, Cy, Dee"):
        cam.set_dice("Zed", [1, 2, 3])
    with pytest.raises(ValueError, match=r"dice values must be whole numbers 1 to 6, not \[7"):
        cam.set_dice("Ann", [7, 1, 1])


def test_simulated_unplug_and_black_raise_camera_errors_until_replugged() -> None:
    cam = SimulatedCamera(ZONES, size=(320, 240))
    cam.unplug()
    with pytest.raises(CameraError, match=r"camera 'simulated' stopped giving frames: camera "
                       r"unplugged\? check the cable"):
        cam.read()
    cam.black()
    with pytest.raises(CameraError, match=r"camera 'simulated' returns black frames"):
        cam.read()
    cam.replug()
    assert cam.read().shape == (240, 320, 3)


class FakePicamera2:
    """Stands in for picamera2.Picamera2 (not installed off the Pi): records what is asked."""

    cameras: list[dict] = [{"Model": "imx708", "Num": 0}]
    instances: list[FakePicamera2] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.calls: list[tuple] = []
        self.frames = 0
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return FakePicamera2.cameras

    def create_still_configuration(self, main: dict, buffer_count: int) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_metadata(self) -> dict:
        self.frames += 1
        return {"ExposureTime": 1000 + self.frames, "AnalogueGain": 2.0,
                "ColourGains": (1.5, 1.2)}

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", controls))

    def capture_array(self, name: str) -> np.ndarray:
        if self.frames < 0:
            raise RuntimeError("Camera frontend has timed out!")
        return picture(4, (640, 480))

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera_without_picamera2_names_the_package_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraError) as caught:
        PiCamera()
    assert str(caught.value) == (
        "camera 'picamera:0' needs the picamera2 library, which is not installed: on Pi OS run "
        "`sudo apt install python3-picamera2` and create the venv with "
        "`python3 -m venv --system-site-packages`"
    )


def test_picamera_asks_rgb888_settles_then_locks_exposure(fake_picamera2) -> None:
    with PiCamera(width=640, height=480, settle_frames=5) as cam:
        frame = cam.read()
    fake = fake_picamera2.instances[0]
    assert fake.calls[0] == ("configure", {"main": {"format": "RGB888", "size": (640, 480)}})
    assert fake.frames == 5
    assert ("set_controls", {"AeEnable": False, "ExposureTime": 1005, "AnalogueGain": 2.0,
                             "AwbEnable": False, "ColourGains": (1.5, 1.2)}) in fake.calls
    assert fake.calls[-2:] == [("stop",), ("close",)]
    assert frame.shape == (480, 640, 3)


def test_picamera_not_connected_says_to_check_the_ribbon(fake_picamera2, monkeypatch) -> None:
    monkeypatch.setattr(fake_picamera2, "cameras", [])
    with pytest.raises(CameraError, match=r"^no Pi camera number 0 is connected \(0 found\): "
                       r"check the ribbon cable"):
        PiCamera()


def test_picamera_failing_mid_game_is_a_camera_error(fake_picamera2) -> None:
    cam = PiCamera(settle_frames=1)
    fake_picamera2.instances[0].frames = -10
    with pytest.raises(CameraError, match=r"stopped giving frames \(Camera frontend has timed "
                       r"out!\): camera unplugged\? check the ribbon cable"):
        cam.read()
    cam.close()


def test_parse_camera_defaults_to_the_simulator() -> None:
    assert parse_camera(None) == CameraSettings()
    assert parse_camera({"kind": "usb", "device": "/dev/video2", "width": 1280,
                         "height": 720}).device == "/dev/video2"


@pytest.mark.parametrize(("section", "message"), [
    ({"kind": "webcam"}, "camera.kind = 'webcam' is not allowed: one of picamera, usb, folder, "
                         "video, simulated"),
    ({"kind": "folder"}, "camera.device = None is not allowed: the path of a folder of pictures "
                         "(kind = 'folder')"),
    ({"kind": "usb", "device": "cam"}, "camera.device = 'cam' is not allowed: a camera index "
                                       "(0, 1...) or a path like \"/dev/video0\""),
    ({"width": "640"}, "camera.width = '640' is not allowed: a whole number from 64 to 4056"),
    ({"bottom_faces": "yes"}, "camera.bottom_faces = 'yes' is not allowed: true or false"),
    ({"exposure": 5}, "camera.exposure = 5 is not allowed: no such key; [camera] takes kind, "
                      "device, width, height, bottom_faces, settle_frames, loop, seed, unsure, "
                      "dice"),
    ({"unsure": True}, "camera.unsure = True is not allowed: a share from 0 to 1, such as 0.3"),
    ({"dice": "tartan"}, "camera.dice = 'tartan' is not allowed: one of white, ivory, blue, red, "
                         "green, black, red-green (the simulated camera's dice)"),
])
def test_parse_camera_refuses_bad_values(section: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_camera(section)
    assert str(caught.value) == message


def test_open_camera_opens_each_kind(folder) -> None:
    with open_camera(parse_camera({"kind": "folder", "device": str(folder)})) as source:
        assert source.name == f"folder:{folder}"
    with open_camera(CameraSettings(width=320, height=240), zones=ZONES) as source:
        assert source.read().shape == (240, 320, 3)
    with pytest.raises(ValueError, match=r"the simulated camera needs the seat zones"):
        open_camera(CameraSettings())
    with pytest.raises(CameraError, match=r"no USB camera at /dev/video98"):
        open_camera(CameraSettings(kind="usb", device="/dev/video98"))


def test_usb_camera_that_stops_giving_frames_says_unplugged(tmp_path) -> None:
    # cv2.VideoCapture opens a file as it opens /dev/videoN: reading past its end is what a
    # camera pulled out mid-game looks like to OpenCV (read() returns False).
    path = tmp_path / "last-frames.avi"
    write_video(path, 1)
    with UsbCamera(str(path)) as camera:
        assert camera.read().shape == (48, 64, 3)
        with pytest.raises(CameraError) as caught:
            camera.read()
    assert str(caught.value) == (
        f"camera 'usb:{path}' at {path} stopped giving frames: camera unplugged? check the USB "
        "cable, then `v4l2-ctl --list-devices`"
    )


def test_the_simulated_camera_s_dice_of_another_look_are_ones_the_rule_reader_misses() -> None:
    """[camera] dice = "red-green": red dice whose green pips are as bright as the body, the
    look a newcomer teaches the table (docs/table-adaptation.md, the Dice page)."""
    from simulator.render import DICE_COLOURS, OTHER_DICE_COLOURS
    from vision.reader import rule_reader

    assert set(DICE_LOOKS) == set(DICE_COLOURS) | set(OTHER_DICE_COLOURS)
    read = rule_reader()
    seen = {}
    for look in ("white", "red-green"):
        camera = open_camera(parse_camera({"dice": look}), zones=ZONES)
        found = 0
        for n in range(4):
            camera.set_dice(ZONES[0].seat, [1 + n, 6 - n, 3])
            found += len(read(camera.read()).dice)
        seen[look] = found
    assert seen == {"white": 12, "red-green": 0}
