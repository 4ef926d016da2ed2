// The phone app: every page registers the service worker, which keeps the pages' shell on the
// phone, lets them be installed to the home screen, and shows a plain "the table cannot be
// reached" page instead of the browser's error when the table's network is gone.
//
// Browsers allow service workers only on https:// or on the machine itself (localhost); elsewhere
// navigator.serviceWorker is missing and the pages work exactly as before, online only.
import { _ } from "./common.js";

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .catch((err) => console.warn("companion: the pages will not work offline:", err));
}

// The offline page (shown by the worker in place of a page the table did not answer): ask the
// table now and then, and go back to that page by itself as soon as the table answers.
function reconnectWhenBack() {
  const conn = document.getElementById("conn");
  if (conn) conn.textContent = _("Offline");
  let asking = false;

  async function ask() {
    if (asking) return;
    asking = true;
    try {
      const response = await fetch("/healthz", { cache: "no-store" });
      if (response.ok) {
        if (location.pathname === "/offline") location.replace("/");
        else location.reload();
      }
    } catch (err) {
      // still out of reach: ask again later
    } finally {
      asking = false;
    }
  }

  setInterval(ask, 3000);
  window.addEventListener("online", ask);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") ask(); });
}

if (document.body.classList.contains("offline")) reconnectWhenBack();
