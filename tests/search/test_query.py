from trajectories.search.query import parse, words


def test_words_phrases_exclusions_and_fields_are_told_apart():
    q = parse('rm "git push --force" -test -"dry run" tool:bash ok:false model:"a b"')
    assert q.terms == ["rm", "git push force"]
    assert q.excluded == ["test", "dry run"]
    assert q.filters == {"tool": ["bash"], "ok": ["false"], "model": ["a b"]}
    assert q.problems == []


def test_a_colon_in_an_unknown_field_is_part_of_a_word():
    assert parse("https://example.test/x").terms == ["https example test x"]


def test_bad_filter_values_are_reported_not_applied():
    q = parse("exit:abc ok:maybe -model:x")
    assert q.filters == {}
    assert len(q.problems) == 3


def test_form_controls_add_filters_and_repeat_as_alternatives():
    q = parse("x model:a", {"model": ["b"], "type": ["message"], "ignored": ["1"]})
    assert q.filters == {"model": ["a", "b"], "type": ["message"]}


def test_punctuation_only_pieces_are_dropped_and_case_is_kept_for_the_database():
    q = parse('-- "" Quokka quokka')
    assert q.terms == ["Quokka"]
    assert q.highlight_words == ["quokka"]
    assert words("a_b-c") == ["a", "b", "c"]
