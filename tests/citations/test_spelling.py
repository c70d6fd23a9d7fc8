from citations.spelling import american, folded_spelling, spelling_variants


def test_either_spelling_of_a_regular_ending_folds_to_the_same_word() -> None:
    pairs = [
        ("optimise", "optimize"),
        ("optimised", "optimized"),
        ("optimisations", "optimizations"),
        ("serialiser", "serializer"),
        ("analyse", "analyze"),
        ("analysing", "analyzing"),
        ("behaviour", "behavior"),
        ("colours", "colors"),
        ("favourite", "favorite"),
        ("centre", "center"),
        ("metres", "meters"),
        ("catalogue", "catalog"),
        ("dialogues", "dialogs"),
        ("licence", "license"),
        ("defences", "defenses"),
    ]
    for british, us in pairs:
        assert folded_spelling(british) == folded_spelling(us), british


def test_folding_keeps_case_and_leaves_short_stems_and_other_endings_alone() -> None:
    assert folded_spelling("Enable Optimisation in the BEHAVIOUR table.") == (
        "Enable Optimization in the BEHAVIOR table."
    )
    # only a word written all in capitals has its new ending in capitals
    assert folded_spelling("JSONise the SERIALISER") == "JSONize the SERIALIZER"
    for word in ["rise", "raise", "your", "hours", "acre", "genre", "sentence", "reference"]:
        assert folded_spelling(word) == word, word
    # a word that only looks British is folded too, and so still matches itself
    assert folded_spelling("promise") == folded_spelling("Promise".lower()) == "promize"


def test_spelling_variants_are_the_words_folding_changes_each_once() -> None:
    text = "Optimisations and optimisations: the behaviour of the colour."
    assert spelling_variants(text) == ["optimizations", "behavior", "color"]
    assert spelling_variants("Nothing to fold here.") == []


def test_american_folds_one_lower_case_word_and_keeps_what_is_not_an_ending() -> None:
    assert american("behavioural") == american("behavioral") == "behavioral"
    assert american("fibre") == "fiber" and american("metres") == "meters"
    assert american("recognisable") == "recognizable"
    assert american("optimisation") == "optimization"
    for word in ["rise", "your", "genre", "sentence", "license", "analysis"]:
        assert american(word) == word, word
    # a word joined to digits or underscores is folded as the words it is made of
    assert folded_spelling("colour_scheme colour2") == "color_scheme color2"
    # an ending that only gets shorter keeps the stem as written
    assert folded_spelling("Catalogue and Dialogues") == "Catalog and Dialogs"
