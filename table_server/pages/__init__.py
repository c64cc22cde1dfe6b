"""What everyone sees and asks: the table view and seat pages, the HTTP API, the history.

``screens`` (the pub's screen and the seat controllers), ``api`` (JSON, the event stream,
seat and referee actions), ``history`` (finished games and their ``chart``). Each is a
blueprint the app factory registers.
"""
