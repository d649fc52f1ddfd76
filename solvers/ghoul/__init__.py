"""Tokyo Ghoul: Bloody Masquerade: the hands-and-identities solver, its advice, and the bots."""
