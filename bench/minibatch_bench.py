#!/usr/bin/env python3
"""Mini-batch benchmark: Nexmark q15, q16, q17 (non-window GROUP BYs) on one worker thread, row by row and with
Nexmark's mini-batch preset (mini-batch 2 s / 50,000 rows, distinct split on), runs interleaved.

Usage: bench/minibatch_bench.py --events FILE [--queries q15,q16,q17] [--presets default,minibatch] [--reps 1]
       [--timeout 600] [--home DIR | --homes NAME=DIR,NAME=DIR]
(after `mvn -DskipTests package`)

The queries are the rsql versions of the Flink peer's (`../shared/peers/rsql-vs-flink/queries/`, or --queries-dir),
reading the Nexmark JSON-lines file --events and writing a changelog file per query under bench/work/minibatch/.
Prints per run: events/s between the source task's first record and the job's end (JVM start and planning
excluded), CPU seconds of the process (user + sys, from /usr/bin/time; steadier than events/s on a shared machine),
peak RSS, and the changelog lines written; then whether each query's final table (the changelog folded per GROUP BY
key) is the same with and without mini-batch. A run over --timeout seconds is stopped and reported as such.
--homes runs each query and preset with the engine of several built checkouts in turn (before/after comparisons on a
shared machine: compare the CPU seconds), and their final tables are compared too.
"""
import argparse
import json
import os
import re
import subprocess
import sys

from benchutil import ROOT, WORK, processing_seconds, SHARED

PRESET = ['table.exec.mini-batch.enabled=true', 'table.exec.mini-batch.allow-latency=2s',
          'table.exec.mini-batch.size=50000', 'table.optimizer.distinct-agg.split.enabled=true']
KEYS = {'q15': ['day'], 'q16': ['channel', 'day'], 'q17': ['auction', 'day']}


def fold(path, keys):
    """The table a changelog file describes: the last +I/+U per key, minus keys deleted after it."""
    table = {}
    for line in open(path):
        row = json.loads(line)
        op = row.pop('op', '+I')
        key = tuple(row[k] for k in keys)
        if op in ('+I', '+U'):
            table[key] = row
        elif op == '-D':
            table.pop(key, None)
    return table


def run(name, home, queries_dir, query, events, preset, timeout):
    out = os.path.join(WORK, 'minibatch', name, '%s_%s' % (query, preset))
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        os.remove(os.path.join(out, f))
    env = dict(os.environ, NEXMARK_PATH=events, RSQL_OUT=out, RSQL_HEAP_OPTS='-Xmx1g',
               RSQL_HOME=os.path.join(WORK, 'minibatch', 'home-' + name))
    os.makedirs(os.path.join(env['RSQL_HOME'], 'ext'), exist_ok=True)
    for d in ('lib', 'conf'):
        link = os.path.join(env['RSQL_HOME'], d)
        if os.path.lexists(link) and os.readlink(link) != os.path.join(home, d):
            os.remove(link)
        if not os.path.lexists(link):
            os.symlink(os.path.join(home, d), link)
    settings = ['-D', 'worker.threads=1'] + [a for s in (PRESET if preset == 'minibatch' else []) for a in ('-D', s)]
    timing = os.path.join(out, 'time.txt')
    cmd = ['timeout', str(timeout), '/usr/bin/time', '-v', '-o', timing, os.path.join(home, 'bin', 'rsql'), 'run',
           os.path.join(queries_dir, query + '.sql')] + settings
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors='replace')
    lines = proc.stdout.splitlines()
    times = open(timing).read() if os.path.exists(timing) else ''
    cpu = sum(float(m) for m in re.findall(r'(?:User|System) time \(seconds\): ([\d.]+)', times))
    rss = re.search(r'Maximum resident set size \(kbytes\): (\d+)', times)
    sink = os.path.join(out, 'nexmark_%s.json' % query)
    written = sum(1 for _ in open(sink)) if os.path.exists(sink) else 0
    if proc.returncode != 0:
        print('%-8s %-4s %-9s %s' % (name, query, preset, 'stopped after %d s' % timeout if proc.returncode == 124
                                     else 'failed (%d)' % proc.returncode))
        return None
    n = sum(1 for _ in open(events))
    secs = processing_seconds(lines)
    print('%-8s %-4s %-9s %9.0f events/s  %6.1f CPU-s  %5d MB RSS  %8d changelog lines'
          % (name, query, preset, n / secs, cpu, int(rss.group(1)) // 1024 if rss else 0, written), flush=True)
    return sink


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--events', required=True)
    p.add_argument('--queries', default='q15,q16,q17')
    p.add_argument('--queries-dir', default=os.path.join(SHARED, 'peers', 'rsql-vs-flink', 'queries'))
    p.add_argument('--reps', type=int, default=1)
    p.add_argument('--timeout', type=int, default=600)
    p.add_argument('--home', default=ROOT)
    p.add_argument('--homes', help='NAME=DIR,NAME=DIR: built checkouts to run in turn (instead of --home)')
    p.add_argument('--presets', default='default,minibatch')
    a = p.parse_args()
    homes = [h.split('=', 1) for h in a.homes.split(',')] if a.homes else [('this', a.home)]
    for _ in range(a.reps):
        for q in a.queries.split(','):
            sinks = {(name, preset): run(name, home, a.queries_dir, q, a.events, preset, a.timeout)
                     for preset in a.presets.split(',') for name, home in homes}
            done = [s for s in sinks.values() if s]
            if len(done) == len(sinks) > 1:
                tables = [fold(s, KEYS[q]) for s in done]
                same = all(t == tables[0] for t in tables)
                print('%-4s final tables %s' % (q, 'equal' if same else 'DIFFER'), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
