"""The event streams: Server-Sent Events of the public state, written by one thread.

``sse`` frames the events and serves a stream, ``broadcast`` writes every stream's changes
from one thread, ``held_send`` keeps the interpreter lock through a send. Apart, because how a
change reaches 200 screens fast is its own problem, measured by the benchmarks.
"""
