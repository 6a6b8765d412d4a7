"use strict";
// Polls /ui/api/jobs every second and renders one section per job: figures, charts of the last minutes, the
// operator graph (drawn once per graph), tasks, checkpoints and recent events.
(() => {
  const POLL_MS = 1000;
  const { el, number, time, ago, duration } = Format;
  const sections = new Map();   // job name -> {root, parts, graphKey}

  function figure(label, value, field) {
    return el("div", {}, el("dt", {}, label), el("dd", { "data-field": field }, value));
  }

  function latest(values) {
    return values.length === 0 ? -1 : values[values.length - 1];
  }

  function section(job) {
    let s = sections.get(job.name);
    if (s) return s;
    const parts = {};
    for (const p of ["title", "error", "figures", "charts", "graph", "tasks", "checkpoints", "events", "dims"]) {
      parts[p] = el("div", { class: p });
    }
    const root = el("section", { class: "job", "data-job": job.name, id: "job-" + job.name },
      parts.title, parts.error, parts.figures,
      parts.charts,
      el("h3", {}, "Operator graph"), parts.graph,
      el("h3", {}, "Tasks"), parts.tasks,
      el("h3", {}, "Checkpoints"), parts.checkpoints,
      el("h3", {}, "Recent errors and events"), parts.events,
      parts.dims);
    s = { root, parts, graphKey: null };
    sections.set(job.name, s);
    return s;
  }

  function renderJob(job, now) {
    const s = section(job);
    const p = s.parts;
    const h = job.history;
    p.title.replaceChildren(el("h2", {}, job.name, el("span", { class: "state " + job.state }, job.state),
      el("span", { class: "muted" }, "instance " + job.instance + ", started " + time(job.started)
        + " (" + duration(now - job.started) + ")")));
    p.error.replaceChildren(job.error ? el("p", { class: "error" }, "Failed: " + job.error) : "");
    const cp = job.checkpoints;
    p.figures.replaceChildren(el("dl", { class: "figures" },
      figure("records read", number(job.recordsRead), "recordsRead"),
      figure("rows out", number(job.rowsOut), "rowsOut"),
      figure("read / s", number(latest(h.inPerSecond)), "inPerSecond"),
      figure("out / s", number(latest(h.outPerSecond)), "outPerSecond"),
      figure("lag (records)", number(job.lag), "lag"),
      figure("skipped", number(job.skipped), "skipped"),
      figure("restarts", number(job.restarts), "restarts"),
      figure("last checkpoint", ago(cp.last, now), "lastCheckpoint")));
    const windowMs = h.window;
    p.charts.replaceChildren(
      el("h3", {}, "Throughput and lag, last " + duration(windowMs)),
      el("div", { class: "chart-row" },
        chart("records read / s", "series-in", h.t, h.inPerSecond, now, windowMs),
        chart("rows out / s", "series-out", h.t, h.outPerSecond, now, windowMs),
        chart("lag (records not yet read)", "series-lag", h.t, h.lag, now, windowMs)));
    const graphKey = JSON.stringify(job.graph);
    if (s.graphKey !== graphKey) {
      p.graph.replaceChildren(Graph.draw(job.graph, "operator graph of " + job.name));
      s.graphKey = graphKey;
    }
    Graph.updateCounts(p.graph, job.tasks);
    p.tasks.replaceChildren(tasksTable(job.tasks, now));
    p.checkpoints.replaceChildren(checkpoints(cp, now));
    p.events.replaceChildren(events(job.events));
    p.dims.replaceChildren(job.dimensionTables.length === 0 ? "" : dimensionTables(job.dimensionTables, now));
    return s.root;
  }

  function chart(title, cls, times, values, now, windowMs) {
    return el("div", { class: "chart" }, el("div", { class: "legend" }, el("span", { class: cls }, title)),
      Chart.draw(times, [{ cls, values }], now, windowMs));
  }

  function tasksTable(tasks, now) {
    if (tasks.length === 0) return el("p", { class: "empty" }, "No tasks (starting, or waiting to restart).");
    const num = { class: "num" };
    return el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "task"), el("th", {}, "reads"), el("th", {}, "state"),
        el("th", num, "in"), el("th", num, "out"), el("th", num, "skipped"), el("th", num, "lag"),
        el("th", {}, "checkpoint"), el("th", {}, "error"))),
      el("tbody", {}, ...tasks.map(t => el("tr", { "data-task": t.id },
        el("td", {}, t.id), el("td", {}, t.shard), el("td", {}, el("span", { class: "state " + t.state }, t.state)),
        el("td", num, number(t.recordsIn)), el("td", num, number(t.rowsOut)), el("td", num, number(t.skipped)),
        el("td", num, number(t.lag)), el("td", {}, ago(t.lastCheckpoint, now)),
        el("td", { class: "error" }, t.stuck
          ? "stuck since " + time(t.stuck.since) + (t.stuck.function ? " in " + t.stuck.function : "")
            + " at " + t.stuck.position
          : (t.error || ""))))));
  }

  function checkpoints(cp, now) {
    if (!(cp.last > 0)) return el("p", { class: "empty" }, "No checkpoint yet.");
    const recent = cp.recent.slice().reverse();
    return el("div", {},
      el("p", {}, "Last completed " + time(cp.last) + " (" + ago(cp.last, now) + ")."),
      statsLine(cp.stats),
      recent.length < 2 ? "" : el("p", { class: "muted" }, "Seen lately (time since the one before): " + recent.slice(0, 8).map((t, i) =>
        time(t) + (i + 1 < recent.length ? " (+" + seconds(t - recent[i + 1]) + ")" : ""))
        .join(", ")));
  }

  /** Duration and size of the last checkpoint, when the job measures them (local mode). */
  function statsLine(st) {
    if (!st || !(st.completed > 0)) return "";
    return el("p", { class: "checkpoint-stats" }, number(st.completed) + " completed, " + number(st.aborted)
      + " aborted; the last took " + number(st.lastDurationMillis) + " ms, " + number(st.lastSizeBytes)
      + " bytes; state on disk " + number(st.stateSizeBytes) + " bytes.");
  }

  function seconds(ms) {
    return ms < 10000 ? (ms / 1000).toFixed(1) + " s" : duration(ms);
  }

  function events(list) {
    if (list.length === 0) return el("p", { class: "empty" }, "None since this process started serving the page.");
    return el("ul", { class: "events" }, ...list.map(e => el("li", {},
      el("span", { class: "muted" }, time(e.t) + " "),
      el("span", { class: "kind kind-" + e.kind }, e.kind),
      e.task ? el("span", { class: "muted" }, e.task + ": ") : "",
      e.message)));
  }

  function dimensionTables(dims, now) {
    const num = { class: "num" };
    return el("div", {}, el("h3", {}, "Dimension tables"), el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "table"), el("th", num, "rows"), el("th", num, "bytes"),
        el("th", {}, "loaded"), el("th", {}, "loading"), el("th", {}, "last error"))),
      el("tbody", {}, ...dims.map(d => el("tr", {}, el("td", {}, d.table), el("td", num, number(d.rows)),
        el("td", num, number(d.bytes)), el("td", {}, d.loaded > 0 ? ago(d.loaded, now) + " in " + d.loadMillis + " ms" : "not yet"),
        el("td", {}, d.loadingRows >= 0 ? number(d.loadingRows) + " rows so far" : ""),
        el("td", { class: "error" }, d.lastError || ""))))));
  }

  function summary(jobs) {
    if (jobs.length === 0) return el("p", { class: "empty" }, "No jobs run in this process.");
    const num = { class: "num" };
    return el("table", { class: "summary" },
      el("thead", {}, el("tr", {}, el("th", {}, "job"), el("th", {}, "state"), el("th", num, "records read"),
        el("th", num, "rows out"), el("th", num, "tasks"), el("th", num, "restarts"))),
      el("tbody", {}, ...jobs.map(j => el("tr", {},
        el("td", {}, el("a", { href: "#job-" + j.name }, j.name)),
        el("td", {}, el("span", { class: "state " + j.state }, j.state)),
        el("td", num, number(j.recordsRead)), el("td", num, number(j.rowsOut)),
        el("td", num, number(j.tasks.length)), el("td", num, number(j.restarts))))));
  }

  function render(data) {
    document.getElementById("summary").replaceChildren(summary(data.jobs));
    const main = document.getElementById("jobs");
    const shown = data.jobs.map(j => renderJob(j, data.now));
    const names = new Set(data.jobs.map(j => j.name));
    for (const name of [...sections.keys()]) if (!names.has(name)) sections.delete(name);
    // moved only when the list changed: moving a section would reset its scroll positions
    if (shown.length !== main.children.length || shown.some((s, i) => main.children[i] !== s)) {
      main.replaceChildren(...shown);
    }
  }

  const connection = document.getElementById("connection");

  async function poll() {
    try {
      const response = await fetch("/ui/api/jobs", { cache: "no-store" });
      if (!response.ok) throw new Error("HTTP " + response.status);
      const data = await response.json();
      render(data);
      connection.textContent = "updated " + time(data.now);
      connection.classList.remove("lost");
    } catch (e) {
      connection.textContent = "cannot reach the process (" + e.message + "), retrying";
      connection.classList.add("lost");
    } finally {
      setTimeout(poll, POLL_MS);
    }
  }

  poll();
})();
