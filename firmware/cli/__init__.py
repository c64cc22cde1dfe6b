"""The ``bidou-table`` command: its dispatcher and the subcommands that live in firmware.

``dispatch`` names every subcommand's module as a string and imports only the chosen one, so
``bidou-table replay`` never pays for OpenCV or Flask. ``run`` is the dashboard's
(``table_server.cmd_run``) and ``read-dice`` the vision's (``vision.cli``); ``replay``,
``export`` and ``calibrate`` are here.
"""
