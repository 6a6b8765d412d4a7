#!/usr/bin/env python3
"""Lookup-join benchmark: a 10-million-row dimension table (an id and five columns, ~100 bytes a row as CSV) joined
with a stream of events on one worker thread, fully cached and partially cached.

Usage: bench/lookup_bench.py [--dim-rows N] [--events N] [--heap 2g]   (after `mvn -DskipTests package`)

Full cache: load time and store size (from the job's "load 1 done" log line), the process's peak RSS, and lookups/s
(events from the end of the load to the job's end; every event looks up a random id). Partial cache: the same table
through the file's line index, 90 % of the events on 10,000 hot ids and 10 % uniform, an LRU of 100,000 keys: a
90 % hit rate once warm.
Data and jobs are generated under bench/work/.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time

from benchutil import ROOT, WORK, ts_of

DIM = """CREATE TABLE events (id BIGINT, v INT, proc AS PROCTIME()) WITH (type = 'file', filePath = '%s');
CREATE TABLE dim (id BIGINT, name VARCHAR, email VARCHAR, city VARCHAR, score INT, created BIGINT,
  PRIMARY KEY (id) NOT ENFORCED) WITH (type = 'file', filePath = '%s', format = 'csv'%s);
CREATE TABLE enriched (id BIGINT, city VARCHAR, score INT) WITH (type = 'file', filePath = '%s', append = 'false');
INSERT INTO enriched SELECT e.id, d.city, d.score FROM events e JOIN dim FOR SYSTEM_TIME AS OF e.proc AS d
  ON e.id = d.id WHERE d.score = 7;
"""


def gen_dim(path, rows):
    rnd = random.Random(3)
    cities = ['city-%03d-%s' % (i, 'x' * rnd.randint(4, 12)) for i in range(500)]
    with open(path, 'w') as f:
        buf = []
        for i in range(rows):
            buf.append('%d,user-%d-%s,user%d@example-mail.com,%s,%d,%d\n' % (
                i, i, 'abcdefgh'[: 1 + i % 8], i, cities[i % 500], i % 100, 1_700_000_000_000 + i * 13))
            if len(buf) == 100_000:
                f.write(''.join(buf))
                buf = []
        f.write(''.join(buf))


HOT_IDS = 10_000


def gen_events(path, n, dim_rows, hot):
    """Ids uniform over the table, or (hot) 90 % from HOT_IDS of the ids and 10 % uniform: a 90 % hit rate."""
    rnd = random.Random(5)
    hot_ids = HOT_IDS if hot else dim_rows
    with open(path, 'w') as f:
        buf = []
        for i in range(n):
            k = rnd.randrange(hot_ids) if (not hot or rnd.random() < 0.9) else rnd.randrange(dim_rows)
            buf.append('{"id":%d,"v":%d}\n' % (k, i))
            if len(buf) == 100_000:
                f.write(''.join(buf))
                buf = []
        f.write(''.join(buf))


def run(name, events, dim, options, heap):
    script = os.path.join(WORK, name + '.sql')
    with open(script, 'w') as f:
        f.write(DIM % (events, dim, options, os.path.join(WORK, name + '.out.jsonl')))
    env = dict(os.environ, RSQL_HEAP_OPTS='-Xms%s -Xmx%s' % (heap, heap))
    log = script + '.log'
    start = time.time()
    with open(log, 'w') as out:
        p = subprocess.Popen([os.path.join(ROOT, 'bin', 'rsql'), 'run', script, '-D', 'worker.threads=1',
                              '-D', 'checkpoint.interval=5s'], env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)
    wall = time.time() - start
    lines = open(log).read().splitlines()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit('job %s failed:\n%s' % (name, '\n'.join(lines[-40:])))
    return lines, wall, usage.ru_maxrss // 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dim-rows', type=int, default=10_000_000)
    ap.add_argument('--events', type=int, default=3_000_000)
    ap.add_argument('--heap', default='2g')
    ap.add_argument('--modes', default='full,partial')
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    dim = os.path.join(WORK, 'dim-%d.csv' % a.dim_rows)
    if not os.path.exists(dim):
        gen_dim(dim, a.dim_rows)
    size = os.path.getsize(dim)
    print('dimension table: %d rows, %.1f bytes a row as CSV (%d MB)' % (a.dim_rows, size / a.dim_rows, size >> 20))
    modes = (('full', 'lookup_full', False, ", 'lookup.cache' = 'FULL'"),
             ('partial', 'lookup_partial', True, ", 'lookup.cache' = 'PARTIAL', "
              "'lookup.partial-cache.max-rows' = '%d'" % (10 * HOT_IDS)))
    for mode, name, hot, options in modes:
        if mode not in a.modes.split(','):
            continue
        events = os.path.join(WORK, 'lookup-events-%d-%s.jsonl' % (a.events, 'hot%d' % HOT_IDS if hot else 'uniform'))
        if not os.path.exists(events):
            gen_events(events, a.events, a.dim_rows, hot)
        lines, wall, rss = run(name, events, dim, options, a.heap)
        end = next(ts_of(l) for l in reversed(lines) if re.search(r'instance=\S+ finished', l))
        loaded = [l for l in lines if 'load 1 done' in l]
        if loaded:
            m = re.search(r'(\d+) rows, (\d+) MB, (\d+) ms', loaded[0])
            began = ts_of(loaded[0])
            print('%-15s load %d rows in %.1f s, store %s MB (%.1f bytes a row); %d lookups in %.2f s = %.0f '
                  'lookups/s (1 worker thread); peak RSS %d MB, -Xmx%s, wall %.1f s' % (
                      name, int(m.group(1)), int(m.group(3)) / 1000, m.group(2),
                      int(m.group(2)) * (1 << 20) / max(1, int(m.group(1))), a.events, end - began,
                      a.events / (end - began), rss, a.heap, wall))
        else:
            began = next(ts_of(l) for l in lines if 'for point lookups in' in l)
            print('%-15s %d lookups in %.2f s = %.0f lookups/s (1 worker thread, 90 %% hit rate, after the line '
                  'index was built); peak RSS %d MB, -Xmx%s, wall %.1f s' % (
                      name, a.events, end - began, a.events / (end - began), rss, a.heap, wall))


if __name__ == '__main__':
    main()
