#!/usr/bin/env python3
"""Window benchmark: events/s of a keyed tumbling count and of a hopping window aggregation reading a JSON-lines
file on one worker thread, with their heap and their state on disk.

Usage: bench/window_bench.py [--rows N] [--keys K] [--heap 256m] [--jobs a,b] [--dists DIR,DIR] [--reps N]
(after `mvn -DskipTests package`). --dists runs each job with the bin/rsql of each built checkout given (default this
one), interleaved, --reps times: before/after comparisons on a shared machine.

Writes the data and jobs under bench/work/, runs each job with `bin/rsql run` (one worker thread, a checkpoint every
5 s) and prints events/s measured between the source task's first record and the job's end (JVM start and planning
excluded), the windows written, the heap (the -Xmx given and the most heap in use after a GC, from -Xlog:gc), the
process's peak resident memory (RocksDB's block cache and memtables live outside the heap), and the most disk the
job's state directory took while it ran: RocksDB working copies plus checkpoints, a file hard-linked into both
counted once. (A job that has finished deletes its state, so the size is sampled while it runs.)

Events: ten thousand a second of event time, keys uniform over --keys, out of order by up to a second (the
watermark allows two), so nothing is late.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone

from benchutil import ROOT, WORK, heap_after_gc, processing_seconds
EVENTS_PER_SECOND = 10_000

SOURCE = """CREATE TABLE events (
  user_id VARCHAR, amount BIGINT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS withOffset(ts, 2000)
) WITH (type = 'file', filePath = '%s');
"""

JOBS = {
    'tumble_count': """CREATE TABLE counts (user_id VARCHAR, window_start TIMESTAMP(3), cnt BIGINT)
  WITH (%s);
INSERT INTO counts SELECT user_id, window_start, COUNT(*)
  FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY user_id, window_start, window_end;
""",
    'tumble_aggregate': """CREATE TABLE stats (user_id VARCHAR, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
  cnt BIGINT, total BIGINT, biggest BIGINT) WITH (%s);
INSERT INTO stats SELECT user_id, window_start, window_end, COUNT(*), SUM(amount), MAX(amount)
  FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '30' SECOND))
  GROUP BY user_id, window_start, window_end;
""",
    'hop_aggregate': """CREATE TABLE stats (user_id VARCHAR, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
  cnt BIGINT, total BIGINT, biggest BIGINT) WITH (%s);
INSERT INTO stats SELECT user_id, window_start, window_end, COUNT(*), SUM(amount), MAX(amount)
  FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '30' SECOND))
  GROUP BY user_id, window_start, window_end;
""",
}
WINDOWS = {'tumble_count': 'TUMBLE 10 s, COUNT(*)',
           'tumble_aggregate': 'TUMBLE 30 s, COUNT/SUM/MAX',
           'hop_aggregate': 'HOP 30 s every 5 s, COUNT/SUM/MAX'}


def gen_data(path, rows, keys):
    rnd = random.Random(11)
    base = 1709280000000
    seconds = {}
    with open(path, 'w') as f:
        for i in range(rows):
            t = base + i * 1000 // EVENTS_PER_SECOND - rnd.randint(0, 999)
            sec = seconds.get(t // 1000)
            if sec is None:
                seconds.clear()
                sec = seconds[t // 1000] = datetime.fromtimestamp(t // 1000, timezone.utc).strftime('%Y-%m-%d %H:%M:%S')
            f.write('{"user_id":"u%d","amount":%d,"ts":"%s.%03d"}\n' % (rnd.randrange(keys), rnd.randint(1, 1000),
                                                                        sec, t % 1000))


def job(name, data, out, sink):
    """The job's script; sink 'file' writes the windows as JSON lines to out, 'blackhole' discards them."""
    path = os.path.join(WORK, name + '.sql')
    if sink == 'file':
        options = "type = 'file', filePath = '%s', append = 'false'" % out
    else:
        options = "'connector' = 'blackhole'"
    with open(path, 'w') as f:
        f.write(SOURCE % data + JOBS[name] % options)
    return path


