"""What the table says to people: phrases said later in each listener's language.

A :class:`~firmware.words.phrases.Phrase` is an English msgid with its values; ``wording``,
``engine_words`` and ``throw_words`` make them from actions, the engine's messages and Table 1's
throws, ``press_labels`` says what each seat-page button will do; ``verbs``, ``variant_names``
and ``lists`` hold the one table of each kind of word. The dashboard renders them with its
catalogues. Apart, so that every sentence a player reads is found in one folder.
"""
