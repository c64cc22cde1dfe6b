"""The dashboard's languages and the words its screens show.

``i18n`` picks each request's language and says phrases with the catalogues; ``present``
adds the table view's words to a state (``banner``, ``standing``, ``seat_words``); ``howto``
is the rules in a few lines per variant. Pure over the public state: they add words, never
dice.
"""
