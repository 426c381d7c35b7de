"""Earshot's Django project. Loading the Celery app here binds @shared_task to it."""

from .celery import app as celery_app

__all__ = ("celery_app",)