ROWS_OUT = re.compile(r'finished at partition \d+: \d+ records in, (\d+) rows out')


def disk_usage(directory):
    """Bytes of the files under directory, each inode once (checkpoints hard-link the working copy's SST files)."""
    seen = set()
    total = 0
    for dirpath, _, files in os.walk(directory):
        for name in files:
            try:
                st = os.lstat(os.path.join(dirpath, name))
            except OSError:
                continue    # deleted meanwhile (compaction, an older checkpoint)
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total


def run(name, script, rows, heap, dist=ROOT):
    gclog = script + '.gc.log'
    state = os.path.join(WORK, 'state-' + name)
    shutil.rmtree(state, ignore_errors=True)
    env = dict(os.environ, RSQL_HEAP_OPTS='-Xms%s -Xmx%s' % (heap, heap), JAVA_OPTS='-Xlog:gc:file=%s' % gclog)
    out_path = script + '.log'
    start = time.time()
    with open(out_path, 'w') as out:
        p = subprocess.Popen([os.path.join(dist, 'bin', 'rsql'), 'run', script, '-D', 'worker.threads=1',
                              '-D', 'checkpoint.interval=5s', '-D', 'state.dir=' + state],
                             env=env, stdout=out, stderr=subprocess.STDOUT)
        peak_state = [0]
        done = threading.Event()

        def sample():
            while not done.wait(0.2):
                peak_state[0] = max(peak_state[0], disk_usage(state))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(p.pid, 0)
        done.set()
        sampler.join()
        p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.time() - start
    lines = open(out_path).read().splitlines()
    if p.returncode != 0:
        sys.exit('job %s failed:\n%s' % (name, '\n'.join(lines[-40:])))
    # The partition tasks start before the source's: time from the source task's first record.
    secs = processing_seconds(lines, started='started reading file')
    windows = sum(int(m.group(1)) for m in map(ROWS_OUT.search, lines) if m)
    heap, gcs = heap_after_gc(gclog)
    return {'rate': rows / secs, 'secs': secs, 'wall': wall, 'windows': windows, 'heap': heap, 'gcs': gcs,
            'rss': usage.ru_maxrss // 1024, 'state': peak_state[0] / (1 << 20),
            'cpu': usage.ru_utime + usage.ru_stime}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rows', type=int, default=3_000_000)
    ap.add_argument('--keys', type=int, default=10_000)
    ap.add_argument('--heap', default='256m')
    ap.add_argument('--jobs', default=','.join(JOBS))
    ap.add_argument('--dists', default=ROOT)
    ap.add_argument('--reps', type=int, default=1)
    ap.add_argument('--sink', choices=('file', 'blackhole'), default='file',
                    help='where the windows go: a JSON-lines file, or discarded (the engine without the writer)')
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    data = os.path.join(WORK, 'window-events-%d-%d.jsonl' % (a.rows, a.keys))
    if not os.path.exists(data):
        gen_data(data, a.rows, a.keys)
    for _ in range(a.reps):
        for name in a.jobs.split(','):
            for dist in a.dists.split(','):
                script = job(name, data, os.path.join(WORK, name + '.out.jsonl'), a.sink)
                r = run(name, script, a.rows, a.heap, dist)
                print('%-16s %-34s %9d events in %6.2f s = %8.0f events/s, %7d windows, %.1f CPU s = %.0f events '
                      'per CPU s (%s; 1 worker thread; process wall %.1f s; -Xmx%s, max heap after GC %d MB over %d '
                      'GCs; peak RSS %d MB; state on disk at most %.1f MB; %s sink)'
                      % (name, WINDOWS[name], a.rows, r['secs'], r['rate'], r['windows'], r['cpu'],
                         a.rows / r['cpu'], dist, r['wall'], a.heap, r['heap'], r['gcs'], r['rss'], r['state'],
                         a.sink),
                      flush=True)


if __name__ == '__main__':
    main()
