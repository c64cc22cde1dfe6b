"""The Flask dashboard: table view, seat controllers, referee console, history and the HTTP API.

This package holds what puts the dashboard together: the app factory (``app``), the server on
its daemon thread (``server``), what every view shares (``context``), the checks of what a
request sent (``validation``) and ``bidou-table run`` (``cmd_run``). One folder per job:

- :mod:`table_server.access`: who may ask (tokens, the PIN, device cookies, CSRF, rate limits);
- :mod:`table_server.streams`: the event streams, written by one thread;
- :mod:`table_server.words`: the languages and the words the screens show;
- :mod:`table_server.pages.screens`: the pages everyone sees, the HTTP API and the history;
- :mod:`table_server.console`: the referee's console.

``templates/``, ``static/`` and ``translations/`` stay beside the app, where Flask and Babel
look for them.
"""
