"""The HTTP service (`kgrag serve`): JSON routes, server-sent events and the web page."""

from .app import ServiceSettings, answer_response, create_app

__all__ = ["ServiceSettings", "answer_response", "create_app"]
