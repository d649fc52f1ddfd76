"""Serving the app to other people: ``unmask serve ssh`` (asyncssh) and ``unmask serve web`` (textual-serve).

Each connection gets its own app process (Textual binds one app to one process's terminal);
see ``docs/serving.md``.
"""
