"""``python -m bots.ops.healthcheck``: the container's HEALTHCHECK.

Exits 0 when the local ops server answers ``/healthz`` with 200, 1 otherwise,
with one line saying why. It needs no curl or wget in the image.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request


def main(argv: list[str] | None = None) -> int:
    from bots.settings import load_settings

    try:
        settings = load_settings()
    except Exception as exc:
        print(f"unhealthy: bad settings: {exc}".splitlines()[0], file=sys.stderr)
        return 1
    port = settings.ops.metrics_port
    if port == 0:
        print(
            "unhealthy: the ops server is disabled (CITEBOT_OPS__METRICS_PORT=0)", file=sys.stderr
        )
        return 1
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=3) as resp:
            status = resp.status
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: {url}: {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"unhealthy: {url} answered {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
