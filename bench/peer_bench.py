#!/usr/bin/env python3
"""rsql vs Flink 1.20.3 with the variants issue #13 asks for, through the side-by-side harness
(`../shared/peers/rsql-vs-flink/bench.py`, whose run_one does every run: same timing, same raw.tsv columns).

What this adds to the harness, without changing it:
  - rsql runs the Flink peer's queries unchanged, i.e. with its `blackhole` sinks (the harness's queries/ swap them
    for file sinks; those stay for content_check.py / changelog_check.py). Rows out come from the blackhole sink's
    log line ("discarded N rows (+I a, -U b, +U c)"), less its -U rows, as the Flink counting sink counts.
  - Nexmark variants: Flink `p1` (the peer's Nexmark preset: mini-batch 2 s / 50,000, distinct split, as the
    harness) and `p1_default` (PRESET=none: plain defaults); rsql `t1` (one worker, row by row), for the
    GROUP BY queries `t1_mb` (one worker, the same preset as SET statements in front of the script), and for the
    stateful ones `t1_hm` (one worker, state in the heap: state.backend.type = hashmap, as Flink's default).
  - every Nexmark query on the whole file (the harness runs q11/q15/q16 on the 100k prefix); `--scale` adds
    `p1_100k`/`t1_100k` runs on events_100k.json for the linear-scaling check.
  - rules400: the rules40 script with each rule nine more times on changed literals (rules_bench.rules_sql).
Scripts actually run are written under $PERF_DIR/rsql_queries/<variant>/queries/.

Usage (after the harness's setup.sh; RSQL_DIST and PERF_DIR as for it):
  bench/peer_bench.py --workloads q15,q16,q17,q11 [--scale] [--only flink:p1,rsql:t1] [--reps 1]
  bench/peer_bench.py --memory --workloads rules40,q17 --heaps 32m,64m,128m --only rsql:t1
  bench/peer_bench.py --summary        (markdown table of the pairs from the results file)
Results go to $RESULTS (default $PERF_DIR/results/raw.tsv).
"""
import argparse
import csv
import os
import re
import statistics
import sys
from collections import OrderedDict

from benchutil import ROOT, SHARED
from rules_bench import rules_sql

HARNESS = os.path.normpath(os.path.join(SHARED, 'peers', 'rsql-vs-flink'))
sys.path.insert(0, HARNESS)
import bench as harness  # noqa: E402

FLINK_QUERIES = os.path.join(harness.FLINK_DIR, 'queries')
MINIBATCH = [('table.exec.mini-batch.enabled', 'true'), ('table.exec.mini-batch.allow-latency', '2 s'),
             ('table.exec.mini-batch.size', '50000'), ('table.optimizer.distinct-agg.split.enabled', 'true')]
HASHMAP = [('state.backend.type', 'hashmap')]
GROUP_BY = ('q15', 'q16', 'q17')
STATEFUL = GROUP_BY + ('q11',)
SCALED = ('q11', 'q15', 'q16')
PREFIX_100K = ('nexmark/events_100k.json', 100000)
DISCARDED = re.compile(r'blackhole sink (\S+) discarded (\d+) rows(?: \(([^)]*)\))?')


def write_queries(perf, variant, settings, workloads):
    """$PERF_DIR/rsql_queries/<variant>/queries/<w>.sql: the Flink peer's script, SET statements in front."""
    base = os.path.join(perf, 'rsql_queries', variant)
    os.makedirs(os.path.join(base, 'queries'), exist_ok=True)
    for w in workloads:
        if w == 'rules400':
            text = rules_sql(os.path.join(FLINK_QUERIES, 'rules40.sql'), 10)
        else:
            text = open(os.path.join(FLINK_QUERIES, w + '.sql')).read()
        sets = ''.join("SET '%s' = '%s';\n" % kv for kv in settings)
        with open(os.path.join(base, 'queries', w + '.sql'), 'w') as f:
            f.write('-- peers/flink/queries/%s.sql unchanged (blackhole sinks), written by bench/peer_bench.py\n'
                    % ('rules40.sql x10' if w == 'rules400' else w) + sets + text)
    return base


