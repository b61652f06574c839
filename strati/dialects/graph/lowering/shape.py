"""The lower attributes of the shape ops (filled in by a later change)."""
