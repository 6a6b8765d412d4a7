"use strict";
// The operator graph drawn as an SVG: a layered layout from left (sources) to right (sinks). A node's layer is one
// past its deepest input; within a layer nodes are ordered by the mean position of their inputs, which keeps most
// edges straight. Edges are curves from the right side of an input to the left side of its consumer.
const Graph = (() => {
  const NODE_W = 156, NODE_H = 46, GAP_X = 46, GAP_Y = 18, PAD = 8;
  const { svg } = Format;
  let drawn = 0;

  /** nodes: [{id, kind, detail, inputs}] with every node after its inputs (as the JSON lists them). */
  function layout(nodes) {
    const layer = new Map();
    for (const n of nodes) {
      layer.set(n.id, n.inputs.reduce((l, i) => Math.max(l, (layer.get(i) ?? -1) + 1), 0));
    }
    const columns = [];
    for (const n of nodes) (columns[layer.get(n.id)] ??= []).push(n);
    const row = new Map();
    columns.forEach((column, c) => {
      if (!column) return;
      if (c > 0) {
        const mean = n => n.inputs.length === 0 ? 0
          : n.inputs.reduce((s, i) => s + (row.get(i) ?? 0), 0) / n.inputs.length;
        column.sort((a, b) => mean(a) - mean(b));
      }
      column.forEach((n, r) => row.set(n.id, r));
    });
    const rows = Math.max(1, ...columns.map(c => c ? c.length : 0));
    const height = PAD * 2 + rows * NODE_H + (rows - 1) * GAP_Y;
    const place = new Map();
    columns.forEach((column, c) => {
      if (!column) return;
      // a shorter column is centred on the tallest
      const offset = (height - (column.length * NODE_H + (column.length - 1) * GAP_Y)) / 2;
      column.forEach((n, r) => place.set(n.id, {
        x: PAD + c * (NODE_W + GAP_X),
        y: offset + r * (NODE_H + GAP_Y),
      }));
    });
    return { place, width: PAD * 2 + columns.length * NODE_W + (columns.length - 1) * GAP_X, height };
  }

  /** What a node's second line says: the table for sources and sinks, else the id. */
  function label(n) {
    const text = (n.kind === "Source" || n.kind === "Sink") ? n.detail.split(" ")[0] : n.id;
    return text.length > 24 ? text.slice(0, 23) + "…" : text;
  }

  function draw(graph, title) {
    const { place, width, height } = layout(graph.nodes);
    const arrow = "rsql-arrow-" + (++drawn);
    const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "operator-graph",
      role: "img", "aria-label": title },
      svg("defs", {}, svg("marker", { id: arrow, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7,
        markerHeight: 7, orient: "auto-start-reverse" }, svg("path", { class: "arrow", d: "M0,0 L10,5 L0,10 z" }))));
    for (const n of graph.nodes) {
      const to = place.get(n.id);
      for (const i of n.inputs) {
        const from = place.get(i);
        const x1 = from.x + NODE_W, y1 = from.y + NODE_H / 2, x2 = to.x, y2 = to.y + NODE_H / 2;
        const bend = Math.max(20, (x2 - x1) / 2);
        root.append(svg("path", { class: "edge", "data-from": i, "data-to": n.id, "marker-end": `url(#${arrow})`,
          d: `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}` }));
      }
    }
    for (const n of graph.nodes) {
      const p = place.get(n.id);
      const classes = ["op", "kind-" + n.kind.toLowerCase()];
      if (n.stateful) classes.push("stateful");
      root.append(svg("g", { class: classes.join(" "), "data-node": n.id, transform: `translate(${p.x},${p.y})` },
        svg("title", {}, `${n.kind} ${n.id}\n${n.detail}` + (n.stateful ? "\nkeeps state" : "")
          + (n.updates ? "\nemits updates" : "")),
        svg("rect", { width: NODE_W, height: NODE_H, rx: 6 }),
        svg("text", { class: "kind", x: 8, y: 15 }, n.kind + (n.stateful ? " ◆" : "")),
        svg("text", { class: "label", x: 8, y: 29 }, label(n)),
        svg("text", { class: "count", x: 8, y: 41 })));
    }
    return root;
  }

  /**
   * Shows under each node where tasks start the records they read (from the tasks' node ids), and marks the node
   * while one of those tasks is stuck or failed.
   */
  function updateCounts(root, tasks) {
    const read = new Map();
    const troubled = new Set();
    for (const t of tasks) {
      if (!t.node) continue;
      read.set(t.node, (read.get(t.node) ?? 0) + t.recordsIn);
      if (t.state === "STUCK" || t.state === "FAILED") troubled.add(t.node);
    }
    for (const g of root.querySelectorAll("g.op")) {
      const n = read.get(g.dataset.node);
      g.querySelector("text.count").textContent = n === undefined ? "" : Format.number(n) + " read";
      g.classList.toggle("troubled", troubled.has(g.dataset.node));
    }
  }

  return { draw, updateCounts };
})();
