"""The platform-neutral heart of a bot: runtime, feedback, dedupe, limits, queue."""
