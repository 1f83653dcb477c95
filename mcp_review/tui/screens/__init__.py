"""Screens of the review app, each beside its .tcss."""
