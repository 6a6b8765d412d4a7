#!/usr/bin/env python3
"""Distributed runtime benchmark: a keyed window count through the shuffle topic on 1, 2 and 3 instances, a plain
RocketMQ copy of the same topic as the baseline, and how long a shuffle task with 100,000 keys takes to restore.

Usage: bench/distributed_bench.py [--events N] [--keys K] [--instances 1,2,3] [--restore-keys K] [--home DIR]
                                  [--set KEY=VALUE]... [--sink-option KEY=VALUE]... [--warmup] [--skip-copy]
                                  [--skip-restore]   (after `mvn -DskipTests package`)

Starts its own broker (`bin/broker.sh start --dir bench/work/dist/broker --port 19876 --broker-port 19911`) and stops
it at the end. RocketMQ chores (creating topics, filling them, the copy, watching the sink topic) are done by
bench/MqTool.java, run as a single-file program on the engine's class path.

1. Throughput. An 8-queue topic is filled with --events JSON events {"k":"k123","ts":<millis>} (keys uniform over
   --keys, --eps events a second of event time, event i in queue i mod 8, so event times rise in every queue),
   followed by one sentinel event an hour later in every queue, which closes every window. For each count in
   --instances, that many instances of the job

       INSERT INTO counts SELECT k, window_start, COUNT(*)
         FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end

   (WATERMARK FOR ts AS withOffset(ts, 2000), a RocketMQ sink topic) are started as separate JVMs with
   `bin/rsql run --instance <id> -D execution.mode=distributed ...` (2 worker threads each, 8 shuffle queues, no
   idle timeout, a checkpoint every --checkpoint, their own state directories, -Xmx --heap). Events/s is --events
   over the time from starting the instances until the sink topic holds every expected window (the sentinel's
   window never closes and is not expected), so JVM start, planning and rebalancing are included; the time from
   the first source task's first record is printed too. Each run is a new job (new consumer groups, shuffle and
   state topics) reading the same filled topic. The sink's rows are then read back and compared window by window
   with the expected counts (missing, repeated, wrong). Also printed, from the logs and the instances' status files:
   when the last shuffle task started and how many times a shuffle queue was taken (more than 8: queues moved), when
   the source and the shuffle tasks had every event, which shuffle queues had a running task at the end, how many
   tasks gave a queue up after a state queue conflict, and instances that ended by themselves. A run that does not
   finish within --timeout seconds is reported as such.
2. Baseline: MqTool copy, one process (DefaultLitePullConsumer + DefaultMQProducer batch sends, one batch in flight
   per queue), copies the filled topic to another 8-queue topic: msgs/s.
3. Restore. A job `SELECT k, COUNT(*) FROM ev GROUP BY k` into a discarding print sink, with shuffle.queues=1 so one
   task holds every key, reads --restore-events events over --restore-keys keys on instance a. Once that task has
   counted them all and checkpointed again (its status file), instance b starts, then a is stopped with SIGTERM:
   b takes the shuffle queue over and restores it from the state queue. Printed: b's "took shuffle queue ...
   restored in N ms (M entries)" and the StateRestorer's checkpoints / entries / messages / bytes, for each
   --snapshot-every value (the default 100 leaves the state as changes on top of an early snapshot; 1 makes every
   checkpoint a full snapshot).

The machine's other load matters a lot (the broker, the instances and this script share its cores): the numbers are
rough. The distinct WARN and ERROR lines of the instances' logs and of their RocketMQ client logs are printed at the
end. Logs and data are under bench/work/dist/ (deleted at the start of the next run).
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone

from benchutil import ROOT, WORK, cpu_seconds, heap_after_gc, ts_of

DIR = os.path.join(WORK, 'dist')
TOOL = os.path.join(ROOT, 'bench', 'MqTool.java')
BASE_TS = 1_709_280_000_000
QUEUES = 8
WINDOW_MS = 10_000

COUNT_JOB = """CREATE TABLE ev (k VARCHAR, ts TIMESTAMP(3), WATERMARK FOR ts AS withOffset(ts, 2000))
  WITH (type = 'rocketmq', topic = '{source}');
