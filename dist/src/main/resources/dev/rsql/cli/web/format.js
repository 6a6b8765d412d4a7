"use strict";
// Building DOM and SVG elements (text always as text, never as markup) and formatting figures.
const Format = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const numbers = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

  function fill(node, attrs, children) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : String(c));
    }
    return node;
  }

  return {
    el: (tag, attrs, ...children) => fill(document.createElement(tag), attrs, children),
    svg: (tag, attrs, ...children) => fill(document.createElementNS(SVG, tag), attrs, children),
    number: n => (n === null || n === undefined || n < 0) ? "–" : numbers.format(n),
    time: ms => ms > 0 ? new Date(ms).toLocaleTimeString("en-GB") : "never",
    /** "12 s ago" from two epoch millisecond values. */
    ago(ms, now) {
      if (!(ms > 0)) return "never";
      const s = Math.max(0, Math.round((now - ms) / 1000));
      if (s < 120) return s + " s ago";
      if (s < 7200) return Math.round(s / 60) + " min ago";
      return Math.round(s / 3600) + " h ago";
    },
    duration(ms) {
      const s = Math.max(0, Math.round(ms / 1000));
      if (s < 120) return s + " s";
      if (s < 7200) return Math.floor(s / 60) + " min" + (s % 60 ? " " + (s % 60) + " s" : "");
      return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
    },
  };
})();