def blackhole_rows(out_dir):
    """rows_out, rows_all, per_sink of an rsql run with blackhole sinks, from its log (the harness's log path for
    the run whose output directory is out_dir); a run with file sinks is counted by the harness."""
    if os.listdir(out_dir):
        return COUNT_FILES(out_dir)
    perf = os.path.dirname(os.path.dirname(out_dir))
    log = os.path.join(perf, 'logs', os.path.basename(out_dir) + '.log')
    per, out_total, all_total = [], 0, 0
    for table, n, kinds in DISCARDED.findall(open(log, errors='replace').read()):
        ub = re.search(r'-U (\d+)', kinds or '')
        n_out = int(n) - (int(ub.group(1)) if ub else 0)
        per.append('%s:%d' % (table, n_out))
        out_total += n_out
        all_total += int(n)
    return out_total, all_total, ','.join(sorted(per))


COUNT_FILES = harness.count_rows
harness.count_rows = blackhole_rows


def plan(workload, scale, heap=None):
    """(engine, variant, spec, extra environment, prefix event count or None) in run order, engines alternating."""
    h = heap or '1g'
    if workload in ('rules40', 'rules400'):
        out = []
        if workload == 'rules40':
            out += [('flink', 'p1_default', dict(p=1, heap=h, extra=[], inp=harness.LOGS), {}, None)]
        out += [('rsql', 't1', dict(p=1, heap=h, inp=harness.LOGS), {}, None)]
        if workload == 'rules40':
            out += [('flink', 'p1_tuned', dict(p=1, heap=h, extra=harness.TUNED, inp=harness.LOGS), {}, None)]
        return out
    out = [('flink', 'p1', dict(p=1, heap=h, extra=[], inp=harness.NEXMARK), {}, None),
           ('rsql', 't1', dict(p=1, heap=h, inp=harness.NEXMARK), {}, None),
           ('flink', 'p1_default', dict(p=1, heap=h, extra=[], inp=harness.NEXMARK), {'PRESET': 'none'}, None)]
    if workload in GROUP_BY:
        out.append(('rsql', 't1_mb', dict(p=1, heap=h, inp=harness.NEXMARK), {}, None))
    if workload in STATEFUL:
        out.append(('rsql', 't1_hm', dict(p=1, heap=h, inp=harness.NEXMARK), {}, None))
    if scale and workload in SCALED:
        out += [('flink', 'p1_100k', dict(p=1, heap=h, extra=[], inp=PREFIX_100K[0]), {}, PREFIX_100K[1]),
                ('rsql', 't1_100k', dict(p=1, heap=h, inp=PREFIX_100K[0]), {}, PREFIX_100K[1])]
    return out


