// sayso: enrol a passkey on this machine. The enrolment's id comes in the
// URL's fragment, which no server sees; it is sent as X-Sayso-Enrol with
// the two requests that ask for the challenge and pin the passkey.
"use strict";

(function () {
  const root = document.documentElement;
  let id = "";
  if (location.hash.startsWith("#enrol=")) {
    id = decodeURIComponent(location.hash.slice(7));
    history.replaceState(null, "", location.pathname);
  }
  const status = document.getElementById("status");
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

  async function enrol() {
    const headers = { "X-Sayso-Enrol": id };
    let res = await fetch("/enrol/options", { method: "POST", headers, credentials: "same-origin", cache: "no-store" });
    if (!res.ok) throw new Error(await res.text());
    const o = await res.json();
    const c = await navigator.credentials.create({ publicKey: {
      challenge: unb64(o.challenge), rp: { id: o.rp_id, name: "sayso" },
      // A user handle of its own for each enrolment: an authenticator
      // keeps one passkey per relying party and user handle, so one
      // shared by the person's machines (all at localhost) would replace
      // the passkey another machine pinned.
      user: { id: crypto.getRandomValues(new Uint8Array(32)), name: o.person, displayName: o.person + " (" + location.host + ")" },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }, { type: "public-key", alg: -8 }, { type: "public-key", alg: -257 }],
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      attestation: "none",
    } }).catch((e) => {
      // A passkey for the hub's own name is made here only when the hub
      // lists this page among its related origins.
      if (e.name === "SecurityError" && o.rp_id !== location.hostname) {
        throw new Error("the hub " + o.rp_id + " does not list this page (" + location.origin + ") at https://" + o.rp_id +
          "/.well-known/webauthn: its admin starts sayso hub with --node-page-port " + (location.port || "80") + ". (" + e.message + ")");
      }
      throw e;
    });
    const cred = JSON.stringify({ id: c.id, rawId: b64(c.rawId), type: c.type, response: {
      clientDataJSON: b64(c.response.clientDataJSON), attestationObject: b64(c.response.attestationObject) } });
    res = await fetch("/enrol", { method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, headers), body: cred, credentials: "same-origin", cache: "no-store" });
    if (!res.ok) throw new Error(await res.text());
    return (await res.json()).pinned;
  }

  document.getElementById("enrol").addEventListener("click", async () => {
    root.dataset.enrol = "busy";
    try {
      const who = await enrol();
      status.textContent = "Pinned a passkey of " + who + " on this machine.";
      root.dataset.enrol = "pinned";
    } catch (e) {
      status.textContent = "Not pinned: " + e.message;
      root.dataset.enrol = "refused";
    }
  });
  if (!id) status.textContent = "This tab holds no enrolment. Run sayso team enrol for a new link.";
  root.dataset.page = "ready";
})();
