"""What the benchmarks share: where they work, and reading a job's log and GC log."""
import os
import re
from datetime import datetime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The shared references sit beside the checkout (../shared); from a worktree under it, one level further up.
SHARED = next((d for d in (os.path.join(ROOT, '..', 'shared'), os.path.join(ROOT, '..', '..', 'shared'))
               if os.path.isdir(d)), os.path.join(ROOT, '..', 'shared'))
WORK = os.path.join(ROOT, 'bench', 'work')

LOG_TS = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})')


def ts_of(line):
    return datetime.strptime(LOG_TS.match(line).group(1), '%Y-%m-%d %H:%M:%S.%f').timestamp()


def processing_seconds(lines, started='started reading'):
    """Seconds from the first log line containing `started` (a task's first record) to the job's end: JVM start and
    planning excluded."""
    first = next(ts_of(l) for l in lines if started in l)
    last = next(ts_of(l) for l in reversed(lines) if re.search(r'instance=\S+ finished', l))
    return max(last - first, 1e-3)


def heap_after_gc(gclog):
    """The most heap in use after a GC (MB) and the number of GCs, from a -Xlog:gc file."""
    after_gc = [int(m.group(1)) for m in re.finditer(r'->(\d+)M\(', open(gclog).read())]
    return (max(after_gc) if after_gc else 0), len(after_gc)


def _stat_cpu(stat):
    """User + system CPU seconds from the text of a /proc .../stat file."""
    fields = stat[stat.rindex(')') + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def cpu_seconds(pid):
    """User + system CPU seconds of a running process, its ended threads included (0 if it is gone or unknown)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return _stat_cpu(f.read())
    except (OSError, TypeError, IndexError, ValueError):
        return 0.0


# Threads by the first 15 characters of their names (all Linux keeps): the engine's are rsql-<job>-..., the RocketMQ
# client's pull and Netty threads its own.
THREAD_GROUPS = (('engine', ('rsql-',)), ('client', ('PullMsgThread', 'NettyClient')),
                 ('jit', ('C1 Compiler', 'C2 Compiler')), ('gc', ('GC Thread', 'G1 ')))


def cpu_by_group(pid):
    """CPU seconds of a process's live threads so far, per THREAD_GROUPS name (the rest as 'other')."""
    groups = dict.fromkeys([g for g, _ in THREAD_GROUPS] + ['other'], 0.0)
    for tid in os.listdir('/proc/%d/task' % pid):
        try:
            with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue    # the thread ended meanwhile
        name = stat[stat.index('(') + 1:stat.rindex(')')]
        groups[next((g for g, prefixes in THREAD_GROUPS if name.startswith(prefixes)), 'other')] += _stat_cpu(stat)
    return groups
