"""The dashboard: a Flask application factory, one blueprint per area.

    app = create_app(TableServices(session, live=live_table))
"""

from .app import create_app
from .services import TableServices

__all__ = ["TableServices", "create_app"]
