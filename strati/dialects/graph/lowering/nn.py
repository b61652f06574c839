"""The lower attributes of the nn ops (filled in by a later change)."""
