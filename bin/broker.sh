#!/usr/bin/env bash
# A single-node RocketMQ 5.3.3 (name server + broker) on localhost, for users who have none (jars in lib/).
# Usage: bin/broker.sh start|stop|status [--dir DIR] [--port NAMESRV_PORT] [--broker-port PORT]
#                                         [--host HOST] [--listen ADDRESS]
#   data goes to DIR (default data/broker); the name server listens on NAMESRV_PORT (default 9876); both listen
#   on 127.0.0.1 only, unless --listen names another address (0.0.0.0: every interface); clients on other machines
#   also need the broker advertised at an address they reach: --host (default 127.0.0.1)
set -u
. "$(dirname "$0")/common.sh"

cmd="${1:-}"
[ $# -gt 0 ] && shift
dir="$RSQL_HOME/data/broker"
port=9876
broker_port=10911
host=127.0.0.1
listen=
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --broker-port) broker_port="$2"; shift 2 ;;
    --host) host="$2"; shift 2 ;;
    --listen) listen="$2"; shift 2 ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
pidfile="$RSQL_HOME/run/broker.pid"
log="$RSQL_HOME/log/broker.log"

case "$cmd" in
  start)
    if rsql_alive "$pidfile"; then
      echo "broker already running (pid $(cat "$pidfile")), name server 127.0.0.1:$port"
      exit 0
    fi
    mkdir -p "$RSQL_HOME/run" "$RSQL_HOME/log" "$dir"
    # The log is appended to: only lines after this start count as this broker's.
    skip=1
    [ -f "$log" ] && skip=$(( $(wc -l <"$log") + 1 ))
    nohup "$JAVA" ${RSQL_BROKER_HEAP_OPTS:--Xms256m -Xmx512m} -Drsql.rocketmq.log.dir="$RSQL_HOME/log/rocketmq" \
      -Dfastjson.parser.safeMode=true -Drocketmq.serialize.type=${RSQL_ROCKETMQ_SERIALIZE_TYPE:-ROCKETMQ} \
      -cp "$RSQL_BROKER_CLASSPATH" dev.rsql.broker.LocalBrokerMain \
      --dir "$dir" --namesrv-port "$port" --broker-port "$broker_port" --host "$host" \
      --listen "${listen:-$host}" >>"$log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$pidfile"
    for i in $(seq 1 600); do
      if tail -n +"$skip" "$log" 2>/dev/null | grep -q "RocketMQ ready"; then
        echo "broker started (pid $pid), name server $host:$port (listening on ${listen:-$host}), data in $dir"
        exit 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "broker started (pid $pid), still starting; log: $log"
      exit 0
    fi
    echo "broker failed to start; last lines of $log:"
    tail -n +"$skip" "$log" | tail -n 15 | sed 's/^/  /'
    rm -f "$pidfile"
    exit 1
    ;;
  stop)
    if ! rsql_alive "$pidfile"; then
      echo "broker is not running"
      rm -f "$pidfile"
      exit 0
    fi
    pid=$(cat "$pidfile")
    kill -TERM "$pid"
    # RocketMQ's own shutdown takes about 12 s.
    for i in $(seq 1 900); do
      kill -0 "$pid" 2>/dev/null || { echo "broker stopped"; rm -f "$pidfile"; exit 0; }
      sleep 0.1
    done
    echo "broker (pid $pid) did not stop within 90s"
    exit 1
    ;;
  status)
    if rsql_alive "$pidfile"; then echo "broker running (pid $(cat "$pidfile"))"; else echo "broker not running"; fi
    ;;
  -h|--help|help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
