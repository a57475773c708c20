"""The board a table published (``batch.board``: the neutral board model, checked), as
shapes for the staff view's SVG: polygons for regions, circles for pieces, lines. The
template draws them; every text goes through its escaping."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

DEFAULT_COLORS = {"p1": "#F0780A", "p2": "#1A78E0"}


def shapes(board: dict[str, Any], colors: dict[str, str] | None = None) -> dict[str, Any]:
    colors = {**DEFAULT_COLORS, **(colors or {})}
    x, y, w, h = board["frame"]
    regions, centres = [], {}
    for r in board["regions"]:
        xs = [p[0] for p in r["outline"]]
        ys = [p[1] for p in r["outline"]]
        centres[r["id"]] = (sum(xs) / len(xs), sum(ys) / len(ys),
                            min(max(xs) - min(xs), max(ys) - min(ys)))
        fill = r["fill"]
        regions.append({
            "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in r["outline"]),
            "fill": colors.get(fill, fill) if fill else "#f4f1ea",
            "opacity": 0.35 if fill in ("p1", "p2") else 1.0,
            "alert": r["alert"], "label": r["label"],
            "lx": min(xs) + 0.08 * (max(xs) - min(xs)), "ly": min(ys) + 0.22 * (max(ys) - min(ys)),
            "size": 0.16 * centres[r["id"]][2]})
    pieces = []
    by_region: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in board["pieces"]:
        if p["region"] is not None and p["region"] in centres:
            by_region[p["region"]].append(p)
        elif p["at"] is not None and p["diameter"]:
            pieces.append(_disk(p, p["at"][0], p["at"][1], p["diameter"] / 2, colors))
    for region, here in by_region.items():
        cx, cy, size = centres[region]
        n = len(here)
        r = 0.34 * size / max(1, (n + 1) // 2)
        for i, p in enumerate(here):
            dx = (i - (n - 1) / 2) * 2.1 * r if n > 1 else 0.0
            pieces.append(_disk(p, cx + dx, cy, r, colors))
    pieces.sort(key=lambda s: s["layer"])
    return {"view": f"{x:.1f} {y:.1f} {w:.1f} {h:.1f}", "regions": regions,
            "pieces": pieces, "lines": board["lines"], "width": w, "height": h}


def _disk(p: dict[str, Any], cx: float, cy: float, r: float,
          colors: dict[str, str]) -> dict[str, Any]:
    label = p["label"] if len(p["label"]) <= 14 else p["label"][:13] + "…"
    return {"cx": cx, "cy": cy, "r": r, "fill": colors.get(p["player"], "#888888"),
            "label": label, "title": p["label"], "badge": p["badge"], "layer": p["layer"],
            "font": max(r * 0.42, 1.0)}
