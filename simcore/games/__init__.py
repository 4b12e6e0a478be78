"""The games this lab can study, each behind one plug-in interface.

Project Dreamscape (the lab's first game, ``simcore`` itself) and Pleasant Dreams
(``simcore.games.pleasant_dreams``). The registry that commands use to pick a game by
name lives here.
"""
