"""Operating citebot: metrics, health and readiness, structured logs, limits, thread queue."""
