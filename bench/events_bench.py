#!/usr/bin/env python3
"""Event pattern benchmark: CloudEvents matched against 100, 1,000 and 10,000 patterns on one thread, by RSQL's
pattern index and by AWS event-ruler 2.0.1 (a benchmark-only dependency, resolved with Maven into bench/work/ruler/).

Usage: bench/events_bench.py [--sizes 100,1000,10000] [--events 1000000] [--ruler-events 200000] [--reps 1]
       [--heap 1g] [--sql 100,1000]   (after `mvn -DskipTests package`)

Each run is one JVM (`java bench/EventsBench.java ENGINE PATTERNS EVENTS`, engines interleaved per size): it builds
the patterns of a routing mix (source and one or two types or a type prefix, then one or two of a numeric
threshold, a region, anything-but a status, a VIP flag, a /16 network, a tag) and 100,000 distinct structured
CloudEvents from a fixed seed, then matches EVENTS events (the distinct ones in turn), parsing each from its JSON
text. Printed: events/s, total matches (equal for both engines: a check), the time to compile the patterns and the
process's peak RSS. event-ruler is slow to add numeric and CIDR patterns and to match many of them, so it runs on
--ruler-events events; its rate is a rate all the same.

--sql SIZES also runs, for each size, a script of that many rule INSERTs (`WHERE EVENT_MATCHES(event, '...')` into
blackhole sinks) over a JSON-lines file of 300,000 such events (format raw) with `bin/rsql run` on one worker thread,
and prints events/s between the first record read and the job's end (from the job's log).
"""
import argparse
import os
import re
import subprocess
import sys
from datetime import datetime, timezone

from benchutil import ROOT, WORK

RULER = os.path.join(WORK, 'ruler')
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>bench</groupId><artifactId>ruler</artifactId><version>1</version>
<dependencies><dependency><groupId>software.amazon.event.ruler</groupId><artifactId>event-ruler</artifactId>
<version>2.0.1</version></dependency></dependencies></project>
"""


def ruler_classpath():
    os.makedirs(RULER, exist_ok=True)
    with open(os.path.join(RULER, 'pom.xml'), 'w') as f:
        f.write(POM)
    out = os.path.join(RULER, 'cp.txt')
    subprocess.run(['mvn', '-B', '-q', 'dependency:build-classpath', '-Dmdep.outputFile=' + out], cwd=RULER,
                   check=True)
    with open(out) as f:
        return f.read().strip()


def run(engine, patterns, events, heap, classpath):
    cmd = ['java', '-Xmx' + heap, '-cp', os.path.join(ROOT, 'lib', '*') + ':' + classpath,
           os.path.join(ROOT, 'bench', 'EventsBench.java'), engine, str(patterns), str(events)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith('engine='))
    return {k: v for k, v in re.findall(r'(\w+)=(\S+)', line)}


def sql(size, classpath):
    work = os.path.join(WORK, 'events')
    os.makedirs(work, exist_ok=True)
    subprocess.run(['java', '-cp', os.path.join(ROOT, 'lib', '*') + ':' + classpath,
                    os.path.join(ROOT, 'bench', 'EventsBench.java'), 'write', str(size), '300000', work],
                   check=True, capture_output=True)
    env = dict(os.environ, RSQL_HEAP_OPTS='-Xmx512m')
    p = subprocess.run([os.path.join(ROOT, 'bin', 'rsql'), 'run', os.path.join(work, 'rules_%d.sql' % size),
                        '-D', 'worker.threads=1'], env=env, capture_output=True, text=True)
    out = p.stdout + p.stderr

    def ts(line):
        return datetime.strptime(line[:23], '%Y-%m-%d %H:%M:%S.%f').replace(tzinfo=timezone.utc).timestamp()
    first = [ts(l) for l in out.splitlines() if 'started reading' in l]
    end = [ts(l) for l in out.splitlines() if 'instance=' in l and ' finished' in l]
    rows = re.search(r'(\d+) records in, (\d+) rows out', out)
    if not first or not end or not rows:
        sys.exit('run failed:\n' + out[-3000:])
    return int(rows.group(1)) / (end[0] - first[0]), int(rows.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sizes', default='100,1000,10000')
    ap.add_argument('--events', type=int, default=1_000_000)
    ap.add_argument('--ruler-events', type=int, default=200_000)
    ap.add_argument('--reps', type=int, default=1)
    ap.add_argument('--heap', default='1g')
    ap.add_argument('--sql', default='')
    a = ap.parse_args()
    classpath = ruler_classpath()
    print('%-6s %7s %9s %12s %10s %10s %8s' % ('engine', 'patterns', 'events', 'events/s', 'matches', 'compile s',
                                              'RSS MB'))
    rates = {}
    for size in [int(s) for s in a.sizes.split(',')]:
        for rep in range(a.reps):
            for engine, events in (('rsql', a.events), ('ruler', a.ruler_events)):
                r = run(engine, size, events, a.heap, classpath)
                rates.setdefault((engine, size), []).append(float(r['events_per_s']))
                print('%-6s %7d %9d %12.0f %10s %10s %8s' % (engine, size, events, float(r['events_per_s']),
                                                           r['matches'], r['compile_s'], r['peak_rss_mb']))
                sys.stdout.flush()
    for size in [int(s) for s in a.sizes.split(',')]:
        ours = sorted(rates[('rsql', size)])[len(rates[('rsql', size)]) // 2]
        theirs = sorted(rates[('ruler', size)])[len(rates[('ruler', size)]) // 2]
        print('patterns %6d: rsql / event-ruler %.1fx' % (size, ours / theirs))
    for size in [int(s) for s in a.sql.split(',') if s]:
        rate, rows = sql(size, classpath)
        print('SQL rules %6d: %.0f events/s, %d rows out' % (size, rate, rows))


if __name__ == '__main__':
    main()
