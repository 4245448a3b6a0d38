// Package web serves the person's page: the cards waiting for an answer,
// sessions and their modes, the rules kept, leases, the environment note,
// the ledger and the settings.
//
// It reads and changes sayso's state only through a Backend, so it knows
// nothing of the store or the gateway; Memory is a Backend held in memory
// for tests and for trying the page.
//
// The page is for the person alone. A browser gets a session only through a
// one-time login link (Server.LoginURL) as an HttpOnly, SameSite=Strict
// cookie. The cookie alone opens nothing: a browser sends it by itself,
// and to every port of 127.0.0.1, so a dev server the agent started gets
// it too. Each tab also holds a key of its own (TabHeader), handed over in
// the fragment of the login redirect, kept in the tab's sessionStorage and
// sent only by the page's script; it never appears in a page. A navigation
// gets a shell that holds no state, which the script fills by fetching the
// page with the key; every page's content, the cards, the event stream,
// the finder's results and every change need the session and the key.
// A tab stays logged in across a restart of sayso serve: Options.Logins
// keeps each session and tab by its SHA-256 alone, so what is kept lets
// nobody in, and the anti-CSRF token is a MAC of the session keyed by
// the tab's own key, the same after a restart and out of reach of
// anything that only holds the cookie. When sayso serve stops, the event stream says
// so and the page shows every card as over; a tab whose login ended
// stops retrying and says how to log in again.
// Every route answers only for a Host of 127.0.0.1 or localhost on the
// served port (a DNS-rebinding defence); every state change also needs
// the session's anti-CSRF token and an Origin equal to the served origin —
// a missing Origin is refused. Every response carries a strict
// Content-Security-Policy (no inline script or style, nothing from another
// origin), nosniff and no-referrer. Templates and assets are embedded: no
// build step, no fonts or scripts from elsewhere. The page needs
// JavaScript.
//
// The cards form a queue: each waiting card is one compact row (its
// badge, headline, agent, project and time left) and the one in focus is
// open; on a phone its answer buttons follow the step, on the first
// screen.
//
// A session is named everywhere by its agent, project and start (agent ·
// project · started), told apart where two read alike; ended sessions
// are hidden until asked for and get no lease. Find (⌘K) finds steps,
// waiting or in the ledger, by the words of the command, its class and
// its session's project, besides settings, rules and sessions.
//
// The page holds a lasting change ("Always allow", "Deny and hold", a
// mode, Forget) for five seconds in the tab, with an undo, before it
// sends it: an undone change never reaches the server, and the server's
// checks are the same for a change sent late. The favicon's count
// (/icon/N) is drawn from the number the script already holds, so it
// needs no session.
//
// "Always allow" keeps exactly the offer the card carries, and only when
// it carries one: nothing else from the form is read. There is no route
// that adds a rule, and settings are shown, never changed, here.
//
// Web maps errors to HTTP status codes; it prints nothing.
package web
