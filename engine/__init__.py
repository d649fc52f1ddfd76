"""Pure game rules. Imports nothing else of unmask, and nothing that does I/O or draws."""
