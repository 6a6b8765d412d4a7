#!/usr/bin/env python3
"""RocketMQ source benchmark: one process (local mode) reading a backlog from an 8-queue topic through a filter job.

Usage: bench/rocketmq_source_bench.py [--events N] [--jobs regexp,plain] [--runs 3] [--homes a=/path,b=/path]
                                      [--worker-threads 1] [--heap 512m] [--set KEY=VALUE]...
                                      [--source-option KEY=VALUE]...
       (after `mvn -DskipTests package`)

Starts its own broker (`bin/broker.sh`, ports 19876 and 19911, data under bench/work/rmqsrc/) as
distributed_bench.py does, fills an 8-queue topic with --events JSON events {"k":"k123","ts":<millis>} followed by one
sentinel event per queue (the last message of every queue), and warms the broker up with one unmeasured copy of the
topic (bench/MqTool.java). Then each job runs --runs times with every home, interleaved: `bin/rsql run` in local mode
(one process, --worker-threads workers, a checkpoint every second, -Xmx --heap), a new consumer group each time, so
every run reads the whole topic from its first offsets:

    plain:   INSERT INTO outp SELECT k, ts FROM ev WHERE k = 'sentinel'
             (the task does almost nothing: the rate is what polling and decoding allow)
    regexp:  four REGEXP predicates over k and ts, OR k = 'sentinel'
             (the tasks are the bottleneck: what a rules job reading a backlog sees)

into a print sink on standard output. The run is timed from the source task's first "started reading" line to the
eighth sentinel row on the process's standard output (every queue read to its end), both as this script reads
them. Printed per run: events/s, the process's CPU seconds in that time (and how they split between the engine's
threads, the RocketMQ client's pull and Netty threads, the JIT compilers, GC and the rest), the most heap in use
after a GC and the peak RSS; then the medians per job and home.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

from benchutil import ROOT, WORK, cpu_by_group, cpu_seconds, heap_after_gc
from distributed_bench import Bench, QUEUES

DIR = os.path.join(WORK, 'rmqsrc')
TOPIC = 'sbench_events'
JOBS = {
    'plain': "k = 'sentinel'",
    'regexp': "k = 'sentinel'"
              " OR REGEXP(CONCAT(k, CAST(ts AS VARCHAR)), '(a|b|c)+x.*y[0-9]{3}z')"
              " OR REGEXP(CONCAT(CAST(ts AS VARCHAR), k), '.*(12|34|56)+9{2,}k.*8$')"
              " OR REGEXP(k, '^k(1|2)+3(4|5)+$')"
              " OR REGEXP(CONCAT(k, k, k), '(k[0-9]+){2}k77.*')",
}
SCRIPT = """CREATE TABLE ev (k VARCHAR, ts BIGINT) WITH (type = 'rocketmq', topic = '{topic}'{source_options});
CREATE TABLE outp (k VARCHAR, ts BIGINT) WITH ('connector' = 'print');
INSERT INTO outp SELECT k, ts FROM ev WHERE {where};
"""


def peak_rss_mb(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            return next(int(l.split()[1]) // 1024 for l in f if l.startswith('VmHWM:'))
    except (OSError, StopIteration):
        return 0


def run_job(a, home, job, name):
    """One run: (events/s, CPU s from the first record to the last sentinel, heap MB after GC, peak RSS MB, that CPU
    per thread group)."""
    script = os.path.join(DIR, name + '.sql')
    with open(script, 'w') as f:
        f.write(SCRIPT.format(topic=TOPIC, where=JOBS[job], source_options=''.join(
            ", '%s' = '%s'" % tuple(o.split('=', 1)) for o in a.source_option)))
    gclog = os.path.join(DIR, name + '.gc.log')
    env = dict(os.environ, RSQL_HEAP_OPTS='-Xms64m -Xmx' + a.heap,
               JAVA_OPTS='-Xlog:gc:file=%s -Drsql.rocketmq.log.name=%s %s' % (gclog, name, a.java_opts))
    cmd = [os.path.join(home, 'bin', 'rsql'), 'run', script, '--name', name]
    for s in ['rocketmq.namesrv=127.0.0.1:%d' % a.namesrv_port, 'worker.threads=%d' % a.worker_threads,
              'checkpoint.interval=1s', 'state.dir=' + os.path.join(DIR, 'state', name), *a.set]:
        cmd += ['-D', s]
    log = open(os.path.join(DIR, name + '.log'), 'w')
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(a.timeout, p.terminate)
    timer.start()
    first = cpu_first = groups_first = None
    sentinels = 0
    for line in p.stdout:
        log.write(line)
        if first is None and 'started reading' in line:
            first, cpu_first, groups_first = time.monotonic(), cpu_seconds(p.pid), cpu_by_group(p.pid)
        elif 'sentinel' in line and line.startswith('+I['):
            sentinels += 1
            if sentinels == QUEUES:
                break
    done, cpu_done, rss, groups = time.monotonic(), cpu_seconds(p.pid), peak_rss_mb(p.pid), cpu_by_group(p.pid)
    timer.cancel()
    p.terminate()
    for line in p.stdout:
        log.write(line)
    p.wait()
    log.close()
    if sentinels < QUEUES or first is None:
        sys.exit('%s did not read every queue to its end (%d of %d sentinels); see %s'
                 % (name, sentinels, QUEUES, log.name))
    return a.events / (done - first), cpu_done - cpu_first, heap_after_gc(gclog)[0], rss, \
        {g: groups[g] - groups_first.get(g, 0) for g in groups}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--events', type=int, default=2_000_000)
    ap.add_argument('--keys', type=int, default=10_000)
    ap.add_argument('--jobs', default='plain,regexp')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--homes', default='this=' + ROOT, help='name=path,... of built engines, run interleaved')
    ap.add_argument('--worker-threads', type=int, default=1)
    ap.add_argument('--heap', default='512m')
    ap.add_argument('--set', action='append', default=[], metavar='KEY=VALUE', help='another setting of the job')
    ap.add_argument('--source-option', action='append', default=[], metavar='KEY=VALUE',
                    help="an option of the source table, e.g. scan.pull-threads=4")
    ap.add_argument('--java-opts', default='')
    ap.add_argument('--timeout', type=int, default=600, help='seconds a run may take')
    ap.add_argument('--namesrv-port', type=int, default=19876)
    ap.add_argument('--broker-port', type=int, default=19911)
    a = ap.parse_args()
    jobs = [j for j in a.jobs.split(',') if j]
    for j in jobs:
        if j not in JOBS:
            sys.exit('unknown job %s: one of %s' % (j, ', '.join(JOBS)))
    homes = [h.split('=', 1) for h in a.homes.split(',')]
    shutil.rmtree(DIR, ignore_errors=True)
    os.makedirs(DIR)
    for _, home in homes:   # earlier runs' status files and client logs (a job name per run)
        for f in glob.glob(os.path.join(home, 'run', 'sbench_*.status.json')) + glob.glob(
                os.path.join(home, 'log', 'rocketmq', 'sbench_*.log*')):
            os.remove(f)
    # distributed_bench.py's broker, events and MqTool, in this benchmark's directory, with the first home's scripts
    bench = Bench(SimpleNamespace(home=homes[0][1], namesrv_port=a.namesrv_port, broker_port=a.broker_port,
                                  events=a.events, keys=a.keys, eps=10_000), DIR)
    events = os.path.join(DIR, 'events.jsonl')
    bench.gen_events(events)
    bench.start_broker()
    results = {}
    try:
        print(bench.tool('create', str(QUEUES), TOPIC, TOPIC + '_warm').strip())
        print(bench.tool('fill', TOPIC, events).strip())
        print('broker warm-up: ' + bench.tool('copy', TOPIC, TOPIC + '_warm', str(a.events + QUEUES)).strip())
        for i in range(a.runs):
            for job in jobs:
                for home_name, home in homes:
                    r = run_job(a, os.path.abspath(home), job, 'sbench_%s_%s_%d' % (job, home_name, i))
                    results.setdefault((job, home_name), []).append(r)
                    print('%-7s %-8s run %d: %9.0f events/s  %5.1f CPU s (%s)  heap %4d MB  RSS %4d MB  load %.1f'
                          % (job, home_name, i + 1, r[0], r[1], ', '.join('%s %.1f' % g for g in r[4].items()),
                             r[2], r[3], os.getloadavg()[0]), flush=True)
    finally:
        bench.stop_broker()
    print()
    print('%d events, 8 queues, %d worker thread(s), %d runs interleaved; medians:' % (a.events, a.worker_threads,
                                                                                   a.runs))
    for (job, home_name), rs in results.items():
        med = lambda i: sorted(r[i] for r in rs)[len(rs) // 2]
        print('%-7s %-8s %9.0f events/s  %5.1f CPU s  heap %4d MB  RSS %4d MB   (events/s: %s)'
              % (job, home_name, med(0), med(1), med(2), med(3), ' '.join('%.0f' % r[0] for r in rs)))


if __name__ == '__main__':
    main()
