"""The games, one package each, all laid out alike (``docs/games.md``). The table finds
them by name through the ``tablesight.games`` entry points (``table.registry``): nothing
outside a game's own package imports it, and no game imports another."""
