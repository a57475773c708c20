"""``tablesight hub ...``: the store's hub (``docs/hub.md``). Where its PostgreSQL database
is: ``--dsn`` or ``TABLESIGHT_HUB_DSN`` (libpq's connection string, e.g.
``host=/var/run/postgresql dbname=tablesight``)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .usage import UsageError

DSN_ENV = "TABLESIGHT_HUB_DSN"
PASSWORD_ENV = "TABLESIGHT_HUB_PASSWORD"


@contextmanager
def _refusals() -> Iterator[None]:
    """What the hub's store or schema refuses, said in one line (exit 2)."""
    from hub.schema import SchemaError
    from hub.store import StoreError

    try:
        yield
    except (StoreError, SchemaError) as e:
        raise UsageError(str(e)) from None


def _store(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from hub.store import HubStore

    dsn = args.dsn or os.environ.get(DSN_ENV)
    if not dsn:
        raise UsageError(f"where is the hub's database? give --dsn or set {DSN_ENV}")
    return HubStore(dsn)


def cmd_setup(args: argparse.Namespace) -> int:
    with _refusals():
        before, after = _store(args).setup()
    print(f"the hub's database is at schema {after}" + (f" (was {before})" if before != after
                                                        else " (nothing to do)"))
    return 0


def cmd_staff(args: argparse.Namespace) -> int:
    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        password = sys.stdin.readline().rstrip("\n")
    with _refusals():
        _store(args).add_staff(args.username, password)
    print(f"staff account {args.username!r} set")
    return 0


def cmd_table_add(args: argparse.Namespace) -> int:
    with _refusals():
        token = _store(args).add_table(args.name)
    print(f"table {args.name!r} registered. Its token (shown this once; put it in a file "
          "on that table and give it with --hub-token-file):", file=sys.stderr)
    print(token)
    return 0


def cmd_table_revoke(args: argparse.Namespace) -> int:
    with _refusals():
        _store(args).revoke_table(args.name)
    print(f"table {args.name!r}: its token no longer works")
    return 0


def cmd_table_list(args: argparse.Namespace) -> int:
    with _refusals():
        tables = _store(args).tables()
    for t in tables:
        seen = t["last_seen"].isoformat(timespec="seconds") if t["last_seen"] else "never"
        print(f"{t['name']:<24} {'revoked' if t['revoked'] else 'active':<8} "
              f"{t['games']:>4} games  last seen {seen}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from hub.app import create_app
    from hub.live import Notifications

    from .server import ServeError, Server, served_names, wait_forever

    store = _store(args)
    with _refusals():
        store.check()
    live = Notifications(store.dsn).start()
    app = create_app(store, live=live, allowed_hosts=["localhost", "127.0.0.1", "::1",
                                                      *served_names(args.host),
                                                      *(args.allow_host or ())])
    try:
        server = Server(app, args.host, args.port, signs_in=True).start()
    except ServeError as e:
        raise UsageError(str(e)) from None
    print(f"store hub: {server.urls()[0]}", flush=True)
    wait_forever(threading.Event())
    server.stop()
    live.stop()
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    hub = sub.add_parser("hub", help="the store's hub: every table on one staff view")
    hs = hub.add_subparsers(dest="hub_command", required=True)

    def dsn(p: argparse.ArgumentParser) -> None:
        p.add_argument("--dsn", help=f"the hub's PostgreSQL database (or {DSN_ENV})")

    setup = hs.add_parser("setup", help="create or upgrade the hub's database schema")
    dsn(setup)
    setup.set_defaults(func=cmd_setup)
    staff = hs.add_parser("staff", help="add a staff account, or set its password "
                          f"(read from {PASSWORD_ENV} or the first line of standard input)")
    staff.add_argument("username")
    dsn(staff)
    staff.set_defaults(func=cmd_staff)
    table = hs.add_parser("table", help="the store's tables").add_subparsers(
        dest="table_command", required=True)
    add = table.add_parser("add", help="register a table; prints its token")
    add.add_argument("name")
    dsn(add)
    add.set_defaults(func=cmd_table_add)
    revoke = table.add_parser("revoke", help="stop a table's token working")
    revoke.add_argument("name")
    dsn(revoke)
    revoke.set_defaults(func=cmd_table_revoke)
    lst = table.add_parser("list", help="the tables, and when each was last heard")
    dsn(lst)
    lst.set_defaults(func=cmd_table_list)
    serve = hs.add_parser("serve", help="the hub's server: tables publish to it, staff "
                          "open it in a browser")
    dsn(serve)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to serve on; 0.0.0.0 for the store's network")
    serve.add_argument("--port", type=int, default=8780)
    serve.add_argument("--allow-host", action="append",
                       help="another name staff or tables reach the hub by")
    serve.set_defaults(func=cmd_serve)
