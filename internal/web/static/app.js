// sayso: the person's page. Each tab holds a key of its own: the login
// link's redirect hands it over in the URL's fragment, which no server
// sees; this script keeps it in the tab's sessionStorage and sends it as
// X-Sayso-Tab with every request that reads or changes sayso's state. A
// navigation cannot carry it, so the server answers one with the page's
// shell, and this script fetches the page with the key and draws it.
// The script also adds live cards, the expiry countdown, the note's
// counter and Ctrl-K / ⌘K.
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
      if (p) p.textContent = "sayso did not answer: " + err.message;
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

  // Changes: every form that posts is sent with fetch, with the tab's key.
  // The page is served with Referrer-Policy no-referrer, under which a
  // browser sends a plain form post with "Origin: null"; the server
  // refuses a change whose Origin is not its own, so the request asks for
  // a same-origin referrer policy and carries the real Origin.
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    e.preventDefault();
    const body = new URLSearchParams(new FormData(form, e.submitter));
    const buttons = form.querySelectorAll("button");
    for (const b of buttons) b.disabled = true;
    let res;
    try {
      res = await fetch(form.action, { method: "POST", body, headers: withTab(), credentials: "same-origin", referrerPolicy: "same-origin", redirect: "follow" });
    } catch (err) {
      say("sayso did not answer: " + err.message);
      for (const b of buttons) b.disabled = false;
      return;
    }
    if (res.ok) {
      const to = new URL(res.url);
      if (to.pathname + to.search === location.pathname + location.search) location.reload();
      else location.assign(res.url);
      return;
    }
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const msg = doc.querySelector("main .error");
    say(msg ? msg.textContent : "Refused (" + res.status + ").");
    for (const b of buttons) b.disabled = false;
  });
  function say(text) {
    const notice = document.getElementById("notice");
    if (notice) notice.textContent = text;
  }

  // Live cards: the event stream says the cards changed; the list is
  // fetched again, rendered by the server. The stream is read with fetch,
  // which sends the tab's key (an EventSource cannot).
  async function refresh(onlyIfChanged) {
    const cards = document.getElementById("cards");
    const live = document.getElementById("live");
    if (!cards) return;
    const focused = document.activeElement;
    const keep = focused && cards.contains(focused) ? focusKey(focused) : null;
    const res = await fetch(cards.dataset.src, { credentials: "same-origin", headers: withTab({ Accept: "text/html" }), cache: "no-store" });
    if (!res.ok) {
      if (live) live.textContent = "Could not load the cards (" + res.status + "); reload the page.";
      return;
    }
    const text = await res.text();
    const ids = (root) => Array.from(root.querySelectorAll("article.card"), (a) => a.id).join(" ");
    if (onlyIfChanged) {
      const t = document.createElement("template");
      t.innerHTML = text;
      if (ids(t.content) === ids(cards)) return;
    }
    const before = cards.querySelectorAll("article.card").length;
    cards.innerHTML = text;
    const after = cards.querySelectorAll("article.card").length;
    if (live && after !== before) {
      live.textContent = after === 1 ? "1 card is waiting." : after + " cards are waiting.";
    }
    if (keep) {
      const el = cards.querySelector(keep);
      if (el) el.focus();
    }
    tick();
  }
  function focusKey(el) {
    const card = el.closest("article.card");
    if (!card) return null;
    if (el.matches("button[name=answer]")) return "#" + CSS.escape(card.id) + " button[value=" + CSS.escape(el.value) + "]";
    return "#" + CSS.escape(card.id) + " summary";
  }
  async function stream() {
    for (;;) {
      try {
        const res = await fetch("/events", { credentials: "same-origin", headers: withTab({ Accept: "text/event-stream" }), cache: "no-store" });
        if (res.status === 401 || res.status === 403) {
          const live = document.getElementById("live");
          if (live) live.textContent = "This tab may no longer read the cards (" + res.status + "); open a fresh login link.";
          delete root.dataset.live;
          return;
        }
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
                // A card posted between drawing the page and opening the
                // stream sent no event here: fetch the cards once more.
                await refresh(true);
                root.dataset.live = "on";
              } else if (ev[1] === "cards") {
                refresh();
              }
            }
          }
        }
      } catch (err) {
        // the stream broke: try again below
      }
      root.dataset.live = "off";
      await new Promise((r) => setTimeout(r, 2000));
    }
  }

  // Expiry: count down, and mark a card whose agent stopped waiting.
  function tick() {
    const now = Date.now();
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
        t.textContent = "expires in " + (m ? m + "m" : "") + s + "s";
      }
    }
  }
  setInterval(tick, 1000);

  // setup binds what the drawn page holds.
  function setup() {
    tick();
    if (document.getElementById("cards")) stream();
    counter();
    finder();
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

  // Ctrl-K / ⌘K: find a setting, rule or session.
  document.addEventListener("keydown", (e) => {
    const finder = document.getElementById("finder");
    if (finder && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      if (!finder.open) finder.showModal();
      const q = document.getElementById("finder-q");
      q.focus();
      q.select();
    }
  });
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
        why.className = "why";
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
