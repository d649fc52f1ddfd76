"""Deduction, advice and bots. Consumes engine observations only; never imports tui or textual."""