CREATE TABLE counts (k VARCHAR, window_start TIMESTAMP(3), cnt BIGINT)
  WITH (type = 'rocketmq', topic = '{sink}', keyColumns = 'k'{sink_options});
INSERT INTO counts SELECT k, window_start, COUNT(*)
  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY k, window_start, window_end;
"""

TOTALS_JOB = """CREATE TABLE ev (k VARCHAR, ts BIGINT) WITH (type = 'rocketmq', topic = '{source}');
CREATE TABLE totals (k VARCHAR, cnt BIGINT) WITH (type = 'print', ignoreWrite = 'true');
INSERT INTO totals SELECT k, COUNT(*) FROM ev GROUP BY k;
"""

TOOK = re.compile(r'took shuffle queue (\d+) of (\S+): restored in (\d+) ms \((\d+) entries\)')
RESTORED = re.compile(r'restored checkpoint (\d+) of incarnation \S+ from offsets (-?\d+) to (\d+): (\d+) checkpoints, '
                      r'(\d+) entries, (\d+) messages, (\d+) bytes in (\d+) ms')
LEVEL = re.compile(r'^\S+ \S+ (WARN|ERROR) ')


class Bench:
    def __init__(self, a, work_dir=DIR):
        self.a = a
        self.dir = work_dir     # logs, scripts, the broker's data
        self.home = os.path.abspath(a.home)
        self.namesrv = '127.0.0.1:%d' % a.namesrv_port
        java_home = os.environ.get('JAVA_HOME')
        self.java = os.path.join(java_home, 'bin', 'java') if java_home else 'java'
        self.logs = []          # (label, path) of every engine process, for the WARN/ERROR summary
        self.procs = []         # every engine process, stopped at the end whatever happens

    # ---- the broker and MqTool ----

    def tool(self, *args):
        """Runs MqTool and returns its standard output (a failure ends the benchmark)."""
        p = subprocess.run(self.tool_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit('MqTool %s failed (%d):\n%s%s' % (' '.join(args), p.returncode, p.stdout, p.stderr[-3000:]))
        return p.stdout

    def tool_cmd(self, *args):
        return [self.java, '-Xmx512m', '-Drmq.logback.configurationFile=%s/conf/rocketmq-logback.xml' % self.home,
                '-Drsql.rocketmq.log.dir=%s' % os.path.join(self.dir, 'rocketmq'), '-Drsql.rocketmq.log.name=mqtool',
                '-cp', os.path.join(self.home, 'lib', '*'), TOOL, args[0], self.namesrv, *args[1:]]

    def start_broker(self):
        for port in (self.a.namesrv_port, self.a.broker_port - 2, self.a.broker_port, self.a.broker_port + 1):
            with socket.socket() as s:
                if s.connect_ex(('127.0.0.1', port)) == 0:
                    sys.exit('port %d is in use: choose others with --namesrv-port / --broker-port' % port)
        shutil.rmtree(os.path.join(self.dir, 'broker'), ignore_errors=True)
        log = os.path.join(self.home, 'log', 'broker.log')
        ready = lambda: open(log).read().count('RocketMQ ready') if os.path.exists(log) else 0
        before = ready()
        cmd = [os.path.join(self.home, 'bin', 'broker.sh'), 'start', '--dir', os.path.join(self.dir, 'broker'),
               '--port', str(self.a.namesrv_port), '--broker-port', str(self.a.broker_port)]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
        print(out.strip())
        m = re.search(r'broker started \(pid (\d+)\)', out)
        self.broker_pid = int(m.group(1)) if m else None
        if 'broker started' not in out:
            sys.exit('cannot start a broker of our own')
        # broker.sh looks for "RocketMQ ready" in the whole of log/broker.log, which keeps the lines of earlier starts
        deadline = time.time() + 180
        while ready() == before:
            if time.time() > deadline:
                self.stop_broker()
                sys.exit('the broker did not get ready within 180 s; see ' + log)
            time.sleep(0.2)

    def stop_broker(self):
        out = subprocess.run([os.path.join(self.home, 'bin', 'broker.sh'), 'stop'], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True).stdout
        print(out.strip())

    # ---- engine instances ----

    def instance(self, script, job, inst, extra=()):
        """Starts `bin/rsql run` for one instance of a distributed job; returns (process, log path)."""
        log = os.path.join(self.dir, '%s@%s.log' % (job, inst))
        gclog = os.path.join(self.dir, '%s@%s.gc.log' % (job, inst))
        env = dict(os.environ, RSQL_HEAP_OPTS='-Xms64m -Xmx%s' % self.a.heap,
                   JAVA_OPTS='-Xlog:gc:file=%s -Drsql.rocketmq.log.name=%s@%s %s' % (
                       gclog, job, inst, self.a.java_opts.replace('{log}', log[:-4])))
        settings = ['execution.mode=distributed', 'rocketmq.namesrv=' + self.namesrv,
                    'checkpoint.interval=' + self.a.checkpoint, 'worker.threads=%d' % self.a.worker_threads,
                    'source.idle-timeout=0', 'state.dir=' + os.path.join(self.dir, 'state', job, inst), *extra,
                    *self.a.set]
        cmd = [os.path.join(self.home, 'bin', 'rsql'), 'run', script, '--name', job, '--instance', inst]
        for s in settings:
            cmd += ['-D', s]
        self.logs.append(('%s@%s' % (job, inst), log))
        with open(log, 'w') as out:
            out.write('# ' + ' '.join(cmd) + '\n')
            out.flush()
            p = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.procs.append(p)
        return p, log

    def status(self, job, inst):
        try:
            with open(os.path.join(self.home, 'run', '%s@%s.status.json' % (job, inst))) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    @staticmethod
    def stop(procs, timeout=180):
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                print('  instance pid %d did not stop within %d s; killing it' % (p.pid, timeout))
                p.kill()
                p.wait()

    # ---- 1. throughput ----

    def gen_events(self, path):
        rnd = random.Random(7)
        windows = {}            # (key, window start millis) -> events
        a = self.a
        last = BASE_TS
        with open(path, 'w') as f:
            for i in range(a.events):
                k = rnd.randrange(a.keys)
                last = BASE_TS + i * 1000 // a.eps
                w = ('k%d' % k, last - last % WINDOW_MS)
                windows[w] = windows.get(w, 0) + 1
                f.write('{"k":"k%d","ts":%d}\n' % (k, last))
            for _ in range(QUEUES):      # one per queue: line i goes to queue i mod 8
                f.write('{"k":"sentinel","ts":%d}\n' % (last + 3_600_000))
        return windows

    def throughput(self, n, source, expected, job=None):
        windows = len(expected)
        job = job or 'dbench_count_%d' % n
        sink = job + '_out'
        self.tool('create', str(QUEUES), sink)
        script = os.path.join(self.dir, job + '.sql')
        with open(script, 'w') as f:
            f.write(COUNT_JOB.format(source=source, sink=sink, sink_options=''.join(
                ", '%s' = '%s'" % tuple(o.split('=', 1)) for o in self.a.sink_option)))
        dump = os.path.join(self.dir, sink + '.jsonl')
        watcher = subprocess.Popen(self.tool_cmd('await', sink, str(windows), str(self.a.timeout), 'cnt', dump),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = watcher.stdout.readline()
        if not line.startswith('ready'):
            sys.exit('MqTool await did not start: %s%s' % (line, watcher.stderr.read()))
        samples = []            # (time, records in at source tasks, at shuffle tasks) from the status files
        owned = {}              # instance -> shuffle queues it runs a task for, from its last status
        t0 = time.time()
        broker_t0 = cpu_seconds(self.broker_pid)
        procs = [self.instance(script, job, 'i%d' % i, ['shuffle.queues=%d' % QUEUES]) for i in range(1, n + 1)]
        stop_sampling = threading.Event()

        def sample():
            while not stop_sampling.wait(0.5):
                src = shf = 0
                for i in range(1, n + 1):
                    st = self.status(job, 'i%d' % i) or {}
                    owned['i%d' % i] = sorted(int(t['id'].split('#')[1]) for t in st.get('tasks', [])
                                              if not t['id'].startswith('ev#') and t['state'] == 'RUNNING')
                    for t in st.get('tasks', []):
                        if t['id'].startswith('ev#'):
                            src += t['recordsIn']
                        else:
                            shf += t['recordsIn']
                samples.append((time.time(), src, shf, sum(cpu_seconds(p.pid) for p, _ in procs)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        first_window = done = None
        ended = {}              # instance -> (exit code, seconds after the start) of one that ended on its own
        for line in watcher.stdout:
            word, *rest = line.split()
            if word == 'progress' and first_window is None and int(rest[1]) > 0:
                first_window = int(rest[0]) / 1000
            elif word == 'done':
                done = int(rest[0]) / 1000
                break
            elif word == 'timeout':
                print('  TIMEOUT: the sink topic holds %s of %d windows after %d s' % (rest[1], windows,
                                                                                         self.a.timeout))
                break
            for i, (p, log) in enumerate(procs, 1):
                if p.poll() is not None and 'i%d' % i not in ended:
                    ended['i%d' % i] = (p.returncode, time.time() - t0)
                    print('  instance i%d ended by itself (exit code %d) %.1f s after the start; see %s'
                          % (i, p.returncode, time.time() - t0, log))
        cpu_done = sum(cpu_seconds(p.pid) for p, _ in procs)
        broker_done = cpu_seconds(self.broker_pid)
        verify = watcher.stdout.read().strip()
        watcher.wait()
        unowned = sorted(set(range(QUEUES)) - {q for qs in owned.values() for q in qs})
        check = compare(expected, dump)
        stop_sampling.set()
        sampler.join()
        stopping = time.time()
        self.stop([p for p, _ in procs])
        stop_secs = time.time() - stopping
        lines = [l for _, log in procs for l in open(log) if not l.startswith('#')]
        reading = [ts_of(l) for l in lines if 'started reading' in l and 'task=ev#' in l]
        took = [ts_of(l) for l in lines if TOOK.search(l)]
        first_read = min(reading) if reading else None
        all_read = next((t for t, s, _, _ in samples if s >= self.a.events + QUEUES), None)
        all_shuffled = next((t for t, _, s, _ in samples if s >= self.a.events + QUEUES), None)
        # CPU the instances spent from the first sample with records read (JVM start and planning mostly excluded)
        cpu_read = next((c for _, s, _, c in samples if s > 0), 0)
        heaps = [heap_after_gc(log.replace('.log', '.gc.log'))[0] for _, log in procs]
        r = {'instances': n, 'secs': (done - t0) if done else None, 'first_read': first_read and first_read - t0,
             'first_window': first_window and first_window - t0, 'all_read': all_read and all_read - t0,
             'all_shuffled': all_shuffled and all_shuffled - t0, 'stop': stop_secs, 'verify': verify,
             'tasks_up': max(took) - t0 if took else None, 'takes': len(took), 'check': check, 'owned': owned,
             'unowned': unowned, 'conflicts': sum('another instance took the state queue over' in l for l in lines),
             'ended': ended,
             'heap': max(heaps), 'cpu': cpu_done, 'cpu_from_read': cpu_done - cpu_read,
             'broker_cpu': broker_done - broker_t0, 'load': os.getloadavg()[0]}
        if done:
            r['rate'] = self.a.events / r['secs']
            r['rate_from_read'] = self.a.events / (done - first_read) if first_read else None
        return r

    # ---- 3. restore ----

    def gen_restore_events(self, path):
        keys = list(range(self.a.restore_keys))
        random.Random(3).shuffle(keys)
        with open(path, 'w') as f:
            for i in range(self.a.restore_events):
                f.write('{"k":"k%d","ts":%d}\n' % (keys[i % len(keys)], BASE_TS + i))

    def restore(self, source, every):
        job = 'dbench_restore_s%d' % every
        script = os.path.join(self.dir, job + '.sql')
        with open(script, 'w') as f:
            f.write(TOTALS_JOB.format(source=source))
        extra = ['shuffle.queues=1', 'state.snapshot.every=%d' % every]
        t0 = time.time()
        pa, log_a = self.instance(script, job, 'a', extra)
        counted = None
        deadline = t0 + self.a.timeout
        while True:     # a's shuffle task has counted everything, then checkpointed after that
            time.sleep(0.5)
            st = self.status(job, 'a') or {}
            shuffle = [t for t in st.get('tasks', []) if not t['id'].startswith('ev#')]
            n = sum(t['recordsIn'] for t in shuffle)
            if counted is None and n >= self.a.restore_events:
                counted = st['updated'] / 1000
            if counted is not None and shuffle and min(t['lastCheckpoint'] for t in shuffle) / 1000 > counted:
                break
            if pa.poll() is not None or time.time() > deadline:
                self.stop([pa])
                return {'error': 'instance a %s after counting %d of %d events (see %s)' % (
                    'ended' if pa.poll() is not None else 'timed out', n, self.a.restore_events, log_a)}
        processed = counted - t0
        pb, log_b = self.instance(script, job, 'b', extra)
        # b joins the groups (it owns no shuffle queue while a is there: one queue, a's client id sorts first)
        while not any('task=ev#' in l and 'assigned' in l for l in open(log_b)) and time.time() < deadline:
            if pb.poll() is not None:
                break
            time.sleep(0.2)
        term = time.time()
        self.stop([pa])
        a_stopped = time.time() - term
        took = restored = None
        while took is None and time.time() < deadline and pb.poll() is None:
            time.sleep(0.2)
            for l in open(log_b):
                m = TOOK.search(l)
                if m:
                    took = (ts_of(l), m)
                m = RESTORED.search(l)
                if m:
                    restored = m
        self.stop([pb])
        if took is None:
            return {'error': 'b did not take the shuffle queue (see %s)' % log_b}
        r = {'every': every, 'processed': processed, 'a_stop': a_stopped, 'handover': took[0] - term,
             'took_ms': int(took[1].group(3)), 'took_entries': int(took[1].group(4))}
        if restored:
            r.update(checkpoints=int(restored.group(4)), entries=int(restored.group(5)),
                     messages=int(restored.group(6)), bytes=int(restored.group(7)), restorer_ms=int(restored.group(8)))
        return r

    # ---- all ----

    def run(self):
        a = self.a
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        for f in glob.glob(os.path.join(self.home, 'run', 'dbench_*.status.json')) + glob.glob(
                os.path.join(self.home, 'log', 'rocketmq', 'dbench_*.log*')):
            os.remove(f)
        events = os.path.join(self.dir, 'events.jsonl')
        windows = self.gen_events(events)
        print('%d events over %d keys, %d events/s of event time: %d windows of 10 s expected'
              % (a.events, a.keys, a.eps, len(windows)))
        self.start_broker()
        results = {}
        try:
            source = 'dbench_events'
            print(self.tool('create', str(QUEUES), source, source + '_copy', source + '_warm').strip())
            print(self.tool('fill', source, events).strip())
            # A cold broker's JIT took 13 CPU-seconds of the first run on 2 cores: warm it up with an unmeasured copy,
            # so that the job's runs and the measured copy meet the same broker.
            print('broker warm-up: ' + self.tool('copy', source, source + '_warm', str(a.events + QUEUES)).strip())
            if a.warmup:
                # The job's own paths (single sends, transactions, the shuffle and state topics) still kept the
                # broker's JIT busy for most of a measured 1M-event run after the copy: warm them up too.
                r = self.throughput(1, source, windows, 'dbench_warmup')
                print('job warm-up (not counted): ', end='')
                print_run(r, a.events)
            results['runs'] = []
            for n in a.instances:
                r = self.throughput(n, source, windows)
                results['runs'].append(r)
                print_run(r, a.events)
            if not a.skip_copy:
                children, broker = os.times(), cpu_seconds(self.broker_pid)
                out = self.tool('copy', source, source + '_copy', str(a.events + QUEUES))
                copy_cpu = os.times().children_user + os.times().children_system - children.children_user \
                    - children.children_system
                results['copy_cpu'] = (copy_cpu, cpu_seconds(self.broker_pid) - broker, os.getloadavg()[0])
                m = re.search(r'copied (\d+) msgs in ([\d.]+) s = (\d+) msgs/s', out)
                results['copy'] = (int(m.group(1)), float(m.group(2)), int(m.group(3)))
                print('copy: ' + out.strip())
            if not a.skip_restore:
                rsource = 'dbench_keys'
                rpath = os.path.join(self.dir, 'keys.jsonl')
                self.gen_restore_events(rpath)
                print(self.tool('create', str(QUEUES), rsource).strip())
                print(self.tool('fill', rsource, rpath).strip())
                results['restore'] = []
                for every in a.snapshot_every:
                    r = self.restore(rsource, every)
                    results['restore'].append(r)
                    print('restore: %s' % r)
        finally:
            self.stop([p for p in self.procs if p.poll() is None])
            self.stop_broker()
        self.report(results)

    def report(self, results):
        a = self.a
        print()
        print('Results (%d cores shared with whatever else runs: rough numbers; load average now %.1f)'
              % (os.cpu_count(), os.getloadavg()[0]))
        print('1. keyed TUMBLE 10 s count, %d events, %d keys, 8 source queues, shuffle.queues=8, worker.threads=%d,'
              ' checkpoint %s, -Xmx%s per instance' % (a.events, a.keys, a.worker_threads, a.checkpoint, a.heap))
        print('   %-9s %9s %11s %8s %11s %9s %10s %9s %10s %8s %8s  %s' % (
            'instances', 'events/s', 'ev/s read+', 'total s', 'first read', 'tasks up', 'all read', 'shuffled',
            '1st window', 'stop s', 'heap MB', 'sink check'))
        for r in results.get('runs', []):
            f = lambda v: '-' if v is None else '%.1f' % v
            print('   %-9d %9s %11s %8s %11s %9s %10s %9s %10s %8s %8d  %s' % (
                r['instances'], '%.0f' % r['rate'] if r.get('rate') else '-',
                '%.0f' % r['rate_from_read'] if r.get('rate_from_read') else '-', f(r['secs']), f(r['first_read']),
                f(r['tasks_up']) + ('' if r['takes'] == QUEUES else ' (%d takes)' % r['takes']), f(r['all_read']),
                f(r['all_shuffled']), f(r['first_window']), f(r['stop']), r['heap'], r['check']
                + ('; by no instance at the end: shuffle queues %s' % r['unowned'] if r['unowned'] else '')
                + (' [%s ended by itself]' % ', '.join(r['ended']) if r['ended'] else '')))
        print('   Seconds from starting the instances. "ev/s read+": events/s from the first record a source task'
              ' read (JVM start, planning, joining the groups excluded). "tasks up": the last shuffle task started'
              ' (restored, empty); more than 8 takes: queues moved between instances during the run. "all read" /'
              ' "shuffled": the source / shuffle tasks had every event, from the status files (written every 2 s).'
              ' "stop s": SIGTERM to exit. Heap: most in use after a GC, over the instances.')
        if 'copy' in results:
            n, secs, rate = results['copy']
            print('2. plain copy (1 process, lite pull consumer + batch producer): %d msgs in %.1f s = %d msgs/s'
                  % (n, secs, rate))
            cpu, broker, load = results['copy_cpu']
            print('   CPU: copy process %.1f s (JVM start included), broker %.1f s; load average %.1f' % (cpu, broker, load))
        for r in results.get('runs', []):
            if 'copy' in results and r.get('rate_from_read'):
                print('   %d instance(s): ev/s read+ / copy msgs/s = %.0f %%; CPU of the instances %.1f s (%.1f s from the'
                      ' first record read), broker %.1f s; load average %.1f' % (
                          r['instances'], 100 * r['rate_from_read'] / results['copy'][2], r['cpu'], r['cpu_from_read'],
                          r['broker_cpu'], r['load']))
        for r in results.get('restore', []):
            if 'error' in r:
                print('3. restore, state.snapshot.every=?: %s' % r['error'])
                continue
            print('3. restore of %d keys (%d events), state.snapshot.every=%d: "restored in %d ms (%d entries)"; '
                  'StateRestorer: %s checkpoints, %s entries, %s messages, %.1f MB in %s ms; a counted everything'
                  ' %.1f s after its start, stopped in %.1f s; b took the queue %.1f s after SIGTERM to a'
                  % (a.restore_keys, a.restore_events, r['every'], r['took_ms'], r['took_entries'],
                     r.get('checkpoints'), r.get('entries'), r.get('messages'), r.get('bytes', 0) / 1e6,
                     r.get('restorer_ms'), r['processed'], r['a_stop'], r['handover']))
        print('WARN/ERROR lines of the instances and of their RocketMQ clients (distinct messages, first'
              ' occurrence, how often):')
        for label, log in self.logs:
            self.print_problems(label, log)
            self.print_problems(label + ' rocketmq', os.path.join(self.home, 'log', 'rocketmq', label + '.log'))

    @staticmethod
    def print_problems(label, log, most=12):
        """The distinct WARN/ERROR messages of a log (numbers, ids and thread names aside), at most `most`."""
        if os.path.exists(log):
            seen = {}
            for l in open(log, errors='replace'):
                if LEVEL.match(l):
                    key = re.sub(r'\[[^]]*\]|\b[0-9a-f]{8,}\b|\d+', 'N', l[24:])
                    if key not in seen:
                        seen[key] = [l.rstrip(), 0]
                    seen[key][1] += 1
            for line, count in list(seen.values())[:most]:
                print('   %s: %s%s' % (label, line[:400], '  (x%d)' % count if count > 1 else ''))
            if len(seen) > most:
                print('   %s: ... %d more kinds of WARN/ERROR lines' % (label, len(seen) - most))


def compare(expected, dump):
    """What the sink topic holds against the expected count of every window: a one-line summary."""
    got = {}
    try:
        rows = [json.loads(l) for l in open(dump) if l.strip()]
    except OSError:
        return 'no rows read'
    for row in rows:
        ws = row['window_start']
        if isinstance(ws, str):
            ws = int(datetime.strptime(ws, '%Y-%m-%d %H:%M:%S.%f').replace(tzinfo=timezone.utc).timestamp() * 1000)
        got.setdefault((row['k'], ws), []).append(row['cnt'])
    missing = [w for w in expected if w not in got]
    extra = [w for w in got if w not in expected]
    repeated = [w for w, c in got.items() if len(c) > 1]
    wrong = sorted(w for w, c in got.items() if w in expected and c[-1] != expected[w])
    short = sum(expected.values()) - sum(c[-1] for c in got.values())
    if not (missing or extra or repeated or wrong):
        return 'every window once with its count'
    text = ('%d windows missing, %d unexpected, %d written more than once, %d with a wrong count (%+d events in'
            ' all)' % (len(missing), len(extra), len(repeated), len(wrong), -short))
    if wrong:
        text += '; wrong e.g. ' + ', '.join('%s@%d: %s not %d' % (k, ws, got[(k, ws)], expected[(k, ws)])
                                           for k, ws in wrong[:3])
        starts = sorted({ws for _, ws in wrong})
        text += '; window starts of wrong windows: %s' % (starts[:10] if len(starts) <= 10 else
                                                          '%d from %d to %d' % (len(starts), starts[0], starts[-1]))
    return text


def print_run(r, events):
    if r.get('rate'):
        print('%d instance(s): %d events in %.1f s = %.0f events/s (first record read at %.1f s); sink: %s; %s'
              % (r['instances'], events, r['secs'], r['rate'], r['first_read'] or -1, r['verify'], r['check']))
    else:
        print('%d instance(s): did not finish; sink: %s; %s' % (r['instances'], r['verify'], r['check']))
    print('   shuffle queues run at the end: %s%s; %d takes of a shuffle queue, %d tasks gave a queue up after a'
          ' state queue conflict%s' % (r['owned'], ', by no instance: %s' % r['unowned'] if r['unowned'] else '',
                                       r['takes'], r['conflicts'], ''.join(
              '; %s ENDED BY ITSELF (exit code %d, %.1f s)' % (i, c, t) for i, (c, t) in r['ended'].items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--events', type=int, default=1_000_000)
    ap.add_argument('--keys', type=int, default=10_000)
    ap.add_argument('--eps', type=int, default=10_000, help='events per second of event time')
    ap.add_argument('--instances', default='1,2,3', help='comma list of instance counts')
    ap.add_argument('--checkpoint', default='1s', help='checkpoint.interval')
    ap.add_argument('--worker-threads', type=int, default=2)
    ap.add_argument('--heap', default='512m')
    ap.add_argument('--restore-keys', type=int, default=100_000)
    ap.add_argument('--restore-events', type=int, default=None, help='default: 3 per key')
    ap.add_argument('--snapshot-every', default='100,1', help='state.snapshot.every values of the restore test')
    ap.add_argument('--set', action='append', default=[], metavar='KEY=VALUE',
                    help='another setting of every instance (repeatable), e.g. shuffle.batch.delay=100ms')
    ap.add_argument('--sink-option', action='append', default=[], metavar='KEY=VALUE',
                    help='an option of the sink table of the throughput job, e.g. sink.transaction.mode=half-messages')
    ap.add_argument('--warmup', action='store_true',
                    help='run the job once on 1 instance, unmeasured, before the measured runs')
    ap.add_argument('--skip-copy', action='store_true')
    ap.add_argument('--skip-restore', action='store_true')
    ap.add_argument('--java-opts', default='', help='more JVM options of the instances ({log}: the instance\'s log'
                    ' path without .log, e.g. -XX:StartFlightRecording=filename={log}.jfr)')
    ap.add_argument('--timeout', type=int, default=900, help='seconds a run may take')
    ap.add_argument('--home', default=ROOT, help='engine installation (bin/, lib/, conf/); default: this checkout')
    ap.add_argument('--namesrv-port', type=int, default=19876)
    ap.add_argument('--broker-port', type=int, default=19911)
    a = ap.parse_args()
    a.instances = [int(x) for x in a.instances.split(',') if x]
    a.snapshot_every = [int(x) for x in a.snapshot_every.split(',') if x]
    if a.restore_events is None:
        a.restore_events = 3 * a.restore_keys
    if not glob.glob(os.path.join(a.home, 'lib', 'rsql-dist-*.jar')):
        sys.exit('no engine in %s/lib: run `mvn -DskipTests package` first (or pass --home)' % a.home)
    Bench(a).run()


if __name__ == '__main__':
    main()
