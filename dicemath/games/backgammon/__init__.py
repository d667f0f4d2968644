"""Backgammon (RULES.md section 4): rules engine, GNU Backgammon Position IDs, bear-off databases."""
