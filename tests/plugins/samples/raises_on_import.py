"""A plugin whose import fails."""

raise RuntimeError("boom at import")
