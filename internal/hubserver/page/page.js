// sayso hub: the person's page. Each tab holds a key of its own: the
// login link's redirect hands it over in the URL's fragment, which no
// server sees; this script keeps it in the tab's sessionStorage and sends
// it as X-Sayso-Tab. A yes is signed by the person's passkey over exactly
// the node's card and the verdict (the challenge below); the hub only
// carries it to the node, which checks it against the passkeys the person
// pinned there.
"use strict";

(function () {
  const KEY = "sayso-hub-tab";
  if (location.hash.startsWith("#tab=")) {
    sessionStorage.setItem(KEY, decodeURIComponent(location.hash.slice(5)));
    history.replaceState(null, "", location.pathname);
  }
  const tab = sessionStorage.getItem(KEY) || "";
  const root = document.documentElement;
  const list = document.getElementById("cards");
  const status = document.getElementById("status");
  const enc = new TextEncoder();
  const b64url = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const shown = new Map(); // card id → its element

  // signed are the words a passkey signs for each answer: passkey's
  // signedWords, frozen as first signed, so that a yes verifies on every
  // sayso. They are not the answers' text (allow-once, always, deny).
  const signed = { "allow-once": "allow", always: "always", deny: "deny" };

  // challenge is passkey.Challenge: SHA-256 of "sayso answer\0", the
  // answer's signed word, "\0" and the SHA-256 of the card's bytes.
  async function challenge(body, verdict) {
    const card = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    const head = enc.encode("sayso answer\0" + signed[verdict] + "\0");
    const all = new Uint8Array(head.length + card.length);
    all.set(head);
    all.set(card, head.length);
    return crypto.subtle.digest("SHA-256", all);
  }

  // confirmChallenge is passkey.ConfirmChallenge: SHA-256 of "sayso
  // confirm\0", the SHA-256 of the card's bytes and the machine's own
  // challenge for the confirmation.
  async function confirmChallenge(body, nodeChallenge) {
    const card = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    const head = enc.encode("sayso confirm\0");
    const all = new Uint8Array(head.length + card.length + nodeChallenge.length);
    all.set(head);
    all.set(card, head.length);
    all.set(nodeChallenge, head.length + card.length);
    return crypto.subtle.digest("SHA-256", all);
  }

  async function answer(el, id, body, verdict, keys, nodeChallenge) {
    el.dataset.sent = "busy";
    try {
      const a = { verdict };
      if (verdict !== "deny") {
        const c = await navigator.credentials.get({ publicKey: {
          challenge: verdict === "confirm" ? await confirmChallenge(body, nodeChallenge) : await challenge(body, verdict),
          rpId: location.hostname, userVerification: "required",
          // the passkeys the card's machine pinned: another machine's is no yes there
          allowCredentials: (keys || []).map((k) => ({ type: "public-key", id: bytes(k) })),
        } });
        a.assertion = { id: c.id, rawId: b64url(c.rawId), type: c.type, response: {
          authenticatorData: b64url(c.response.authenticatorData), clientDataJSON: b64url(c.response.clientDataJSON),
          signature: b64url(c.response.signature), userHandle: c.response.userHandle ? b64url(c.response.userHandle) : "" } };
      }
      const res = await fetch("/page/cards/" + encodeURIComponent(id) + "/answer", {
        method: "POST", headers: { "X-Sayso-Tab": tab, "Content-Type": "application/json" },
        body: JSON.stringify(a), credentials: "same-origin", cache: "no-store",
      });
      if (!res.ok) throw new Error(await res.text());
      el.dataset.sent = verdict;
      el.querySelector(".said").textContent = verdict !== "deny" && el.dataset.deliberate && verdict !== "confirm"
        ? "Sent: " + verdict + ". A severe step asks twice: the machine asks for your confirmation next."
        : "Sent: " + verdict + ". The machine takes a yes only with your passkey.";
    } catch (e) {
      el.dataset.sent = "failed";
      el.querySelector(".said").textContent = "Not sent: " + e.message;
    }
  }

  function line(el, label, value) {
    if (!value) return;
    const p = document.createElement("p");
    const b = document.createElement("strong");
    b.textContent = label + ": ";
    p.append(b, document.createTextNode(String(value)));
    el.append(p);
  }

  function draw(c) {
    const body = bytes(c.body);
    let f = {};
    try { f = JSON.parse(new TextDecoder().decode(body)); } catch (e) { f = { step: "(unreadable card)" }; }
    const el = document.createElement("li");
    el.dataset.card = c.id;
    line(el, "Step", f.step);
    line(el, "Tool", f.tool);
    line(el, "Agent", f.agent);
    line(el, "Folder", f.cwd);
    line(el, "Why", f.reason);
    line(el, "Machine", "node " + c.node);
    line(el, "Always keeps", f.offer);
    const verdicts = f.offer ? ["allow-once", "always", "deny"] : ["allow-once", "deny"];
    if (f.deliberate) {
      el.dataset.deliberate = "1";
      line(el, "Allow", "a severe step asks twice: after your first yes the machine asks you to confirm it");
    }
    const names = { "allow-once": "Allow once", always: "Always allow", deny: "Deny" };
    for (const v of verdicts) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.answer = v;
      b.textContent = names[v];
      b.addEventListener("click", () => answer(el, c.id, body, v, f.keys));
      el.append(b);
    }
    const said = document.createElement("p");
    said.className = "said";
    el.append(said);
    el.confirmWith = (nodeChallenge) => confirm(el, c.id, body, f.keys, nodeChallenge);
    return el;
  }

  // confirm shows the Confirm button of a severe step once its machine
  // asks for the confirmation, with its challenge (none: it does not ask).
  function confirm(el, id, body, keys, nodeChallenge) {
    const had = el.querySelector('button[data-answer="confirm"]');
    if ((had ? had.dataset.challenge : "") === (nodeChallenge || "")) return;
    if (had) had.remove();
    if (!nodeChallenge) return;
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.answer = "confirm";
    b.dataset.challenge = nodeChallenge;
    b.textContent = "Confirm: allow this severe step";
    b.addEventListener("click", () => answer(el, id, body, "confirm", keys, bytes(nodeChallenge)));
    el.querySelector(".said").before(b);
  }

  // gen is the hub's ring as of the last read: the next read waits for
  // the ring after it, and each read reads the changes to sign too. The
  // hub rings at each card that comes or goes, each change offered or
  // signed, and whenever its listener reconnects; it answers all the
  // same after a while, so a ring lost any other way costs no more than
  // that.
  let gen = "";
  let stopped = false;

  async function refresh() {
    const res = await fetch("/page/cards" + (gen ? "?wait=" + encodeURIComponent(gen) : ""),
      { headers: { "X-Sayso-Tab": tab }, credentials: "same-origin", cache: "no-store" });
    if (res.status === 401) {
      stopped = true;
      throw new Error("log in again with a link from sayso hub login");
    }
    if (!res.ok) throw new Error(await res.text());
    const d = await res.json();
    gen = d.gen;
    document.getElementById("who").textContent = "Cards for " + d.person;
    const live = new Set();
    for (const c of d.cards) {
      live.add(c.id);
      if (!shown.has(c.id)) {
        const el = draw(c);
        shown.set(c.id, el);
        list.append(el);
      }
      shown.get(c.id).confirmWith(c.confirm || "");
    }
    for (const [id, el] of shown) {
      if (!live.has(id)) {
        el.remove();
        shown.delete(id);
      }
    }
    status.textContent = d.cards.length ? "" : "Nothing waits for you.";
  }

  async function rung() {
    while (!stopped) {
      try {
        await refresh();
        await refreshChanges();
      } catch (e) {
        status.textContent = "The hub did not answer: " + e.message;
        gen = "";
        await new Promise((r) => setTimeout(r, 1000));
      }
      root.dataset.page = "ready";
    }
  }

  // The ledger view: the person's rows of every machine of theirs, newest
  // first, a page at a time; each shown as text, never as markup.
  const form = document.getElementById("ledger-search");
  const rows = document.getElementById("ledger-rows");
  const older = document.getElementById("ledger-older");
  const lstatus = document.getElementById("ledger-status");
  const nodes = document.getElementById("ledger-node");
  let next = "";

  function cell(tr, text) {
    const td = document.createElement("td");
    td.textContent = text == null ? "" : String(text);
    tr.append(td);
  }

  async function ledger(more) {
    root.dataset.ledger = "busy";
    const q = new URLSearchParams();
    const f = new FormData(form);
    for (const k of ["text", "node", "kind", "decision", "class"]) {
      const v = String(f.get(k) || "").trim();
      if (v) q.set(k, v);
    }
    for (const k of ["since", "until"]) {
      const v = String(f.get(k) || "");
      if (v) q.set(k, new Date(v).toISOString().replace(/\.\d+Z$/, "Z"));
    }
    if (more && next) q.set("before", next);
    try {
      const res = await fetch("/page/ledger?" + q.toString(), { headers: { "X-Sayso-Tab": tab }, credentials: "same-origin", cache: "no-store" });
      if (!res.ok) throw new Error(await res.text());
      const d = await res.json();
      if (!more) rows.replaceChildren();
      const picked = nodes.value;
      nodes.replaceChildren(nodes.options[0]);
      for (const n of d.nodes) {
        const o = document.createElement("option");
        o.value = n;
        o.textContent = n;
        nodes.append(o);
      }
      nodes.value = picked;
      for (const r of d.rows) {
        const e = r.entry || {};
        const tr = document.createElement("tr");
        tr.dataset.node = r.node_name;
        tr.dataset.seq = String(r.seq);
        tr.dataset.kind = e.kind || "";
        cell(tr, r.node_name + ":" + (e.id || "?"));
        cell(tr, e.at ? new Date(e.at).toLocaleString() : "");
        cell(tr, e.kind || "(not a ledger row)");
        cell(tr, e.session || "");
        cell(tr, e.summary || "");
        rows.append(tr);
      }
      next = d.next || "";
      older.hidden = !next;
      lstatus.textContent = rows.children.length ? "" : "No row of yours matches.";
    } catch (e) {
      lstatus.textContent = "The hub did not answer: " + e.message;
    }
    root.dataset.ledger = "ready";
  }

  form.addEventListener("submit", (ev) => { ev.preventDefault(); ledger(false); });
  older.addEventListener("click", () => ledger(true));

  document.getElementById("logout").addEventListener("click", async () => {
    try {
      const res = await fetch("/page/logout", { method: "POST", headers: { "X-Sayso-Tab": tab }, credentials: "same-origin", cache: "no-store" });
      if (!res.ok && res.status !== 401) throw new Error(await res.text());
      sessionStorage.removeItem(KEY);
      stopped = true;
      status.textContent = "Logged out.";
      root.dataset.page = "out";
    } catch (e) {
      status.textContent = "Not logged out: " + e.message;
    }
  });

  // The changes to the person's rules and note that their machines
  // offered: each is signed by every passkey their machines pinned (each
  // machine pinned the passkey enrolled on its own page), over exactly
  // the change's bytes (passkey.ChangeChallenge).
  const changes = document.getElementById("changes");
  const signStatus = document.getElementById("sign-status");
  const offered = new Map(); // change id → its element
  let keys = []; // the credential ids of the passkeys the person's machines pinned

  async function changeChallenge(body) {
    const change = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    const head = enc.encode("sayso change\0");
    const all = new Uint8Array(head.length + change.length);
    all.set(head);
    all.set(change, head.length);
    return crypto.subtle.digest("SHA-256", all);
  }

  async function sign(el, id, body) {
    el.dataset.sent = "busy";
    try {
      if (!keys.length) throw new Error("none of your machines has told the hub of a passkey yet: enrol one on a machine's own page (sayso team enrol)");
      const challenge = await changeChallenge(body);
      const assertions = [];
      for (const k of keys) {
        const c = await navigator.credentials.get({ publicKey: {
          challenge, rpId: location.hostname, userVerification: "required",
          allowCredentials: [{ type: "public-key", id: bytes(k) }],
        } });
        assertions.push({ id: c.id, rawId: b64url(c.rawId), type: c.type, response: {
          authenticatorData: b64url(c.response.authenticatorData), clientDataJSON: b64url(c.response.clientDataJSON),
          signature: b64url(c.response.signature), userHandle: c.response.userHandle ? b64url(c.response.userHandle) : "" } });
      }
      const res = await fetch("/page/changes/" + encodeURIComponent(id) + "/sign", {
        method: "POST", headers: { "X-Sayso-Tab": tab, "Content-Type": "application/json" },
        body: JSON.stringify({ assertions }), credentials: "same-origin", cache: "no-store",
      });
      if (!res.ok) throw new Error(await res.text());
      el.dataset.sent = "signed";
      el.querySelector(".said").textContent = "Signed. Each of your machines takes it only with your passkey.";
      // The hub rings at once, and the change is no longer one to sign:
      // it stays a while to say it was signed.
      setTimeout(() => { el.remove(); offered.delete(id); }, 10000);
    } catch (e) {
      el.dataset.sent = "failed";
      el.querySelector(".said").textContent = "Not signed: " + e.message;
    }
  }

  function drawChange(c) {
    const body = bytes(c.body);
    let f = {};
    try { f = JSON.parse(new TextDecoder().decode(body)); } catch (e) { f = {}; }
    const el = document.createElement("li");
    el.dataset.change = String(c.id);
    if (f.rule) {
      line(el, f.keep ? "Keep the rule" : "Forget the rule", f.rule.pattern);
      line(el, "Tool", f.rule.tool);
      line(el, "Matches", f.rule.unit === "verb" ? "each part of a command, by its verb" : "the whole command, word for word");
      line(el, "Folder", f.rule.cwd);
    } else if (typeof f.note === "string") {
      line(el, "Environment note", f.note || "(empty)");
    } else {
      line(el, "Change", "(unreadable change)");
    }
    line(el, "From", "node " + c.node);
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.sign = "";
    b.textContent = "Sign for all my machines";
    b.addEventListener("click", () => sign(el, c.id, body));
    el.append(b);
    const said = document.createElement("p");
    said.className = "said";
    el.append(said);
    return el;
  }

  async function refreshChanges() {
    if (!tab) return;
    try {
      const res = await fetch("/page/changes", { headers: { "X-Sayso-Tab": tab }, credentials: "same-origin", cache: "no-store" });
      if (!res.ok) throw new Error(await res.text());
      const d = await res.json();
      keys = d.keys || [];
      const live = new Set();
      for (const c of d.changes) {
        live.add(c.id);
        if (!offered.has(c.id)) {
          const el = drawChange(c);
          offered.set(c.id, el);
          changes.append(el);
        }
      }
      for (const [id, el] of offered) {
        if (!live.has(id) && el.dataset.sent !== "busy" && el.dataset.sent !== "signed") {
          el.remove();
          offered.delete(id);
        }
      }
      signStatus.textContent = d.changes.length ? "" : "Nothing to sign.";
    } catch (e) {
      signStatus.textContent = "The hub did not answer: " + e.message;
    }
  }

  if (!tab) {
    status.textContent = "This tab holds no key to the hub's page. Open a fresh login link (sayso hub login).";
    root.dataset.page = "ready";
    return;
  }
  rung();
  ledger(false);
})();
