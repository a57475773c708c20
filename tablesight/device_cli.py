"""``tablesight device ...``: the table box from the command line."""

from __future__ import annotations

import argparse
import json
import time
from contextlib import ExitStack

from .usage import UsageError


def _open(args: argparse.Namespace, stack: ExitStack):  # -> TableBox
    """The box named by --port, or the emulator / simulator, or the first one found."""
    from firmware_bridge.bridge import DeviceError, TableBox, find_box

    port = args.port
    if args.simulator:
        from firmware_bridge.simulator import BoxSimulator

        port = stack.enter_context(BoxSimulator()).port
    elif args.emulator:
        from firmware_bridge.emulator import Emulator, EmulatorError

        try:
            emu = stack.enter_context(Emulator(speed=1))
        except EmulatorError as exc:
            raise UsageError(str(exc)) from None
        port = emu.port
    elif port is None:
        port = find_box()
        if port is None:
            raise UsageError("no table box found on any serial port (give --port, or try "
                             "--simulator)")
    box = TableBox(port)
    stack.callback(box.stop)
    box.start()
    if args.emulator:
        time.sleep(0.2)
        emu.run()
    try:
        deadline = time.monotonic() + args.timeout
        while not box.connected:
            if time.monotonic() > deadline:
                why = f": {box.last_reason}" if box.last_reason else ""
                raise DeviceError(f"no table box answered on {port}{why}")
            time.sleep(0.05)
    except DeviceError as exc:
        raise UsageError(str(exc)) from None
    return box


def cmd_monitor(args: argparse.Namespace) -> int:
    with ExitStack() as stack:
        box = _open(args, stack)
        end = None if args.seconds is None else time.monotonic() + args.seconds
        try:
            while end is None or time.monotonic() < end:
                try:
                    ev = box.events.get(timeout=0.2)
                except Exception:
                    continue
                print(json.dumps(ev.to_dict()), flush=True)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_roll(args: argparse.Namespace) -> int:
    from firmware_bridge.bridge import DeviceError

    with ExitStack() as stack:
        box = _open(args, stack)
        try:
            ev = box.roll(args.sides, args.dice, args.player)
        except DeviceError as exc:
            raise UsageError(str(exc)) from None
        print(json.dumps({"sides": args.sides, "numbers": list(ev.numbers), "seq": ev.seq}))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from serial.tools import list_ports

    ports = list(list_ports.comports())
    if not ports:
        print("no serial ports")
    for p in ports:
        print(f"{p.device:<20} {p.description}  {p.hwid}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    dev = sub.add_parser("device", help="the table box").add_subparsers(
        dest="device_command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--port", help="serial port or pyserial URL (socket://, loop://)")
        g.add_argument("--simulator", action="store_true", help="the Python box simulator")
        g.add_argument("--emulator", action="store_true",
                       help="the real firmware in simavr (needs gcc-avr, simavr)")
        p.add_argument("--timeout", type=float, default=3.0)

    mon = dev.add_parser("monitor", help="print live events as JSON lines")
    common(mon)
    mon.add_argument("--seconds", type=float, help="stop after this long")
    mon.set_defaults(func=cmd_monitor)
    roll = dev.add_parser("roll", help="ask the box to roll dice")
    common(roll)
    roll.add_argument("--sides", type=int, default=6,
                      help="sides of each die, 2-250 (what the numbers mean is the game's)")
    roll.add_argument("--dice", type=int, default=1)
    roll.add_argument("--player", choices=["p1", "p2"])
    roll.set_defaults(func=cmd_roll)
    lst = dev.add_parser("list", help="serial ports on this machine")
    lst.set_defaults(func=cmd_list)
