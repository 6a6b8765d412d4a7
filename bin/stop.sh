#!/usr/bin/env bash
# Stops jobs gracefully: records in hand are finished, sinks flushed and source offsets committed.
# Usage: bin/stop.sh [--instance ID] [--timeout SECONDS] [JOB...]
#   no JOB      stops every running job
#   --instance  stops only that instance of the job (its queues move to the other instances)
#   --timeout   seconds to wait for each job (default: its stop.timeout + 15); a job that has not stopped by then is
#               killed (SIGKILL) and resumes from its last checkpoint when started again
#   --server    stops the server (bin/start.sh --server), which stops each of its jobs gracefully
# Exit codes: 0 every job stopped or had finished (or, with no JOB, none was running); 1 a named job is not running,
#             or a job had to be killed
set -u
. "$(dirname "$0")/common.sh"

instance=""
timeout=""
jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --instance) instance="$2"; shift 2 ;;
    --instance=*) instance="${1#*=}"; shift ;;
    --timeout) timeout="$2"; shift 2 ;;
    --server) jobs+=("server"); shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) jobs+=("${1%.sql}"); shift ;;
  esac
done

# True when the status file of job instance $1 says it finished by itself (a bounded job).
job_finished() {
  grep -q '"state":"FINISHED"' "$RSQL_HOME/run/$1.status.json" 2>/dev/null
}

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
    rm -f "$pidfile"
    if job_finished "$id"; then
      echo "$id has finished; nothing to stop"
    else
      echo "$id is not running"
      [ ${#jobs[@]} -gt 0 ] && status=1
    fi
    continue
  fi
  pid=$(cat "$pidfile")
  if job_finished "$id"; then
    # It finished by itself and its JVM is exiting: let it, rather than stop it (at most 30 s, then stop it).
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$pidfile"
      echo "$id has finished; nothing to stop"
      continue
    fi
  fi
  # The process halts itself once its stop.timeout (in its status file) is over; this waits a little longer.
  wait_s="$timeout"
  if [ -z "$wait_s" ]; then
    stop_ms=$(sed -n 's/.*"stopTimeout":\([0-9]*\).*/\1/p' "$RSQL_HOME/run/$id.status.json" 2>/dev/null)
    wait_s=$(( ${stop_ms:-105000} / 1000 + 15 ))
  fi
  kill -TERM "$pid"
  waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((wait_s * 10)) ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    # A thread dump into the job's log first (the JVM prints it on SIGQUIT), then the last resort.
    kill -QUIT "$pid" 2>/dev/null
    sleep 1
    kill -KILL "$pid" 2>/dev/null
    echo "$id (pid $pid) did not stop within ${wait_s}s; killed it (SIGKILL): it resumes from its last checkpoint" \
      "when started again"
    rm -f "$pidfile"
    status=1
  else
    echo "stopped $id (pid $pid)"
    rm -f "$pidfile"
  fi
done
if [ ${#pidfiles[@]} -eq 0 ]; then
  if [ ${#jobs[@]} -eq 0 ]; then
    echo "no running jobs"
  fi
  # Naming a job that is not running is an error (a typo must not look like a stop), unless it finished by itself;
  # stopping "all" of none is not.
  for job in "${jobs[@]}"; do
    if job_finished "$job"; then
      echo "$job has finished; nothing to stop"
    else
      echo "no running job named $job"
      status=1
    fi
  done
fi
exit $status
