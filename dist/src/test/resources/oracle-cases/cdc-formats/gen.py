#!/usr/bin/env python3
"""Writes input/: one product table's changes in debezium-json (plain and in a schema envelope), canal-json and
maxwell-json, and an append-only orders stream. Deterministic (fixed seeds)."""
import json
import os
import random

random.seed(7)
os.makedirs("input", exist_ok=True)
CATS = ["书籍", "电子", "food", None]
rows = {}
deb, canal, maxwell = [], [], []
nid = 1


def text(row):
    return {k: (None if v is None else str(v)) for k, v in row.items()}


def canal_msg(kind, data, old=None, table="products"):
    return {"data": data, "old": old, "type": kind, "database": "shop", "table": table, "es": 1700000000000,
            "ts": 1700000000123, "isDdl": False, "pkNames": ["id"], "sqlType": {"id": -5}, "mysqlType": {"id": "bigint"}}


for step in range(400):
    r = random.random()
    if r < 0.45 or not rows:
        batch = []
        for _ in range(2 if random.random() < 0.2 else 1):
            row = {"id": nid, "name": "p%d" % nid, "category": random.choice(CATS),
                   "price": round(random.uniform(1, 100), 2), "qty": random.randint(0, 20)}
            nid += 1
            rows[row["id"]] = row
            batch.append(row)
            deb.append({"before": None, "after": row, "op": random.choice("cr"),
                        "source": {"db": "shop", "table": "products"}, "ts_ms": 1000 + step})
            maxwell.append({"database": "shop", "table": "products", "type": "insert", "ts": 1000 + step,
                            "xid": step, "data": row, "primary_key_columns": ["id"]})
        canal.append(canal_msg("INSERT", [text(b) for b in batch]))
    elif r < 0.85:
        keys = random.sample(list(rows), 2 if len(rows) > 1 and random.random() < 0.2 else 1)
        cols = [c for c in ("price", "category", "qty") if random.random() < 0.5] or ["qty"]
        data, old = [], []
        for k in keys:
            before = dict(rows[k])
            after = dict(before)
            for c in cols:
                after[c] = {"price": lambda: round(random.uniform(1, 100), 2), "category": lambda: random.choice(CATS),
                            "qty": lambda: random.randint(0, 20)}[c]()
            rows[k] = after
            data.append(text(after))
            old.append(text({c: before[c] for c in cols}))
            deb.append({"before": before, "after": after, "op": "u",
                        "source": {"db": "shop", "table": "products"}, "ts_ms": 1000 + step})
            maxwell.append({"database": "shop", "table": "products", "type": "update", "ts": 1000 + step,
                            "xid": step, "data": after, "old": {c: before[c] for c in cols}})
        canal.append(canal_msg("UPDATE", data, old))
    else:
        k = random.choice(list(rows))
        before = rows.pop(k)
        deb.append({"before": before, "after": None, "op": "d",
                    "source": {"db": "shop", "table": "products"}, "ts_ms": 1000 + step})
        maxwell.append({"database": "shop", "table": "products", "type": "delete", "ts": 1000 + step,
                        "xid": step, "data": before})
        canal.append(canal_msg("DELETE", [text(before)]))
    if step == 100:
        ddl = canal_msg("CREATE", None)
        ddl.update({"isDdl": True, "sql": "CREATE TABLE t (id BIGINT)"})
        canal.append(ddl)
    if step % 50 == 7:  # another table of the same database: table.include leaves it out
        canal.append(canal_msg("INSERT", [{"id": "9999", "name": "u", "category": "x", "price": "1", "qty": "1"}],
                               table="users"))


def write(name, messages):
    with open("input/%s.jsonl" % name, "w", encoding="utf-8") as f:
        for m in messages:
            f.write(json.dumps(m, ensure_ascii=False) + "\n")


write("products_debezium", deb)
write("products_debezium_schema", [{"schema": {"type": "struct", "optional": False}, "payload": m} for m in deb])
write("products_canal", canal)
write("products_maxwell", maxwell)
random.seed(11)
write("orders", [{"order_id": i, "product_id": random.randint(1, 190), "amount": random.randint(1, 5),
                  "buyer": random.choice(["张三", "李四", "bob"])} for i in range(300)])
