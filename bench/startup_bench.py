#!/usr/bin/env python3
"""Start-up benchmark: time from starting `bin/rsql run` to the job's first record, and to the process's end, for
jobs/hello.sql and for a 40-INSERT script (peers/flink/queries/rules40.sql: 40 rule INSERTs, blackhole sinks) over a
small bounded input.

Usage: bench/startup_bench.py [--runs 5] [--homes this=/path,other=/path] [--lines 2000] [--logs FILE] [--trace]
       (after `mvn -B -DskipTests package`, which also builds the class-data-sharing archive lib/rsql.jsa)

Runs of the homes are interleaved. "first record" is when the task's "started reading" line appeared on the
process's stdout, measured from just before the process was started; "end" is when the process exited. Also printed:
the process's CPU time (user + sys, which the machine's other load disturbs less than wall time) and the load
average. --trace runs each job once more with -Drsql.debug.startup=true and prints where the time went (milliseconds
since the JVM started and the process's CPU time at each step of start-up, planning per INSERT included).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

from benchutil import ROOT, WORK

RULES40 = os.path.join(ROOT, '..', '..', 'shared', 'peers', 'flink', 'queries', 'rules40.sql')
DEFAULT_LOGS = '/work/perf/data/logs/logs.json'
TRACE = re.compile(r'^startup\s+(\d+) ms\s+cpu\s+(\d+) ms\s+classes\s+(\d+)\s+(.*)$')


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(home, script, env_extra, java_opts=''):
    """Seconds to the first record, to the end, and the process's CPU seconds; the stderr lines."""
    state = os.path.join(WORK, 'startup-state')
    shutil.rmtree(state, ignore_errors=True)
    env = dict(os.environ, **env_extra)
    env['JAVA_OPTS'] = (env.get('JAVA_OPTS', '') + ' ' + java_opts).strip()
    cpu0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(home, 'bin', 'rsql'), 'run', script, '-D', 'state.dir=' + state,
                          '-D', 'worker.threads=1'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         text=True)
    first = None
    for line in p.stdout:
        if first is None and 'started reading' in line:
            first = time.monotonic() - t0
    err = p.stderr.read().splitlines()
    p.wait()
    end = time.monotonic() - t0
    if p.returncode != 0 or first is None:
        sys.exit('%s failed (exit %d):\n%s' % (script, p.returncode, '\n'.join(err[-20:])))
    return first, end, children_cpu() - cpu0, err


def print_trace(name, lines):
    """The trace's steps; a script's INSERTs are summed per step, with the first one apart (it pays class loading)."""
    print('\n%s: where start-up goes (-Drsql.debug.startup=true)' % name)
    prev_ms, prev_cpu = 0, 0
    inserts = []
    if not any(TRACE.match(line) for line in lines):
        print('  (no trace: this build has no -Drsql.debug.startup)')
    for line in lines:
        m = TRACE.match(line)
        if not m:
            continue
        ms, cpu, classes, step = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
        if step.startswith('planner: INSERT'):
            inserts.append((ms - prev_ms, cpu - prev_cpu, step))
        else:
            if inserts:
                summarize_inserts(inserts)
                inserts = []
            print('  %-55s +%5d ms  (cpu +%5d ms)  at %5d ms, %5d classes' % (step, ms - prev_ms, cpu - prev_cpu,
                                                                             ms, classes))
        prev_ms, prev_cpu = ms, cpu


def summarize_inserts(steps):
    per_insert = [[]]
    for s in steps:
        per_insert[-1].append(s)
        if s[2].endswith('translated'):
            per_insert.append([])
    per_insert = [p for p in per_insert if p]
    wall = [sum(s[0] for s in p) for p in per_insert]
    cpu = [sum(s[1] for s in p) for p in per_insert]
    print('  %-55s +%5d ms  (cpu +%5d ms)' % ('planner: INSERT 1 (validate, convert, optimize, translate)',
                                              wall[0], cpu[0]))
    for phase in ('validated and converted', 'optimized', 'translated'):
        print('      %-51s  %5d ms' % (phase, sum(s[0] for s in per_insert[0] if s[2].endswith(phase))))
    if len(per_insert) > 1:
        rest = len(per_insert) - 1
        print('  %-55s +%5d ms  (cpu +%5d ms): %.1f ms wall, %.1f ms cpu per INSERT'
              % ('planner: INSERTs 2..%d' % len(per_insert), sum(wall[1:]), sum(cpu[1:]),
                 sum(wall[1:]) / rest, sum(cpu[1:]) / rest))
        for phase in ('validated and converted', 'optimized', 'translated'):
            print('      %-51s  %5d ms' % (phase, sum(s[0] for p in per_insert[1:] for s in p
                                                   if s[2].endswith(phase))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--homes', default='this=' + ROOT)
    ap.add_argument('--lines', type=int, default=2000, help='log lines the 40-INSERT script reads')
    ap.add_argument('--logs', default=DEFAULT_LOGS)
    ap.add_argument('--rules', default=RULES40, help='the 40-INSERT script (LOGS_PATH is its input)')
    ap.add_argument('--trace', action='store_true')
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    logs = os.path.join(WORK, 'startup_logs_%d.json' % a.lines)
    if not os.path.exists(logs):
        with open(a.logs) as src, open(logs, 'w') as dst:
            for i, line in enumerate(src):
                if i >= a.lines:
                    break
                dst.write(line)
    jobs = [('hello', os.path.join(ROOT, 'jobs', 'hello.sql'), {}),
            ('rules40', os.path.abspath(a.rules), {'LOGS_PATH': logs})]
    homes = [h.split('=', 1) for h in a.homes.split(',')]
    results = {}
    load_before = os.getloadavg()
    for _ in range(a.runs):
        for job, script, env in jobs:
            for name, home in homes:
                results.setdefault((job, name), []).append(run_once(home, script, env)[:3])
    load_after = os.getloadavg()
    print('load average %.1f before, %.1f after (%d cores); medians of %d runs, interleaved'
          % (load_before[0], load_after[0], os.cpu_count(), a.runs))
    print('%-8s %-8s %16s %12s %10s' % ('job', 'home', 'first record s', 'end s', 'CPU s'))
    for (job, name), rs in results.items():
        print('%-8s %-8s %16.2f %12.2f %10.2f   (first record: %s)'
              % (job, name, statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs),
                 statistics.median(r[2] for r in rs), ' '.join('%.2f' % r[0] for r in rs)))
    if a.trace:
        for job, script, env in jobs:
            for name, home in homes:
                print_trace('%s (%s)' % (job, name),
                            run_once(home, script, env, '-Drsql.debug.startup=true')[3])


if __name__ == '__main__':
    main()
