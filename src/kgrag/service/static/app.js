// The web page of `kgrag serve`: plain JS, no build step, no network beyond this server.
// All KG data reaches the DOM through textContent (never innerHTML): names are user content.
"use strict";

(() => {
  const TOKEN_KEY = "kgrag.token";
  const STREAM_KEY = "kgrag.stream";
  const MODE_KEY = "kgrag.mode";
  const RANKING_SHOWN = 10;   // the ranking is shown up to this rank
  const EVIDENCE_SHOWN = 30;  // evidence items before "show all"
  const COLORS = { question: "#2563eb", answer: "#16a34a", context: "#9ca3af", instead: "#dc2626" };
  // a claim's verdict (Answer.label) -> its CSS class
  const VERDICT_CLASS = { true: "true", false: "false", "not enough evidence": "nei" };
  const MODES = {
    ask: { label: "Question", button: "Ask", busy: "Asking…", placeholder: "Ask a question, e.g. who directed Inception" },
    verify: { label: "Claim", button: "Check", busy: "Checking…",
              placeholder: "Check a claim, e.g. Inception was directed by Christopher Nolan" },
  };

  const $ = (id) => document.getElementById(id);

  // API base: the folder of the page ("/" normally, "/prefix/" behind a proxy); the page opened as
  // /static/index.html still talks to the service root.
  const BASE = (() => {
    const p = window.location.pathname;
    const i = p.indexOf("/static/");
    return i >= 0 ? p.slice(0, i + 1) : p.replace(/[^/]*$/, "");
  })();

  const state = {
    info: null,            // the /info answer
    methods: new Map(),    // name -> method description
    optionValues: {},      // method -> {option -> raw control value} (kept when switching methods)
    controller: null,      // AbortController of the request in flight
    cy: null,              // the Cytoscape instance
    lastSubgraph: null,
    mode: "ask",           // "ask" (a question, POST /ask) or "verify" (a claim, POST /verify)
    drafts: { ask: "", verify: "" },  // what was typed in each mode
  };

  // ---------- small DOM helpers (text only) ----------

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null) continue;
        if (k === "class") node.className = v;
        else if (k === "text") node.textContent = String(v);
        else if (k === "dataset") Object.assign(node.dataset, v);
        else if (k in node && typeof v !== "string") node[k] = v;
        else node.setAttribute(k, String(v));
      }
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  const show = (node, on = true) => node.classList.toggle("hidden", !on);
  const clear = (node) => node.replaceChildren();

  function fmtScore(x) {
    if (x === null || x === undefined || Number.isNaN(x)) return "";
    const a = Math.abs(x);
    if (a !== 0 && (a < 0.001 || a >= 1e5)) return x.toExponential(2);
    return (Math.round(x * 1000) / 1000).toString();
  }

  function fmtSeconds(s) {
    if (typeof s !== "number") return String(s);
    return s < 0.01 ? `${(s * 1000).toFixed(1)} ms` : s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`;
  }

  function setStatus(text, kind = "") {
    const s = $("status");
    s.textContent = text;
    s.className = "status" + (kind ? " " + kind : "");
  }

  function showError(title, detail) {
    const box = $("error");
    clear(box);
    box.append(el("strong", { text: title }));
    if (detail) box.append(el("div", { class: "error-detail", text: detail }));
    show(box, true);
    box.scrollIntoView({ block: "nearest" });
  }

  function clearError() {
    clear($("error"));
    show($("error"), false);
  }

  // ---------- HTTP ----------

  function token() {
    return $("token").value.trim();
  }

  function headers(json = false) {
    const h = { Accept: "application/json" };
    if (json) h["Content-Type"] = "application/json";
    const t = token();
    if (t) h.Authorization = `Bearer ${t}`;
    return h;
  }

  class HttpError extends Error {
    constructor(status, detail, answer = null) {
      super(`${status}: ${detail}`);
      this.status = status;
      this.detail = detail;
      this.answer = answer;  // 503 when the LLM failed: what the method found without it
    }
  }

  // FastAPI's detail is a string, or for 422 a list of {loc, msg}.
  function describeDetail(detail) {
    if (detail === null || detail === undefined) return "";
    if (typeof detail === "string") return detail;
    if (Array.isArray(detail)) {
      return detail.map((d) => {
        if (d && typeof d === "object" && "msg" in d) {
          const loc = Array.isArray(d.loc) ? d.loc.filter((x) => x !== "body").join(".") : "";
          return loc ? `${loc}: ${d.msg}` : d.msg;
        }
        return JSON.stringify(d);
      }).join("; ");
    }
    return JSON.stringify(detail);
  }

  async function errorFrom(resp) {
    let detail = resp.statusText || "request failed";
    let answer = null;
    try {
      const text = await resp.text();
      try {
        const body = JSON.parse(text);
        detail = describeDetail(body && typeof body === "object" && "detail" in body ? body.detail : body);
        if (body && typeof body.answer === "object" && body.answer) answer = body.answer;
      } catch {
        if (text.trim()) detail = text.trim().slice(0, 500);
      }
    } catch { /* body unreadable: keep the status text */ }
    return new HttpError(resp.status, detail, answer);
  }

  async function getJSON(path) {
    const resp = await fetch(BASE + path, { headers: headers() });
    if (!resp.ok) throw await errorFrom(resp);
    return resp.json();
  }

  function explainHttp(err, what) {
    if (err instanceof HttpError) {
      if (err.status === 401) {
        openSettingsForToken();
        return [`401 Unauthorized: ${what} needs an access token`,
                (token() ? "The token entered was refused. " : "This server is protected. ") +
                "Enter the token in Settings (below the question) and ask again." +
                (err.detail ? ` (server: ${err.detail})` : "")];
      }
      const label = err.status === 422 ? "422 Invalid request" : err.status === "stream" ? "Server error"
        : `${err.status} error`;
      return [`${label}: ${what} failed`, err.detail];
    }
    if (err && err.name === "AbortError") return null;
    return [`${what} failed: the server could not be reached`, String(err && err.message ? err.message : err)];
  }

  function openSettingsForToken() {
    const s = $("settings");
    s.open = true;
    s.classList.add("attention");
    if (!token()) $("token").focus();
  }

  // ---------- /info: methods and options ----------

  async function loadInfo() {
    setStatus("Loading server info…", "busy");
    try {
      const info = await getJSON("info");
      state.info = info;
      renderInfo(info);
      clearError();
      $("settings").classList.remove("attention");
      setStatus("Ready.");
      return true;
    } catch (err) {
      const e = explainHttp(err, "GET /info");
      if (e) showError(...e);
      setStatus(err instanceof HttpError && err.status === 401 ? "Needs an access token." : "Server info unavailable.",
                "bad");
      return false;
    }
  }

  function renderInfo(info) {
    const db = info.database || {};
    const d = $("dbinfo");
    clear(d);
    const rels = Array.isArray(db.relations) ? db.relations : [];
    d.append(
      el("span", { class: "pill", title: db.path || "", text: shortPath(db.path || "database") }),
      el("span", { class: "pill", text: `${fmtInt(db.nodes)} nodes` }),
      el("span", { class: "pill", text: `${fmtInt(db.edges)} edges` }),
      el("span", { class: "pill", title: rels.join(", "), text: `${rels.length} relations` }),
    );
    if (info.auth) d.append(el("span", { class: "pill lock", title: "this server needs a token", text: "token" }));
    $("version").textContent = info.version ? `kgrag ${info.version}` : "";

    const select = $("method");
    const previous = select.value;
    clear(select);
    state.methods.clear();
    for (const m of info.methods || []) {
      state.methods.set(m.name, m);
      select.append(el("option", { value: m.name, title: m.summary || "", text: m.name }));
    }
    const want = state.methods.has(previous) ? previous : info.default_method;
    if (state.methods.has(want)) select.value = want;
    for (const opt of select.options) {
      if (opt.value === info.default_method) opt.textContent = `${opt.value} (default)`;
    }
    renderOptions();
  }

  const fmtInt = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : "?");

  function shortPath(p) {
    const parts = String(p).split(/[\\/]/).filter(Boolean);
    return parts.length > 2 ? "…/" + parts.slice(-2).join("/") : String(p);
  }

  // "int", "float|None", "a|b|c" (a Literal), "Path|None" -> {kind, nullable, choices}
  function parseType(type) {
    const parts = String(type || "str").split("|").map((s) => s.trim()).filter(Boolean);
    const nullable = parts.includes("None");
    const rest = parts.filter((p) => p !== "None");
    const scalar = new Set(["int", "float", "bool", "str"]);
    if (rest.length === 1 && scalar.has(rest[0])) return { kind: rest[0], nullable };
    if (rest.length > 0 && rest.every((p) => p === "int" || p === "float")) return { kind: "float", nullable };
    if (rest.length === 1) return { kind: "text", nullable };  // Path, list[...], ...: free text
    return { kind: "choice", nullable, choices: rest };
  }

  function defaultRaw(t, def) {
    if (def === null || def === undefined) return t.kind === "bool" && !t.nullable ? false : "";
    if (t.kind === "bool") return t.nullable ? String(def) : Boolean(def);
    if (t.kind === "text" && typeof def === "object") return JSON.stringify(def);
    return String(def);
  }

  // raw control value -> {ok, value} | {ok: false, message}
  function parseRaw(t, raw) {
    if (t.kind === "bool" && !t.nullable) return { ok: true, value: Boolean(raw) };
    const s = String(raw).trim();
    if (s === "" || s === "None") {
      if (t.nullable) return { ok: true, value: null };
      if (t.kind === "str") return { ok: true, value: String(raw) };
      return { ok: false, message: "a value is required" };
    }
    switch (t.kind) {
      case "bool": return { ok: true, value: s === "true" };
      case "int":
        return /^[+-]?\d+$/.test(s) ? { ok: true, value: Number(s) } : { ok: false, message: "an integer is expected" };
      case "float": {
        const x = Number(s);
        return Number.isFinite(x) ? { ok: true, value: x } : { ok: false, message: "a number is expected" };
      }
      case "str": return { ok: true, value: String(raw) };
      case "choice": return { ok: true, value: coerceChoice(s) };
      default: // free text; JSON when it parses as such (lists, numbers)
        if (/^[[{]/.test(s)) { try { return { ok: true, value: JSON.parse(s) }; } catch { /* plain text */ } }
        return { ok: true, value: s };
    }
  }

  // Literal choices arrive as their str(); numbers and booleans are sent as such.
  function coerceChoice(s) {
    if (s === "True" || s === "true") return true;
    if (s === "False" || s === "false") return false;
    if (/^[+-]?\d+(\.\d+)?$/.test(s)) return Number(s);
    return s;
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  function renderOptions() {
    const box = $("options");
    clear(box);
    const m = state.methods.get($("method").value);
    $("method-summary").textContent = m && m.summary ? m.summary : "";
    $("options-count").textContent = m ? `(${(m.options || []).length})` : "";
    if (!m) return;
    const saved = state.optionValues[m.name] || {};
    if (!(m.options || []).length) box.append(el("p", { class: "muted", text: "This method has no options." }));
    for (const o of m.options || []) {
      const t = parseType(o.type);
      const id = `opt-${m.name}-${o.name}`;
      const raw = o.name in saved ? saved[o.name] : defaultRaw(t, o.default);
      let control;
      if (t.kind === "bool" && !t.nullable) {
        control = el("input", { id, type: "checkbox" });
        control.checked = Boolean(raw);
      } else if (t.kind === "choice" || t.kind === "bool") {
        const choices = t.kind === "bool" ? ["true", "false"] : t.choices;
        control = el("select", { id });
        if (t.nullable) control.append(el("option", { value: "", text: "None" }));
        for (const c of choices) control.append(el("option", { value: c, text: c }));
        control.value = raw;
      } else {
        const numeric = t.kind === "int" || t.kind === "float";
        control = el("input", {
          id, type: numeric ? "number" : "text", step: t.kind === "int" ? "1" : numeric ? "any" : undefined,
          placeholder: t.nullable ? "None" : "", spellcheck: "false",
        });
        control.value = raw;
      }
      control.dataset.option = o.name;
      control.dataset.method = m.name;
      const def = o.default === null || o.default === undefined ? "None" : JSON.stringify(o.default);
      const row = el("div", { class: "option" },
        el("label", { for: id, class: "option-name", text: o.name }),
        el("div", { class: "option-control" }, control, el("span", { class: "option-type", text: o.type })),
        el("div", { class: "option-desc", text: `${o.description || ""} Default: ${def}.`.trim() }),
      );
      row.dataset.type = o.type;
      const onChange = () => {
        (state.optionValues[m.name] ||= {})[o.name] = control.type === "checkbox" ? control.checked : control.value;
        markOption(row, control, t, o);
        updateChangedBadge();
      };
      control.addEventListener("input", onChange);
      control.addEventListener("change", onChange);
      box.append(row);
      markOption(row, control, t, o);
    }
    updateChangedBadge();
  }

  function controlRaw(control) {
    return control.type === "checkbox" ? control.checked : control.value;
  }

  function markOption(row, control, t, o) {
    const p = parseRaw(t, controlRaw(control));
    row.classList.toggle("invalid", !p.ok);
    row.classList.toggle("changed", p.ok && !same(p.value, o.default ?? null));
    control.title = p.ok ? "" : p.message;
  }

  function updateChangedBadge() {
    const n = $("options").querySelectorAll(".option.changed").length;
    const b = $("options-changed");
    b.textContent = n ? `${n} changed` : "";
    show(b, n > 0);
  }

  // Only the options the user changed (value differs from the default) are sent.
  function collectOptions() {
    const m = state.methods.get($("method").value);
    const out = {};
    const problems = [];
    if (!m) return { options: out, problems };
    for (const o of m.options || []) {
      const control = document.getElementById(`opt-${m.name}-${o.name}`);
      if (!control) continue;
      const t = parseType(o.type);
      const p = parseRaw(t, controlRaw(control));
      if (!p.ok) { problems.push(`${o.name}: ${p.message}`); continue; }
      if (!same(p.value, o.default ?? null)) out[o.name] = p.value;
    }
    return { options: out, problems };
  }

  // ---------- asking ----------

  // One request from the form, for either mode: the text typed, the request before it aborted, the
  // button busy meanwhile, /info loaded first, the errors of every endpoint shown the same way.
  // `work(text, controller)` sends it and returns the Answer (null: it stopped and said why);
  // `render` draws an answer, also one attached to an error (e.g. 504: what was found in time).
  async function runRequest(ev, mode, { empty, work, render, endpoint, failed, done }) {
    if (ev) ev.preventDefault();
    const text = $("question").value.trim();
    if (!text) {
      setStatus(empty, "bad");
      $("question").focus();
      return;
    }
    if (state.controller) state.controller.abort();
    const controller = new AbortController();
    state.controller = controller;
    clearError();
    $("ask").disabled = true;
    $("ask").textContent = MODES[mode].busy;
    const t0 = performance.now();
    try {
      if (!state.info) {
        // /info failed (e.g. 401 before a token was entered): try again with the current token.
        if (!(await loadInfo()) || controller.signal.aborted) return;
      }
      const answer = await work(text, controller);
      if (controller.signal.aborted || !answer) return;
      render(answer);
      const secs = ((performance.now() - t0) / 1000).toFixed(2);
      setStatus(answer.error ? `${failed} (${secs} s).` : `${done} ${answer.method} in ${secs} s.`,
                answer.error ? "bad" : "ok");
    } catch (err) {
      if (controller.signal.aborted) return;
      const e = explainHttp(err, endpoint());
      if (err instanceof HttpError && err.answer) {
        render(err.answer);
        show($("results"), true);
      } else {
        show($("results"), false);
      }
      if (e) showError(...e);
      setStatus("Failed.", "bad");
    } finally {
      if (state.controller === controller) {
        state.controller = null;
        $("ask").disabled = false;
        $("ask").textContent = MODES[state.mode].button;
      }
    }
  }

  function ask(ev) {
    const stream = $("stream").checked;
    return runRequest(ev, "ask", {
      empty: "Type a question first.",
      endpoint: () => (stream ? "POST /ask/stream" : "POST /ask"),
      failed: "No answer",
      done: "Answered by",
      render: renderAnswer,
      work: async (question, controller) => {
        const { options, problems } = collectOptions();
        if (problems.length) {
          $("options-panel").open = true;
          showError("Invalid option value", problems.join("; "));
          setStatus("Fix the options first.", "bad");
          return null;
        }
        const body = { question, method: $("method").value || null, options };
        resetResults();
        show($("text-card"), stream);  // tokens are appended there as they arrive
        show($("results"), true);
        setStatus(stream ? "Asking (streaming)…" : "Asking…", "busy");
        return stream ? askStream(body, controller) : askPlain(body, controller);
      },
    });
  }

  // ---------- question or claim ----------

  function setMode(mode) {
    if (!(mode in MODES)) mode = "ask";
    const box = $("question");
    if (mode !== state.mode) {
      state.drafts[state.mode] = box.value;
      box.value = state.drafts[mode] || "";
      if (state.controller) state.controller.abort();  // its result belongs to the other mode
      show($("results"), false);
      if (state.info) {  // else the error says why /info failed (e.g. a token is needed): it stays
        clearError();
        setStatus("Ready.");
      }
    }
    state.mode = mode;
    localStorage.setItem(MODE_KEY, mode);
    document.body.classList.toggle("claim-mode", mode === "verify");
    for (const m of Object.keys(MODES)) $(`mode-${m}`).setAttribute("aria-pressed", String(m === mode));
    box.placeholder = MODES[mode].placeholder;
    $("question-label").textContent = MODES[mode].label;
    $("legend-q").textContent = mode === "verify" ? "claim" : "question";
    const button = $("ask");
    if (!button.disabled) button.textContent = MODES[mode].button;
  }

  function submit(ev) {
    return state.mode === "verify" ? verify(ev) : ask(ev);
  }

  // ---------- checking a claim ----------

  function verify(ev) {
    return runRequest(ev, "verify", {
      empty: "Type a claim first.",
      endpoint: () => "POST /verify",
      failed: "No verdict",
      done: "Checked by",
      render: renderVerdict,
      work: async (claim, controller) => {
        resetResults();
        show($("results"), true);
        setStatus("Checking the claim…", "busy");
        const resp = await fetch(BASE + "verify", {
          method: "POST", headers: headers(true), body: JSON.stringify({ claim }), signal: controller.signal,
        });
        if (!resp.ok) throw await errorFrom(resp);
        return resp.json();
      },
    });
  }

  async function askPlain(body, controller) {
    const resp = await fetch(BASE + "ask", {
      method: "POST", headers: headers(true), body: JSON.stringify(body), signal: controller.signal,
    });
    if (!resp.ok) throw await errorFrom(resp);
    return resp.json();
  }

  // POST /ask/stream: server-sent events read from the response body (EventSource cannot POST).
  async function askStream(body, controller) {
    const resp = await fetch(BASE + "ask/stream", {
      method: "POST", headers: { ...headers(true), Accept: "text/event-stream" }, body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!resp.ok) throw await errorFrom(resp);
    if (!resp.body) return askPlain(body, controller);  // no streaming support: fall back
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let answer = null;
    let failed = null;
    const textBox = $("text");
    const stages = [];

    const dispatch = (event, data) => {
      let payload;
      try { payload = data ? JSON.parse(data) : {}; } catch { payload = { text: data }; }
      switch (event) {
        case "stage":
          stages.push(payload.stage);
          setStatus(`Working: ${stages.join(" → ")}…`, "busy");
          break;
        case "token":
          if (typeof payload.text === "string") {
            textBox.classList.add("live");
            textBox.append(document.createTextNode(payload.text));
          }
          break;
        case "answer":
          answer = payload;
          break;
        case "error":
          failed = describeDetail(payload.detail !== undefined ? payload.detail : payload);
          break;
        default: break;  // comments/keep-alives and unknown events are ignored
      }
    };

    const flush = (block) => {
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (!line || line.startsWith(":")) continue;
        const i = line.indexOf(":");
        const field = i < 0 ? line : line.slice(0, i);
        let value = i < 0 ? "" : line.slice(i + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length || event !== "message") dispatch(event, data.join("\n"));
    };

    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        flush(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
      }
    }
    buffer += decoder.decode();
    if (buffer.trim()) flush(buffer);
    textBox.classList.remove("live");
    if (failed !== null) throw new HttpError("stream", failed || "the server reported an error", answer);
    if (!answer) throw new Error("the stream ended without an answer");
    return answer;
  }

  // ---------- results ----------

  function resetResults() {
    for (const id of ["answers", "ranking", "text", "warnings", "timings", "evidence", "node-info", "claim-verdict",
                      "claim-confidence", "claim-reason", "facts"]) {
      clear($(id));
    }
    $("claim-verdict").className = "claim-verdict";
    clear($("llm").querySelector("tbody"));
    for (const id of ["ranking-wrap", "warnings", "llm", "evidence-more", "verdict", "no-answers", "ranking-more"]) {
      show($(id), false);
    }
    $("evidence-count").textContent = "";
    $("graph-count").textContent = "";
    destroyGraph();
  }

  function entityItem(e, cls) {
    return el("li", { class: cls, title: e.id !== null && e.id !== undefined ? `node id ${e.id}` : "" },
      el(cls === "answer" ? "strong" : "span", { class: "name", text: e.name }),
      el("span", { class: "score", text: fmtScore(e.score) }));
  }

  function renderAnswer(a) {
    const entities = Array.isArray(a.entities) ? a.entities : [];
    const nSel = a.num_selected === null || a.num_selected === undefined ? entities.length
      : Math.min(a.num_selected, entities.length);

    const answers = $("answers");
    clear(answers);
    entities.slice(0, nSel).forEach((e) => answers.append(entityItem(e, "answer")));
    answers.classList.toggle("many", nSel > 8);
    answers.classList.toggle("columns", nSel > 14);
    show($("no-answers"), nSel === 0);

    const rest = entities.slice(nSel, Math.max(RANKING_SHOWN, nSel));
    const ranking = $("ranking");
    clear(ranking);
    ranking.start = nSel + 1;
    rest.forEach((e) => ranking.append(entityItem(e, "ranked")));
    show($("ranking-wrap"), rest.length > 0);
    const hidden = entities.length - nSel - rest.length;
    $("ranking-more").textContent = hidden > 0 ? `… and ${hidden} more` : "";
    show($("ranking-more"), hidden > 0);

    const verdict = $("verdict");
    const label = verdictOf(a);
    if (label) {
      verdict.textContent = label;
      verdict.className = "verdict " + ({ true: "yes", false: "no" }[label] || "nei");
    } else {
      show(verdict, false);
    }

    const text = $("text");
    text.classList.remove("live");
    text.textContent = a.text || "";
    show($("text-card"), Boolean(a.text));

    renderCommon(a, "No answer");
    renderGraph(a.subgraph, entities.slice(0, nSel).map((e) => e.id).filter((id) => id !== null && id !== undefined));
  }

  // What an answer and a verdict show alike: the error, the warnings, the timings, the evidence.
  function renderCommon(a, errorTitle) {
    if (a.error) showError(errorTitle, a.error);
    const warnings = $("warnings");
    clear(warnings);
    for (const w of a.warnings || []) warnings.append(el("li", { text: w }));
    show(warnings, (a.warnings || []).length > 0);
    renderTimings(a);
    renderEvidence(a.evidence || []);
  }

  // An answer's verdict: "true", "false", "not enough evidence" (older servers: a JSON bool), else null.
  function verdictOf(a) {
    if (a.label === true || a.label === false) return String(a.label);
    return typeof a.label === "string" && Object.hasOwn(VERDICT_CLASS, a.label) ? a.label : null;
  }

  // The name of relation number r: /info lists the KG's relations in their order.
  function relationName(r) {
    const rels = state.info && state.info.database && state.info.database.relations;
    return Array.isArray(rels) && typeof r === "number" && r >= 0 && r < rels.length ? String(rels[r]) : null;
  }

  // A claim's answer (POST /verify): the verdict, its confidence and reason, each fact with whether it
  // holds and the edges that decide (the match, or what the KG holds instead), the deciding subgraph.
  function renderVerdict(a) {
    const label = verdictOf(a);
    const badge = $("claim-verdict");
    badge.textContent = label || "no verdict";
    badge.className = "claim-verdict " + (label ? VERDICT_CLASS[label] : "nei");
    $("claim-confidence").textContent = typeof a.confidence === "number" ? `confidence ${fmtScore(a.confidence)}` : "";
    const text = String(a.text || "");
    $("claim-reason").textContent = label && text.startsWith(`${label}: `) ? text.slice(label.length + 2) : text;

    const nodes = (a.subgraph && a.subgraph.nodes) || [];
    const names = new Map(nodes.map((n) => [String(n.id), String(n.name ?? n.id)]));
    const nameOf = (id) => names.get(String(id)) ?? `#${id}`;
    const marks = new Map();  // "source|relation|target" of the deciding edges -> "holds" | "instead"
    const facts = $("facts");
    clear(facts);
    for (const ev of a.evidence || []) {
      if (ev.kind !== "fact") continue;
      const data = ev.data && typeof ev.data === "object" ? ev.data : {};
      const holds = data.holds === true || (data.holds === undefined && ev.score === 1);
      const body = el("div", { class: "fact-body" }, el("div", { class: "fact-text", text: ev.text }));
      const triples = (Array.isArray(data.triples) ? data.triples : []).filter((t) => Array.isArray(t) && t.length === 3);
      if (triples.length) {
        const list = el("ul", { class: "fact-edges" });
        for (const [h, r, t] of triples) {
          const rel = relationName(r);
          marks.set(`${h}|${rel ?? ""}|${t}`, holds ? "holds" : "instead");
          list.append(el("li", null,
            el("span", { class: "edge-label", text: holds ? "matched:" : "KG holds instead:" }), " ",
            el("strong", { text: nameOf(h) }), ` —${rel ?? `relation ${r}`}→ `, el("strong", { text: nameOf(t) })));
        }
        body.append(list);
      }
      facts.append(el("li", { class: `fact ${holds ? "holds" : "fails"}` },
        el("span", { class: "fact-mark", title: holds ? "holds" : "does not hold", text: holds ? "✓" : "✗" }), body));
    }
    if (!facts.childElementCount) {
      facts.append(el("li", { class: "muted", text: a.error ? "No facts were checked."
        : "No fact of the claim could be checked against the graph." }));
    }

    renderCommon(a, "No verdict");
    renderGraph(a.subgraph, [], marks);
  }

  function renderTimings(a) {
    const t = $("timings");
    clear(t);
    const entries = Object.entries(a.timings || {});
    const total = entries.find(([k]) => k === "total");
    const parts = entries.filter(([k]) => k !== "total").map(([k, v]) => `${k} ${fmtSeconds(v)}`);
    t.append(el("span", { class: "label", text: `${a.method || ""} ` }));
    if (parts.length) t.append(`timings: ${parts.join(" · ")}`);
    if (total) t.append(el("strong", { text: `  total ${fmtSeconds(total[1])}` }));

    const calls = a.llm_calls || [];
    const body = $("llm").querySelector("tbody");
    clear(body);
    let prompt = 0, completion = 0, secs = 0;
    for (const c of calls) {
      prompt += c.prompt_tokens || 0; completion += c.completion_tokens || 0; secs += c.seconds || 0;
      body.append(el("tr", null,
        el("td", { text: c.purpose }), el("td", { text: c.model }), el("td", { text: c.prompt_tokens }),
        el("td", { text: c.completion_tokens }), el("td", { text: fmtSeconds(c.seconds) }),
        el("td", { text: c.cached ? "yes" : "" })));
    }
    if (calls.length > 1) {
      body.append(el("tr", { class: "total" }, el("td", { text: `${calls.length} calls` }), el("td"),
        el("td", { text: prompt }), el("td", { text: completion }), el("td", { text: fmtSeconds(secs) }), el("td")));
    }
    show($("llm"), calls.length > 0);
    if (!calls.length) t.append(el("div", { text: "no LLM calls" }));
  }

  function renderEvidence(items, all = false) {
    const list = $("evidence");
    clear(list);
    $("evidence-count").textContent = items.length ? `(${items.length})` : "";
    const shown = all ? items : items.slice(0, EVIDENCE_SHOWN);
    for (const ev of shown) {
      const isQuery = ev.kind === "query" || ev.kind === "pattern";
      const head = el("div", { class: "ev-head" }, el("span", { class: `kind kind-${safeClass(ev.kind)}`, text: ev.kind }));
      if (ev.score !== null && ev.score !== undefined) head.append(el("span", { class: "score", text: fmtScore(ev.score) }));
      const li = el("li", { class: isQuery ? "ev query" : "ev" }, head,
        isQuery ? el("pre", { class: "code", text: ev.text }) : el("div", { class: "ev-text", text: ev.text }));
      if (ev.data && typeof ev.data === "object" && Object.keys(ev.data).length) {
        li.append(el("details", { class: "ev-data" }, el("summary", { text: "data" }),
          el("pre", { class: "code small", text: JSON.stringify(ev.data, null, 2) })));
      }
      list.append(li);
    }
    if (!items.length) list.append(el("li", { class: "muted", text: "No evidence." }));
    const more = $("evidence-more");
    more.textContent = `show all ${items.length}`;
    more.onclick = () => renderEvidence(items, true);
    show(more, !all && items.length > EVIDENCE_SHOWN);
  }

  const safeClass = (s) => String(s || "").replace(/[^a-z0-9_-]/gi, "");

  // ---------- the graph ----------

  function destroyGraph() {
    if (state.cy) { state.cy.destroy(); state.cy = null; }
    const g = $("graph");
    clear(g);
    delete g.dataset.nodes;
    delete g.dataset.edges;
    delete g.dataset.layout;
    g.classList.remove("empty");
    state.lastSubgraph = null;
  }

  // marks: "source|relation|target" -> "holds" | "instead" (a claim's deciding edges; relation may be "")
  function renderGraph(sub, answerIds, marks = null) {
    destroyGraph();
    const g = $("graph");
    const nodes = sub && Array.isArray(sub.nodes) ? sub.nodes : [];
    const edges = sub && Array.isArray(sub.edges) ? sub.edges : [];
    if (!nodes.length) {
      g.classList.add("empty");
      g.append(el("div", { class: "graph-empty muted", text: sub ? "The subgraph is empty." : "No subgraph for this answer." }));
      g.dataset.nodes = "0";
      g.dataset.edges = "0";
      return;
    }
    if (typeof window.cytoscape !== "function") {
      g.classList.add("empty");
      g.append(el("div", { class: "graph-empty muted", text: "Cytoscape.js did not load (static/vendor/cytoscape.min.js)." }));
      return;
    }
    state.lastSubgraph = sub;
    const ids = new Set(nodes.map((n) => String(n.id)));
    // the service marks a bounded number of answers; every selected answer drawn is coloured as one
    const selected = new Set((answerIds || []).map(String));
    const elements = [];
    for (const n of nodes) {
      let role = n.role === "question" || n.role === "answer" ? n.role : "context";
      if (role === "context" && selected.has(String(n.id))) role = "answer";
      elements.push({ group: "nodes", data: { id: String(n.id), name: String(n.name ?? n.id), role } });
    }
    edges.forEach((e, i) => {
      if (!ids.has(String(e.source)) || !ids.has(String(e.target))) return;
      const data = { id: `e${i}`, source: String(e.source), target: String(e.target),
                     relation: String(e.relation ?? "") };
      const mark = marks && (marks.get(`${e.source}|${data.relation}|${e.target}`)
                             || marks.get(`${e.source}||${e.target}`));
      if (mark) data.mark = mark;
      elements.push({ group: "edges", data });
    });
    const cy = window.cytoscape({
      container: g,
      elements,
      minZoom: 0.1,
      maxZoom: 4,
      style: [
        { selector: "node", style: {
          "background-color": COLORS.context, label: "data(name)", "font-size": 11, color: "#1f2937",
          "min-zoomed-font-size": 5, "text-valign": "bottom", "text-margin-y": 4, "text-wrap": "ellipsis",
          "text-max-width": 130,
          "text-background-color": "#ffffff", "text-background-opacity": 0.8, "text-background-padding": 1,
          width: 18, height: 18, "border-width": 1, "border-color": "#ffffff" } },
        { selector: 'node[role = "question"]', style: { "background-color": COLORS.question, width: 24, height: 24,
          "font-weight": "bold" } },
        { selector: 'node[role = "answer"]', style: { "background-color": COLORS.answer, width: 24, height: 24,
          "font-weight": "bold" } },
        { selector: "node:selected", style: { "border-width": 3, "border-color": "#f59e0b" } },
        { selector: "edge", style: {
          width: 1.5, "line-color": "#cbd5e1", "target-arrow-color": "#94a3b8", "target-arrow-shape": "triangle",
          "arrow-scale": 0.9, "curve-style": "bezier", "control-point-step-size": 36, label: "data(relation)", "font-size": 9,
          color: "#475569", "min-zoomed-font-size": 6,
          "text-rotation": "autorotate", "text-background-color": "#ffffff", "text-background-opacity": 0.85,
          "text-background-padding": 1 } },
        { selector: 'edge[mark = "holds"]', style: { "line-color": COLORS.answer, "target-arrow-color": COLORS.answer,
          width: 2.5 } },
        { selector: 'edge[mark = "instead"]', style: { "line-color": COLORS.instead, "target-arrow-color": COLORS.instead,
          width: 2.5 } },
        { selector: "edge:selected", style: { "line-color": "#f59e0b", "target-arrow-color": "#f59e0b", width: 2.5 } },
      ],
    });
    state.cy = cy;
    cy.on("tap", "node", (evt) => {
      const n = evt.target;
      const info = $("node-info");
      clear(info);
      info.append(el("strong", { text: n.data("name") }),
                  ` — ${n.data("role")} node, id ${n.id()}, ${n.degree(false)} edge${n.degree(false) === 1 ? "" : "s"}`);
    });
    cy.on("tap", "edge", (evt) => {
      const e = evt.target;
      const info = $("node-info");
      clear(info);
      info.append(el("strong", { text: e.source().data("name") }), ` —${e.data("relation")}→ `,
                  el("strong", { text: e.target().data("name") }));
    });
    cy.on("tap", (evt) => { if (evt.target === cy) $("node-info").textContent = "Click a node or an edge."; });
    runLayout();
    g.dataset.nodes = String(cy.nodes().length);
    g.dataset.edges = String(cy.edges().length);
    $("graph-count").textContent = `${cy.nodes().length} nodes · ${cy.edges().length} edges`;
  }

  // Undirected BFS depth of every node from the question nodes (unreachable: one past the deepest).
  function depths(cy, roots) {
    const depth = new Map();
    let frontier = roots.toArray();
    frontier.forEach((n) => depth.set(n.id(), 0));
    for (let d = 1; frontier.length; d++) {
      const next = [];
      for (const n of frontier) {
        n.neighborhood("node").forEach((m) => {
          if (!depth.has(m.id())) { depth.set(m.id(), d); next.push(m); }
        });
      }
      frontier = next;
    }
    const deepest = Math.max(0, ...depth.values());
    cy.nodes().forEach((n) => { if (!depth.has(n.id())) depth.set(n.id(), deepest + 1); });
    return depth;
  }

  // auto: a left-to-right tree from the question nodes while every level is short; rings around
  // them (by distance) for wide fan-outs; force-directed (cose) without question nodes or when large.
  function chooseLayout(cy, roots) {
    const n = cy.nodes().length;
    if (!roots.length || n > 150) return "cose";
    const perLevel = new Map();
    for (const d of depths(cy, roots).values()) perLevel.set(d, (perLevel.get(d) || 0) + 1);
    return Math.max(...perLevel.values()) <= 8 ? "breadthfirst" : "concentric";
  }

  function runLayout() {
    const cy = state.cy;
    if (!cy) return;
    const roots = cy.nodes('[role = "question"]');
    let name = $("layout").value;
    if (name === "auto") name = chooseLayout(cy, roots);
    if ((name === "breadthfirst" || name === "concentric") && !roots.length) name = "cose";
    const opts = { name, animate: false, fit: true, padding: 30 };
    if (name === "breadthfirst") {
      // laid out top-down in a box of the container's shape turned sideways, then turned: left to right
      // (at most ~240 px between levels and ~70 px between the nodes of a level, so labels stay readable)
      const perLevel = new Map();
      for (const d of depths(cy, roots).values()) perLevel.set(d, (perLevel.get(d) || 0) + 1);
      const across = Math.min(Math.max(cy.width(), 200), 240 * perLevel.size);
      const down = Math.min(Math.max(cy.height(), 200), 70 * Math.max(...perLevel.values()) + 40);
      Object.assign(opts, { roots, directed: false, spacingFactor: 1.0, avoidOverlap: true,
                            boundingBox: { x1: 0, y1: 0, w: down, h: across },
                            transform: (_node, pos) => ({ x: pos.y, y: pos.x }) });
    } else if (name === "concentric") {
      const depth = depths(cy, roots);
      const deepest = Math.max(...depth.values());
      Object.assign(opts, { concentric: (node) => deepest - depth.get(node.id()), levelWidth: () => 1,
                            minNodeSpacing: cy.nodes().length <= 16 ? 60 : 30, avoidOverlap: true });
    } else if (name === "cose") {
      Object.assign(opts, { nodeRepulsion: () => 9000, idealEdgeLength: () => 80, randomize: true });
    }
    const layout = cy.layout(opts);
    layout.one("layoutstop", () => {
      $("graph").dataset.layout = name;
      cy.fit(undefined, 30);
      if (cy.zoom() > 1.3) { cy.zoom(1.3); cy.center(); }
    });
    layout.run();
  }

  // ---------- wiring ----------

  function init() {
    const tokenBox = $("token");
    tokenBox.value = localStorage.getItem(TOKEN_KEY) || "";
    let retry = null;
    tokenBox.addEventListener("input", () => {
      const t = token();
      if (t) localStorage.setItem(TOKEN_KEY, t); else localStorage.removeItem(TOKEN_KEY);
      // a token typed after a 401: fetch /info again once the typing pauses
      if (!state.info) { clearTimeout(retry); retry = setTimeout(() => { if (!state.info && token()) loadInfo(); }, 600); }
    });
    $("token-show").addEventListener("click", () => {
      const hidden = tokenBox.type === "password";
      tokenBox.type = hidden ? "text" : "password";
      $("token-show").textContent = hidden ? "hide" : "show";
    });
    $("token-clear").addEventListener("click", () => {
      tokenBox.value = "";
      localStorage.removeItem(TOKEN_KEY);
    });

    $("stream").checked = localStorage.getItem(STREAM_KEY) === "1";
    $("stream").addEventListener("change", () => localStorage.setItem(STREAM_KEY, $("stream").checked ? "1" : "0"));

    $("ask-form").addEventListener("submit", submit);
    for (const m of Object.keys(MODES)) {
      $(`mode-${m}`).addEventListener("click", () => { setMode(m); $("question").focus(); });
    }
    setMode(localStorage.getItem(MODE_KEY) || "ask");
    $("method").addEventListener("change", renderOptions);
    $("options-reset").addEventListener("click", () => {
      const m = $("method").value;
      delete state.optionValues[m];
      renderOptions();
    });
    $("layout").addEventListener("change", runLayout);
    $("fit").addEventListener("click", () => state.cy && state.cy.fit(undefined, 30));
    window.addEventListener("resize", () => state.cy && state.cy.resize());

    loadInfo();
  }

  // for the console and tests: the drawn graph
  window.kgrag = {
    get cy() { return state.cy; }, get info() { return state.info; }, get mode() { return state.mode; },
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
