#!/usr/bin/env python3
"""Start-up benchmark: time from starting `bin/rsql run` to the job's first record, and to the process's end, for
the example jobs (jobs/hello.sql, login_alerts.sql, login_stats.sql) and for a 40-INSERT script
(peers/flink/queries/rules40.sql: 40 rule INSERTs, blackhole sinks) over a small bounded input.

Usage: bench/startup_bench.py [--runs 5] [--homes this=/path,other=/path] [--jobs hello,rules40] [--lines 2000]
       [--logs FILE] [--code warm|cold] [--trace]
       (after `mvn -B -DskipTests package`, which also builds the class-data-sharing archive lib/rsql.jsa)

Runs of the homes are interleaved. "first record" is when the task's "started reading" line appeared on the
process's stdout, measured from just before the process was started; "end" is when the process exited. Also printed:
the process's CPU time (user + sys, which the machine's other load disturbs less than wall time), the CPU its
threads had spent at the first record and how much of it the JIT compilers' threads (C1, C2) took, and the load
average. --code warm (the default) measures a restart: the state directory's compiled-code cache
(state.dir/.compiled-code) is kept, after an unmeasured run of each job and home; --code cold a first start: the whole
state directory is removed before each run. --trace runs each job once more with -Drsql.debug.startup=true and prints where the time went (milliseconds
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

from benchutil import ROOT, SHARED, WORK, cpu_by_group

RULES40 = os.path.join(SHARED, 'peers', 'flink', 'queries', 'rules40.sql')
DEFAULT_LOGS = '/work/perf/data/logs/logs.json'
TRACE = re.compile(r'^startup\s+(\d+) ms\s+cpu\s+(\d+) ms\s+(?:thread\s+(\d+) ms\s+)?classes\s+(\d+)\s+(.*)$')


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def jit_cpu(pid):
    """CPU seconds of a process's threads so far: (all, JIT compiler threads)."""
    groups = cpu_by_group(pid)
    return sum(groups.values()), groups['jit']


STATE = os.path.join(WORK, 'startup-state')
CODE_CACHE = '.compiled-code'


def clear_state(keep_code):
    """Removes the state directory, or all of it but the compiled-code cache."""
    if not keep_code:
        shutil.rmtree(STATE, ignore_errors=True)
    elif os.path.isdir(STATE):
        for entry in os.listdir(STATE):
            if entry != CODE_CACHE:
                shutil.rmtree(os.path.join(STATE, entry), ignore_errors=True)


def run_once(home, script, env_extra, keep_code, java_opts=''):
    """Seconds to the first record, to the end, the process's CPU seconds, its threads' and its JIT compilers' CPU
    seconds at the first record (threads that ended before it not counted); the stderr lines."""
    clear_state(keep_code)
    env = dict(os.environ, **env_extra)
    env['JAVA_OPTS'] = (env.get('JAVA_OPTS', '') + ' ' + java_opts).strip()
    cpu0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.Popen([os.path.join(home, 'bin', 'rsql'), 'run', script, '-D', 'state.dir=' + STATE,
                          '-D', 'worker.threads=1'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         text=True)
    first = None
    for line in p.stdout:
        if first is None and 'started reading' in line:
            first = time.monotonic() - t0
            cpu_at_first, jit_at_first = jit_cpu(p.pid)
    err = p.stderr.read().splitlines()
    p.wait()
    end = time.monotonic() - t0
    if p.returncode != 0 or first is None:
        sys.exit('%s failed (exit %d):\n%s' % (script, p.returncode, '\n'.join(err[-20:])))
    return first, end, children_cpu() - cpu0, cpu_at_first, jit_at_first, err


def print_trace(name, lines):
    """The trace's steps; a script's INSERTs are summed per step, with the first one apart (it pays class loading).
    "thread" is the CPU time of the thread that marked the step (the main thread's but for the warm-up's steps)."""
    print('\n%s: where start-up goes (-Drsql.debug.startup=true)' % name)
    prev_ms, prev_cpu, prev_thread = 0, 0, 0
    inserts = []
    if not any(TRACE.match(line) for line in lines):
        print('  (no trace: this build has no -Drsql.debug.startup)')
    for line in lines:
        m = TRACE.match(line)
        if not m:
            continue
        ms, cpu, thread, classes, step = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0), int(m.group(4)),
                                          m.group(5))
        if step.startswith('planner: INSERT'):
            inserts.append((ms - prev_ms, cpu - prev_cpu, thread - prev_thread, step))
        else:
            if inserts:
                summarize_inserts(inserts)
                inserts = []
            print('  %-55s +%5d ms  (cpu +%5d ms)  at %5d ms, thread cpu %5d ms, %5d classes'
                  % (step, ms - prev_ms, cpu - prev_cpu, ms, thread, classes))
        prev_ms, prev_cpu = ms, cpu
        if not step.startswith('warm-up'):
            prev_thread = thread


