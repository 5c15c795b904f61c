// The reading views: the sessions, a session's replay (board, slider, verdicts, explain),
// and the diff of two replays.

import * as api from "./api.js";
import { h } from "./svg.js";
import { board, factMap } from "./boards.js";

// A violation as the command line shows it: rule id, text, section, what, expected.
export function violationCard(v) {
  return h(
    "div",
    { class: "verdict violation", "data-rule": v.rule },
    h("div", {}, h("strong", {}, `record #${v.record.index} `), h("code", { class: "notation" }, v.record.notation), " broke ", h("code", { class: "rule-id" }, v.rule)),
    h("div", { class: "rule-text" }, v.text, " ", h("span", { class: "section" }, `[${v.section}]`)),
    h("div", { class: "what" }, v.message),
    v.expected ? h("div", {}, "expected: ", h("code", {}, v.expected)) : null,
    v.recorded ? h("div", {}, "recorded: ", h("code", {}, v.recorded)) : null,
  );
}

export async function sessionsView() {
  const { sessions } = await api.get("/sessions");
  const games = await api.get("/games");
  const message = h("p", { class: "message", role: "status" });
  const name = h("input", { name: "name", required: true, placeholder: "name", pattern: "[A-Za-z0-9._-]+" });
  const game = h("select", { name: "game" }, games.map((g) => h("option", { value: g }, g)));
  const setup = h("input", { name: "setup", placeholder: "setup NAME=VALUE …" });
  const title = h("input", { name: "title", placeholder: "title" });
  const form = h(
    "form",
    {
      class: "inline",
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api.post("/sessions", { name: name.value, game: game.value, setup: setup.value.split(/\s+/).filter(Boolean), title: title.value });
          location.hash = `#/s/${api.seg(name.value)}/record`;
        } catch (err) {
          message.textContent = err.message;
        }
      },
    },
    name,
    game,
    setup,
    title,
    h("button", { type: "submit" }, "New session"),
  );
  const file = h("input", { type: "file", name: "file", accept: ".arb,.jsonl,.txt", required: true });
  const as = h("input", { name: "session", placeholder: "session name (default: the file's)", pattern: "[A-Za-z0-9._-]+" });
  const upload = h(
    "form",
    {
      class: "inline",
      onsubmit: async (e) => {
        e.preventDefault();
        const chosen = file.files[0];
        if (!chosen) return;
        try {
          const done = await api.post("/import", { file_name: chosen.name, text: await chosen.text(), session: as.value || null });
          location.hash = `#/s/${api.seg(done.result.session)}`;
        } catch (err) {
          message.textContent = err.message;
        }
      },
    },
    file,
    as,
    h("button", { type: "submit" }, "Import a log"),
  );
  const rows = sessions.map((s) =>
    h(
      "tr",
      { "data-session": s.name },
      h("td", {}, h("a", { href: `#/s/${api.seg(s.name)}` }, s.name)),
      h("td", {}, s.game),
      h("td", { class: "num" }, s.records),
      h("td", {}, s.title, s.parent ? h("span", { class: "muted" }, ` (forked from ${s.parent.session} at ${s.parent.at})`) : null),
      h("td", {}, h("a", { href: `#/s/${api.seg(s.name)}`, class: "button" }, "replay"), " ", h("a", { href: `#/s/${api.seg(s.name)}/record`, class: "button" }, "record")),
    ),
  );
  const node = h(
    "section",
    { class: "sessions" },
    h("h1", {}, "Sessions"),
    sessions.length
      ? h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "session"), h("th", {}, "game"), h("th", {}, "records"), h("th", {}, "title"), h("th", {}, ""))), h("tbody", {}, rows))
      : h("p", {}, "No sessions yet."),
    h("h2", {}, "Start one"),
    form,
    h("h2", {}, "Import a log file"),
    h("p", { class: "muted" }, "A notation (.arb) or JSONL log, such as examples/disputed-wound.arb; checked whole, stored all or nothing."),
    upload,
    message,
  );
  return { node };
}

