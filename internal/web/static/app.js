// sayso: the person's page. Each tab holds a key of its own: the login
// link's redirect hands it over in the URL's fragment, which no server
// sees; this script keeps it in the tab's sessionStorage and sends it as
// X-Sayso-Tab with every request that reads or changes sayso's state. A
// navigation cannot carry it, so the server answers one with the page's
// shell, and this script fetches the page with the key and draws it.
//
// The script also keeps the page live (the event stream, with a banner,
// backoff and polling when it breaks), counts waiting cards in the title,
// the favicon and the navigation, notifies the desktop, answers by
// keyboard (only the card that has focus, and never an allow of a severe
// or ceiling step, which asks to be confirmed), gives a few seconds to
// undo an allow and what lasts, keeps cards in place as others come
// and go, and shows them as a queue: one row each, the focused one open.
"use strict";

(function () {
  const KEY = "sayso-tab";
  if (location.hash.startsWith("#tab=")) {
    sessionStorage.setItem(KEY, decodeURIComponent(location.hash.slice(5)));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const tab = sessionStorage.getItem(KEY) || "";
  function withTab(headers) {
    return Object.assign({ "X-Sayso-Tab": tab }, headers || {});
  }
  const root = document.documentElement;
  const UNDO_MS = 5000;

  // The shell: fetch this page with the tab's key and draw it.
  async function open() {
    if (!tab) {
      const p = document.getElementById("shell");
      if (p) p.textContent = "This tab holds no key to sayso's page. Open a fresh login link: press Enter in the terminal where sayso serve runs, or run sayso login.";
      root.dataset.page = "ready";
      return;
    }
    let res;
    try {
      res = await fetch(location.pathname + location.search, { headers: withTab({ Accept: "text/html" }), credentials: "same-origin", cache: "no-store" });
    } catch (err) {
      const p = document.getElementById("shell");
      if (p) p.textContent = "sayso did not answer: " + err.message + ". Is sayso serve running?";
      root.dataset.page = "ready";
      return;
    }
    draw(await res.text());
  }
  function draw(html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    document.title = doc.title;
    document.body.replaceWith(document.adoptNode(doc.body));
    delete root.dataset.shell;
    setup();
    const hash = location.hash.slice(1);
    const target = hash && document.getElementById(hash);
    if (target) target.scrollIntoView();
    root.dataset.page = "ready";
  }

  // ---- Messages: a short one in the toast, errors beside their cause.
  let toastTimer = 0;
  function toast(text, action) {
    const t = document.getElementById("toast");
    if (!t) return;
    clearTimeout(toastTimer);
    const p = document.createElement("p");
    p.textContent = text;
    t.replaceChildren(p);
    if (action) t.append(action);
    if (!action) toastTimer = setTimeout(() => t.replaceChildren(), 6000);
  }
  function besideError(form, text) {
    const host = form.closest("article.card, tr, article.session, fieldset, li") || form;
    let p = host.querySelector(":scope .error.beside");
    if (!p) {
      p = document.createElement("p");
      p.className = "error beside";
      p.setAttribute("role", "alert");
      form.after(p);
    }
    p.textContent = text;
  }
  function clearError(form) {
    const host = form.closest("article.card, tr, article.session, fieldset, li") || form;
    for (const p of host.querySelectorAll(".error.beside")) p.remove();
  }

  // ---- Changes: every form that posts is sent with fetch, with the tab's
  // key. The page is served with Referrer-Policy no-referrer, under which
  // a browser sends a plain form post with "Origin: null"; the server
  // refuses a change whose Origin is not its own, so the request asks for
  // a same-origin referrer policy and carries the real Origin.
  // post sends body, read from the form before its buttons were disabled
  // (a disabled button sends nothing).
  let inFlight = 0;
  async function post(form, body, keepalive) {
    inFlight++;
    root.dataset.busy = "1";
    try {
      return await send(form, body, keepalive);
    } finally {
      if (--inFlight === 0) delete root.dataset.busy;
    }
  }
  async function send(form, body, keepalive) {
    try {
      const res = await fetch(form.action, { method: "POST", body, headers: withTab(), credentials: "same-origin", referrerPolicy: "same-origin", redirect: "follow", keepalive: !!keepalive });
      if (res.ok) return { ok: true, res };
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const msg = doc.querySelector("main .error");
      return { ok: false, res, msg: msg ? msg.textContent.trim() : "Refused (" + res.status + ")." };
    } catch (err) {
      return { ok: false, msg: "sayso did not answer (" + err.message + "); nothing was changed. Is sayso serve running?" };
    }
  }

  // pending is the one change waiting out its undo time.
  let pending = null;
  function hold(label, send, undone, seconds) {
    flush();
    const p = { send, undone, timer: 0, left: seconds || UNDO_MS / 1000 };
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "undo";
    btn.setAttribute("aria-keyshortcuts", "u");
    btn.innerHTML = 'Undo <kbd aria-hidden="true">u</kbd>';
    btn.addEventListener("click", undo);
    const say = () => toast(label + " in " + p.left + " s.", btn);
    say();
    p.timer = setInterval(() => {
      p.left--;
      if (p.left <= 0) flush();
      else {
        const t = document.querySelector("#toast p");
        if (t) t.textContent = label + " in " + p.left + " s.";
      }
    }, 1000);
    pending = p;
    root.dataset.pending = "1";
  }
  function flush(keepalive) {
    const p = pending;
    if (!p) return;
    pending = null;
    delete root.dataset.pending;
    clearInterval(p.timer);
    const t = document.getElementById("toast");
    if (t) t.replaceChildren();
    p.send(keepalive);
  }
  function undo() {
    const p = pending;
    if (!p) return;
    pending = null;
    delete root.dataset.pending;
    clearInterval(p.timer);
    p.undone();
    toast("Undone: nothing was sent, nothing was kept.");
  }
  addEventListener("pagehide", () => flush(true));

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    e.preventDefault();
    const submitter = e.submitter;
    const card = form.closest("article.card");
    if (card) return answer(card, form, submitter);
    const label = submitter && submitter.dataset.undo;
    const body = new URLSearchParams(new FormData(form, submitter));
    if (label) {
      const buttons = form.querySelectorAll("button");
      for (const b of buttons) b.disabled = true;
      hold(label, (keepalive) => change(form, submitter, body, keepalive), () => {
        for (const b of buttons) b.disabled = false;
        if (submitter) submitter.focus();
      });
      return;
    }
    change(form, submitter, body);
  });

  // change sends a change that is not an answer, then redraws the page's
  // content in place.
  async function change(form, submitter, body, keepalive) {
    const buttons = form.querySelectorAll("button");
    for (const b of buttons) b.disabled = true;
    clearError(form);
    const r = await post(form, body, keepalive);
    if (!r.ok) {
      for (const b of buttons) b.disabled = false;
      if (form.isConnected) besideError(form, r.msg);
      else toast(r.msg);
      return;
    }
    const to = new URL(r.res.url);
    if (to.pathname !== location.pathname || new URL(form.action).pathname === "/logout") {
      location.assign(r.res.url);
      return;
    }
    const focusId = submitter && submitter.closest("[id]") ? submitter.closest("[id]").id : "";
    const label = submitter ? (submitter.dataset.undo || submitter.textContent.trim()) : "Saved";
    if (to.search !== location.search) history.replaceState(null, "", to.pathname + to.search);
    redrawMain(await r.res.text());
    toast("Done: " + label + ".");
    const again = focusId && document.getElementById(focusId);
    const h = document.querySelector("main h1");
    if (again && again.querySelector("button")) again.querySelector("button").focus();
    else if (h) { h.tabIndex = -1; h.focus(); }
  }
  function redrawMain(html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("main");
    const main = document.getElementById("main");
    if (!fresh || !main) return;
    main.replaceWith(document.adoptNode(fresh));
    bindPage();
  }

  // ---- Answers.
  const answerWords = {
    "allow-once": "Allowed once",
    "always": "Allowed, and kept",
    "deny": "Denied",
    "deny-hold": "Denied, and the session is held",
  };
  // An armed allow may be confirmed CONFIRM_AFTER_MS after it was armed:
  // a second press sooner is the same stray press (a double click, a held
  // key). Arming is the server's: the first press sends the allow without
  // a confirm, the server refuses it and gives the confirm the second
  // press sends.
  const CONFIRM_AFTER_MS = 600, ARMED_MS = 10000;
  async function arm(card, form, submitter) {
    if (submitter.dataset.arming) return;
    submitter.dataset.arming = "1";
    clearError(form);
    const r = await post(form, new URLSearchParams(new FormData(form, submitter)));
    delete submitter.dataset.arming;
    if (r.ok) { // answered without a confirm: the server took it as it is
      removeCard(card);
      counts();
      return;
    }
    const token = r.res && r.res.headers.get("X-Sayso-Confirm");
    if (!token) {
      besideError(form, r.msg);
      return;
    }
    const was = Array.from(submitter.childNodes, (n) => n.cloneNode(true));
    submitter.dataset.armed = String(Date.now());
    submitter.dataset.confirmToken = token;
    submitter.classList.add("armed");
    submitter.textContent = submitter.dataset.confirm;
    if (!pending) toast("Press “" + submitter.dataset.confirm + "” again to allow it, or wait and nothing is sent.");
    setTimeout(() => {
      if (!submitter.isConnected || submitter.disabled) return;
      disarm(submitter);
      submitter.replaceChildren(...was);
    }, ARMED_MS);
  }
  function disarm(submitter) {
    delete submitter.dataset.armed;
    delete submitter.dataset.confirmToken;
    submitter.classList.remove("armed");
  }
  function answer(card, form, submitter) {
    if (!submitter || card.classList.contains("gone")) return;
    if (submitter.dataset.confirm) {
      const at = Number(submitter.dataset.armed || 0);
      if (!at) return void arm(card, form, submitter);
      if (Date.now() - at < CONFIRM_AFTER_MS) return;
    }
    const buttons = form.querySelectorAll("button");
    const step = card.dataset.step || "the step";
    const label = submitter.dataset.undo;
    const left = expiresIn(card);
    const next = neighbour(card, 1) || neighbour(card, -1);
    const body = new URLSearchParams(new FormData(form, submitter));
    if (submitter.dataset.confirmToken) body.set("confirm", submitter.dataset.confirmToken);
    for (const b of buttons) b.disabled = true;
    const send = async (keepalive) => {
      clearError(form);
      const r = await post(form, body, keepalive);
      if (!r.ok) {
        card.classList.remove("sending");
        if (!card.classList.contains("gone")) for (const b of buttons) b.disabled = false;
        besideError(form, r.msg);
        return;
      }
      let what = answerWords[submitter.value] || "Answered";
      if (submitter.value === "always") what += " " + submitter.dataset.offer;
      collapseGone();
      removeCard(card);
      toast(what + ": " + step + ".");
      counts();
    };
    card.classList.add("sending");
    if (next) focusCard(next);
    const seconds = Number(submitter.dataset.undoS) || UNDO_MS / 1000;
    if (label && (left === null || left > seconds + 2)) {
      hold(label + " (" + step + ")", send, () => {
        card.classList.remove("sending");
        for (const b of buttons) b.disabled = false;
        if (submitter.dataset.armed) disarm(submitter);
        focusCard(card);
      }, seconds);
      return;
    }
    send();
  }
  function expiresIn(card) {
    const t = card.querySelector("time.expires[datetime]");
    if (!t) return null;
    return (Date.parse(t.getAttribute("datetime")) - Date.now()) / 1000;
  }
  function liveCards() {
    return Array.from(document.querySelectorAll("#cards article.card:not(.gone):not(.sending)"));
  }
  function neighbour(card, dir) {
    const list = liveCards().filter((c) => c === card || !c.classList.contains("sending"));
    const i = list.indexOf(card);
    return list[i + dir] || null;
  }
  function focusCard(card) {
    if (!card) return;
    openCard(card);
    card.focus({ preventScroll: true });
    card.scrollIntoView({ block: "nearest" });
  }
  // openCard opens card in the queue and folds every other to its row.
  function openCard(card) {
    for (const c of document.querySelectorAll("#cards article.card")) {
      const on = c === card;
      c.classList.toggle("open", on);
      const b = c.querySelector("button.open-card");
      if (b) b.setAttribute("aria-expanded", String(on));
    }
  }
  // oneOpen opens the first waiting card when none is open.
  function oneOpen() {
    if (!document.querySelector("#cards article.card.open:not(.gone)")) {
      const first = liveCards()[0];
      if (first) openCard(first);
    }
  }
  // A card that takes focus, by a click, Tab or a link to it, opens.
  document.addEventListener("focusin", (e) => {
    const card = e.target instanceof Element && e.target.closest("#cards article.card");
    if (card && !card.classList.contains("open") && !card.classList.contains("gone")) openCard(card);
  });
  document.addEventListener("click", (e) => {
    const b = e.target instanceof Element && e.target.closest("button.open-card");
    if (!b) return;
    const card = b.closest("article.card");
    if (card && !card.classList.contains("gone")) {
      openCard(card);
      collapseGone();
    }
  });
  function removeCard(card) {
    card.remove();
    seenIds.delete(card.id);
    emptyNote();
  }
  function emptyNote() {
    const cards = document.getElementById("cards");
    const empty = cards && cards.querySelector(":scope > .empty");
    if (empty) empty.hidden = cards.querySelector("article.card") !== null;
  }

  // ---- Keys: j/k between cards, a/d/⇧A/⇧D answer, u undoes.
  document.addEventListener("keydown", (e) => {
    const finder = document.getElementById("finder");
    if (finder && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      if (!finder.open) finder.showModal();
      const q = document.getElementById("finder-q");
      q.focus();
      q.select();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    const t = e.target;
    if (t instanceof HTMLElement && (t.isContentEditable || t.closest("input, textarea, select, dialog"))) return;
    if (e.key === "u" && pending) { e.preventDefault(); undo(); return; }
    const cards = liveCards();
    if (!cards.length) return;
    const active = document.activeElement;
    const here = active && active.closest ? active.closest("#cards article.card") : null;
    const cur = here && cards.includes(here) ? here : null;
    if (e.key === "j" || e.key === "k") {
      e.preventDefault();
      const i = cur ? cards.indexOf(cur) : -1;
      const j = e.key === "j" ? Math.min(i + 1, cards.length - 1) : Math.max(i - 1, 0);
      focusCard(cards[j]);
      collapseGone();
      return;
    }
    const value = { a: "allow-once", d: "deny", A: "always", D: "deny-hold" }[e.key];
    if (!value || !cur) return; // an answer key acts only on the card that has focus
    const b = cur.querySelector("button[name=answer][value=" + value + "]");
    if (!b || b.disabled) return;
    e.preventDefault();
    if (b.dataset.confirm) {
      if (!pending) toast("No key allows a " + (cur.dataset.deliberate || "severe") + " step: press its Allow button, then confirm.");
      return;
    }
    b.click();
  });

  // ---- Cards in place: a new card is added where it belongs, a card
  // that left is kept as a marker of the same height until the person
  // acts, so that nothing moves under the pointer.
  const seenIds = new Set();
  let baseTitle = "";
  let waiting = 0;
  async function loadCards() {
    const res = await fetch("/cards", { credentials: "same-origin", headers: withTab({ Accept: "text/html" }), cache: "no-store" });
    if (!res.ok) {
      const e = new Error("status " + res.status);
      e.status = res.status;
      throw e;
    }
    const t = document.createElement("template");
    t.innerHTML = await res.text();
    return t.content;
  }
  async function refresh() {
    const fresh = await loadCards();
    const incoming = Array.from(fresh.querySelectorAll("article.card"));
    const cards = document.getElementById("cards");
    const arrived = [];
    if (cards) {
      const ids = new Set(incoming.map((a) => a.id));
      for (const old of cards.querySelectorAll("article.card")) {
        if (!ids.has(old.id) && !old.classList.contains("gone") && !old.classList.contains("sending")) leave(old);
      }
      let prev = null;
      for (const a of incoming) {
        const have = document.getElementById(a.id);
        if (have) { prev = have; continue; }
        const node = document.adoptNode(a);
        node.classList.remove("open");
        const ob = node.querySelector("button.open-card");
        if (ob) ob.setAttribute("aria-expanded", "false");
        if (prev) prev.after(node);
        else {
          const empty = cards.querySelector(":scope > .empty");
          if (empty) empty.after(node); else cards.prepend(node);
        }
        prev = node;
        arrived.push(node);
      }
      emptyNote();
      tick();
      const focused = document.activeElement;
      if (arrived.length && (!focused || focused === document.body)) focusCard(liveCards()[0]);
      oneOpen();
      const live = document.getElementById("live");
      if (live && arrived.length) live.textContent = arrived.length === 1 ? "A new card: " + headline(arrived[0]) : arrived.length + " new cards.";
    }
    const fresh_ids = incoming.map((a) => a.id);
    const news = incoming.filter((a) => !known().has(a.id));
    remember(fresh_ids);
    if (news.length) notify(news);
    setCount(incoming.length);
  }
  function headline(card) {
    const h = card.querySelector("h2");
    return h ? h.textContent.trim() : "";
  }
  // leave shows a card whose hook no longer waits as over: its buttons
  // go, its countdown stops, and it no longer counts as waiting. why says
  // what ended it; by default it is read from the card's time left.
  function leave(card, why) {
    if (!why) {
      const left = expiresIn(card);
      why = left !== null && left <= 1
        ? "Missed: nobody answered in time, so the agent was told no and the step was not run."
        : "Over: answered in the agent's own terminal, or its agent stopped waiting (an interrupted turn, an ended session); nothing pressed here counts now.";
    }
    for (const t of card.querySelectorAll("time.expires")) {
      t.classList.remove("expires", "soon");
      t.classList.add("over");
      t.textContent = "over";
    }
    const hadFocus = card.contains(document.activeElement);
    // The exact height, not offsetHeight's whole pixels: a card of a
    // fractional height would move what is below it by half a pixel.
    card.style.height = card.getBoundingClientRect().height + "px";
    card.classList.add("gone");
    card.classList.remove("sending");
    card.removeAttribute("tabindex");
    for (const b of card.querySelectorAll("button")) b.disabled = true;
    for (const f of card.querySelectorAll("form.answers")) f.hidden = true;
    if (hadFocus) {
      const next = liveCards()[0];
      if (next) focusCard(next);
    }
    if (card.classList.contains("open")) {
      card.classList.remove("open");
      oneOpen();
    }
    const note = document.createElement("p");
    note.className = "gone-note";
    note.textContent = why + " ";
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "quiet";
    dismiss.textContent = "Dismiss";
    dismiss.addEventListener("click", collapseGone);
    note.append(dismiss);
    const head = card.querySelector(".card-head");
    if (head) head.after(note); else card.prepend(note);
    const missed = document.getElementById("missed");
    if (missed) {
      const li = document.createElement("li");
      const at = document.createElement("time");
      const now = new Date();
      at.className = "rel";
      at.dateTime = now.toISOString();
      at.title = now.toLocaleString();
      at.textContent = "just now";
      li.append(at, " — " + (card.dataset.step || headline(card)) + ": " + why);
      missed.querySelector("ul").prepend(li);
      missed.hidden = false;
    }
  }
  // overAll shows every card still waiting as over, at once: sayso serve
  // stopped or does not answer, and the hook that waited on each was
  // answered without the person, and told why.
  function overAll(why) {
    const cards = document.getElementById("cards");
    if (!cards) return;
    if (pending) undo();
    let n = 0;
    for (const c of cards.querySelectorAll("article.card:not(.gone)")) { leave(c, why); n++; }
    counts();
    const live = document.getElementById("live");
    if (live && n) live.textContent = n === 1 ? "A card is over: " + why : n + " cards are over: " + why;
  }
  const STOPPED = "Over: sayso serve stopped while this card waited. Its agent was answered without you and told why; the step did not run on an answer from here.";
  const UNREACHABLE = "Over: sayso serve does not answer. The hook that waited on this card was answered without you; the step did not run on an answer from here.";
  // collapseGone removes the markers of cards that left: called when the
  // person acts, never while the pointer rests on the list.
  function collapseGone() {
    for (const c of document.querySelectorAll("#cards article.card.gone")) c.remove();
    emptyNote();
  }

  // Cards this browser tab already knew of: only a new one notifies.
  function known() {
    try { return new Set(JSON.parse(sessionStorage.getItem("sayso-known") || "[]")); } catch (e) { return new Set(); }
  }
  function remember(ids) {
    sessionStorage.setItem("sayso-known", JSON.stringify(ids));
  }
  let firstLoad = true;
  function notify(news) {
    const quiet = firstLoad && document.getElementById("cards");
    firstLoad = false;
    if (quiet || !("Notification" in window)) return;
    if (!document.hidden && document.getElementById("cards")) return;
    if (Notification.permission === "default") {
      if (!localStorage.getItem("sayso-notify-asked")) {
        localStorage.setItem("sayso-notify-asked", "1");
        Notification.requestPermission();
      }
      return;
    }
    if (Notification.permission !== "granted") return;
    for (const a of news.slice(0, 3)) {
      const n = new Notification("sayso: a card is waiting", { body: headline(a) + "\n" + (a.dataset.step || ""), tag: a.id });
      n.onclick = () => { window.focus(); location.assign("/#" + a.id); };
    }
  }

  // The count of waiting cards: in the title, the favicon and the link.
  function setCount(n) {
    waiting = n;
    if (!baseTitle) baseTitle = document.title.replace(/^\(\d+\) /, "");
    document.title = n > 0 ? "(" + n + ") " + baseTitle : baseTitle;
    const icon = document.querySelector("link[rel=icon]");
    if (icon) icon.href = "/icon/" + Math.min(n, 10);
    const pill = document.querySelector("#nav-cards [data-waiting]");
    if (pill) {
      pill.textContent = String(n);
      pill.hidden = n === 0;
      pill.setAttribute("aria-label", n === 1 ? "1 card waiting" : n + " cards waiting");
    }
    root.dataset.waiting = String(n);
  }
  function counts() {
    setCount(document.querySelectorAll("#cards article.card:not(.gone)").length);
  }

  // ---- Live: the event stream, and what to do when it breaks. The
  // stream is read with fetch, which sends the tab's key (an EventSource
  // cannot). It carries no card: the page fetches the cards.
  const backoff = [1, 2, 4, 8, 15, 30];
  let failures = 0;
  let wake = null;
  function banner(text) {
    const b = document.getElementById("conn");
    if (!b) return;
    if (text === null) { b.hidden = true; return; }
    b.querySelector("[data-conn-text]").textContent = text;
    b.hidden = false;
  }
  async function stream() {
    for (;;) {
      let status = 0;
      try {
        const res = await fetch("/events", { credentials: "same-origin", headers: withTab({ Accept: "text/event-stream" }), cache: "no-store" });
        status = res.status;
        if (res.ok && res.body) {
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            let i;
            while ((i = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, i);
              buf = buf.slice(i + 2);
              const ev = /^event: (\S+)$/m.exec(block);
              if (!ev) continue;
              if (ev[1] === "ready") {
                const was = failures;
                failures = 0;
                delete root.dataset.conn;
                banner(null);
                root.dataset.live = "on";
                // A card posted between drawing the page and opening the
                // stream sent no event here: fetch the cards once more.
                await refresh().catch(() => {});
                if (was) { liveRegions(); toast("Connected to sayso serve again."); }
              } else if (ev[1] === "cards") {
                refresh().catch(() => {});
                liveRegions();
              } else if (ev[1] === "stopping") {
                overAll(STOPPED);
              }
            }
          }
          status = 0; // the stream ended: sayso serve closed it, or stopped
        }
      } catch (err) {
        // the stream broke: try again below
        if (status === 200) status = 0;
      }
      root.dataset.live = "off";
      failures++;
      const wait = backoff[Math.min(failures - 1, backoff.length - 1)];
      await down(status, wait);
    }
  }
  // down shows the banner and waits before the next try. A tab whose
  // login ended tries nothing more: no retry can succeed, and the banner
  // says what to do. Otherwise it polls the cards meanwhile, and tries
  // the stream again as soon as a poll is answered; a poll that reaches
  // no server shows every card as over.
  function down(status, wait) {
    return new Promise((resolve) => {
      if (status === 401 || status === 403) {
        root.dataset.conn = "login";
        banner("This tab's login ended, so nothing more is tried. Open a fresh login link: press Enter where sayso serve runs, or run sayso login.");
        wake = () => { wake = null; resolve(); };
        return;
      }
      root.dataset.conn = "down";
      let left = wait;
      let unreachable = status === 0;
      const say = () => {
        if (unreachable) {
          banner("sayso serve does not answer: start it again with sayso serve, and this tab reconnects by itself, still logged in. Trying again in " + left + " s.");
        } else {
          banner("sayso serve answered " + status + "; it logged why where it runs. Cards that arrive now are not shown. Trying again in " + left + " s.");
        }
      };
      say();
      const timer = setInterval(() => {
        left--;
        if (left <= 0) { done(); return; }
        say();
        if (left % 5 === 0) poll(true);
      }, 1000);
      const done = () => { clearInterval(timer); wake = null; resolve(); };
      // poll fetches the cards; a later poll that is answered tries the
      // stream again at once.
      const poll = async (later) => {
        try {
          await refresh();
          root.dataset.polled = String(Date.now());
          if (later) done();
        } catch (e) {
          if (e.status === 401 || e.status === 403) { status = e.status; done(); return; }
          if (!e.status) {
            unreachable = true;
            overAll(UNREACHABLE);
            say();
          }
        }
      };
      poll(false);
      wake = done;
    });
  }
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("[data-reconnect]") && wake) {
      banner("Reconnecting…");
      wake();
    }
  });

  // Pages that show state that changes redraw their live part, unless
  // the person is in it.
  async function liveRegions() {
    const regions = document.querySelectorAll("main [data-live]");
    if (!regions.length) return;
    let res;
    try {
      res = await fetch(location.pathname + location.search, { headers: withTab({ Accept: "text/html" }), credentials: "same-origin", cache: "no-store" });
    } catch (e) { return; }
    if (!res.ok) return;
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const fresh = doc.querySelectorAll("main [data-live]");
    regions.forEach((r, i) => {
      const f = fresh[i];
      if (!f || r.contains(document.activeElement) || r.matches(":hover") || r.querySelector("details[open]") || pending) return;
      if (f.innerHTML !== r.innerHTML) {
        r.innerHTML = f.innerHTML;
        tick();
      }
    });
  }

  // ---- Time: one format, relative, with the exact time on hover.
  function ago(ms) {
    const future = ms > 0;
    const s = Math.round(Math.abs(ms) / 1000);
    let n;
    if (s < 10) return "just now";
    if (s < 60) n = s + " s";
    else if (s < 3600) n = Math.floor(s / 60) + " min";
    else if (s < 172800) n = Math.floor(s / 3600) + " h";
    else n = Math.floor(s / 86400) + " days";
    return future ? "in " + n : n + " ago";
  }
  function tick() {
    const now = Date.now();
    for (const t of document.querySelectorAll("time.rel[datetime]")) {
      const at = Date.parse(t.getAttribute("datetime"));
      if (!isNaN(at)) t.textContent = ago(at - now);
    }
    for (const t of document.querySelectorAll("time.expires[datetime]")) {
      const at = Date.parse(t.getAttribute("datetime"));
      if (isNaN(at) || at < 86400000) continue;
      const left = Math.round((at - now) / 1000);
      const card = t.closest("article.card");
      if (left <= 0) {
        if (!t.classList.contains("gone")) {
          t.classList.add("gone");
          t.textContent = "expired: the agent stopped waiting";
        }
        if (card) for (const b of card.querySelectorAll("button[name=answer]")) b.disabled = true;
      } else {
        const m = Math.floor(left / 60), s = left % 60;
        t.textContent = (m ? m + " min " + String(s).padStart(2, "0") + " s" : s + " s") + " left";
        t.classList.toggle("soon", left <= 30);
      }
    }
  }
  setInterval(tick, 1000);
  setInterval(() => { if (root.dataset.live === "on") liveRegions(); }, 5000);

  // setup binds what the drawn page holds.
  function setup() {
    baseTitle = document.title.replace(/^\(\d+\) /, "");
    bindPage();
    if (document.getElementById("conn")) {
      stream();
      for (const id of document.querySelectorAll("#cards article.card")) seenIds.add(id.id);
      const target = location.hash && document.getElementById(location.hash.slice(1));
      const first = target && target.matches("#cards article.card") ? target : liveCards()[0];
      if (first) {
        if (location.hash && first !== target) openCard(first);
        else focusCard(first);
      }
      if (document.getElementById("cards")) remember(Array.from(document.querySelectorAll("#cards article.card"), (a) => a.id));
      firstLoad = !document.getElementById("cards");
      setCount(document.querySelectorAll("#cards article.card").length);
    }
    finder();
  }
  function bindPage() {
    tick();
    counter();
    leaseForm();
  }

  // The lease form fills in the chosen session's folder.
  function leaseForm() {
    const sel = document.getElementById("lease-session");
    const cwd = document.getElementById("lease-cwd");
    if (!sel || !cwd) return;
    sel.addEventListener("change", () => {
      const o = sel.selectedOptions[0];
      if (o && o.dataset.cwd && !cwd.value) cwd.value = o.dataset.cwd;
    });
  }

  // The note's counter: characters as sayso counts them (code points).
  function counter() {
    const note = document.getElementById("note");
    if (!note) return;
    const out = document.querySelector("#note-count [data-count]");
    const max = Number(note.dataset.max);
    const count = () => {
      const n = Array.from(note.value).length;
      out.textContent = String(n);
      out.parentElement.classList.toggle("over", n > max);
    };
    note.addEventListener("input", count);
    count();
  }

  // Ctrl-K / ⌘K: find a step (waiting or in the ledger), setting, rule or session.
  function finder() {
    const finder = document.getElementById("finder");
    if (!finder) return;
    const q = document.getElementById("finder-q");
    const list = document.getElementById("finder-results");
    let seq = 0;
    async function search() {
      const mine = ++seq;
      const text = q.value.trim();
      if (!text) { list.replaceChildren(); return; }
      const res = await fetch("/search.json?q=" + encodeURIComponent(text), { credentials: "same-origin", headers: withTab() });
      if (mine !== seq || !res.ok) return;
      const found = await res.json();
      const items = found.map((r) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = r.url;
        const kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = r.kind;
        a.append(kind, " " + r.title);
        const why = document.createElement("span");
        why.className = "why-text";
        why.textContent = " " + r.detail;
        a.append(why);
        a.addEventListener("click", () => finder.close());
        li.append(a);
        return li;
      });
      if (!items.length) {
        const li = document.createElement("li");
        li.textContent = "Nothing matches.";
        items.push(li);
      }
      list.replaceChildren(...items);
      list.dataset.q = text; // what the results are for
    }
    q.addEventListener("input", search);
    finder.addEventListener("keydown", (e) => {
      const links = Array.from(list.querySelectorAll("a"));
      const i = links.indexOf(document.activeElement);
      if (e.key === "ArrowDown" && links.length) {
        e.preventDefault();
        links[Math.min(i + 1, links.length - 1)].focus();
      } else if (e.key === "ArrowUp") {
        e.preventDefault();
        if (i <= 0) q.focus(); else links[i - 1].focus();
      } else if (e.key === "Enter" && document.activeElement === q && links.length) {
        e.preventDefault();
        links[0].click();
        location.href = links[0].href;
      }
    });
    finder.querySelector("[data-close]").addEventListener("click", () => finder.close());
  }

  if (root.dataset.shell) {
    open();
  } else {
    setup();
    root.dataset.page = "ready";
  }
})();