def run(args, rep, workload, engine, variant, spec, env, prefix):
    harness.PREFIX = {workload: (spec['inp'], prefix)} if prefix else {}
    if engine == 'rsql':
        harness.HERE = args.bases[variant if variant in args.bases else 't1']
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return harness.run_one(args, rep, workload, engine, variant, spec)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def summary(path):
    rows = [r for r in csv.DictReader(open(path), delimiter='\t') if r['status'] == 'OK']
    groups = OrderedDict()
    for r in rows:
        if r['rep'] != 'mem':
            groups.setdefault(r['workload'], OrderedDict()).setdefault((r['engine'], r['variant']), []).append(r)

    def med(rs, key):
        v = [float(r[key]) for r in rs if r[key] not in ('', None)]
        return statistics.median(v) if v else None

    def cpu_rate(rs):
        v = [float(r['events']) / float(r['cpu_s']) for r in rs if r['cpu_s']]
        return statistics.median(v) if v else None

    def k(x):
        return 'n/a' if x is None else ('%.0fk' % (x / 1000) if x >= 10000 else '%.1fk' % (x / 1000))

    print('| workload | run (engine variant) | events | events/s job (process) | events/CPU-s | peak RSS MB | '
          'rows out | load1 |')
    print('|---|---|---|---|---|---|---|---|')
    for w, vs in groups.items():
        for (e, v), rs in vs.items():
            print('| %s | %s %s | %s | %s (%s) | %s | %.0f | %s | %s |' % (
                w, e, v, '{:,}'.format(int(rs[0]['events'])), k(med(rs, 'evps_engine')), k(med(rs, 'evps_proc')),
                k(cpu_rate(rs)), med(rs, 'rss_mb') or 0, '/'.join(OrderedDict((r['rows_out'], 1) for r in rs)),
                ','.join(r['load1'] for r in rs)))
    print('\n| workload | ratio rsql/Flink, job events/s (process) | by events per CPU-second |')
    print('|---|---|---|')
    pairs = [('t1', 'p1_default'), ('t1', 'p1'), ('t1_mb', 'p1'), ('t1_mb', 'p1_default'), ('t1_hm', 'p1_default'),
             ('t1', 'p1_tuned'), ('t1_100k', 'p1_100k')]
    for w, vs in groups.items():
        for rv, fv in pairs:
            r, f = vs.get(('rsql', rv)), vs.get(('flink', fv))
            if r and f:
                def ratio(a, b):
                    return '%.2f×' % (a / b) if a and b else 'n/a'
                print('| %s: rsql %s / Flink %s | %s (%s) | %s |' % (
                    w, rv, fv, ratio(med(r, 'evps_engine'), med(f, 'evps_engine')),
                    ratio(med(r, 'evps_proc'), med(f, 'evps_proc')), ratio(cpu_rate(r), cpu_rate(f))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--reps', type=int, default=1)
    ap.add_argument('--first-rep', type=int, default=1)
    ap.add_argument('--workloads', default='q15,q16,q17,q11,rules40,rules400,q0,q1,q2,q12,q14,q21,q22')
    ap.add_argument('--only', default='', help='comma list of engine:variant to keep, e.g. rsql:t1,flink:p1')
    ap.add_argument('--scale', action='store_true', help='also q11/q15/q16 on the 100k prefix')
    ap.add_argument('--memory', action='store_true', help='one run per heap in --heaps')
    ap.add_argument('--heaps', default='32m,64m,128m,256m')
    ap.add_argument('--timeout', type=int, default=900)
    ap.add_argument('--keep-output', action='store_true')
    ap.add_argument('--summary', action='store_true')
    ap.add_argument('--results', default=os.environ.get('RESULTS'))
    args = ap.parse_args()
    args.rsql = os.environ.get('RSQL_DIST') or sys.exit('set RSQL_DIST to the rsql installation')
    args.perf = os.environ.get('PERF_DIR') or sys.exit('set PERF_DIR to a scratch directory')
    args.results = args.results or os.path.join(args.perf, 'results', 'raw.tsv')
    if args.summary:
        summary(args.results)
        return
    os.makedirs(os.path.dirname(args.results), exist_ok=True)
    if not os.path.exists(args.results):
        with open(args.results, 'w') as f:
            f.write('\t'.join(harness.FIELDS) + '\n')
    workloads = args.workloads.split(',')
    args.bases = {'t1': write_queries(args.perf, 't1', [], workloads),
                  't1_mb': write_queries(args.perf, 't1_mb', MINIBATCH, [w for w in workloads if w in GROUP_BY]),
                  't1_hm': write_queries(args.perf, 't1_hm', HASHMAP, [w for w in workloads if w in STATEFUL])}
    only = set(x for x in args.only.split(',') if x)

    def keep(engine, variant):
        return not only or '%s:%s' % (engine, variant) in only
    if args.memory:
        for w in workloads:
            for heap in args.heaps.split(','):
                for e, v, spec, env, prefix in plan(w, False, heap):
                    if keep(e, v):
                        run(args, 'mem', w, e, v, spec, env, prefix)
        return
    for rep in range(args.first_rep, args.first_rep + args.reps):
        for w in workloads:
            for e, v, spec, env, prefix in plan(w, args.scale):
                if keep(e, v):
                    run(args, rep, w, e, v, spec, env, prefix)


if __name__ == '__main__':
    main()
