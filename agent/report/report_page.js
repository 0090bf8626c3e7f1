// The page script of refinery's HTML report (agent/report/report_html.cc).
// It draws the report from the JSON embedded in the page (#refinery-data):
// nothing is fetched, and every text the runs wrote (messages, notes, names)
// reaches the page as text, never as markup.
//
// Every figure shown in a table carries data-json, the path of its value in
// the data, its keys joined by "/" ("report/arms/0/turns/2/fast_p/0.5"), so
// that a test can check the page against report.json.
"use strict";

(function () {
  const errors = [];
  window.addEventListener("error", (e) => errors.push(String(e.message)));

  const data = JSON.parse(document.getElementById("refinery-data").textContent);
  const report = data.report;
  const thresholds = report.thresholds;
  const columns = data.rows.columns;
  const rows = data.rows.data.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
  const armName = (a) => a.model + " \u00d7 " + a.strategy;
  const keyOf = (p) => String(p);
  const fastKey = thresholds.includes(1) ? "1" : keyOf(thresholds[thresholds.length - 1]);

  // --- small DOM helpers: text only, never innerHTML ---
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, v);
    for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
    return node;
  }
  const pct = (v) => (v === null || v === undefined ? "-" : (100 * v).toFixed(1) + "%");
  const times = (v) => (v === null || v === undefined ? "-" : v.toFixed(3) + "x");
  const dollars = (v) => (v === null || v === undefined ? "-" : "$" + v.toFixed(4));
  const count = (v) => (v === null || v === undefined ? "-" : String(v));
  // A cell showing the value at `path` in the data, formatted.
  function figure(path, format) {
    let v = data;
    for (const part of path.split("/")) v = v === null || v === undefined ? undefined : v[part];
    return el("td", { "data-json": path, class: "num" }, format(v));
  }
  function section(id, title, ...children) {
    const s = el("section", { id }, el("h2", {}, title), ...children);
    document.getElementById("content").append(s);
    return s;
  }
  function table(head, body) {
    return el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...body));
  }
  function chart(make) {
    try {
      return make();
    } catch (e) {
      errors.push("chart: " + e.message);
      return el("p", { class: "note" }, "this chart could not be drawn: " + e.message);
    }
  }
  const note = (text) => el("p", { class: "note" }, text);

  // --- header ---
  const header = document.getElementById("header");
  header.append(el("h1", {}, "refinery report: " + report.config));
  const facts = [
    report.problems + " problems",
    report.arms.length + " arm" + (report.arms.length === 1 ? "" : "s"),
    "backends: " + (report.backends.join(", ") || "none"),
    "thresholds: " + thresholds.join(", "),
  ];
  if (report.modes) facts.push("modes: " + report.modes.join(", "));
  if (data.runs && data.runs.length > 1) facts.push("runs: " + data.runs.join(", "));
  header.append(el("p", {}, facts.join(" \u00b7 ")));
  if (report.backends.includes("cpu"))
    header.append(note("cpu backend: timings are the host clock on this machine's CPU; these speedups are not GPU speedups."));
  if (report.left_out)
    header.append(note("left out of fast_p: " + report.left_out.problems.length + " problems (" + report.left_out.patterns.join(", ") + ")"));
  header.append(el("p", { class: "small" }, "made by refinery " + data.refinery_version + " at " + data.generated_at));

  // --- summary: the last turn of every arm ---
  {
    const head = ["arm", "attempts", "turn", "correct", "geomean"].concat(thresholds.map((t) => "fast_" + t), ["sol median", "tokens", "cost"]);
    const body = report.arms.map((arm, i) => {
      const t = arm.turns.length - 1;
      const base = "report/arms/" + i;
      return el("tr", {}, el("td", {}, armName(arm)), figure(base + "/attempts", count), figure(base + "/turns/" + t + "/turn", count),
        figure(base + "/turns/" + t + "/correct_rate", pct), figure(base + "/turns/" + t + "/geomean_speedup", times),
        ...thresholds.map((p) => figure(base + "/turns/" + t + "/fast_p/" + keyOf(p), pct)),
        figure(base + "/turns/" + t + "/sol_median", pct), figure(base + "/tokens/total", count), figure(base + "/cost_usd", dollars));
    });
    section("summary", "Summary (last turn)", table(head, body));
  }

  // --- fast_p against turn, every arm, one panel per threshold ---
  {
    const points = [];
    report.arms.forEach((arm) => arm.turns.forEach((t) => thresholds.forEach((p) => points.push({ arm: armName(arm), turn: t.turn, threshold: "p = " + p, fast: t.fast_p[keyOf(p)] }))));
    const s = section("fast-p", "fast_p against turn");
    s.append(chart(() => Plot.plot({
      width: 1100, height: 260, grid: true, color: { legend: true },
      x: { label: "turn", tickFormat: "d" }, y: { label: "fast_p", percent: true, domain: [0, 100] },
      fx: { label: null },
      marks: [Plot.lineY(points, { x: "turn", y: "fast", stroke: "arm", fx: "threshold", marker: true, tip: true })],
    })));
    report.arms.forEach((arm, i) => {
      const head = ["turn", "correct", "geomean"].concat(thresholds.map((t) => "fast_" + t), ["sol median"]);
      const body = arm.turns.map((t, j) => {
        const base = "report/arms/" + i + "/turns/" + j;
        return el("tr", {}, figure(base + "/turn", count), figure(base + "/correct_rate", pct), figure(base + "/geomean_speedup", times),
          ...thresholds.map((p) => figure(base + "/fast_p/" + keyOf(p), pct)), figure(base + "/sol_median", pct));
      });
      s.append(el("h3", {}, armName(arm)), table(head, body));
    });
  }

  // --- fast_p at equal cost: against what each arm had spent by each turn ---
  {
    const points = [];
    report.arms.forEach((arm) => arm.turns.forEach((t) => points.push({ arm: armName(arm), fast: t.fast_p[fastKey], geomean: t.geomean_speedup, ...t.spent })));
    const s = section("equal-cost", "fast_" + fastKey + " and the geometric mean against what was spent");
    s.append(note("each point is a turn (a round for a beam or an evolve search): what the arm had spent on its attempts up to it, so that strategies compare at equal cost."));
    const measured = points.filter((p) => p.geomean != null);
    // The geometric mean on a log axis where it spans a wide range; on a
    // linear one from 0 otherwise, where a log axis would label no tick.
    const means = measured.map((p) => p.geomean);
    const span = means.length ? Math.max(1, ...means) / Math.min(1, ...means) : 1;
    const y = span > 4 ? { label: "geometric-mean speedup", type: "log", tickFormat: "~g" }
      : { label: "geometric-mean speedup", domain: [0, 1.1 * Math.max(1, ...means)] };
    const unspent = [];
    for (const [field, label] of [["attempts", "attempts"], ["tokens", "tokens"], ["dollars", "dollars"], ["gpu_seconds", "evaluation worker seconds"]]) {
      const most = Math.max(...points.map((p) => p[field] || 0));
      if (!(most > 0)) {
        unspent.push(label);
        continue;
      }
      const x = { label, domain: [0, 1.05 * most] };
      const row = el("div", { class: "pair" });
      row.append(chart(() => Plot.plot({
        width: 540, height: 260, grid: true, color: { legend: field === "attempts" }, x,
        y: { label: "fast_" + fastKey, percent: true, domain: [0, 100] },
        marks: [Plot.lineY(points, { x: field, y: "fast", stroke: "arm", marker: true, tip: true })],
      })));
      if (measured.length) row.append(chart(() => Plot.plot({
        width: 540, height: 260, grid: true, x, y,
        marks: [Plot.ruleY([1], { stroke: "#999" }), Plot.lineY(measured, { x: field, y: "geomean", stroke: "arm", marker: true, tip: true })],
      })));
      s.append(row);
    }
    if (unspent.length) s.append(note("not drawn: nothing was spent in " + unspent.join(" or ") + " (a replay provider, or a model that reports no usage)."));
  }

  // --- the distribution of speedups, per arm and level ---
  {
    const counted = rows.filter((r) => r.counts && r.speedup > 0);
    const s = section("speedups", "Speedups of correct attempts, per arm and level");
    if (!counted.length) s.append(note("no correct attempt has a speedup that counts."));
    else s.append(chart(() => Plot.plot({
      width: 1100, marginLeft: 220, height: 80 + 40 * report.arms.length * new Set(counted.map((r) => r.level)).size,
      x: { type: "log", label: "speedup over the reference (log scale)", grid: true },
      y: { label: null }, fy: { label: null },
      marks: [Plot.ruleX([1], { stroke: "#999" }), Plot.boxX(counted, { x: "speedup", y: (r) => r.model + " \u00d7 " + r.strategy, fy: (r) => r.level || "other" })],
    })));
  }

  // --- cost and tokens against fast_1 ---
  {
    const points = report.arms.map((arm) => ({ arm: armName(arm), cost: arm.cost_usd, tokens: arm.tokens.total, fast: arm.turns[arm.turns.length - 1].fast_p[fastKey] }));
    const s = section("cost", "Cost and tokens against fast_" + fastKey + " (last turn)");
    const row = el("div", { class: "pair" });
    s.append(row);
    for (const [field, label, format] of [["cost", "cost (USD)", "$,.2f"], ["tokens", "tokens (input + output)", "~s"]]) {
      const most = Math.max(...points.map((p) => p[field] || 0));
      if (!(most > 0)) s.append(note("no " + (field === "cost" ? "cost" : "tokens") + " recorded: not drawn."));
      else row.append(chart(() => Plot.plot({
        width: 540, height: 300, grid: true, y: { label: "fast_" + fastKey, percent: true, domain: [0, 100] },
        x: { label, tickFormat: format, domain: [0, 1.1 * most] },
        marks: [Plot.dot(points, { x: field, y: "fast", fill: "arm", r: 6, tip: true }), Plot.text(points, { x: field, y: "fast", text: "arm", dy: -12 })],
      })));
    }
  }

  // --- heat map: the best speedup per problem and arm ---
  {
    const best = new Map();
    for (const r of rows) {
      if (r.status !== "correct" || r.label === "reward_hack") continue;
      const k = r.problem + "\u0000" + r.model + " \u00d7 " + r.strategy;
      const v = r.counts ? r.speedup : null;
      const old = best.get(k);
      if (old === undefined || (v !== null && (old.v === null || v > old.v))) best.set(k, { problem: r.problem, arm: r.model + " \u00d7 " + r.strategy, v });
    }
    const cells = [...best.values()];
    // Natural order: level1/2 before level1/10.
    const natural = (a, b) => a.localeCompare(b, undefined, { numeric: true });
    const problems = [...new Set(rows.map((r) => r.problem))].sort(natural);
    const extent = Math.max(2, ...cells.filter((d) => d.v !== null).map((d) => Math.max(d.v, 1 / d.v)));
    const s = section("heatmap", "Best speedup per problem and arm");
    s.append(note("colour: the best counted speedup (log scale, 1 = the reference); grey: correct but no speedup that counts; blank: never correct."));
    s.append(chart(() => Plot.plot({
      width: Math.max(400, 160 * report.arms.length + 240), height: 40 + 18 * problems.length, marginLeft: 240,
      x: { label: null, axis: "top" }, y: { label: null, domain: problems },
      // Symmetric in log around 1 and at least 0.5x to 2x, so that 0.98x is no alarm.
      color: { type: "log", scheme: "RdBu", domain: [1 / extent, extent], clamp: true, legend: true, label: "speedup" },
      marks: [
        Plot.cell(cells.filter((d) => d.v === null), { x: "arm", y: "problem", fill: "#ccc", title: (d) => d.problem + ": correct, no speedup that counts" }),
        Plot.cell(cells.filter((d) => d.v !== null), { x: "arm", y: "problem", fill: "v", tip: true }),
        Plot.text(cells.filter((d) => d.v !== null), { x: "arm", y: "problem", text: (d) => d.v.toFixed(2), fontSize: 10, fill: "black", stroke: "white", strokeWidth: 3 }),
      ],
    })));
  }

  // --- speed of light ---
  {
    const s = section("sol", "Speed-of-light fraction (median per arm and turn)");
    const points = [];
    report.arms.forEach((arm) => arm.turns.forEach((t) => { if (t.sol_median !== null && t.sol_median !== undefined) points.push({ arm: armName(arm), turn: t.turn, sol: t.sol_median }); }));
    s.append(note("the problem's bound (max of FLOPs over the GPU's peak and bytes over its memory bandwidth) over the candidate's time; cuda attempts on a GPU in refinery's peak table only."));
    if (!points.length) s.append(note("no attempt has a speed-of-light fraction (cpu backend, a GPU not in the table, or no correct cuda attempt)."));
    else s.append(chart(() => Plot.plot({
      width: 700, height: 260, grid: true, color: { legend: true }, x: { label: "turn", tickFormat: "d", ticks: [...new Set(points.map((p) => p.turn))] },
      y: { label: "median sol fraction", percent: true, domain: [0, 100] },
      marks: [Plot.lineY(points, { x: "turn", y: "sol", stroke: "arm", marker: true, tip: true })],
    })));
    for (const arm of report.arms) for (const n of arm.sol_notes || []) s.append(note(armName(arm) + ": " + n));
  }

  // --- paired comparisons ---
  if (data.comparisons && data.comparisons.length) {
    const s = section("compare", "Paired comparisons");
    data.comparisons.forEach((c, ci) => {
      s.append(el("h3", {}, c.a + "  vs  " + c.b));
      s.append(note(c.paired + " paired problems" + (c.only_a.length + c.only_b.length ? "; left out, asked of one side only: " + (c.only_a.length + c.only_b.length) : "") +
        "; 95% intervals: percentile bootstrap over problems, " + c.resamples + " resamples, seed " + c.seed + "."));
      const head = ["turn"].concat(c.thresholds.map((t) => "\u0394 fast_" + t), ["geomean ratio", "won", "lost", "tied", "$/solved A", "$/solved B"]);
      const interval = (v) => (v ? v.value.toFixed(3) + " [" + v.low.toFixed(3) + ", " + v.high.toFixed(3) + "]" : "-");
      const diff = (v) => (v ? (100 * v.value).toFixed(1) + " pts [" + (100 * v.low).toFixed(1) + ", " + (100 * v.high).toFixed(1) + "]" : "-");
      const body = c.turns.map((t, j) => {
        const base = "comparisons/" + ci + "/turns/" + j;
        return el("tr", {}, figure(base + "/turn", count), ...c.thresholds.map((p, k) => figure(base + "/fast_p_diff/" + k, diff)),
          figure(base + "/geomean_ratio", interval), figure(base + "/won", count), figure(base + "/lost", count), figure(base + "/tied", count),
          figure(base + "/cost_per_solved_a", dollars), figure(base + "/cost_per_solved_b", dollars));
      });
      s.append(table(head, body));
    });
  }

  // --- attempts for a person to review ---
  const links = (r) => {
    const base = r.dir.split("/").map(encodeURIComponent).join("/") + "/";
    const files = [["prompt", "prompt.md"], ["response", "response.md"]];
    if (r.candidate) files.push(["candidate", r.candidate], ["result", "result.json"]);
    return el("td", {}, ...files.map(([name, file]) => el("a", { href: base + file }, name + " ")));
  };
  {
    const review = rows.filter((r) => r.quarantine || r.library_only || r.label);
    const s = section("review", "For review: quarantined, library-only and labelled attempts");
    s.append(note("label an attempt with `refinery audit RUN KEY --label clean|reward_hack|wrong_reference|other`; accept a quarantined speedup with `refinery accept RUN KEY`."));
    if (!review.length) s.append(note("none."));
    else s.append(table(["attempt", "status", "speedup", "why", "label", "files"], review.map((r) => el("tr", {},
      el("td", {}, r.key), el("td", {}, r.status), el("td", { class: "num" }, times(r.speedup)),
      el("td", {}, [r.quarantine && "quarantined: " + r.quarantine, r.library_only && "library only"].filter(Boolean).join("; ")),
      el("td", {}, r.label ? r.label + (r.label_note ? ": " + r.label_note : "") : ""), links(r)))));
  }

  // --- every attempt ---
  {
    const s = section("attempts", "Every attempt (" + rows.length + ")");
    const filter = el("input", { type: "search", placeholder: "filter: a problem, a status, an arm...", size: 50 });
    const body = el("tbody", {});
    const shown = 2000;
    const render = () => {
      const q = filter.value.toLowerCase();
      const match = q ? rows.filter((r) => (r.key + " " + r.status + " " + r.label).toLowerCase().includes(q)) : rows;
      body.replaceChildren(...match.slice(0, shown).map((r) => el("tr", { class: r.counts ? "counts" : "" },
        el("td", {}, r.key), el("td", {}, r.status), el("td", { class: "num" }, times(r.speedup)),
        el("td", { class: "num" }, r.candidate_ms === null ? "-" : r.candidate_ms.toPrecision(4)),
        el("td", { class: "num" }, r.reference_ms === null ? "-" : r.reference_ms.toPrecision(4)),
        el("td", { class: "num" }, pct(r.sol_fraction)), el("td", { class: "num" }, r.input_tokens + r.output_tokens),
        el("td", { class: "num" }, dollars(r.cost_usd)), el("td", {}, r.label || ""), el("td", { class: "msg" }, r.message), links(r))));
      more.textContent = match.length > shown ? "showing " + shown + " of " + match.length + "; filter to see the others" : "";
    };
    const more = note("");
    filter.addEventListener("input", render);
    s.append(filter, table(["attempt", "status", "speedup", "ms", "ref ms", "sol", "tokens", "cost", "label", "message", "files"], []), more);
    s.querySelector("table").replaceChild(body, s.querySelector("tbody"));
    render();
  }

  const status = document.getElementById("page-status");
  status.textContent = errors.length ? "errors: " + errors.join("; ") : "rendered";
  document.body.setAttribute("data-rendered", errors.length ? "error" : "ok");
})();
