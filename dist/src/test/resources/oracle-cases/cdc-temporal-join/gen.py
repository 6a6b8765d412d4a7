#!/usr/bin/env python3
"""Writes input/: price changes of products as debezium-json (each version stamped with its update time, in time
order) and orders that look the price up at their time. Deterministic."""
import json
import os
import random
from datetime import datetime, timedelta

random.seed(5)
os.makedirs("input", exist_ok=True)
start = datetime(2024, 1, 1)
rows = {}
changes = []
t = start
for step in range(300):
    t += timedelta(seconds=random.randint(1, 30))
    stamp = t.strftime("%Y-%m-%d %H:%M:%S.000")
    pid = random.randint(1, 25)
    r = random.random()
    if pid not in rows:
        after = {"id": pid, "name": "商品%d" % pid, "price": round(random.uniform(1, 50), 2), "upd": stamp}
        changes.append({"before": None, "after": after, "op": "c"})
        rows[pid] = after
    elif r < 0.85:
        before = rows[pid]
        after = dict(before, price=round(random.uniform(1, 50), 2), upd=stamp)
        changes.append({"before": before, "after": after, "op": "u"})
        rows[pid] = after
    else:
        # a delete carries the time it happened as the row's update time
        before = dict(rows.pop(pid), upd=stamp)
        changes.append({"before": before, "after": None, "op": "d"})
end = t
orders = []
t = start
i = 0
while t < end:
    t += timedelta(seconds=random.randint(1, 20))
    orders.append({"order_id": i, "product_id": random.randint(1, 26), "qty": random.randint(1, 4),
                   "ts": t.strftime("%Y-%m-%d %H:%M:%S.000")})
    i += 1
with open("input/prices.jsonl", "w", encoding="utf-8") as f:
    f.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in changes)
with open("input/orders.jsonl", "w", encoding="utf-8") as f:
    f.writelines(json.dumps(o, ensure_ascii=False) + "\n" for o in orders)
