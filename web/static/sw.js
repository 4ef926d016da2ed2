// The companion's service worker: the phone pages open, and say plainly what is going on, when
// the table's own network drops for a moment; and they can be installed to the home screen.
//
// It is served from /sw.js, not /static/sw.js, so that its scope is the whole site. The server
// writes in VERSION (a hash of the files below and of this file) and PRECACHE when it serves it:
// a new release is a new worker, which fills a new cache on install and deletes the old ones on
// activate.
//
// Only the public shell is ever stored on the phone: the stylesheet, the scripts, the icons, the
// manifest and the offline page. Never a player's or the host's page (/p/, /host/), a seat's join
// code (/join/), the table's answers (/api/) or its live streams, and never the answer to anything
// but a GET. Those carry secret links and hidden information (a player's own stones, the host's
// session, a code that takes a seat); a phone's cache lives on its disk long after the game and is
// there for whoever holds the phone next. They always go to the table, and fail plainly when it
// cannot be reached. The games' page modules (/games/<id>/static/) are public but not stored
// either: only a page fetched from the table imports them, so they are fetched with it (the
// browser's own cache asks the table whether they changed).

const VERSION = "__VERSION__";
const PRECACHE = [/*PRECACHE*/];
const CACHE = `companion-${VERSION}`;
const OFFLINE = "/offline";
const PRIVATE = ["/api/", "/p/", "/host/", "/join/"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload" goes past the browser's HTTP cache, so a new release never stores an old file;
    // no cookies: the offline page is the same for every phone.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload", credentials: "omit" })));
    await self.skipWaiting(); // the pages load the new files from their next navigation on
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function isShell(url) {
  return url.pathname.startsWith("/static/") || PRECACHE.includes(url.pathname);
}

function isPrivate(request, url) {
  return PRIVATE.some((prefix) => url.pathname.startsWith(prefix))
    || url.pathname.endsWith("/stream")
    || (request.headers.get("Accept") || "").includes("text/event-stream");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // straight to the table, never stored
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isShell(url)) {
    event.respondWith(fromCache(event, request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
  // Everything else (the API, the streams, the private pages' requests) is not touched: the
  // browser asks the table itself, and nothing is stored.
});

// Cache first: the shell of this release, from the phone; anything else under /static/ is
// fetched once and kept (it is public).
async function fromCache(event, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === "basic" && new URL(request.url).pathname.startsWith("/static/")) {
      event.waitUntil(cache.put(request, response.clone()));
    }
    return response;
  } catch (err) {
    if (request.mode === "navigate") return offline();
    throw err;
  }
}

// Network first, and never stored: a page is always the table's answer of the moment. When the
// table cannot be reached, the offline page says so and comes back to this page by itself.
async function page(request) {
  try {
    return await fetch(request);
  } catch (err) {
    return offline();
  }
}

async function offline() {
  return (await caches.match(OFFLINE, { cacheName: CACHE, ignoreVary: true })) || Response.error();
}
