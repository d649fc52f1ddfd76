"""Masque of the Red Death: the safe-room solver, the best midnight plan, and bots."""
