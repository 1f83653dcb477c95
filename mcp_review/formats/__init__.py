"""Output formats for headless commands: pure functions from engine results to text."""
