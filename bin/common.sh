# Shared by the bin/ scripts: locates the installation, Java and the class path.
RSQL_HOME="${RSQL_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export RSQL_HOME
if [ -f "$RSQL_HOME/conf/rsql-env.sh" ]; then
  . "$RSQL_HOME/conf/rsql-env.sh"
fi
if [ -n "${JAVA_HOME:-}" ]; then
  JAVA="$JAVA_HOME/bin/java"
else
  JAVA="java"
fi
if ! command -v "$JAVA" >/dev/null 2>&1; then
  echo "rsql: java not found; install a JDK 17+ or set JAVA_HOME" >&2
  exit 1
fi
if ! ls "$RSQL_HOME"/lib/*.jar >/dev/null 2>&1; then
  echo "rsql: no jars in $RSQL_HOME/lib; in a source checkout run 'mvn -DskipTests package' first" >&2
  exit 1
fi
# RocksDB's JNI library, unpacked at build time into lib/native: found on the library path, it is loaded from there,
# not copied out of its jar into the temporary directory at every start (15 MB, about 150 ms; a killed process leaves
# its copy behind). LD_LIBRARY_PATH rather than -Djava.library.path keeps the JVM's default directories after it.
if [ -d "$RSQL_HOME/lib/native" ]; then
  export LD_LIBRARY_PATH="$RSQL_HOME/lib/native${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
# Jobs and the CLI: lib/ only. The local broker's jars (lib/broker) are for bin/broker.sh.
RSQL_CLASSPATH="$RSQL_HOME/lib/*"
RSQL_BROKER_CLASSPATH="$RSQL_HOME/lib/broker/*:$RSQL_HOME/lib/*"
# The RocketMQ client needs fastjson 1.x; safe mode turns its "@type" auto-typing off in every process.
RSQL_JAVA_OPTS="${RSQL_HEAP_OPTS:--Xms64m -Xmx512m} ${JAVA_OPTS:-} -Dfastjson.parser.safeMode=true \
 -Dlogback.configurationFile=$RSQL_HOME/conf/logback.xml \
 -Dslf4j.provider=ch.qos.logback.classic.spi.LogbackServiceProvider -Dslf4j.internal.verbosity=WARN \
 -Drmq.logback.configurationFile=$RSQL_HOME/conf/rocketmq-logback.xml -Drsql.rocketmq.log.dir=$RSQL_HOME/log/rocketmq"
# Scripts, data and output are UTF-8 whatever the locale: under LANG=C (containers, services, CI) Java 17 would read
# and print Chinese text as '?'.
RSQL_JAVA_OPTS="$RSQL_JAVA_OPTS -Dfile.encoding=UTF-8 -Dsun.stdout.encoding=UTF-8 -Dsun.stderr.encoding=UTF-8"
# RocketMQ request headers in the binary encoding rather than JSON: JSON header encoding was up to a tenth of a
# distributed job's CPU samples (every half message, end, pull and send is a request). Brokers of 4.x and 5.x read both.
RSQL_JAVA_OPTS="$RSQL_JAVA_OPTS -Drocketmq.serialize.type=${RSQL_ROCKETMQ_SERIALIZE_TYPE:-ROCKETMQ}"
# lib/rsql.jsa, a class-data-sharing archive of the classes a job loads (written by `mvn package`, see dist/pom.xml),
# roughly halves the CPU a JVM spends starting; the JVM ignores it when lib/ changed since it was made.
if [ -f "$RSQL_HOME/lib/rsql.jsa" ] && [ "${RSQL_CDS:-on}" != off ]; then
  RSQL_JAVA_OPTS="$RSQL_JAVA_OPTS -XX:SharedArchiveFile=$RSQL_HOME/lib/rsql.jsa -Xshare:auto -Xlog:cds=off,cds+dynamic=off"
fi

# Processes that run jobs: C2 compiles a method only after about twenty times the usual calls or loop iterations.
# Planning a script makes hundreds of the planner's methods warm enough for C2, whose compilations then took most of
# the CPU before the first record and competed with the job's first seconds; a job's own hot paths pass the higher
# thresholds within a second or two at the rates where their code matters. With four times the usual thresholds, C2
# still took about a quarter of the CPU before a 40-INSERT script's first record. Before RSQL_JAVA_OPTS, so that a
# setting in JAVA_OPTS wins.
RSQL_JOB_JIT="-XX:Tier4InvocationThreshold=100000 -XX:Tier4CompileThreshold=125000 -XX:Tier4BackEdgeThreshold=1000000"

# Prints every job name under jobs/: jobs/x.sql is x, jobs/ns/y.sql is ns/y, and a rule file jobs/z.rules.yaml (.yml,
# .json) is z.
rsql_list_jobs() {
  [ -d "$RSQL_HOME/jobs" ] || return 0
  (cd "$RSQL_HOME/jobs" && find . -mindepth 1 -maxdepth 2 -type f \( -name '*.sql' -o -name '*.rules.yaml' \
    -o -name '*.rules.yml' -o -name '*.rules.json' \) \
    | sed -e 's#^\./##' -e 's#\.sql$##' -e 's#\.rules\.\(yaml\|yml\|json\)$##' | sort -u)
}

# True when the process in a pid file is alive.
rsql_alive() {
  [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}
