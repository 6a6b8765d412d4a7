# Sourced by the bin/ scripts. JVM options of every job process; the default fits a 1 GB machine.
RSQL_HEAP_OPTS="${RSQL_HEAP_OPTS:--Xms64m -Xmx512m}"
# JAVA_OPTS="$JAVA_OPTS -XX:+UseSerialGC"
