"""The table's settings: its one TOML config, checked whole before anything starts.

``config`` reads the file and has each section checked by the part that owns it; the
dashboard's ``[server]`` (``server_settings``) and the forwarder's ``[venue]``
(``venue_settings``) are decided here, below the dashboard and the venue that take them as
given; ``machine`` says whether this is a Raspberry Pi and where the log lives there. Light
imports: the venue and the league read the settings' names without loading the controller.
"""
