// The page's service worker: it keeps a copy of the page's own files (all of
// dist/) in the browser's Cache Storage, so that the page loads and learns
// with no network: a reload after the Wi-Fi dropped in the middle of a
// class, or a link with a #hash (#demo=ratings&…: the hash is never sent,
// every link asks for the same page) opened offline. app.js registers it
// once the learner has loaded and the page is idle; where service workers are unavailable
// (file://, plain http other than localhost, a browser that blocks them) the
// page works as before, online only.
//
// Version. `make dist` writes the two constants below into dist/sw.js: FILES,
// every file of dist/ (but sw.js), and VERSION, the first 16 hex digits of a
// SHA-256 over their names and contents (see the Makefile). A deploy that
// changes any file changes sw.js, and the browser, which checks sw.js on every
// navigation to the page, installs the new worker in the background: it
// fetches the new files (revalidated, so mostly 304s from the HTTP cache)
// into a new cache, occfm-<VERSION>, all of them or the install fails and the
// old worker stays; then it takes over at once (skipWaiting, clients.claim)
// and deletes the older occfm-* caches. One cache, one deploy: never a mix.
//
// Strategy: network first, the cache as the fallback, decided per page load.
//   - The page itself (a navigation to the folder or index.html, whatever its
//     query or hash) goes to the network first. When the network fails,
//     answers with an error status, or has not answered within
//     NAV_TIMEOUT_MS (Wi-Fi that is connected but useless), the cached page
//     is served, and every other file of that page load comes from the cache
//     first too, so that a page load never pairs an index.html of one deploy
//     with an app.js of another.
//   - Otherwise each file goes to the network and falls back to the cache
//     only when the network fails.
// Why not cache first or stale-while-revalidate: the files' names carry no
// version (app.js is app.js in every deploy), so answering from the cache
// shows the old deploy on the reload after a deploy, and the new one only on
// the reload after that; stale-while-revalidate per file can even mix two
// deploys in one load. Network first picks up a deploy on the next online
// reload, and costs online what the page cost without the worker: serve.go
// sends Cache-Control: no-cache, so each file is revalidated (a 304 of a few
// hundred bytes; the wasm's megabytes come from the HTTP cache), one round
// trip per file. A first visit is not served by the worker at all.
//
// The worker answers only GET requests to its own origin for the files of
// FILES (and navigations to the page); anything else is left to the browser
// untouched. It fetches nothing but those files, from its own origin, so the
// page's Content-Security-Policy (connect-src 'self') needs nothing new.

"use strict";

const VERSION = "dev"; // written by make dist
const FILES = []; // written by make dist
const CACHE = "occfm-" + VERSION;
const NAV_TIMEOUT_MS = 4000;

// PAGE is the page's URL, the folder: what a navigation asks for, and where
// serve.go (http.FileServer) redirects /index.html to. index.html is cached
// under it: a navigation may not be answered with a redirected response.
const PAGE = new URL("./", self.location.href).href;
const urlOf = (f) => (f === "index.html" ? PAGE : new URL(f, self.location.href).href);
const OWN = new Set(FILES.map(urlOf));

// fromCache holds the ids of the page loads whose page came from the cache:
// their other files come from the cache first. (Lost when the browser stops
// an idle worker; such a load then falls back file by file, as online.)
const fromCache = new Set();

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // Fetch every file first, then store them: a failed fetch stores nothing.
    const files = await Promise.all(FILES.map(async (f) => {
      const res = await fetch(urlOf(f), {cache: "no-cache"});
      if (!res.ok) throw new Error(`sw.js: ${f}: HTTP ${res.status}`);
      // A redirected response is stored as a plain one (see PAGE).
      return [urlOf(f), res.redirected ? new Response(await res.blob(), res) : res];
    }));
    const cache = await caches.open(CACHE);
    await Promise.all(files.map(([url, res]) => cache.put(url, res)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("occfm-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const key = url.origin + url.pathname;
  if (req.mode === "navigate") {
    if (key === PAGE || key === PAGE + "index.html") event.respondWith(navigate(req, event.resultingClientId));
  } else if (OWN.has(key)) {
    event.respondWith(fromCache.has(event.clientId) ? cacheFirst(req, key) : networkFirst(req, key));
  }
});

const cached = (key) => caches.match(key, {cacheName: CACHE});

async function navigate(req, clientId) {
  const abort = new AbortController();
  const network = fetch(req, {signal: abort.signal});
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(resolve, NAV_TIMEOUT_MS, null); });
  try {
    const res = await Promise.race([network, timeout]);
    if (res && (res.ok || res.type === "opaqueredirect")) return res;
  } catch {
    // The network failed: the cache, below.
  } finally {
    clearTimeout(timer);
  }
  const page = await cached(PAGE);
  if (!page) return network; // nothing cached: as without the worker
  abort.abort();
  if (clientId) fromCache.add(clientId);
  return page;
}

async function networkFirst(req, key) {
  let res;
  try {
    res = await fetch(req);
  } catch (err) {
    const copy = await cached(key);
    if (copy) return copy;
    throw err;
  }
  return res.ok ? res : (await cached(key)) || res;
}

async function cacheFirst(req, key) {
  return (await cached(key)) || fetch(req);
}
