"""The table assistant: notes for a real tabletop game, kept by the exact solver."""

from tui.assist.clue import AssistApp, ClueAssistScreen, run_assist

__all__ = ["AssistApp", "ClueAssistScreen", "run_assist"]
