"""How the vision benches score a detection against the truth of a scene: bases matched
by centre, identity, owners, occupancy and false occlusion (``VisionTally``), and what a
stabiliser committed (``score_committed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the vision stack (OpenCV) is imported only when a bench needs it
    from vision.detect.pipeline import Detection
    from vision.layout import Layout
    from vision.synth.scene import Scene

# Each frame is timed this many times and the fastest kept: on a shared machine other
# tenants' work lands on single runs (spreads of 30 % between identical runs were seen).
TIMING_RUNS = 3


def conditions():  # name -> (Conditions, hands)
    """The synthetic conditions every vision bench renders, by name: the camera's
    conditions and how many hands reach in."""
    from vision.synth import Conditions

    return {
        "clean": (Conditions(), 0),
        "tilt": (Conditions(tilt_deg=38, yaw_deg=8, distortion=-0.04), 0),
        "blur": (Conditions(blur=6), 0),
        "dim": (Conditions(light=0.4, noise=5, uneven=0.3), 0),
        "glare": (Conditions(glare=150), 0),
        "shadow": (Conditions(shadow=0.5), 0),
        "grey ink": (Conditions(print_black=0.3, tilt_deg=10), 0),
        "figures": (Conditions(tilt_deg=15), 0),
        "hands": (Conditions(tilt_deg=10), 1),
        "grey hands": (Conditions(print_black=0.3, tilt_deg=10), 1),
    }


FIGURES_IN = {"figures", "hands"}  # the conditions whose bases carry figures


def match_bases(truth_bases, seen, radius_factor=0.5):
    """Pairs (truth, seen) by nearest centre within half a base diameter."""
    import math

    pairs, used = [], set()
    for b in truth_bases:
        best = None
        for i, s in enumerate(seen):
            if i in used:
                continue
            d = math.hypot(s.x_mm - b.x, s.y_mm - b.y)
            if d < b.diameter * radius_factor and (best is None or d < best[0]):
                best = (d, i)
        if best is not None:
            used.add(best[1])
            pairs.append((b, seen[best[1]]))
        else:
            pairs.append((b, None))
    extra = [s for i, s in enumerate(seen) if i not in used]
    return pairs, extra


class VisionTally:
    """Counts for one condition at one frame size; ``report()`` turns them into rates."""

    def __init__(self) -> None:
        self.n: dict[str, int] = dict.fromkeys(
            ("scored", "ident_ok", "read", "wrong", "owner_ok", "owner_wrong", "matched",
             "regions_ok", "regions_n", "clear_regions", "false_occluded", "found",
             "frames"), 0)
        # by how many neighbouring wedges of the sticker the camera could see (renders
        # that say so): [scored, identity right]
        self.by_view: dict[str, list[int]] = {}

    def add(self, layout: Layout, scene: Scene, d: Detection,
            wedges_seen: list[int | None] | None = None) -> None:
        n = self.n
        n["frames"] += 1
        n["found"] += d.fix.found
        truth, covered = scene.truth(), scene.occluded_regions()
        pairs, _extra = match_bases(scene.bases, d.bases)
        views = wedges_seen if wedges_seen is not None else [None] * len(pairs)
        for (b, s), view in zip(pairs, views, strict=True):
            r = layout.region_at(b.x, b.y)
            if r is not None and r.name in d.occluded:
                continue  # occluded regions are not scored: the detector says "unknown"
            n["scored"] += 1
            ok = s is not None and s.sticker == b.tag and s.owner == b.owner
            if view is not None:
                tally = self.by_view.setdefault(_view_bucket(view), [0, 0])
                tally[0] += 1
                tally[1] += ok
            if s is None:
                continue
            n["matched"] += 1
            n["owner_ok"] += s.owner == b.owner
            n["owner_wrong"] += s.owner is not None and s.owner != b.owner
            if s.tag == "read":
                n["read"] += 1
                n["wrong"] += s.sticker != b.tag
            n["ident_ok"] += ok
        counts: dict[str, int] = {}
        for s in d.bases:
            counts[s.region] = counts.get(s.region, 0) + 1
        for r in layout.regions:
            if r.name not in covered:
                # No hand there: calling it occluded loses it for the frame.
                n["clear_regions"] += 1
                n["false_occluded"] += r.name in d.occluded
            if r.name in d.occluded or r.name in covered:
                continue
            n["regions_n"] += 1
            n["regions_ok"] += counts.get(r.name, 0) == len(truth.get(r.name, []))

    def report(self) -> dict[str, Any]:
        n = self.n

        def rate(a: int, b: int) -> float:
            return round(a / max(1, b), 4)

        out: dict[str, Any] = {
            "bases_scored": n["scored"],
            "identity_accuracy": rate(n["ident_ok"], n["scored"]),
            "identity_read_rate": rate(n["read"], n["scored"]),
            "identity_precision": rate(n["read"] - n["wrong"], n["read"]),
            "owner_accuracy": rate(n["owner_ok"], n["matched"]),
            "wrong_owners": n["owner_wrong"],  # a base given the other player: never
            "wrong_ids": n["wrong"],
            "base_recall": rate(n["matched"], n["scored"]),
            "occupancy_accuracy": rate(n["regions_ok"], n["regions_n"]),
            "false_occlusion_rate": rate(n["false_occluded"], n["clear_regions"]),
            "map_localization_rate": rate(n["found"], n["frames"]),
        }
        if self.by_view:
            out["identity_by_wedges_in_view"] = {
                k: {"bases": t[0], "identity_accuracy": rate(t[1], t[0])}
                for k, t in sorted(self.by_view.items(), reverse=True)}
            readable = [t for k, t in self.by_view.items() if k != VIEW_BUCKETS[-1][0]]
            out["identity_where_readable"] = rate(sum(t[1] for t in readable),
                                                  sum(t[0] for t in readable))
        return out


# How much of a sticker a camera sees (renders' truth, ``frames.visibility``): the
# longest run of neighbouring wedges in view. Under four, no decoder can name it
# (``vision/tags.py``: four neighbouring wedges are the fewest that name a pattern).
VIEW_BUCKETS = (("10 (whole)", 10), ("7-9", 7), ("4-6", 4), ("0-3 (unreadable)", 0))


def _view_bucket(wedges: int) -> str:
    return next(name for name, least in VIEW_BUCKETS if wedges >= least)


COMMITTED_KEYS = ("scored", "ok", "read", "wrong", "wrong_owner")


def score_committed(n: dict[str, int], bases: list, obs: Any) -> None:
    """Add the committed board ``obs`` (an ``Observation``, or None: nothing committed)
    scored against the true ``bases`` to the counts ``n`` (keys ``COMMITTED_KEYS``)."""
    seen = [] if obs is None else [b for bs in obs.regions.values() for b in bs]
    for truth, got in match_bases(bases, seen)[0]:
        n["scored"] += 1
        if got is None:
            continue
        n["ok"] += got.sticker == truth.tag and got.owner == truth.owner
        n["wrong_owner"] += got.owner is not None and got.owner != truth.owner
        if got.tag == "read":
            n["read"] += 1
            n["wrong"] += got.sticker != truth.tag


def identity_rates(n: dict[str, int]) -> dict[str, Any]:
    return {"bases_scored": n["scored"],
            "identity_accuracy": round(n["ok"] / max(1, n["scored"]), 4),
            "identity_precision": round(1 - n["wrong"] / max(1, n["read"]), 4)}

