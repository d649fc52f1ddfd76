"""Our games in OpenSpiel (the optional extra ``[openspiel]``).

``world``, ``tables`` and ``bounds`` are plain Python; ``games`` (and what builds on it) is the
only place that imports ``pyspiel``: import it only when OpenSpiel is wanted.
"""
