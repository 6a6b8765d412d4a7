#!/usr/bin/env python3
"""Filter benchmark: events/s of a 1-rule and a 40-rule filter job reading a JSON-lines file on one worker thread.

Usage: bench/filter_bench.py [--rows N] [--heap 256m]   (after `mvn -DskipTests package`)

Writes the jobs and data under bench/work/, runs each job with `bin/rsql run` (one worker thread), and prints
events/s measured between the task's first record and the job's end (JVM start and planning excluded), plus the
heap: the -Xmx given and the most heap in use after a GC (from -Xlog:gc).
"""
import argparse
import os
import random
import subprocess
import sys
import time
from datetime import datetime

from benchutil import ROOT, WORK, heap_after_gc, processing_seconds

SOURCE = """CREATE TABLE events (
  event_id BIGINT, user_name VARCHAR, ip VARCHAR, user_agent VARCHAR, action VARCHAR, success BOOLEAN,
  attempts INT, bytes_out BIGINT, country VARCHAR, ts TIMESTAMP
) WITH (type = 'file', filePath = '%s');
CREATE TABLE alerts (event_id BIGINT, rule VARCHAR) WITH (type = 'file', filePath = '%s', append = 'false');
"""

RULES = [
    "user_agent LIKE 'sqlmap%'",
    "user_agent LIKE '%nikto%'",
    "user_agent LIKE 'curl/%' AND action = 'admin'",
    "NOT success AND attempts >= 11",
    "ip IN ('203.0.113.7', '198.51.100.23', '192.0.2.66')",
    "country = 'KP' AND action = 'login'",
    "bytes_out > 9900000",
    "action = 'delete' AND user_name = 'guest'",
    "ip LIKE '10.13.%' AND NOT success",
    "user_name IN ('root', 'admin', 'oracle') AND country <> 'US'",
    "attempts BETWEEN 9 AND 12 AND action = 'sudo'",
    "user_agent LIKE '%python-requests%' AND bytes_out > 5000000",
    "action = 'export' AND bytes_out > 8000000",
    "country IN ('RU', 'IR') AND action IN ('admin', 'sudo')",
    "user_name LIKE 'svc_%' AND action = 'login' AND NOT success",
    "ip = '172.16.0.99'",
    "user_agent = 'Mozilla/4.0' AND country = 'BR'",
    "attempts > 11 AND success",
    "action = 'chmod' AND user_name <> 'root'",
    "user_agent LIKE '%masscan%'",
    "ip LIKE '192.168.66.%'",
    "bytes_out < 0",
    "country = 'CN' AND action = 'export' AND bytes_out > 1000000",
    "user_name = 'backup' AND action <> 'export'",
    "action IN ('wget', 'curl') AND user_name IN ('www', 'nginx')",
    "user_agent LIKE 'Go-http-client%' AND action = 'admin'",
    "NOT success AND country = 'NG'",
    "attempts = 12 AND country = 'DE'",
    "action = 'login' AND ip LIKE '%.255'",
    "user_name LIKE '%test%' AND success AND action = 'admin'",
    "bytes_out BETWEEN 7770000 AND 7770100",
    "user_agent LIKE '%zgrab%'",
    "action = 'ssh' AND country IN ('KP', 'IR', 'SY')",
    "ip IN ('10.1.1.1', '10.2.2.2', '10.3.3.3', '10.4.4.4') AND action = 'delete'",
    "user_name = 'alice' AND country = 'RU'",
    "attempts >= 10 AND action = 'ssh' AND NOT success",
    "action = 'mount'",
    "user_agent LIKE '%Hydra%'",
    "country = 'US' AND bytes_out > 9990000",
    "user_name IN ('guest', 'anonymous') AND action IN ('sudo', 'chmod', 'mount')",
]
assert len(RULES) == 40


def weighted(rnd, common, rare, rare_share):
    """Mostly benign values, now and then a suspicious one: rules match rarely, as in production."""
    return rnd.choice(rare) if rnd.random() < rare_share else rnd.choice(common)


