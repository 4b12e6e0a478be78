"""`dreamscape certify`'s table: every finding at the study's strongest level and at the certified top rung.

Plain rows in (:func:`analyses.lab.certify.certify`), text lines out; the report's page of the same
rows is the game's own (Project Dreamscape: :mod:`reports.games.dreamscape.certified`).
"""
from __future__ import annotations

from reports.numbers import change_with_interval, rate_with_interval


def finding_name(r: dict) -> str:
    """``3p base: seat 1 wins`` or ``3p sleep-token vs base: seat spread``."""
    if r["topic"] == "seat":
        return f"{r['players']}p {r['variant']}: seat {r['seat']} wins"
    return f"{r['players']}p {r['variant']} vs {r['baseline']}: seat spread"


def value_text(r: dict, prefix: str = "") -> str:
    value, low, high = r[f"{prefix}value"], r[f"{prefix}low"], r[f"{prefix}high"]
    if r["topic"] == "seat":
        return rate_with_interval(value, low, high)
    return change_with_interval(value, low, high)


def correlation_text(value: float) -> str:
    """``+0.34``, or ``  n/a`` where it has no value: strong's games of the deals read all went one way (a seat that
    never won them), so nothing varies to correlate with."""
    return "  n/a" if value != value else f"{value:+.2f}"


def certify_lines(data: dict) -> list[str]:
    rows = data["findings"]
    out = [f"certify folder {data['folder']}: {data['played']:,} games played this run"]
    out += [f"bot rows, {line}" for line in data.get("bot_rows", [])]  # what the bots played, against the code
    if not rows:
        return out + ["no finding has certified games yet"]
    out.append("finding                                   strong (all its deals)       verdict       "
               "certified (control variate)  verdict      deals  corr  var. reduction")
    for r in rows:
        out.append(f"{finding_name(r):<41} {value_text(r, 'strong_'):<28} {r['strong_verdict']:<13} "
                   f"{value_text(r):<28} {r['verdict']:<12} {r['deals']:>5}  {correlation_text(r['correlation'])}  "
                   f"{r['reduction']:.2f}  [{r['level']}]")
    out.append("win rates against the fair share, spread changes in points against zero; 95% intervals; verdict: "
               "above/below (excludes it and Holm's correction across the "
               f"{rows[0]['family']} claims keeps it), no effect (within +-2 points), unconfirmed, too few deals "
               "(under 20)")
    margins = sorted({(r["playouts"], r["players"], r["variant"], r["level"], r["rung_margin"]) for r in rows
                      if r.get("rung_margin")})
    for _, players, variant, level, words in margins:  # the rung's own measured distance above strong
        out.append(f"{level} against strong, {players}p {variant}: {words}")
    budgets = sorted({r["playouts"] for r in rows})
    if len(budgets) > 1:
        changed = data.get("doubling_changes") or []
        out.append(f"doubling {budgets[0]} -> {budgets[-1]} playouts: "
                   + ("no verdict changes (among the findings with enough deals at both)" if not changed else
                      f"{len(changed)} verdict(s) change: " + "; ".join(
                          f"{finding_name(r)} {r['verdict']} -> {r['verdict_2k']}" for r in changed)))
    return out
