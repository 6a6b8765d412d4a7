"use strict";
// A small line chart of the last minutes: time on x (the window ending now), 0..max on y.
const Chart = (() => {
  const W = 320, H = 90, LEFT = 34, RIGHT = 4, TOP = 8, BOTTOM = 14;
  const { svg, number } = Format;

  /** series: [{cls, values}] aligned with times (epoch ms); windowMs: how far back x reaches. */
  function draw(times, series, now, windowMs) {
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img" });
    const known = series.flatMap(s => s.values.filter(v => v >= 0));
    const max = niceMax(Math.max(0, ...known));
    const x = t => LEFT + (W - LEFT - RIGHT) * (1 - (now - t) / windowMs);
    const y = v => TOP + (H - TOP - BOTTOM) * (1 - v / max);
    root.append(
      svg("line", { class: "grid", x1: LEFT, x2: W - RIGHT, y1: y(max), y2: y(max) }),
      svg("line", { class: "grid", x1: LEFT, x2: W - RIGHT, y1: y(0), y2: y(0) }),
      svg("text", { class: "axis", x: LEFT - 3, y: y(max) + 3, "text-anchor": "end" }, number(max)),
      svg("text", { class: "axis", x: LEFT - 3, y: y(0) + 3, "text-anchor": "end" }, "0"),
      svg("text", { class: "axis", x: LEFT, y: H - 3 }, Math.round(windowMs / 60000) + " min ago"),
      svg("text", { class: "axis", x: W - RIGHT, y: H - 3, "text-anchor": "end" }, "now"));
    if (times.length === 0 || known.length === 0) {
      root.append(svg("text", { class: "axis", x: W / 2, y: H / 2, "text-anchor": "middle" },
        times.length === 0 ? "collecting samples…" : "not known for these sources"));
    }
    for (const s of series) {
      const points = [];
      times.forEach((t, i) => {
        if (s.values[i] >= 0 && now - t <= windowMs) points.push(x(t).toFixed(1) + "," + y(s.values[i]).toFixed(1));
      });
      if (points.length > 0) root.append(svg("polyline", { class: s.cls, points: points.join(" ") }));
    }
    return root;
  }

  /** 1, 2 or 5 times a power of ten, at least max (and at least 1). */
  function niceMax(max) {
    if (max <= 1) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(max)));
    for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
    return 10 * p;
  }

  return { draw };
})();