def gen_data(path, rows):
    rnd = random.Random(7)
    users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi']
    rare_users = ['guest', 'root', 'svc_backup', 'backup', 'www', 'admin']
    agents = ['Mozilla/5.0 (Windows NT 10.0)', 'Mozilla/5.0 (X11; Linux)', 'Mozilla/5.0 (Macintosh)']
    rare_agents = ['curl/8.4.0', 'python-requests/2.31', 'sqlmap/1.7', 'Go-http-client/1.1', 'Mozilla/4.0']
    actions = ['login', 'logout', 'view']
    rare_actions = ['admin', 'sudo', 'export', 'delete', 'ssh', 'chmod', 'wget', 'mount']
    countries = ['US', 'CN', 'DE', 'BR', 'IN', 'FR']
    rare_countries = ['RU', 'NG', 'IR', 'KP']
    t = 1709280000000
    with open(path, 'w') as f:
        for i in range(rows):
            t += rnd.randint(0, 20)
            ts = datetime.utcfromtimestamp(t / 1000).strftime('%Y-%m-%d %H:%M:%S.%f')[:-3]
            f.write('{"event_id":%d,"user_name":"%s","ip":"10.%d.%d.%d","user_agent":"%s","action":"%s",'
                    '"success":%s,"attempts":%d,"bytes_out":%d,"country":"%s","ts":"%s"}\n' % (
                        i, weighted(rnd, users, rare_users, 0.03), rnd.randint(0, 20), rnd.randint(0, 255),
                        rnd.randint(0, 255), weighted(rnd, agents, rare_agents, 0.02),
                        weighted(rnd, actions, rare_actions, 0.05), 'true' if rnd.random() < 0.9 else 'false',
                        rnd.randint(1, 12), rnd.randint(0, 10000000), weighted(rnd, countries, rare_countries, 0.03),
                        ts))


def job(name, rules, data, out):
    sql = SOURCE % (data, out)
    for i, r in enumerate(rules):
        sql += "INSERT INTO alerts SELECT event_id, 'rule-%d' FROM events WHERE %s;\n" % (i + 1, r)
    path = os.path.join(WORK, name + '.sql')
    with open(path, 'w') as f:
        f.write(sql)
    return path


def run(script, rows, heap):
    gclog = script + '.gc.log'
    env = dict(os.environ, RSQL_HEAP_OPTS='-Xms%s -Xmx%s' % (heap, heap),
               JAVA_OPTS='-Xlog:gc:file=%s' % gclog)
    start = time.time()
    p = subprocess.run([os.path.join(ROOT, 'bin', 'rsql'), 'run', script, '-D', 'worker.threads=1',
                        '-D', 'checkpoint.interval=5s'], env=env, capture_output=True, text=True)
    wall = time.time() - start
    if p.returncode != 0:
        sys.exit('job failed:\n' + p.stdout + p.stderr)
    secs = processing_seconds(p.stdout.splitlines())
    live, gcs = heap_after_gc(gclog)
    return rows / secs, secs, wall, live, gcs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rows', type=int, default=2_000_000)
    ap.add_argument('--heap', default='256m')
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    data = os.path.join(WORK, 'events-%d.jsonl' % a.rows)
    if not os.path.exists(data):
        gen_data(data, a.rows)
    for name, rules in (('filter_1_rule', RULES[:1]), ('filter_40_rules', RULES)):
        script = job(name, rules, data, os.path.join(WORK, name + '.out.jsonl'))
        rate, secs, wall, live, gcs = run(script, a.rows, a.heap)
        print('%-16s %9d events in %6.2f s = %9.0f events/s (1 worker thread; process wall %.1f s; '
              '-Xmx%s, max heap after GC %d MB over %d GCs)' % (name, a.rows, secs, rate, wall, a.heap, live, gcs))


if __name__ == '__main__':
    main()
