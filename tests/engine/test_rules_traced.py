"""Every rule is traced to the tests that check it, and every test's rule exists.

The rules documents (docs/rules/) give each rule a code: S-.. for a sentence of the source
(source.md), R, T.., M.., P.., V.. for the items of RULINGS.md, D-.. for the project's own
decisions. Next to each code, a table headed ``| Code | ... | Tests |`` lists the tests that
check it. A test names the codes it checks in its name (``test_T5_...``, ``test_D_T2_...``:
underscores for dashes) or its docstring ("S-T11: ..." opening it). Here the map and the tests
must agree both ways: every code has a test, every test listed there names the code, every
code a test names is in the map, and every test that names a code is listed next to it.
"""

from __future__ import annotations

import ast
import pathlib
import re
from collections import defaultdict

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
SOURCE = ROOT.parent / "shared" / "rules" / "bidou-source.txt"
RULINGS = ROOT.parent / "shared" / "rules" / "RULINGS.md"

#: The items of RULINGS.md, as it numbers them ("R" is its Table 1).
RULING_ITEMS = ("R", "R1", "R2", "R3", "R4", *(f"T{i}" for i in range(1, 12)),
                *(f"M{i}" for i in range(1, 10)), "P1", *(f"V{i}" for i in range(1, 7)))

#: A code as a docstring or a document writes it.
CODE = re.compile(r"(?<![\w-])(D-[RTMVS]\d+|S-[BTMPV]\d+|[RTMPV]\d+)(?![\w-])")
#: A code as a test's name writes it: one word of the name ("T5", "R"), or two ("D_T2").
NAME_WORD = re.compile(r"[RTMPV]\d*")
TEST = re.compile(r"`(test_\w+)`")


def name_codes(name: str) -> set[str]:
    """The codes a test's name gives: ``test_M1_M6_D_M17_...`` -> M1, M6, D-M17."""
    words, codes, i = name.split("_")[1:], set(), 0
    while i < len(words):
        if words[i] in ("D", "S") and i + 1 < len(words) and re.fullmatch(r"[A-Z]\d+",
                                                                          words[i + 1]):
            codes.add(f"{words[i]}-{words[i + 1]}")
            i += 2
            continue
        if NAME_WORD.fullmatch(words[i]):
            codes.add(words[i])
        i += 1
    return codes


def codes_of_tests() -> dict[str, set[str]]:
    """Every test function under tests/, by name, with the codes it names."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                found[node.name] |= name_codes(node.name) | set(CODE.findall(doc))
    return found


def documented() -> dict[str, tuple[str, set[str]]]:
    """Each code of the rules documents' map tables: the document and the tests listed."""
    out: dict[str, tuple[str, set[str]]] = {}
    for doc in sorted(RULES.glob("*.md")):
        in_map = False
        for line in doc.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|"):
                in_map = False
            elif cells[0] == "Code" and cells[-1] == "Tests":
                in_map = True
            elif in_map and not set(cells[0]) <= set("-: "):
                code = cells[0].strip("*`")
                assert CODE.fullmatch(code) or code == "R", f"{doc.name}: {code!r} is no code"
                assert code not in out, f"{code} is in the map of {out[code][0]} and {doc.name}"
                out[code] = (doc.name, set(TEST.findall(cells[-1])))
    return out


def test_every_ruling_of_RULINGS_md_has_a_code_in_the_map() -> None:
    if RULINGS.exists():
        assert set(re.findall(r"^- ([RTMPV]\d+)\.", RULINGS.read_text(), re.M)) == \
            set(RULING_ITEMS) - {"R"}
    missing = [c for c in RULING_ITEMS if c not in documented()]
    assert not missing, f"RULINGS.md items with no line in the rules documents' maps: {missing}"


def test_every_rule_code_has_a_test_that_names_it() -> None:
    tests = codes_of_tests()
    wrong = []
    for code, (doc, listed) in documented().items():
        if not listed:
            wrong.append(f"{code} ({doc}) has no test")
        for name in sorted(listed):
            if name not in tests:
                wrong.append(f"{code} ({doc}) lists {name}, which is no test")
            elif code not in tests[name]:
                wrong.append(f"{code} ({doc}) lists {name}, which does not name {code}")
    assert not wrong, "\n".join(wrong)


def test_every_code_a_test_names_exists_and_lists_the_test() -> None:
    codes = documented()
    wrong = []
    for name, named in sorted(codes_of_tests().items()):
        for code in sorted(named):
            if code not in codes:
                wrong.append(f"{name} names {code}, which is no rule of docs/rules/")
            elif name not in codes[code][1]:
                wrong.append(f"{name} names {code}: list it next to {code} in "
                             f"docs/rules/{codes[code][0]}")
    assert not wrong, "\n".join(wrong)


def source_quotes() -> tuple[list[str], list[str]]:
    """source.md's quotes of the source: those given a code, those the table does not
    referee."""
    coded, not_refereed = [], []
    for line in (RULES / "source.md").read_text(encoding="utf-8").splitlines():
        quotes = re.findall(r'"(.+?)"(?= \||$)', line)
        if line.startswith("| S-"):
            coded += quotes
        elif line.startswith("- \""):
            not_refereed += re.findall(r'^- "(.+?)"', line)
    return coded, not_refereed


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.skipif(not SOURCE.exists(), reason="the shared rules are not beside the project")
def test_every_sentence_of_the_source_has_a_code_or_says_why_the_table_does_not_referee_it(
) -> None:
    source = words(SOURCE.read_text(encoding="utf-8"))
    coded, not_refereed = source_quotes()
    assert len(coded) == len({c for c in documented() if c.startswith("S-")})
    for quote in coded + not_refereed:
        assert words(quote) in source, f"not the source's words: {quote!r}"
        source = source.replace(words(quote), "|")
    left = [part.strip() for part in source.split("|")]
    # What is left are headings ("Betting limits") and the credit line: no sentence.
    rules = [p for p in left if "." in p and not p.startswith("From 'The Official")]
    assert not rules, f"sentences of the source with no code: {rules}"


def test_a_name_gives_its_codes_word_by_word() -> None:
    assert name_codes("test_M1_M6_D_M17_chips_are_conserved") == {"M1", "M6", "D-M17"}
    assert name_codes("test_R_golden_every_ordered_pair") == {"R"}
    assert name_codes("test_a_malformed_record_is_a_RecordError") == set()
    assert CODE.findall("S-T11: and D-T8, not X-T1 nor T5x") == ["S-T11", "D-T8"]
