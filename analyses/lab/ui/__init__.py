"""``dreamscape ui``: the what-if page, a local web page that plays one change of a game against the printed game.

:mod:`analyses.lab.ui.core` is the work (what can be changed, playing it with the Python API's paired
compare, the history, the equivalent command line and study file); :mod:`analyses.lab.ui.page` the NiceGUI
page over it (the optional extra ``ui``: ``pip install 'dreamscape-lab[ui]'``).
"""
from __future__ import annotations

from pathlib import Path


def serve(port: int | None = None, open_browser: bool = True, history_file: Path | None = None) -> None:
    """Serve the what-if page on 127.0.0.1 until interrupted (:func:`analyses.lab.ui.page.serve`)."""
    from analyses.lab.ui.page import serve as serve_page

    serve_page(port, open_browser, history_file)
