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


def thread_cpu(pid):
    """CPU seconds (user + system) of each live thread of a process so far, as (thread name, seconds) pairs."""
    tick = os.sysconf('SC_CLK_TCK')
    threads = []
    for tid in os.listdir('/proc/%d/task' % pid):
        try:
            with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue    # the thread ended meanwhile
        fields = stat[stat.rindex(')') + 2:].split()
        threads.append((stat[stat.index('(') + 1:stat.rindex(')')], (int(fields[11]) + int(fields[12])) / tick))
    return threads
