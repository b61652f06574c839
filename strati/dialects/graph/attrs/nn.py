"""Attributes of the nn ops (filled in by a later change)."""
