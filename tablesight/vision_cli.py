"""The vision and printing subcommands (kept apart from cli.py: they import OpenCV)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .usage import UsageError, installed_game


def load_layout(path: str | None, game: str | None = None):  # -> Layout
    from table import registry
    from vision.layout import Layout, LayoutError, game_layout

    if path is None:
        try:
            return game_layout(game)
        except registry.UnknownGame as exc:
            raise UsageError(str(exc)) from None
    try:
        return Layout.load(path)
    except LayoutError as exc:
        raise UsageError(str(exc)) from None


def make_detector(layout, cfg=None):  # -> vision.detect.Detector
    """A detector for ``layout``; a learned board it names that cannot be used is a
    usage error, said in one line."""
    from vision.detect import Detector
    from vision.layout import LayoutError

    try:
        return Detector(layout, cfg)
    except LayoutError as exc:
        raise UsageError(str(exc)) from None


def load_config(path: str | None):  # -> VisionConfig
    from vision.config import VisionConfig

    try:
        return VisionConfig.load(path)
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None


def cmd_print_map(args: argparse.Namespace) -> int:
    from vision.printing.sheets import print_map

    layout = load_layout(args.layout, args.game)
    files = print_map(layout, Path(args.out), dpi=args.dpi, paper=args.paper)
    print(f"layout      {files.layout}")
    print(f"png         {files.png}  ({args.dpi:.0f} dpi, "
          f"{layout.sheet[0]:.0f} x {layout.sheet[1]:.0f} mm)")
    print(f"one sheet   {files.sheet_pdf}")
    print(f"tiled       {files.tiled_pdf}  ({files.tiles} {args.paper} pages, 10 mm overlap)")
    return 0


def cmd_print_ruler(args: argparse.Namespace) -> int:
    from vision.printing.sheets import print_ruler

    bands: tuple[tuple[str, float], ...] = ()
    if args.game:
        system = installed_game(args.game)
        bands = tuple(system.ruler_bands())
        if not bands:
            raise UsageError(f"{system.title} measures with no range bands: "
                             "tablesight print ruler --length INCHES prints a plain one")
    try:
        path = print_ruler(Path(args.out), args.length, args.paper, bands,
                           args.game or "")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    what = (", ".join(f"{b} to {end / 25.4:g}\"" for b, end in bands) if bands
            else f"{args.length:g} inches")
    print(f"ruler       {path}  ({what}; check its centimetre scale)")
    return 0


def cmd_print_stickers(args: argparse.Namespace) -> int:
    from table import registry
    from table.errors import SetupRefused
    from vision.printing.sheets import print_stickers

    from .usage import read_json

    layout = load_layout(args.layout)
    try:
        # The force file is in the format of the game the map is for.
        system = registry.get(layout.game or registry.default())
        force = system.force_from_file(read_json(args.force))
    except (SetupRefused, registry.UnknownGame) as exc:
        raise UsageError(f"{args.force}: {exc}") from None
    pdf, mapping = print_stickers(layout, args.player, force, Path(args.out),
                                  base_mm=args.base, paper=args.paper,
                                  rings_only=args.rings_only,
                                  joining=system.joining_pieces(force))
    print(f"stickers    {pdf}")
    print(f"mapping     {mapping}")
    return 0


def cmd_vision_detect(args: argparse.Namespace) -> int:
    import cv2

    from vision.annotate import annotate

    layout = load_layout(args.layout)
    cfg = load_config(args.config)
    frame = _read_image(args.image)
    detector = make_detector(layout, cfg)
    if args.board:
        use_board_file(detector, args.board)
    det = detector.detect(frame)
    out = det.to_dict()
    if args.annotate:
        cv2.imwrite(args.annotate, annotate(frame, det))
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        m = out["map"]
        print(f"map found: {m['found']}  markers: {len(m['markers_seen'])}/"
              f"{m['markers_expected']}  reprojection: {m['reprojection_error_px']} px")
        for kind in ("cells", "zones"):
            for name, bases in out[kind].items():
                if bases:
                    desc = ", ".join(f"{b['owner'] or '?'}:{b['sticker']}" for b in bases)
                    print(f"  {name:<14} {desc}")
        if out["occluded"]:
            print(f"occluded: {' '.join(out['occluded'])}")
        if m["framing"] and m["framing"]["advice"]:
            print(f"camera: {m['framing']['advice']}")
        for advice in out["advice"]:
            print(f"advice: {advice}")
        print(f"{out['timing_ms'].get('total', 0):.1f} ms")
    return 0 if det.fix.found else 1


def _read_image(path: str):  # -> np.ndarray
    import cv2

    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise UsageError(f"{path}: not an image OpenCV can read")
    return img


def use_board_file(detector, path: str) -> None:  # detector: vision.detect.Detector
    """Compare the camera's frames with a learned board from ``path``."""
    try:
        detector.use_board(_read_image(path))
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None


