#!/usr/bin/env bash
# Stops jobs gracefully: records in hand are finished, sinks flushed and source offsets committed.
# Usage: bin/stop.sh [--instance ID] [--timeout SECONDS] [JOB...]
#   no JOB      stops every running job
#   --instance  stops only that instance of the job (its queues move to the other instances)
set -u
. "$(dirname "$0")/common.sh"

instance=""
timeout=120
jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --instance) instance="$2"; shift 2 ;;
    --instance=*) instance="${1#*=}"; shift ;;
    --timeout) timeout="$2"; shift 2 ;;
    -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) jobs+=("${1%.sql}"); shift ;;
  esac
done

pidfiles=()
if [ ${#jobs[@]} -eq 0 ]; then
  if [ -d "$RSQL_HOME/run" ]; then
    mapfile -t pidfiles < <(find "$RSQL_HOME/run" -type f -name '*.pid' ! -name 'broker.pid' | sort)
  fi
else
  for job in "${jobs[@]}"; do
    if [ -n "$instance" ]; then
      pidfiles+=("$RSQL_HOME/run/$job@$instance.pid")
    else
      for f in "$RSQL_HOME/run/$job.pid" "$RSQL_HOME/run/$job"@*.pid; do
        [ -f "$f" ] && pidfiles+=("$f")
      done
    fi
  done
fi

status=0
for pidfile in "${pidfiles[@]}"; do
  id="${pidfile#$RSQL_HOME/run/}"
  id="${id%.pid}"
  if ! rsql_alive "$pidfile"; then
    echo "$id is not running"
    rm -f "$pidfile"
    continue
  fi
  pid=$(cat "$pidfile")
  kill -TERM "$pid"
  waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((timeout * 10)) ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$id (pid $pid) did not stop within ${timeout}s; it is still running"
    status=1
  else
    echo "stopped $id (pid $pid)"
    rm -f "$pidfile"
  fi
done
if [ ${#pidfiles[@]} -eq 0 ]; then
  echo "no running jobs${jobs:+ named ${jobs[*]}}"
fi
exit $status
