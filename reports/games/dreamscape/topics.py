"""Project Dreamscape's findings topics (:mod:`reports.games.dreamscape.findings` writes them)."""

# The findings' topics and their headings, in page order.
TOPICS = {
    "seats": "Seat advantage",
    "compare": "Rules options",
    "swaps": "Expansion swaps",
    "types": "Dream types",
    "tournament": "Strategy tournament",
    "skill": "Skill against luck",
    "ladder": "Strength ladder",
    "solo": "Solo",
    "length": "Game length",
    "exploit": "How strong were the bots?",
    "restrict": "Restricted play",
}