// The replay of a session: the board after `at` records, a slider and step buttons, the
// record list with every finding marked, and the record just applied explained.
export async function replayView(name, params) {
  const info = await api.get(`/sessions/${api.seg(name)}`);
  let total = info.records;
  let entries = [];
  let findings = [];
  let at = Math.min(Number(params.get("at") ?? total), total);
  let seq = 0;

  const picture = h("div", { class: "picture" });
  const position = h("span", { class: "position", "data-testid": "position" });
  const slider = h("input", { type: "range", min: 0, max: total, value: at, "aria-label": "records applied", class: "slider" });
  const list = h("ol", { class: "records", start: 0 });
  const panel = h("aside", { class: "explain", "aria-label": "explain" });
  const summary = h("p", { class: "summary" });

  const violationsAt = (i) => findings.filter((f) => f.kind === "violation" && f.record.index === i);
  const go = (n) => show(Math.max(0, Math.min(total, n)));
  const nextViolation = () => {
    const next = findings.find((f) => f.kind === "violation" && f.record.index >= at);
    if (next) go(next.record.index + 1);
  };
  const prevViolation = () => {
    const before = findings.filter((f) => f.kind === "violation" && f.record.index < at - 1);
    if (before.length) go(before[before.length - 1].record.index + 1);
  };

  async function load() {
    const [log, verify] = await Promise.all([api.get(`/sessions/${api.seg(name)}/log`), api.get(`/sessions/${api.seg(name)}/verify`)]);
    entries = log.entries;
    findings = verify.findings;
    total = entries.length;
    slider.max = total;
    const count = verify.summary?.violations ?? findings.filter((f) => f.kind === "violation").length;
    summary.textContent = count ? `${count} violation(s) in ${total} records` : `clean: no violation in ${total} records`;
    list.replaceChildren(
      ...entries.map((e) =>
        h(
          "li",
          {
            value: e.index,
            class: [violationsAt(e.index).length ? "has-violation" : "", e.retracted_by != null ? "retracted" : "", e.retracts != null ? "retraction" : ""].join(" ").trim(),
            "data-index": e.index,
            onclick: () => go(e.index + 1),
          },
          h("code", {}, e.notation),
          violationsAt(e.index).map((v) => h("span", { class: "flag", title: v.text }, v.rule)),
        ),
      ),
    );
  }

  async function show(n) {
    at = n;
    const mine = ++seq;
    slider.value = at;
    position.textContent = `${at} of ${total} records applied`;
    history.replaceState(null, "", `#/s/${api.seg(name)}?at=${at}`);
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.index) === at - 1);
    const replay = await api.get(`/sessions/${api.seg(name)}/replay`, { to: at });
    const explain = at > 0 ? await api.get(`/sessions/${api.seg(name)}/explain/${at - 1}`) : null;
    if (mine !== seq) return;
    const changed = new Set();
    if (explain && explain.after) {
      const before = factMap(explain.before.facts);
      for (const f of explain.after.facts) if (before.get(f.key) !== f.value) changed.add(f.key);
    }
    picture.replaceChildren(board(info.game, replay.state, changed));
    panel.replaceChildren(...explainPanel(explain).filter(Boolean));
  }

  function explainPanel(x) {
    if (!x) return [h("h2", {}, "Explain"), h("p", {}, "The table before the first record.")];
    const verdict = x.violations.length
      ? x.violations.map(violationCard)
      : x.error
        ? [h("div", { class: "verdict error" }, `cannot be applied: ${x.error.message}`)]
        : [h("div", { class: "verdict clean", "data-testid": "clean" }, x.status === "applied" ? "no rule broken" : x.status)];
    return [
      h("h2", {}, "Explain ", h("span", { class: "muted" }, `record #${x.record.index}`)),
      h("p", {}, "recorded: ", h("code", { class: "notation" }, x.record.notation), x.consequence ? h("span", { class: "muted" }, " (a consequence)") : null),
      x.rules_say ? h("p", {}, "the rules say next: ", h("code", {}, x.rules_say)) : null,
      h("h3", {}, "Verdict"),
      h("div", { class: "verdicts", "data-testid": "verdict" }, verdict),
      x.unverified.length ? h("div", { class: "unverified" }, x.unverified.map((u) => h("div", {}, `unverified: ${u.effect}`))) : null,
      h("details", {}, h("summary", {}, "board before"), h("pre", {}, x.before.board)),
    ];
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight") go(at + 1);
    if (e.key === "ArrowLeft") go(at - 1);
  };
  document.addEventListener("keydown", keys);

  await load();
  const controls = h(
    "div",
    { class: "controls" },
    h("button", { onclick: () => go(0), title: "first" }, "|◀"),
    h("button", { onclick: () => go(at - 1), title: "back one record", "data-testid": "back" }, "◀"),
    h("button", { onclick: () => go(at + 1), title: "forward one record", "data-testid": "forward" }, "▶"),
    h("button", { onclick: () => go(total), title: "last" }, "▶|"),
    h("button", { onclick: prevViolation, title: "previous violation" }, "◀ violation"),
    h("button", { onclick: nextViolation, title: "next violation", "data-testid": "next-violation" }, "violation ▶"),
    slider,
    position,
  );
  const node = h(
    "section",
    { class: "replay", "data-session": name },
    h("h1", {}, name, " ", h("span", { class: "muted" }, `${info.game}${info.title ? " · " + info.title : ""}`), " ", h("a", { href: `#/s/${api.seg(name)}/record`, class: "button" }, "record")),
    summary,
    controls,
    h("div", { class: "split" }, h("div", { class: "main-col" }, picture, list), panel),
  );
  await show(at);
  // Live: another client's append extends the log; a page at the end follows it.
  const stop = api.watch(name, async (records) => {
    if (records === total) return;
    const atEnd = at === total;
    await load();
    await show(atEnd ? total : Math.min(at, total));
  });
  return { node, leave: () => { stop(); document.removeEventListener("keydown", keys); } };
}

