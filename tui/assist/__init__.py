"""What every table assistant shares: the screen base (session, autosave, undo, solve worker) and widgets.

Each game's assistant lives in its own wing, ``tui/<game>/assist.py``.
"""