def _pieces(text: str, layout: Any) -> dict[str, str]:
    """``--pieces p1=dark,p2=light``, checked against the layout's players."""
    from vision.layout import LayoutError, check_tones

    tones: dict[str, str] = {}
    for item in text.split(","):
        player, sep, tone = (part.strip() for part in item.partition("="))
        if not sep or not player:
            raise UsageError(f"--pieces: {item!r} is not PLAYER=TONE (e.g. p1=dark,p2=light)")
        if player not in layout.players:
            raise UsageError(f"--pieces: no player {player!r} in this layout (it has "
                             f"{', '.join(layout.players)})")
        tones[player] = tone
    try:
        return check_tones(tones, layout.players)
    except LayoutError as e:
        raise UsageError(f"--pieces: {e}") from None


def cmd_vision_learn_board(args: argparse.Namespace) -> int:
    """A board the project did not print: learn its look from a photo of it empty, and
    (``--layout-out``) write a layout that names it, with the markers' height."""
    from dataclasses import replace

    import cv2

    from vision.detect import Detector
    from vision.layout import Board, LayoutError, check_marker_height

    layout = load_layout(args.layout)
    if args.marker_height is not None:
        try:
            height = check_marker_height(args.marker_height)
        except LayoutError as e:
            raise UsageError(f"--marker-height: {e} (negative: below the board)") from None
        layout = replace(layout, markers=tuple(replace(m, height=height)
                                               for m in layout.markers))
    if args.pieces is not None:
        layout = replace(layout, tones=_pieces(args.pieces, layout))
    # Learned afresh: a layout naming an older picture must not compare with it.
    layout = replace(layout, board=Board())
    frames = [_read_image(path) for path in args.image]
    detector = Detector(layout, load_config(args.config))
    try:
        board = detector.learn_board(frames)
    except ValueError as e:
        # "picture K: ..." names one of several by its place; the file's name says more
        message = str(e)
        where = ", ".join(args.image)
        if message.startswith("picture ") and ":" in message:
            k, _, message = message[len("picture "):].partition(": ")
            if k.isdigit() and 1 <= int(k) <= len(args.image):
                where = args.image[int(k) - 1]
        raise UsageError(f"{where}: {message}") from None
    for warning in detector.board_warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not cv2.imwrite(args.out, board):
        raise UsageError(f"{args.out}: cannot write a PNG there")
    print(f"{args.out}: the empty board as the camera sees it ({board.shape[1]}x"
          f"{board.shape[0]} px, 1 px per mm)")
    if args.layout_out:
        learned = replace(layout, board=Board("learned", Path(args.out).resolve()))
        try:
            learned.save(args.layout_out)
        except OSError as e:
            raise UsageError(f"{args.layout_out}: cannot write the layout there ({e})") from None
        print(f"{args.layout_out}: the layout naming it; give it to --layout")
    else:
        print("give it to 'vision detect --board', or write a layout naming it with "
              "--layout-out")
    return 0


def cmd_vision_live(args: argparse.Namespace) -> int:
    import time

    import cv2

    from vision.annotate import annotate
    from vision.camera import CameraError, open_source
    from vision.stabilizer import Stabilizer

    layout = load_layout(args.layout)
    cfg = load_config(args.config)
    try:
        source = open_source(args.camera)
    except CameraError as exc:
        raise UsageError(str(exc)) from None
    det = make_detector(layout, cfg)
    if args.board:
        use_board_file(det, args.board)
    stab = Stabilizer(cfg.stable_frames, cfg.static_occlusion_frames)
    out_dir = Path(args.out) if args.out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    misses = 0
    advised = False
    try:
        while args.frames is None or n < args.frames:
            frame = source.read()
            if frame is None:
                if not getattr(source, "live", False):
                    break
                misses += 1
                if misses % 30 == 1:
                    print(json.dumps({"health": source.health().to_dict()}), flush=True)
                time.sleep(0.03)
                continue
            n += 1
            d = det.detect(frame.image)
            obs = stab.push(d, frame.time, frame.index)
            if not advised and (framed := d.framing()) is not None:
                advised = True  # once, when the map is first found
                print(json.dumps({"framing": framed.to_dict()}), flush=True)
            if obs is not None:
                print(json.dumps({"observation": obs.to_dict()}), flush=True)
            if source.freeze.frozen and n % 30 == 0:
                print(json.dumps({"health": source.health().to_dict()}), flush=True)
            if out_dir and n % args.every == 0:
                cv2.imwrite(str(out_dir / f"frame-{frame.index:06d}.jpg"), annotate(frame.image, d))
    finally:
        source.close()
    print(json.dumps({"frames": n, "health": source.health().to_dict()}), flush=True)
    return 0


