#!/usr/bin/env bash
# Every benchmark in tests/benchmarks except ingestion (bench_ingest*.py), with one summary
# line each: figure, same-run baseline, ratio, target, met / NOT MET, and the load average.
#
#   tests/benchmarks/bench_all.sh [REV]    # REV of this repository (default: HEAD)
#
# Both trees are exported with `git archive` into $BENCH_HOME (default /tmp/citebot-bench) and
# get their own virtualenv with compiled bytecode (`uv sync --frozen --all-extras
# --compile-bytecode`), built once and reused: nothing is written in the repository's
# worktrees. "before" (for `citebot ask`/`demo`) is $BENCH_BEFORE_REV (default 71ca952, the
# start of session 3, the tree of the 3.40 s measurement).
#
# Budget: about 12 minutes of benchmarks on a quiet 2-core machine (the first run also builds
# the two virtualenvs). Knobs (environment): BENCH_REPO, BENCH_HOME, BENCH_BEFORE_REV,
# BENCH_ONLY="stream quotes ..." (a subset, names as in the table below), BENCH_TIMEOUT_SCALE
# (multiplies every per-benchmark timeout, default 1; use 3 on a loaded machine).
set -uo pipefail

REPO=${BENCH_REPO:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
REV=${1:-HEAD}
BEFORE_REV=${BENCH_BEFORE_REV:-71ca952}
HOME_DIR=${BENCH_HOME:-/tmp/citebot-bench}
SCALE=${BENCH_TIMEOUT_SCALE:-1}

sha=$(git -C "$REPO" rev-parse --short=12 "$REV^{commit}") || { echo "no such revision: $REV" >&2; exit 2; }
before_sha=$(git -C "$REPO" rev-parse --short=12 "$BEFORE_REV^{commit}") || { echo "no such revision: $BEFORE_REV" >&2; exit 2; }
mkdir -p "$HOME_DIR"
RUN="$HOME_DIR/run-$(date +%Y%m%d-%H%M%S)-$sha"
mkdir -p "$RUN"
SUMMARY="$RUN/summary.txt"
: >"$SUMMARY"

load() { cut -d' ' -f1-3 /proc/loadavg; }

# tree REV -> path of an exported tree with a compiled virtualenv
tree() {
    local rev=$1 dir="$HOME_DIR/tree-$1"
    if [[ ! -x "$dir/.venv/bin/python" || ! -f "$dir/.synced" ]]; then
        rm -rf "$dir" && mkdir -p "$dir"
        git -C "$REPO" archive "$rev" | tar -x -C "$dir" || return 1
        (cd "$dir" && uv sync --frozen --all-extras --compile-bytecode >"$dir/.sync.log" 2>&1) || {
            echo "uv sync failed in $dir, see $dir/.sync.log" >&2; return 1; }
        touch "$dir/.synced"
    fi
    echo "$dir"
}

echo "citebot benchmarks: $sha (before: $before_sha), results in $RUN"
echo "preparing trees (first run only: uv sync --compile-bytecode, a few minutes)…"
AFTER=$(tree "$sha") || exit 1
BEFORE=$(tree "$before_sha") || exit 1
START_LOAD=$(load)
STARTED=$(date +%s)
echo "load average at start: $START_LOAD   ($(nproc) cores)"

# name | file | timeout (s) | environment (knobs chosen so the whole run fits ~12 min)
PLAN=(
    "stream|bench_citations_stream.py|240|"
    "quotes|bench_citations_quotes.py|240|"
    "query|bench_query.py|420|BENCH_QUERY_SIZES=10000,100000"
    "pipeline|bench_pipeline.py|300|"
    "evidence|bench_evidence.py|180|"
    "plugins|bench_plugins.py|120|"
    "slack_ack|bench_slack_ack.py|180|"
    "insights|bench_insights.py|240|"
    "ttft|bench_ttft.py|360|BENCH_ROUNDS=3"
    "soak|bench_soak.py|420|SOAK_QUESTIONS=400"
    "soak_replicas|bench_soak_replicas.py|420|SOAK_QUESTIONS=200 SOAK_ROUNDS=1"
    "cli|bench_cli.py|600|BENCH_ROUNDS=3 BENCH_CLI_BEFORE=$BEFORE"
)

declare -a ROWS=()
for entry in "${PLAN[@]}"; do
    IFS='|' read -r name file limit knobs <<<"$entry"
    if [[ -n "${BENCH_ONLY:-}" && " $BENCH_ONLY " != *" $name "* ]]; then
        continue
    fi
    limit=$(awk -v a="$limit" -v s="$SCALE" 'BEGIN { printf "%d", a * s }')
    log="$RUN/$name.log"
    before_lines=$(wc -l <"$SUMMARY")
    began=$(date +%s)
    printf '%-14s load %-16s … ' "$name" "$(load)"
    (
        cd "$AFTER" || exit 1
        # shellcheck disable=SC2086  # knobs are KEY=VALUE words
        env -u VIRTUAL_ENV BENCH_SUMMARY="$SUMMARY" $knobs timeout --signal=INT --kill-after=30 "$limit" \
            .venv/bin/python -m pytest "tests/benchmarks/$file" -m benchmark -s -q \
            -p no:cacheprovider -o addopts='' -o timeout=0
    ) >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - began))
    added=$(($(wc -l <"$SUMMARY") - before_lines))
    if ((rc == 124 || rc == 130)); then
        outcome="TIMED OUT after ${limit}s"
    elif ((rc == 0)); then
        outcome="passed"
    else
        outcome="FAILED (rc=$rc)"
    fi
    echo "$outcome in ${secs}s, $added summary line(s)"
    if ((added == 0)); then
        echo "SUMMARY | $name | - | - | - | - | NOT MET: $outcome, no figure (see $log) | load $(load)" >>"$SUMMARY"
    elif ((rc != 0)) && ! tail -n "$added" "$SUMMARY" | grep -q "NOT MET"; then
        echo "SUMMARY | $name | - | - | - | - | NOT MET: $outcome after its figures (see $log) | load $(load)" >>"$SUMMARY"
    fi
done

END_LOAD=$(load)
TOTAL=$(($(date +%s) - STARTED))
{
    echo
    echo "== summary: $sha, before $before_sha, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, ${TOTAL}s =="
    echo "load average at start: $START_LOAD; at end: $END_LOAD"
    echo "benchmark | figure (min / median / max) | baseline, same run | ratio | target | met | load 1/5/15 min"
    sed 's/^SUMMARY | //' "$SUMMARY"
} | tee "$RUN/report.txt"
echo "logs: $RUN"
grep -q "NOT MET" "$SUMMARY" && exit 1
exit 0
