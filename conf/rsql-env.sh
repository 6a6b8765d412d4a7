# Sourced by the bin/ scripts. JVM options of every job process; the default fits a 1 GB machine.
RSQL_HEAP_OPTS="${RSQL_HEAP_OPTS:--Xms64m -Xmx512m}"
# JAVA_OPTS="$JAVA_OPTS -XX:+UseSerialGC"
# No -XX:+ExitOnOutOfMemoryError: it would end the process before the engine can say where memory ran out. An
# OutOfMemoryError in a task fails the job naming the function and record; one in another thread halts the process.
