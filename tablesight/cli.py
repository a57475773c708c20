"""``tablesight`` command line. Each subcommand is a thin shell over a library call;
errors in the user's input become one clear line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from table import registry

from .usage import MAX_MESSAGE, UsageError, installed_game, read_json


# -- rules ---------------------------------------------------------------------------
def cmd_rules_check(args: argparse.Namespace) -> int:
    from table import scenarios as scenario

    data = read_json(args.scenario)
    if args.catalog:
        game = data.get("game") if isinstance(data, dict) else None
        _with_files(installed_game(game if isinstance(game, str) else None), args.catalog)
    try:
        out = scenario.run(data)
    except scenario.ScenarioError as exc:
        raise UsageError(f"{args.scenario}: {exc}") from None
    # The steps' own expectations are checked whenever the file carries them.
    diffs = scenario.step_differences(data, out)
    if not args.events:
        for r in out.get("results", []):
            r.pop("events", None)
    json.dump(out, sys.stdout, indent=None if args.compact else 2)
    sys.stdout.write("\n")
    if args.expect:
        diffs += scenario.compare(read_json(args.expect), out)  # type: ignore[arg-type]
    for d in diffs:
        print(f"MISMATCH {d}", file=sys.stderr)
    return 1 if diffs else 0


def _with_files(system, files: Sequence[str] | None) -> None:
    """Hand ``system`` its user files and the ``--catalog`` files named on the command
    line, after them (later files add to and correct earlier ones)."""
    if not files:
        return
    use_user_catalog(system, [(Path(f).name, read_json(f)) for f in files])


# -- catalogs and forces ---------------------------------------------------------------
def cmd_catalog_list(args: argparse.Namespace) -> int:
    system = installed_game(args.game)
    _with_files(system, args.catalog)
    document, lines = system.describe_catalog()
    if args.json:
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for line in lines:
        print(line)
    return 0


def cmd_catalog_import(args: argparse.Namespace) -> int:
    from table.errors import CatalogError

    from .paths import game_catalog_dir

    system = installed_game(args.game)
    try:
        text = Path(args.csv).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {args.csv}: {exc}") from None
    try:
        made = system.import_catalog(text, Path(args.csv).name)
    except CatalogError as exc:
        raise UsageError(f"{args.csv}: {exc}") from None
    for line in made.report:
        print(line)
    if made.document is not None:
        out = Path(args.out) if args.out else \
            game_catalog_dir(system.user_folder()) / f"{Path(args.csv).stem}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(made.document, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return 0 if made.ok else 1


def cmd_force_check(args: argparse.Namespace) -> int:
    from table.errors import SetupRefused

    system = installed_game(args.game)
    _with_files(system, args.catalog)
    try:
        said = system.check_force(read_json(args.file))
    except SetupRefused as exc:
        print(f"{args.file}: invalid {system.force_word}: {exc}", file=sys.stderr)
        return 1
    print(f"{args.file}: {said}")
    return 0


# -- bench and demo ------------------------------------------------------------------
def cmd_bench_rules(args: argparse.Namespace) -> int:
    from .bench import bench_rules

    installed_game(args.game)
    result = bench_rules(games=args.games, seed=args.seed, checks=args.checks, game=args.game)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for k, v in result.items():
            print(f"{k:<28} {v}")
    return 0


def cmd_bench_vision(args: argparse.Namespace) -> int:
    from .bench_vision import bench_vision

    if args.game is not None:
        return _bench_piles(args)
    result = bench_vision(quick=args.quick, seed=args.seed, uhd=args.uhd)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"{'condition':<10} {'size':<6} {'identity':>8} {'read':>6} {'precis':>7} "
          f"{'owner':>6} {'recall':>6} {'occup':>6} {'falseocc':>8} {'locate':>6}")
    rows = []
    for name, m in result["conditions"].items():
        sizes = [k for k, v in m.items() if isinstance(v, dict)]
        rows.append((name, "720p", m))
        rows.extend((name, k, m[k]) for k in sizes)
    rows.extend(("all-hands", k, m) for k, m in result["all_but_hands"].items())
    for name, size, m in rows:
        print(f"{name:<10} {size:<6} {m['identity_accuracy']:>8.4f} "
              f"{m['identity_read_rate']:>6.3f} {m['identity_precision']:>7.4f} "
              f"{m['owner_accuracy']:>6.3f} {m['base_recall']:>6.3f} "
              f"{m['occupancy_accuracy']:>6.4f} {m['false_occlusion_rate']:>8.4f} "
              f"{m['map_localization_rate']:>6.2f}")
    print("hand sequences:", result["hand_sequences"])
    rend = result.get("rendered", {})
    if "error" in rend:
        print("rendered frames:", rend["error"])
    else:
        medians = ", ".join(f"{res} {t['median']} ms" for res, t in
                            rend["ms_per_frame_single_image"].items())
        print(f"rendered frames ({rend['source']}, {rend['frames']} frames): "
              f"single image median {medians}")
        for name, m in {**rend["conditions"], **rend["goals"]}.items():
            print(f"  {name:<31} identity {m['identity_accuracy']:.4f} "
                  f"precision {m['identity_precision']:.4f} (wrong ids {m['wrong_ids']}, "
                  f"wrong owners {m['wrong_owners']}) occupancy "
                  f"{m['occupancy_accuracy']:.4f} false occlusion "
                  f"{m['false_occlusion_rate']:.4f}")
        for name, m in rend["goals"].items():
            if "identity_by_wedges_in_view" in m:  # renders that say what shows
                parts = ", ".join(f"{k}: {v['identity_accuracy']:.3f} of {v['bases']}"
                                  for k, v in m["identity_by_wedges_in_view"].items())
                print(f"  {name:<31} identity by the sticker's wedges in view: {parts}; "
                      f"where four or more show {m['identity_where_readable']:.4f}")
        streamed = rend.get("identity_after_stabiliser", {})
        for name, m in streamed.items():
            if isinstance(m, dict):
                print(f"  {name:<31} streamed ({streamed['frames_per_stream']} frames, "
                      f"stabiliser): identity {m['identity_accuracy']:.4f} (wrong ids "
                      f"{m['wrong_ids']}, wrong owners {m['wrong_owners']})")
    print("timing:", result["timing"])
    for mode in ("ms_per_frame_single_image", "ms_per_frame_stream"):
        for size, stages in result[mode].items():
            total = stages.get("total", {})
            print(f"{mode} {size}: median {total.get('median')} ms, p95 {total.get('p95')} ms; "
                  + ", ".join(f"{k} {v['median']}" for k, v in stages.items() if k != "total"))
    return 0


def _bench_piles(args: argparse.Namespace) -> int:
    from vision.layout import game_layout

    from .bench_piles import bench_piles

    game = installed_game(args.game).name
    if not game_layout(game).piles:
        raise UsageError(f"--game {game}: its pieces stand in places of the map; "
                         "'tablesight bench vision' without --game measures those")
    result = bench_piles(game, quick=args.quick, seed=args.seed)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    print(f"{game}: disks piled and scattered, {result['scenes_per_condition']} scenes a "
          "condition; goals on the disks whose centres show")
    print(f"{'condition':<10} {'size':<6} {'disks':>5} {'found':>6} {'id told':>7} "
          f"{'unread':>6} {'id wrong':>8} {'false':>5} {'centre mm p50/p99':>17} "
          f"{'on top told/undecided/wrong':>27}")
    rows = [(n, k, m) for n, c in result["conditions"].items() for k, m in c.items()]
    rows += [("all", k, m) for k, m in result["all"].items()]
    for name, size, m in rows:
        top = m["on_top"]
        print(f"{name:<10} {size:<6} {m['disks_centre_showing']:>5} {m['found']:>6.3f} "
              f"{m['identity_told']:>7.3f} {m['identity_unread']:>6} {m['identity_wrong']:>8} "
              f"{m['disks_where_none_lies']:>5} "
              f"{m['centre_error_mm']['median']:>8.2f}/{m['centre_error_mm']['p99']:<8.2f} "
              f"{top['told']:>13}/{top['undecided']}/{top['wrong']} of {m['overlapping_pairs']}")
    for size, t in result["timing"].items():
        print(f"timing {size}: detect median {t['detect_median_ms']} ms, OpenCV's bare ArUco "
              f"pass {t['aruco_median_ms']} ms: {t['ratio']}x")
    return 0


def cmd_bench_device(args: argparse.Namespace) -> int:
    from .bench import bench_device

    json.dump(bench_device(args.presses, args.bursts), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def cmd_bench_table(args: argparse.Namespace) -> int:
    from .bench_table import bench_table

    out = bench_table(10 if args.quick else args.changes, args.seed, args.fps)
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def cmd_bench_hub(args: argparse.Namespace) -> int:
    from .bench_hub import bench_hub

    minutes = args.hours * 60 if args.hours is not None else args.minutes
    if not 1 <= args.tables <= 200 or not 0.2 <= minutes <= 24 * 60:
        raise UsageError("--tables: 1 to 200; --minutes: 0.2 to 1440 (--hours: up to 24)")
    json.dump(bench_hub(args.tables, minutes * 60, args.pace), sys.stdout, indent=1)
    print()
    return 0


def cmd_bench_web(args: argparse.Namespace) -> int:
    from .bench_web import bench_web

    json.dump(bench_web(args.subscribers, args.events, args.rate, args.seconds), sys.stdout,
              indent=2)
    sys.stdout.write("\n")
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """The installed games (``tablesight.games`` entry points)."""
    games = registry.systems()
    if args.json:
        json.dump([g.describe() for g in games.values()], sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    width = max(len(n) for n in games)
    for name, g in games.items():
        print(f"{name:<{width}}  {g.title}  (rules {g.rules_version})")
    return 0


def cmd_rules_demo(args: argparse.Namespace) -> int:
    """A whole game played by the engine alone, narrated; a pause before each turn (or
    round)."""
    system = installed_game(args.game)
    try:
        lines = system.narrated_game(args.seed)
        for line in lines:
            if line.startswith(("TURN ", "ROUND ")) and args.delay:
                sys.stdout.flush()
                time.sleep(args.delay)
            print(line)
    except NotImplementedError as exc:
        raise UsageError(str(exc)) from None
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablesight",
                                description="A physical table assistant for miniatures games.")
    sub = p.add_subparsers(dest="command", required=True)
    game_help = f"an installed game (tablesight games); default {registry.default()}"

    from .hub_cli import add_parsers as add_hub
    from .table_cli import add_parsers as add_table

    add_table(sub)
    add_hub(sub)

    games = sub.add_parser("games", help="list the installed games")
    games.add_argument("--json", action="store_true", help="as JSON")
    games.set_defaults(func=cmd_games)

    rules = sub.add_parser("rules", help="the rules engine").add_subparsers(
        dest="rules_command", required=True)
    rdemo = rules.add_parser("demo", help="the engine referees a whole game, narrated")
    rdemo.add_argument("--seed", type=int, default=7)
    rdemo.add_argument("--delay", type=float, default=0.0,
                       help="seconds to pause between turns (for watching)")
    rdemo.add_argument("--game", help=game_help)
    rdemo.set_defaults(func=cmd_rules_demo)
    check = rules.add_parser("check", help="play a rules scenario and print the JSON result")
    check.add_argument("scenario")
    check.add_argument("--catalog", action="append", help="extra catalog JSON file(s)")
    check.add_argument("--events", action="store_true", help="include each action's events")
    check.add_argument("--compact", action="store_true", help="one line of JSON")
    check.add_argument("--expect", help="compare with an expected output; exit 1 on mismatch")
    check.set_defaults(func=cmd_rules_check)

    catalog = sub.add_parser("catalog", help="a game's catalog of pieces").add_subparsers(
        dest="catalog_command", required=True)
    lst = catalog.add_parser("list", help="list every known piece of a game")
    lst.add_argument("--json", action="store_true")
    lst.add_argument("--catalog", action="append", help="extra catalog JSON file(s)")
    lst.add_argument("--game", help=game_help)
    lst.set_defaults(func=cmd_catalog_list)
    imp = catalog.add_parser("import", help="import a spreadsheet (CSV) of a game's pieces "
                             "(docs/rules: each game's catalog format)")
    imp.add_argument("csv")
    imp.add_argument("--game", help=game_help)
    imp.add_argument("--out", help="where to write the catalog JSON "
                                   "(default: the user catalog folder)")
    imp.set_defaults(func=cmd_catalog_import)

    # "warband": the command's name before there was more than one game; still works.
    force = sub.add_parser("force", aliases=["warband"],
                           help="a player's force file, in the game's format"
                           ).add_subparsers(dest="force_command", required=True)
    fcheck = force.add_parser("check", help="check a force file against the game's rules")
    fcheck.add_argument("file")
    fcheck.add_argument("--catalog", action="append", help="extra catalog JSON file(s)")
    fcheck.add_argument("--game", help=game_help)
    fcheck.set_defaults(func=cmd_force_check)

    from .device_cli import add_parsers as add_device
    from .vision_cli import add_parsers

    add_parsers(sub)
    add_device(sub)

    bench = sub.add_parser("bench", help="benchmarks").add_subparsers(
        dest="bench_command", required=True)
    brules = bench.add_parser("rules", help="random full games per second, action check time")
    brules.add_argument("--games", type=int, default=200)
    brules.add_argument("--checks", type=int, default=20000)
    brules.add_argument("--seed", type=int, default=1)
    brules.add_argument("--game", help="an installed game (tablesight games); default "
                       f"{registry.default()}")
    brules.add_argument("--json", action="store_true")
    brules.set_defaults(func=cmd_bench_rules)
    bvision = bench.add_parser("vision", help="detector accuracy and speed on synthetic "
                               "and rendered scenes")
    bvision.add_argument("--quick", action="store_true")
    bvision.add_argument("--seed", type=int, default=1)
    bvision.add_argument("--uhd", action="store_true",
                         help="also render four held-out scenes without figures and four "
                              "with at 3840x2160, as a 4K webcam sees them (about half an hour "
                              "more on 2 cores; not with --quick)")
    bvision.add_argument("--game", help="a game whose pieces lie anywhere and on one "
                         "another: its disks piled and scattered (found, identity, which "
                         "lies on top, centre error)")
    bvision.add_argument("--json", action="store_true")
    bvision.set_defaults(func=cmd_bench_vision)
    bdevice = bench.add_parser("device", help="table box latency and throughput (simavr)")
    bdevice.add_argument("--presses", type=int, default=300)
    bdevice.add_argument("--bursts", type=int, default=200)
    bdevice.set_defaults(func=cmd_bench_device)
    btable = bench.add_parser("table", help="live table: frame change to session event, CPU")
    btable.add_argument("--changes", type=int, default=30)
    btable.add_argument("--quick", action="store_true", help="10 changes")
    btable.add_argument("--seed", type=int, default=2)
    btable.add_argument("--fps", type=float, default=30.0)
    btable.set_defaults(func=cmd_bench_table)
    bweb = bench.add_parser("web", help="dashboard: SSE latency to 50 subscribers, requests/s")
    bweb.add_argument("--subscribers", type=int, default=50)
    bweb.add_argument("--events", type=int, default=200)
    bweb.add_argument("--rate", type=float, default=20.0, help="session events per second")
    bweb.add_argument("--seconds", type=float, default=5.0, help="API load duration")
    bweb.set_defaults(func=cmd_bench_web)
    bhub = bench.add_parser("hub", help="the store hub: tables publishing at once, entries "
                            "stored a second, delay to the staff view, memory")
    bhub.add_argument("--tables", type=int, default=20)
    length = bhub.add_mutually_exclusive_group()
    length.add_argument("--minutes", type=float, default=2.0)
    length.add_argument("--hours", type=float, help="a store's day: --hours 8")
    bhub.add_argument("--pace", type=float, default=0.05,
                      help="seconds between a table's actions")
    bhub.set_defaults(func=cmd_bench_hub)
    return p


def use_user_catalogs() -> None:
    """Hand each installed game its own files from the user's catalog folder."""
    for system in registry.systems().values():
        use_user_catalog(system, [])


def use_user_catalog(system, extra: Sequence[tuple[str, object]]) -> None:  # GameSystem
    """``system``'s files from the user's catalog folder, then ``extra`` documents."""
    from .paths import game_catalog_files

    docs = [(f.name, read_json(str(f))) for f in game_catalog_files(system.user_folder())]
    try:
        system.use_user_catalog([*docs, *extra])
    except ValueError as exc:
        raise UsageError(f"your {system.title} catalog: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        use_user_catalogs()
        return int(args.func(args))
    except UsageError as exc:
        # One short line whatever the input held (messages may quote it).
        text = " ".join(str(exc).split())
        if len(text) > MAX_MESSAGE:
            text = text[:MAX_MESSAGE - 1] + "…"
        print(f"tablesight: {text}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
