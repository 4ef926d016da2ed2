"""The Triwizard Maze Game (``triwizard``): the rules core, its data sets and the plug-in.

Specification: ``shared/rules/triwizard-maze.md``; data sets: ``docs/triwizard-data.md``.
"""
