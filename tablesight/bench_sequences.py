"""Live-stream sequences for ``bench vision``: what a stabilised camera commits while a hand
moves a base, when a base is swapped for another in place, and how plain rings read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.layout import Layout

SLEEVES = ((60, 60, 60), (128, 128, 128), (200, 200, 200))  # BGR


def clear_spot(layout: Layout, others: list, diameter: float, rng: Any) -> tuple[float, float]:
    """A point in a cell where a base of ``diameter`` touches no other base (a real hand
    cannot put a base on top of another)."""
    from vision.synth.scene import clear_of

    cells = list(layout.cells)
    for _ in range(500):
        cell = cells[int(rng.integers(len(cells)))]
        x0, y0, x1, y1 = cell.bbox
        x = float(rng.uniform(x0 + diameter, x1 - diameter))
        y = float(rng.uniform(y0 + diameter, y1 - diameter))
        if clear_of(x, y, diameter, others, 2.0):
            return x, y
    raise RuntimeError("no free spot on the map")


def hand_sequences(layout, renderer, n: int, seed: int) -> dict[str, Any]:
    """A base picked up by a hand and put down elsewhere; count wrong commits."""
    import numpy as np

    from vision.detect import Detector
    from vision.stabilizer import Stabilizer
    from vision.synth import Conditions, Hand, Scene, random_scene

    wrong = missed = commits = held = 0
    for k in range(n):
        rng = np.random.default_rng(seed * 77 + k)
        before = random_scene(layout, rng, 14, figures=True)
        moving = before.bases[0]
        cx, cy = clear_spot(layout, before.bases[1:], moving.diameter, rng)
        after_bases = [*before.bases[1:], type(moving)(cx, cy, moving.owner, moving.tag,
                                                       moving.diameter, moving.angle,
                                                       moving.figure, moving.piece)]
        after = Scene(layout, after_bases)

        def sig(scene):
            # What a commit claims about the board: how many bases stand in each region.
            out: dict[str, int] = {}
            for b in scene.bases:
                r = layout.region_at(b.x, b.y)
                out[r.name] = out.get(r.name, 0) + 1
            return out

        truth_sigs = [sig(before), sig(after)]
        frames = []
        for _ in range(6):
            frames.append(before)
        path = np.linspace([moving.x, moving.y], [cx, cy], 8)
        # Every other arm wears a sleeve: dark, grey or light grey.
        sleeve = None if k % 2 == 0 else SLEEVES[(k // 2) % len(SLEEVES)]
        for px, py in path:
            mid = Scene(layout, list(before.bases[1:]),
                        [Hand(float(px), float(py), "bottom" if py > layout.sheet[1] / 2
                              else "top", color=sleeve)])
            frames.append(mid)
        for _ in range(8):
            frames.append(after)
        det = Detector(layout)
        stab = Stabilizer()
        cond = Conditions(tilt_deg=12, noise=3)
        last = None
        for i, scene in enumerate(frames):
            img = renderer.render(scene, cond, (1280, 720), seed=seed * 77 + k,
                                  frame_seed=seed * 77 + k * 100 + i)
            obs = stab.push(det.detect(img), i / 30, i)
            if obs is None:
                continue
            commits += 1
            got = {name: len(bases) for name, bases in obs.regions.items() if bases}
            if got not in truth_sigs:
                wrong += 1
            last = got
        held += stab.held_by_hands
        missed += last != truth_sigs[1]
    return {"sequences": n, "commits": commits, "wrong_commits": wrong,
            "final_board_missed": missed, "frames_held_by_hands": held}


# Plain rings (no sticker: a base with no identity: a summoned piece when no sticker is
# put on it) among stickered bases, on every game's map: a plain ring must
# never be read as a sticker (a clean one once read as sticker 6 and stalled a game).
PLAIN_SHARE = 0.4
# A game whose pieces stand anywhere (no cells to put bases in): these rows are about
# bases in cells.
NO_CELLS = {"skipped": "no cells on this map: its pieces stand anywhere"}
PLAIN_CONDITIONS = ("clean", "tilt", "glare", "grey ink", "figures")


def plain_rings(scenes: int, seed: int) -> dict[str, Any]:
    """Scenes of 22 bases, about ``PLAIN_SHARE`` of them plain rings, on each game's map
    under ``PLAIN_CONDITIONS`` at 720p: how the plain rings were reported (plain,
    unreadable, or read as a sticker: never) and how many stickers were called plain."""
    import numpy as np

    from table import registry
    from vision.detect import Detector
    from vision.layout import game_layout
    from vision.synth import SceneRenderer, random_scene

    from .bench_scoring import FIGURES_IN, conditions, match_bases

    out: dict[str, Any] = {}
    for game in registry.systems():
        layout = game_layout(game)
        if not layout.cells:
            out[game] = NO_CELLS
            continue
        renderer = SceneRenderer(layout)
        n = dict.fromkeys(("plain_rings", "plain", "unreadable", "read_as_sticker",
                           "wrong_owner", "not_found", "stickers", "sticker_called_plain"), 0)
        for name in PLAIN_CONDITIONS:
            cond, _hands = conditions()[name]
            for i in range(scenes):
                s = seed * 1000 + i
                scene = random_scene(layout, np.random.default_rng(s), 22,
                                     figures=name in FIGURES_IN, ring_only=PLAIN_SHARE)
                d = Detector(layout).detect(renderer.render(scene, cond, (1280, 720), seed=s))
                for truth, got in match_bases(scene.bases, d.bases)[0]:
                    if truth.tag is not None:
                        n["stickers"] += 1
                        n["sticker_called_plain"] += got is not None and got.tag == "none"
                        continue
                    n["plain_rings"] += 1
                    if got is None:
                        n["not_found"] += 1
                        continue
                    n["wrong_owner"] += got.owner is not None and got.owner != truth.owner
                    n["read_as_sticker"] += got.sticker is not None
                    n["plain"] += got.tag == "none"
                    n["unreadable"] += got.tag == "unreadable"
        out[game] = n
    out["conditions"] = list(PLAIN_CONDITIONS)
    return out


def swapped_in_place(cells_per_map: int, seed: int) -> dict[str, Any]:
    """A base taken off and another put down at the very same centre, again and again,
    filmed by one detector (a live camera's frames, worked on in part where only part
    changed): each frame must read what stands there now. ``stale``: a reading of a
    base that stood there before (a base swapped in place once kept the old base's
    reading, owner and all). On each game's map, at ``cells_per_map`` cells."""
    import numpy as np

    from table import registry
    from vision import tags
    from vision.detect import Detector
    from vision.layout import game_layout
    from vision.synth import Conditions, SceneRenderer
    from vision.synth.scene import Base, Scene

    out: dict[str, Any] = {}
    for game in registry.systems():
        layout = game_layout(game)
        if not layout.cells:
            out[game] = NO_CELLS
            continue
        renderer = SceneRenderer(layout)
        rng = np.random.default_rng(seed * 53)
        cells = list(layout.cells)
        picked = rng.choice(len(cells), size=min(cells_per_map, len(cells)), replace=False)
        n = dict.fromkeys(("swaps", "right", "unread", "stale", "other_wrong",
                           "frames_worked_in_part"), 0)
        for k in picked:
            cell = cells[int(k)]
            others = [b for b in (Base(*c.center, "p1", 15, figure=0.4)
                                  for c in cells if c.name != cell.name)
                      if np.hypot(b.x - cell.center[0], b.y - cell.center[1]) > 60][:2]
            det = Detector(layout)
            shown: list[tuple[str, int]] = []
            for step in range(6):
                owner = "p1" if rng.random() < 0.5 else "p2"
                sticker = int(rng.choice(tags.player_ids(0 if owner == "p1" else 1)))
                scene = Scene(layout, [*others, Base(*cell.center, owner, sticker,
                                                     figure=0.0)])
                d = det.detect(renderer.render(scene, Conditions(tilt_deg=12.0, noise=1.5),
                                               (1280, 720), seed=seed))
                n["frames_worked_in_part"] += 0 < d.redone < 1
                seen = [(b.owner, b.sticker) for b in d.bases if b.region == cell.name]
                if step:  # the first is put down on an empty cell, not swapped
                    n["swaps"] += 1
                    got = seen[0] if len(seen) == 1 else (None, None)
                    if got == (owner, sticker):
                        n["right"] += 1
                    elif got[1] is None:
                        n["unread"] += 1
                    elif got in shown:
                        n["stale"] += 1
                    else:
                        n["other_wrong"] += 1
                shown.append((owner, sticker))
        out[game] = n
    return out
