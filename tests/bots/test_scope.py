"""The scope rule itself, place by place (tests/platforms/test_scope_table.py runs it end to end)."""

from __future__ import annotations

import pytest

from bots.core.scope import scope_for
from bots.settings.sections import AccessSettings
from pipeline.question import Place, PlaceKind, Trigger

ACCESS = AccessSettings(
    scopes={
        "slack:T1/C1": ["exact"],
        "slack:*/C1": ["any-workspace"],
        "slack:*/C2": ["c2-anywhere"],
        "slack:T1": ["workspace"],
        "discord:G1": ["guild"],
        "slack:T2/dm": ["team2-dms"],
    },
    dm_scope=["dm"],
    default_scope=["default"],
)


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        (Place("slack", "T1", "C1"), ("exact",)),  # channel in its workspace wins
        (Place("slack", "T2", "C1"), ("any-workspace",)),  # then channel in any workspace
        (Place("slack", "T1", "C2"), ("c2-anywhere",)),  # … before the workspace
        (Place("slack", "T1", "C9"), ("workspace",)),
        (Place("slack", "T1", None), ("workspace",)),
        (Place("slack", None, "C2"), ("c2-anywhere",)),
        (Place("slack", "T9", "C9"), ("default",)),
        (Place("discord", "G1", "C1"), ("guild",)),  # keys name their platform
        (Place("discord", "T1", "C1"), ("default",)),
        (Place("slack", "T1", "C1", kind=PlaceKind.PRIVATE), ("exact",)),
        (Place("slack", "T1", "C1", kind=PlaceKind.DM), ("dm",)),  # the place, not its entry
        (Place("slack", "T1", "C1", kind=PlaceKind.GROUP_DM), ("dm",)),
        (Place("cli"), ("default",)),
        # a workspace's own DM entry (one installed by OAuth, say) before dm_scope
        (Place("slack", "T2", "D1", kind=PlaceKind.DM), ("team2-dms",)),
        (Place("slack", "T2", "C1", kind=PlaceKind.GROUP_DM), ("team2-dms",)),
        (Place("slack", "T3", "D1", kind=PlaceKind.DM), ("dm",)),
        (Place("discord", "T2", "D1", kind=PlaceKind.DM), ("dm",)),
    ],
)
def test_each_place_gets_its_most_specific_scope(place: Place, expected: tuple[str, ...]) -> None:
    assert scope_for(ACCESS, place) == expected


def test_a_dm_trigger_without_a_place_kind_is_a_dm() -> None:
    assert scope_for(ACCESS, Place("slack", "T1", "C1"), Trigger.DM) == ("dm",)
    assert scope_for(ACCESS, Place("slack", "T1", "C1"), Trigger.SLASH) == ("exact",)


def test_unset_scopes_fall_back_to_the_default_then_to_everything() -> None:
    no_dm = AccessSettings(default_scope=["default"])
    assert scope_for(no_dm, Place("slack", "T1", "D1", kind=PlaceKind.DM)) == ("default",)
    open_install = AccessSettings()
    assert scope_for(open_install, Place("slack", "T1", "C1")) is None
    assert scope_for(open_install, Place("slack", "T1", "D1", kind=PlaceKind.DM)) is None
    # an empty list is a scope too: nothing, never everything
    closed = AccessSettings(dm_scope=[], default_scope=[])
    assert scope_for(closed, Place("slack", "T1", "D1", kind=PlaceKind.DM)) == ()
    assert scope_for(closed, Place("slack", "T1", "C1")) == ()


def test_a_place_of_unknown_kind_gets_only_what_both_kinds_could_see() -> None:
    unknown = Place("slack", "T1", "C1", kind=PlaceKind.UNKNOWN)
    both = AccessSettings(scopes={"slack:T1/C1": ["docs", "ops"]}, dm_scope=["ops", "hr"])
    assert scope_for(both, unknown) == ("ops",)
    # no entry is every collection: the other kind's scope decides
    assert scope_for(AccessSettings(scopes={"slack:T1/C1": ["docs"]}), unknown) == ("docs",)
    assert scope_for(AccessSettings(dm_scope=["hr"]), unknown) == ("hr",)
    assert scope_for(AccessSettings(), unknown) is None
