#!/usr/bin/env bash
# Starts jobs in the background, one process each, logging to log/<job>.log.
# Usage: bin/start.sh [--instance ID] [--from-scratch] [JOB...]
#   no JOB          starts every job under jobs/ (jobs/x.sql is job x, jobs/ns/y.sql is job ns/y)
#   --instance      starts another instance of a distributed job (instances of one job share its work)
#   --from-scratch  deletes the job's local state and checkpoints first (as bin/rsql reset JOB)
#   --server        starts server mode instead: one process running every job under jobs/ and following changes,
#                   REST API on http.port (default 8081); log/server.log, each job's own log/<job>.log
set -u
. "$(dirname "$0")/common.sh"

instance=""
from_scratch=""
server=""
jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --instance) instance="$2"; shift 2 ;;
    --instance=*) instance="${1#*=}"; shift ;;
    --from-scratch) from_scratch=1; shift ;;
    --server) server=1; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) job="${1%.sql}"; job="${job%.rules.yaml}"; job="${job%.rules.yml}"; jobs+=("${job%.rules.json}"); shift ;;
  esac
done
start_server() {
  local pidfile="$RSQL_HOME/run/server.pid"
  local serverfile="$RSQL_HOME/run/server.json"
  local log="$RSQL_HOME/log/server.log"
  if rsql_alive "$pidfile"; then
    echo "the server is already running (pid $(cat "$pidfile"))"
    return 0
  fi
  mkdir -p "$RSQL_HOME/run" "$RSQL_HOME/log"
  rm -f "$serverfile"
  nohup "$JAVA" $RSQL_JOB_JIT $RSQL_JAVA_OPTS -Drsql.rocketmq.log.name=server -cp "$RSQL_CLASSPATH" dev.rsql.cli.RsqlCli \
    --home "$RSQL_HOME" server >>"$log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$pidfile"
  local i
  for i in $(seq 1 600); do
    if [ -f "$serverfile" ]; then
      echo "started the server (pid $pid) at $(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$serverfile"), log: $log"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "started the server (pid $pid), still starting; log: $log"
    return 0
  fi
  rm -f "$pidfile"
  echo "the server failed to start; last lines of $log:"
  tail -n 15 "$log" | sed 's/^/  /'
  return 1
}
if [ -n "$server" ]; then
  start_server
  exit $?
fi
if [ ${#jobs[@]} -eq 0 ]; then
  mapfile -t jobs < <(rsql_list_jobs)
fi
if [ ${#jobs[@]} -eq 0 ]; then
  echo "no jobs under $RSQL_HOME/jobs"
  exit 0
fi

start_job() {
  local job="$1"
  local id="$job${instance:+@$instance}"
  local script="$RSQL_HOME/jobs/$job.sql" ext
  for ext in rules.yaml rules.yml rules.json; do
    if [ ! -f "$script" ] && [ -f "$RSQL_HOME/jobs/$job.$ext" ]; then
      script="$RSQL_HOME/jobs/$job.$ext"
    fi
  done
  local pidfile="$RSQL_HOME/run/$id.pid"
  local statusfile="$RSQL_HOME/run/$id.status.json"
  local log="$RSQL_HOME/log/$id.log"
  if [ ! -f "$script" ]; then
    echo "no job $job: $script does not exist"
    return 1
  fi
  if rsql_alive "$pidfile"; then
    echo "$id is already running (pid $(cat "$pidfile"))"
    return 0
  fi
  mkdir -p "$(dirname "$pidfile")" "$(dirname "$log")"
  rm -f "$statusfile"
  nohup "$JAVA" $RSQL_JOB_JIT $RSQL_JAVA_OPTS -Drsql.rocketmq.log.name="${id//\//.}" -cp "$RSQL_CLASSPATH" dev.rsql.cli.RsqlCli --home "$RSQL_HOME" \
    run "$script" --name "$job" ${instance:+--instance "$instance"} ${from_scratch:+--from-scratch} >>"$log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$pidfile"
  # The job publishes its status once it runs; a script that cannot be planned ends the process instead.
  local i
  for i in $(seq 1 600); do
    if [ -f "$statusfile" ]; then
      echo "started $id (pid $pid), log: $log"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "started $id (pid $pid), still starting; log: $log"
    return 0
  fi
  wait "$pid"
  local code=$?
  rm -f "$pidfile"
  if [ "$code" -eq 0 ]; then
    echo "$id ran and finished (pid $pid), log: $log"
    return 0
  fi
  echo "$id failed to start (exit $code); last lines of $log:"
  tail -n 15 "$log" | sed 's/^/  /'
  return 1
}

status=0
for job in "${jobs[@]}"; do
  start_job "$job" || status=1
done
exit $status