def cmd_vision_synth(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from vision.synth import SceneRenderer, random_scene

    from .bench_scoring import conditions

    layout = load_layout(args.layout)
    renderer = SceneRenderer(layout)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        rng = np.random.default_rng(args.seed + i)
        table = conditions()
        if args.condition and args.condition not in table:
            raise UsageError(f"unknown condition {args.condition!r}: {', '.join(table)}")
        cond_name = args.condition or list(table)[i % len(table)]
        cond, hands = table[cond_name]
        scene = random_scene(layout, rng, 20, hands=hands)
        frame = renderer.render(scene, cond, tuple(args.size), seed=args.seed + i)
        path = out / f"synth-{args.seed + i:05d}-{cond_name}.jpg"
        cv2.imwrite(str(path), frame)
        (out / f"{path.stem}.truth.json").write_text(json.dumps(
            {"condition": cond_name, "regions": scene.truth(),
             "occluded": sorted(scene.occluded_regions())}, indent=1))
        print(path)
    return 0


def cmd_vision_render(args: argparse.Namespace) -> int:
    """Physically based frames (Blender, then a webcam model) with their truth."""
    from vision.photoreal import frames
    from vision.photoreal.spec import random_render_scene

    layout = load_layout(args.layout, args.game)
    try:
        qualities = sorted({int(q) for q in args.quality.split(",")})
    except ValueError:
        raise UsageError(f"--quality takes MJPEG qualities like 75,90, not {args.quality!r}"
                         ) from None
    if not qualities or any(not 1 <= q <= 100 for q in qualities):
        raise UsageError("MJPEG qualities run from 1 to 100")
    width, height = args.size
    plan = [random_render_scene(layout, args.seed + i, figures=args.figures,
                                size=(width, height)) for i in range(args.scenes)]
    for scene in plan:
        scene.look.samples = args.samples
    try:
        renders = frames.render(layout, plan, threads=args.threads)
    except (frames.BlenderMissing, frames.RenderFailed) as e:
        print(e, file=sys.stderr)
        return 2
    for path in frames.save(frames.film(layout, plan, renders, qualities, args.seed),
                            Path(args.out)):
        print(path)
    return 0


def contact_sheet(layout, seed: int = 1, tile: tuple[int, int] = (480, 270)):  # -> image
    """One synthetic frame per condition, side by side, labelled: for judging realism."""
    import cv2
    import numpy as np

    from vision.synth import SceneRenderer, random_scene

    from .bench_scoring import FIGURES_IN, conditions

    renderer = SceneRenderer(layout)
    tiles = []
    for i, (name, (cond, hands)) in enumerate(conditions().items()):
        rng = np.random.default_rng(seed + i)
        scene = random_scene(layout, rng, 20, hands=hands, figures=name in FIGURES_IN or i % 2)
        frame = renderer.render(scene, cond, (1280, 720), seed=seed + i)
        small = cv2.resize(frame, tile, interpolation=cv2.INTER_AREA)
        cv2.putText(small, name, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2,
                    cv2.LINE_AA)
        tiles.append(small)
    while len(tiles) % 4:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [cv2.hconcat(tiles[r:r + 4]) for r in range(0, len(tiles), 4)]
    return cv2.vconcat(rows)


def cmd_vision_contact(args: argparse.Namespace) -> int:
    import cv2

    img = contact_sheet(load_layout(args.layout), args.seed)
    cv2.imwrite(args.out, img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    print(args.out)
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    pr = sub.add_parser("print", help="printable map and stickers").add_subparsers(
        dest="print_command", required=True)
    pm = pr.add_parser("map", help="the map: PNG with DPI, one-sheet PDF, tiled PDF, layout")
    pm.add_argument("--out", default="print")
    pm.add_argument("--dpi", type=float, default=150.0)
    pm.add_argument("--paper", choices=["a4", "letter"], default="a4")
    pm.add_argument("--layout", help="a layout JSON (default: the game's printed map)")
    from table import registry

    pm.add_argument("--game", help="an installed game (tablesight games); default "
                       f"{registry.default()}")
    pm.set_defaults(func=cmd_print_map)
    pr_ = pr.add_parser("ruler", help="a range ruler in inches, in strips to join")
    pr_.add_argument("--length", type=float, default=12.0, help="inches (1-72)")
    pr_.add_argument("--game", help="a game whose range bands the ruler marks (its "
                     "catalog's lengths)")
    pr_.add_argument("--paper", choices=["a4", "letter"], default="a4")
    pr_.add_argument("--out", default="print")
    pr_.set_defaults(func=cmd_print_ruler)
    ps = pr.add_parser("stickers", help="base stickers for a player's force, with the mapping")
    # "--warband": the option's name before there was more than one game; still read.
    ps.add_argument("--force", "--warband", required=True,
                    help="the player's force file, in the format of the map's game")
    ps.add_argument("--player", choices=["p1", "p2"], default="p1")
    ps.add_argument("--base", type=float, default=25.0,
                    help="base diameter, mm (25 to 102: a 4-inch disk)")
    ps.add_argument("--paper", choices=["a4", "letter"], default="a4")
    ps.add_argument("--rings-only", action="store_true",
                    help="plain coloured rings (owner only, no identity)")
    ps.add_argument("--out", default="print")
    ps.add_argument("--layout")
    ps.set_defaults(func=cmd_print_stickers)

    vis = sub.add_parser("vision", help="the camera side").add_subparsers(
        dest="vision_command", required=True)
    vd = vis.add_parser("detect", help="one image in, the observed board out")
    vd.add_argument("image")
    vd.add_argument("--layout")
    vd.add_argument("--config", help="vision thresholds JSON")
    vd.add_argument("--json", action="store_true")
    vd.add_argument("--annotate", help="write the annotated image here")
    vd.add_argument("--board", help="the empty board learned by 'vision learn-board' "
                    "(a board the project did not print)")
    vd.set_defaults(func=cmd_vision_detect)
    vl = vis.add_parser("live", help="run on a camera; print stable observations")
    vl.add_argument("--camera", required=True,
                    help="device index, URL, video file or image folder")
    vl.add_argument("--layout")
    vl.add_argument("--board", help="a learned board (vision learn-board)")
    vl.add_argument("--config")
    vl.add_argument("--out", help="write annotated frames to this folder")
    vl.add_argument("--every", type=int, default=10, help="write every Nth frame")
    vl.add_argument("--frames", type=int, help="stop after this many frames")
    vl.set_defaults(func=cmd_vision_live)
    vs = vis.add_parser("synth", help="render synthetic frames with their ground truth")
    vs.add_argument("--out", default="synth")
    vs.add_argument("--count", type=int, default=8)
    vs.add_argument("--seed", type=int, default=1)
    vs.add_argument("--condition")
    vs.add_argument("--size", type=int, nargs=2, default=[1280, 720])
    vs.add_argument("--layout")
    vs.set_defaults(func=cmd_vision_synth)
    vb = vis.add_parser("learn-board", help="learn a board's own look (any art, wood, "
                        "lines) from a photo of it empty, markers on its corners")
    vb.add_argument("image", nargs="+", help="the photo; or several, in the light of "
                    "play at different times: what shows in fewer than half of them (a "
                    "sun patch, a hand) is left out")
    vb.add_argument("--out", default="board.png")
    vb.add_argument("--layout")
    vb.add_argument("--layout-out", help="write a layout (tablesight-layout/2) naming the "
                    "learned board, for --layout")
    vb.add_argument("--marker-height", type=float, metavar="MM",
                    help="the markers' height over the board's surface (negative: below "
                    "it, e.g. -20 for markers on the table beside a 20 mm board)")
    vb.add_argument("--pieces", metavar="P=TONE,...",
                    help="owners told by the pieces' own tone, not by stickers (black and "
                    "white pieces): e.g. p1=dark,p2=light")
    vb.add_argument("--config", help="vision thresholds JSON")
    vb.set_defaults(func=cmd_vision_learn_board)
    vr = vis.add_parser("render", help="physically based frames (Blender Cycles, then a "
                        "webcam: lens, noise, auto exposure, MJPEG) with their truth")
    vr.add_argument("--out", default="renders")
    vr.add_argument("--scenes", type=int, default=4)
    vr.add_argument("--seed", type=int, default=1)
    vr.add_argument("--figures", action="store_true", help="figures 20-40 mm tall on the bases")
    vr.add_argument("--quality", default="75,90", help="MJPEG qualities, comma separated")
    vr.add_argument("--size", type=int, nargs=2, default=[1280, 720], metavar=("W", "H"))
    vr.add_argument("--samples", type=int, default=32, help="Cycles samples per pixel")
    vr.add_argument("--threads", type=int, default=2)
    vr.add_argument("--layout")
    vr.add_argument("--game")
    vr.set_defaults(func=cmd_vision_render)
    vc = vis.add_parser("contact-sheet", help="one synthetic frame per condition, in a grid")
    vc.add_argument("out")
    vc.add_argument("--seed", type=int, default=1)
    vc.add_argument("--layout")
    vc.set_defaults(func=cmd_vision_contact)
