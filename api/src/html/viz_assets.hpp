#pragma once
// The style sheet and script of the teaching pages (api/src/viz.cpp), compiled into the
// binary so that it works from any directory and the page needs nothing but itself. The script
// reads the per-step data the command embeds as JSON (<script id="starnet-data">) and only
// displays it: it computes nothing about the algorithm. The link colours (--d2 … --dN) come
// before this sheet, from the palette both drawings share (api/star_layout.hpp).

namespace starnet::api {

inline constexpr const char* VIZ_CSS = R"css(
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #222; background: #fff; }
main { display: flex; height: 100vh; }
#drawing { flex: 1 1 auto; min-width: 0; padding: 8px; }
#drawing svg { width: 100%; height: 100%; display: block; }
#panel { flex: 0 0 340px; padding: 12px 16px; border-left: 1px solid #ddd; overflow-y: auto; background: #fafafa; font-size: 14px; line-height: 1.4; }
#panel h1 { font-size: 18px; margin: 0 0 6px; }
#panel h2 { font-size: 14px; margin: 14px 0 4px; color: #555; }
.source, .note { font-size: 12.5px; color: #444; margin: 4px 0; }
.controls { display: flex; gap: 4px; margin: 10px 0 6px; }
.controls button { font: inherit; font-size: 13px; padding: 4px 7px; white-space: nowrap; border: 1px solid #999; border-radius: 4px; background: #fff; cursor: pointer; }
.controls button:hover { background: #eef; }
.controls button:disabled { color: #aaa; border-color: #ddd; cursor: default; }
#step-counter { font-size: 16px; font-weight: bold; margin: 6px 0; }
#phase { min-height: 5.5em; margin: 4px 0; }
#status { font-weight: bold; color: #176117; min-height: 1.4em; }
#status.failed { color: #b00; }
#legend text { fill: #222; dominant-baseline: central; }
.substar { fill: none; stroke: #bbb; stroke-width: 1.5; }
.substar.m2 { stroke: #ddd; stroke-dasharray: 4 3; }
.substar.m3 { stroke: #ccc; }
.substar-label { font-size: 15px; fill: #777; text-anchor: middle; }
.link { stroke-width: 2.5; stroke-opacity: 0.8; }
.d2 { stroke: var(--d2); fill: var(--d2); } .d3 { stroke: var(--d3); fill: var(--d3); }
.d4 { stroke: var(--d4); fill: var(--d4); } .d5 { stroke: var(--d5); fill: var(--d5); }
.link, .message polyline { fill: none; stroke-linejoin: round; }
svg.moving .link { stroke-opacity: 0.18; }
svg.moving.active-d2 .link.d2, svg.moving.active-d3 .link.d3,
svg.moving.active-d4 .link.d4, svg.moving.active-d5 .link.d5 { stroke-opacity: 0.45; }
.message polyline { stroke-width: 3; }
.message-label rect { fill: #fff; stroke-width: 1.2; }
.message-label text { font-size: 11px; text-anchor: middle; dominant-baseline: central; fill: #111; stroke: none; font-weight: bold; }
.node rect { fill: #fff; stroke: #444; stroke-width: 1.2; }
.node.changed rect { fill: #fff4c2; }
.node.selected rect { stroke: #c00; stroke-width: 2.5; }
.node.failing rect { fill: #fdd; stroke: #b00; stroke-width: 3; }
.node text { text-anchor: middle; font-size: 11.5px; fill: #222; }
.node .label { font-weight: bold; font-size: 12.5px; }
.node .key { fill: #777; }
.node { cursor: pointer; }
)css";

inline constexpr const char* VIZ_JS = R"js(
'use strict';
(() => {
  const data = JSON.parse(document.getElementById('starnet-data').textContent);
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.getElementById('star');
  const layer = document.getElementById('messages');
  const labelLayer = document.getElementById('message-labels');
  const [boxW, boxH] = data.box;
  // Pages of a user's run: how many characters of each box line's value fit (the box is as wide as
  // its text allows); a longer value is shortened there and whole in the node's tooltip.
  const valueChars = data.value_chars || null;
  function fit(text, chars) {
    const c = [...text];
    return valueChars === null || c.length <= chars ? text : c.slice(0, Math.max(chars - 1, 0)).join('') + '…';
  }
  // The corners of the links drawn bent around nodes, by "u-v" (u < v), from u to v.
  const bends = new Map(data.bends.map(([u, v, corners]) => [u + '-' + v, corners]));
  const last = data.steps.length - 1;
  const buttons = {};
  for (const id of ['first', 'back', 'play', 'forward', 'last']) buttons[id] = document.getElementById(id);
  let current = 0;
  let timer = null;
  let selected = null;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }

  // Distance from a box's centre to its border along the unit vector (ux, uy).
  function toBorder(ux, uy) {
    const tx = ux === 0 ? Infinity : (boxW / 2 + 3) / Math.abs(ux);
    const ty = uy === 0 ? Infinity : (boxH / 2 + 3) / Math.abs(uy);
    return Math.min(tx, ty);
  }

  // The points of the link from → to: its ends' centres and the corners between.
  function route(from, to) {
    const corners = bends.get(Math.min(from, to) + '-' + Math.max(from, to)) || [];
    return [data.nodes[from], ...(from < to ? corners : [...corners].reverse()), data.nodes[to]].map(([x, y]) => [x, y]);
  }

  // A message runs beside its link, offset to the sender's right (so that the two directions do
  // not overlap), from border to border of the two boxes.
  function drawMessages(step) {
    layer.replaceChildren();
    labelLayer.replaceChildren();
    const off = data.message_offset;
    for (const [from, to, dim, text, whole] of data.steps[step].messages) {
      const full = whole === undefined ? text : whole;
      const pts = route(from, to);
      const units = pts.slice(1).map(([x, y], i) => {
        const len = Math.hypot(x - pts[i][0], y - pts[i][1]);
        return [(x - pts[i][0]) / len, (y - pts[i][1]) / len, len];
      });
      // Each corner moves along the mean of its two segments' normals.
      const shifted = pts.map(([x, y], i) => {
        const a = units[Math.max(0, i - 1)], b = units[Math.min(units.length - 1, i)];
        const nx = -(a[1] + b[1]), ny = a[0] + b[0], n = Math.hypot(nx, ny) || 1;
        return [x + nx / n * off, y + ny / n * off];
      });
      const [ux, uy, len] = units[0];
      const [vx, vy] = units[units.length - 1];
      const b0 = toBorder(ux, uy), b1 = toBorder(vx, vy);
      shifted[0] = [shifted[0][0] + ux * b0, shifted[0][1] + uy * b0];
      const end = shifted.length - 1;
      shifted[end] = [shifted[end][0] - vx * b1, shifted[end][1] - vy * b1];
      const g = el('g', { class: 'message d' + dim, 'data-from': from, 'data-to': to }, layer);
      el('polyline', {
        points: shifted.map(([x, y]) => x.toFixed(1) + ',' + y.toFixed(1)).join(' '),
        'marker-end': 'url(#arrow-d' + dim + ')'
      }, g);
      const at = b0 + Math.min(26, Math.max(0, (len - b0 - (units.length === 1 ? b1 : 0)) * 0.3));
      const [x1, y1] = pts[0];
      const lx = x1 + ux * at - uy * off * 2.2, ly = y1 + uy * at + ux * off * 2.2;
      const lg = el('g', { class: 'message-label d' + dim }, labelLayer);
      const w = 8 + 6.6 * text.length;
      el('rect', { x: (lx - w / 2).toFixed(1), y: (ly - 8).toFixed(1), width: w.toFixed(1), height: 16, rx: 4 }, lg);
      el('text', { x: lx.toFixed(1), y: ly.toFixed(1) }, lg).textContent = text;
      const tip = data.nodes[from][2] + ' → ' + data.nodes[to][2] +
        (data.links_named === false ? '' : ' via link ' + dim) + ': ' + full;
      el('title', {}, g).textContent = tip;
      el('title', {}, lg).textContent = tip;
    }
  }

  function showDetail() {
    const detail = document.getElementById('detail');
    if (selected === null) return;
    const s = data.steps[current];
    const name = (v) => data.nodes[v][2];
    const via = (d) => (data.links_named === false ? '' : ` (link ${d})`);
    const text = (m) => (m[4] === undefined ? m[3] : m[4]);
    const sent = s.messages.filter((m) => m[0] === selected).map((m) => `${text(m)} to ${name(m[1])}${via(m[2])}`);
    const got = s.messages.filter((m) => m[1] === selected).map((m) => `${text(m)} from ${name(m[0])}${via(m[2])}`);
    const lines = [`Node ${name(selected)} (rank ${selected}) after step ${current}:`];
    if (data.collective === 'broadcast') {
      lines.push(`holds ${s.result[selected]} items: ${s.held[selected]}`);
    } else {
      lines.push(`${data.result_name || 'result'}: ${s.result[selected]}`);
    }
    lines.push(`${data.outgoing_name || 'outgoing buffer'}: ${s.outgoing[selected]}`);
    if (sent.length) lines.push('sent: ' + sent.join('; '));
    if (got.length) lines.push('received: ' + got.join('; '));
    detail.replaceChildren();
    lines.forEach((line, i) => {
      if (i) detail.appendChild(document.createElement('br'));
      detail.appendChild(document.createTextNode(line));
    });
  }

  function show(step) {
    current = Math.max(0, Math.min(last, step));
    const s = data.steps[current];
    const before = data.steps[Math.max(0, current - 1)];
    drawMessages(current);
    data.nodes.forEach((_, v) => {
      const node = document.getElementById('node-' + v);
      node.querySelector('.result .val').textContent = valueChars ? fit(s.result[v], valueChars[0]) : s.result[v];
      node.querySelector('.outgoing .val').textContent = valueChars ? fit(s.outgoing[v], valueChars[1]) : s.outgoing[v];
      if (valueChars) {
        const tip = node.querySelector('title') || el('title', {}, node);
        tip.textContent = `${data.nodes[v][2]}\n${data.result_name}: ${s.result[v]}\n${data.outgoing_name}: ${s.outgoing[v]}`;
      }
      node.classList.toggle('changed', current > 0 && (before.result[v] !== s.result[v] || before.outgoing[v] !== s.outgoing[v]));
      node.classList.toggle('failing', s.failed_node === v);
    });
    svg.setAttribute('class', current === 0 ? '' : 'moving ' + s.links.map((d) => 'active-d' + d).join(' '));
    document.getElementById('step-counter').textContent = `Step ${current} of ${last}`;
    document.getElementById('phase').textContent = s.explain;
    const status = document.getElementById('status');
    status.textContent = current === last ? data.final : '';
    status.classList.toggle('failed', current === last && !data.verified);
    buttons.first.disabled = buttons.back.disabled = current === 0;
    buttons.forward.disabled = buttons.last.disabled = current === last;
    showDetail();
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    buttons.play.textContent = '▶ Play';
  }

  function play() {
    if (timer !== null) return stop();
    if (current === last) show(0);
    buttons.play.textContent = 'Pause';
    timer = setInterval(() => {
      show(current + 1);
      if (current === last) stop();
    }, 1000);
  }

  buttons.first.addEventListener('click', () => { stop(); show(0); });
  buttons.back.addEventListener('click', () => { stop(); show(current - 1); });
  buttons.forward.addEventListener('click', () => { stop(); show(current + 1); });
  buttons.last.addEventListener('click', () => { stop(); show(last); });
  buttons.play.addEventListener('click', play);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') { stop(); show(current + 1); }
    else if (e.key === 'ArrowLeft') { stop(); show(current - 1); }
    else if (e.key === 'Home') { stop(); show(0); }
    else if (e.key === 'End') { stop(); show(last); }
    else if (e.key === ' ') { e.preventDefault(); play(); }
    else return;
  });
  // Zoom (wheel, around the pointer), pan (drag) and reset (double-click): S_5 needs a closer look.
  const home = svg.viewBox.baseVal;
  const view = { x: home.x, y: home.y, w: home.width, h: home.height };
  const initial = { ...view };
  const setView = () => svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  const unitsPerPixel = () => Math.max(view.w / svg.clientWidth, view.h / svg.clientHeight);
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const f = Math.min(initial.w / view.w, Math.max(initial.w / (8 * view.w), e.deltaY < 0 ? 0.8 : 1.25));
    view.x = p.x - (p.x - view.x) * f;
    view.y = p.y - (p.y - view.y) * f;
    view.w *= f;
    view.h *= f;
    setView();
  }, { passive: false });
  let drag = null;
  svg.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y }; });
  svg.addEventListener('pointermove', (e) => {
    if (drag === null || (Math.abs(e.clientX - drag.x) < 3 && Math.abs(e.clientY - drag.y) < 3)) return;
    const k = unitsPerPixel();
    view.x = drag.vx - (e.clientX - drag.x) * k;
    view.y = drag.vy - (e.clientY - drag.y) * k;
    setView();
  });
  window.addEventListener('pointerup', () => { drag = null; });
  svg.addEventListener('dblclick', () => { Object.assign(view, initial); setView(); });
  for (const node of document.querySelectorAll('.node')) {
    node.addEventListener('click', () => {
      if (selected !== null) document.getElementById('node-' + selected).classList.remove('selected');
      selected = Number(node.dataset.rank);
      node.classList.add('selected');
      showDetail();
    });
  }
  show(0);
})();
)js";

}  // namespace starnet::api
