"""The Masque of the Red Death screens: play, dialogs, end, and their view models."""