// Two replays side by side at their first split.
export async function diffView(params) {
  const a = h("input", { name: "a", value: params.get("a") || "", placeholder: "session or session@NAME=VALUE", required: true });
  const b = h("input", { name: "b", value: params.get("b") || "", placeholder: "session or session@NAME=VALUE", required: true });
  const out = h("div", { class: "diff-out" });
  const form = h(
    "form",
    { class: "inline", onsubmit: (e) => { e.preventDefault(); location.hash = `#/diff?a=${encodeURIComponent(a.value)}&b=${encodeURIComponent(b.value)}`; } },
    "A ", a, " B ", b, h("button", { type: "submit" }, "Diff"),
  );
  const node = h("section", { class: "diff" }, h("h1", {}, "Diff"), form, out);
  if (!params.get("a") || !params.get("b")) return { node };
  const report = await api.get("/diff", { a: params.get("a"), b: params.get("b"), context: 3 });
  if (report.identical) {
    out.replaceChildren(h("p", { class: "verdict clean", "data-testid": "identical" }, `identical: ${report.compared} records agree`));
    return { node };
  }
  const split = report.divergences[0];
  const side = async (spec, record, verdict, label) => {
    const children = [h("h2", {}, `${label}: ${spec}`)];
    if (!record) {
      children.push(h("p", {}, "ends here"));
      return h("div", { class: "side" }, children);
    }
    const x = await api.get(`/sessions/${api.seg(spec)}/explain/${record.index}`);
    children.push(
      h("p", {}, `#${record.index} `, h("code", { class: "notation" }, record.notation)),
      h("div", { class: "verdicts" }, x.violations.length ? x.violations.map(violationCard) : h("div", { class: "verdict clean" }, verdict.length ? verdict.join("; ") : "no rule broken")),
      board(report.game, x.after || x.before, new Set(split.state_diff.map((d) => d.key))),
    );
    return h("div", { class: "side", "data-side": label }, children);
  };
  const [left, right] = await Promise.all([side(report.a, split.a, split.a_verdict, "A"), side(report.b, split.b, split.b_verdict, "B")]);
  out.replaceChildren(
    ...[h("p", { class: "split-summary", "data-testid": "split" }, `first split (${split.reason}): ${split.explanation}`),
    report.last_agreement ? h("p", { class: "muted" }, `last agreement: A #${report.last_agreement.a.index} = B #${report.last_agreement.b.index} \`${report.last_agreement.a.notation}\``) : null,
    split.state_diff.length
      ? h("table", { class: "state-diff" }, h("thead", {}, h("tr", {}, h("th", {}, "fact"), h("th", {}, "A"), h("th", {}, "B"))), h("tbody", {}, split.state_diff.map((d) => h("tr", {}, h("td", {}, d.key), h("td", {}, d.a), h("td", {}, d.b)))))
      : null,
    h("div", { class: "sides" }, left, right),
  ].filter(Boolean));
  return { node };
}
