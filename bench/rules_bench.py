#!/usr/bin/env python3
"""Rule-set benchmark: lines/s of the rules40 job (peers/flink/queries/rules40.sql: 40 rule INSERTs over one JSON
log stream, blackhole sinks) and of a generated set ten times larger (rules400: each rule again nine times with its
string constants changed, so the kinds of tests are the same), on one worker thread.

Usage: bench/rules_bench.py --logs FILE [--homes before=/path,after=/path] [--reps 2] [--lines N] [--rules 40,400]
                             [--settings 'off=table.optimizer.shared-predicates.enabled=false;...'] [--common COND]

FILE is a JSON-lines log file of bench.gen.LogGen (peers/rsql-vs-flink/setup.sh writes one); its first N lines are
used. Each home is an rsql installation (bin/, lib/, conf/; default: this checkout); runs are interleaved
(home a, home b, home a, ...) so that a busy machine slows each alike. Printed per run: lines/s between the first
record read and the job's end (from the job's log), the CPU seconds of the JVM (user+sys) and JVM start to first
record read. On a shared machine compare the homes by ratio within one invocation. --settings adds variants of each
home: the script with SET statements in front (name=key=value;key=value, variants separated by commas), also
interleaved, e.g. the filter optimizer's switches off. --common COND puts COND before every rule's condition
(WHERE COND AND (...)): a test all rules share, e.g. "LOWER(user_agent) NOT LIKE '%healthcheck%'".
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

from benchutil import ROOT, WORK, SHARED

RULES40 = os.path.join(SHARED, 'peers', 'flink', 'queries', 'rules40.sql')


def rules_sql(source, copies, common=None):
    """The rules40 script with every rule INSERT repeated `copies` times; copy k > 0 has its string constants
    changed (a suffix k) and its own sink, so it tests the same kinds of predicates on different literals."""
    text = open(source).read()
    head, _, body = text.partition('CREATE TABLE alert_r01')
    body = 'CREATE TABLE alert_r01' + body
    sinks = re.findall(r"CREATE TABLE alert_r\d+ \(.*?\)\s*WITH \('connector' = 'blackhole'\);", body, re.S)
    inserts = re.findall(r"INSERT INTO alert_r\d+.*?;[ \t]*$", body, re.S | re.M)
    out = [head]
    for k in range(copies):
        suffix = '' if k == 0 else '_%d' % k
        for s in sinks:
            out.append(re.sub(r'alert_r(\d+)', r'alert_r\1' + suffix, s) + '\n')
        for ins in inserts:
            ins = re.sub(r'alert_r(\d+)', r'alert_r\1' + suffix, ins)
            if k:
                select, _, where = ins.partition('WHERE')
                where = re.sub(r"'((?:[^']|'')*)'", lambda m: "'" + vary(m.group(1), k) + "'", where)
                ins = select + 'WHERE' + where
            if common:
                select, _, where = ins.partition('WHERE')
                ins = select + 'WHERE ' + common + ' AND (' + where.strip().rstrip(';') + ');'
            out.append(ins + '\n')
    return ''.join(out)


def vary(literal, k):
    """The literal with k inserted before a trailing LIKE '%' (so it still is a contains/prefix test)."""
    if literal.endswith('%'):
        return literal[:-1] + str(k) + '%'
    return literal + str(k)


def run(home, script, logs):
    env = dict(os.environ, LOGS_PATH=logs, RSQL_HEAP_OPTS='-Xmx256m')
    rh = tempfile.mkdtemp(prefix='rules-home-', dir=WORK)
    for d in ('bin', 'conf', 'lib', 'ext'):
        os.symlink(os.path.join(home, d), os.path.join(rh, d))
    env['RSQL_HOME'] = rh
    t0 = time.time()
    p = subprocess.run(['/usr/bin/time', '-f', 'CPU %U %S', os.path.join(home, 'bin', 'rsql'), 'run', script,
                        '-D', 'worker.threads=1'], env=env, capture_output=True, text=True)
    out = p.stdout + p.stderr
    subprocess.run(['rm', '-rf', rh])

    def ts(line):
        return datetime.strptime(line[:23], '%Y-%m-%d %H:%M:%S.%f').replace(tzinfo=timezone.utc).timestamp()
    first = [ts(l) for l in out.splitlines() if 'started reading' in l]
    end = [ts(l) for l in out.splitlines() if 'instance=' in l and ' finished' in l]
    lines = sum(int(m.group(1)) for m in re.finditer(r'task=logs\S* finished .*?: (\d+) records in', out))
    cpu = re.search(r'CPU ([\d.]+) ([\d.]+)', out)
    if not first or not end or not cpu:
        sys.exit('run failed:\n' + out[-3000:])
    return lines / (end[0] - first[0]), float(cpu.group(1)) + float(cpu.group(2)), first[0] - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--logs', required=True)
    ap.add_argument('--lines', type=int, default=400000)
    ap.add_argument('--homes', default='this=' + ROOT)
    ap.add_argument('--rules', default='40,400')
    ap.add_argument('--reps', type=int, default=2)
    ap.add_argument('--settings', default='')
    ap.add_argument('--common')
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    logs = os.path.join(WORK, 'logs_%d.json' % a.lines)
    if not os.path.exists(logs):
        with open(a.logs) as src, open(logs, 'w') as dst:
            for i, line in enumerate(src):
                if i >= a.lines:
                    break
                dst.write(line)
    homes = [h.split('=', 1) for h in a.homes.split(',')]
    variants = [('', '')] + [(v.split('=', 1)[0], ''.join("SET '%s' = '%s';\n" % tuple(kv.split('=', 1))
                                                        for kv in v.split('=', 1)[1].split(';')))
                             for v in a.settings.split(',') if v]
    for n in [int(x) for x in a.rules.split(',')]:
        scripts = {}
        for vname, sets in variants:
            scripts[vname] = os.path.join(WORK, 'rules%d%s.sql' % (n, '-' + vname if vname else ''))
            with open(scripts[vname], 'w') as f:
                f.write(sets + rules_sql(RULES40, n // 40, a.common))
        for rep in range(a.reps):
            for (hname, home), (vname, _) in [(h, v) for h in homes for v in variants]:
                name = hname + ('/' + vname if vname else '')
                rate, cpu, startup = run(home, scripts[vname], logs)
                print('rules%-4d %-12s rep %d: %8.0f lines/s  %6.1f CPU s  start-up %.2f s'
                      % (n, name, rep, rate, cpu, startup), flush=True)


if __name__ == '__main__':
    main()
