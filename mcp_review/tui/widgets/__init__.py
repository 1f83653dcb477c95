"""Reusable widgets of the review app (each carries its DEFAULT_CSS)."""
