"""The lower attributes of the reduce ops (filled in by a later change)."""