def summarize_inserts(steps):
    per_insert = [[]]
    for s in steps:
        per_insert[-1].append(s)
        if s[3].endswith('translated'):
            per_insert.append([])
    per_insert = [p for p in per_insert if p]
    wall, cpu, thread = ([sum(s[k] for s in p) for p in per_insert] for k in range(3))
    print('  %-55s +%5d ms  (cpu +%5d ms, main thread +%5d ms)'
          % ('planner: INSERT 1 (validate, convert, optimize, translate)', wall[0], cpu[0], thread[0]))
    for phase in ('validated and converted', 'optimized', 'translated'):
        print('      %-51s  %5d ms' % (phase, sum(s[0] for s in per_insert[0] if s[3].endswith(phase))))
    if len(per_insert) > 1:
        rest = len(per_insert) - 1
        print('  %-55s +%5d ms  (cpu +%5d ms): per INSERT %.1f ms wall, %.1f ms cpu, %.1f ms main thread cpu'
              % ('planner: INSERTs 2..%d' % len(per_insert), sum(wall[1:]), sum(cpu[1:]),
                 sum(wall[1:]) / rest, sum(cpu[1:]) / rest, sum(thread[1:]) / rest))
        for phase in ('validated and converted', 'optimized', 'translated'):
            print('      %-51s  %5d ms wall, %5d ms main thread cpu'
                  % (phase, sum(s[0] for p in per_insert[1:] for s in p if s[3].endswith(phase)),
                     sum(s[2] for p in per_insert[1:] for s in p if s[3].endswith(phase))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--homes', default='this=' + ROOT)
    ap.add_argument('--lines', type=int, default=2000, help='log lines the 40-INSERT script reads')
    ap.add_argument('--logs', default=DEFAULT_LOGS)
    ap.add_argument('--rules', default=RULES40, help='the 40-INSERT script (LOGS_PATH is its input)')
    ap.add_argument('--jobs', default='hello,login_alerts,login_stats,rules40')
    ap.add_argument('--code', choices=('warm', 'cold'), default='warm',
                    help='warm: compiled code kept from an earlier run (a restart); cold: a first start')
    ap.add_argument('--trace', action='store_true')
    a = ap.parse_args()
    keep_code = a.code == 'warm'
    clear_state(False)
    os.makedirs(WORK, exist_ok=True)
    logs = os.path.join(WORK, 'startup_logs_%d.json' % a.lines)
    if not os.path.exists(logs):
        with open(a.logs) as src, open(logs, 'w') as dst:
            for i, line in enumerate(src):
                if i >= a.lines:
                    break
                dst.write(line)
    jobs = [(name, os.path.join(ROOT, 'jobs', name + '.sql'), {}) for name in ('hello', 'login_alerts', 'login_stats')]
    jobs.append(('rules40', os.path.abspath(a.rules), {'LOGS_PATH': logs}))
    jobs = [j for j in jobs if j[0] in a.jobs.split(',')]
    homes = [h.split('=', 1) for h in a.homes.split(',')]
    results = {}
    if keep_code:
        for job, script, env in jobs:
            for name, home in homes:
                run_once(home, script, env, True)
    load_before = os.getloadavg()
    for _ in range(a.runs):
        for job, script, env in jobs:
            for name, home in homes:
                results.setdefault((job, name), []).append(run_once(home, script, env, keep_code)[:5])
    load_after = os.getloadavg()
    print('load average %.1f before, %.1f after (%d cores); medians of %d runs, interleaved; compiled code %s'
          % (load_before[0], load_after[0], os.cpu_count(), a.runs, a.code))
    print('%-12s %-8s %14s %8s %8s %18s' % ('job', 'home', 'first record s', 'end s', 'CPU s',
                                             'to first: CPU, JIT'))
    for (job, name), rs in results.items():
        print('%-12s %-8s %14.2f %8.2f %8.2f %10.2f %6.2f   (first record: %s)'
              % (job, name, statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs),
                 statistics.median(r[2] for r in rs), statistics.median(r[3] for r in rs),
                 statistics.median(r[4] for r in rs), ' '.join('%.2f' % r[0] for r in rs)))
    if a.trace:
        for job, script, env in jobs:
            for name, home in homes:
                print_trace('%s (%s)' % (job, name),
                            run_once(home, script, env, keep_code, '-Drsql.debug.startup=true')[5])


if __name__ == '__main__':
    main()
