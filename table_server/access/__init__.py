"""Who may ask: seat and referee tokens, the PIN and its devices, CSRF, and the rate limits.

Every secret compared in constant time, every failed attempt counted, a press flood refused
before Flask sees it (``press_gate``). Apart from the pages so that every door of the dashboard
is checked in one folder, and a view only says which guard it stands behind.
"""
