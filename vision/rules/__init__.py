"""The rule reader: pips found with OpenCV, grouped into faces, and a face read only when its
pips fill one legal layout (with a small second look at hard faces). Numpy and OpenCV only."""
