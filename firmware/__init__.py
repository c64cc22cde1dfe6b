"""The table controller: turns seat presses and camera reads into engine actions, keeps the log.

One folder per job:

- :mod:`firmware.table`: the controller core, the one owner of the game (commands, the worker,
  what a press means, the referee's corrections, the state each screen is shown);
- :mod:`firmware.camera`: the camera's side of a throw (dice read when still, pictures for the
  referee, the simulated table's dice);
- :mod:`firmware.gamelog`: the durable log, a game rebuilt from it, and which of its entries
  may leave the table (all a venue's hub or a league needs of the table);
- :mod:`firmware.words`: what the table says to people, in any language;
- :mod:`firmware.teach`: teaching the table its own dice;
- :mod:`firmware.settings`: the config file and the machine the table runs on;
- :mod:`firmware.cli.dispatch`: the ``bidou-table`` command and its subcommands.

``table.example.toml`` (every key of the config, documented) and ``table.teach.toml`` (the
simulated table ``make teach`` runs) stay here, where the pub's instructions name them.
"""
