"""A config's named sections (the venue's ``[tables.NAME]``, the league's ``[pubs.NAME]``,
one checker for both: ``venue.settings.named_sections``) refuse a bad name, a section that is
not a table and a key they do not have, each in a sentence naming the section, the value and
what is allowed; the first bad section in the file is the one named."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ConfigError
from league.settings import build_league_config
from venue.settings import build_venue_config


def venue(sections: dict[str, Any]) -> None:
    build_venue_config({"database": {"dsn": "x"}, "hub": {"admin_password": "a"},
                        "tables": sections})


def league(sections: dict[str, Any]) -> None:
    build_league_config({"database": {"dsn": "x"},
                         "cluster": {"admin_password": "a", "route_password": "r"},
                         "pubs": sections})


@pytest.mark.parametrize(("build", "group", "keys"), [(venue, "tables", "password, log_id"),
                                                      (league, "pubs", "password, partition")])
@pytest.mark.parametrize(("sections", "says"), [
    ({"bad name": {"password": "x"}}, "{group}.bad name = {{'password': 'x'}} is not allowed: "
                                      "1 to 40 letters, digits, '-' or '_'"),
    ({"a1": "x"}, "{group}.a1 = 'x' is not allowed: a table: password = \"...\""),
    ({"a1": {"password": "x", "colour": 1}},
     "{group}.a1.colour = 1 is not allowed: no such key; [{group}.a1] has {keys}"),
    ({"a1": {}, "b c": 1}, "{group}.a1.password = None is not allowed: a non-empty string"),
    ({"a1": {"password": "x"}, "b c": 1}, "{group}.b c = 1 is not allowed: 1 to 40"),
])
def test_a_bad_named_section_is_refused_in_a_sentence_naming_it(
        build: Any, group: str, keys: str, sections: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError) as refused:
        build(sections)
    assert str(refused.value).startswith(says.format(group=group, keys=keys))
