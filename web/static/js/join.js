// Taking a seat: one POST with the page's CSRF token; the answer is the seat's private page.
import { _, csrf } from "./common.js";

const form = document.getElementById("join");
const error = document.getElementById("join-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  let data = {};
  try {
    const response = await fetch(form.action, {
      method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: "{}",
    });
    data = await response.json();
  } catch (err) {
    data = { ok: false, reason: _("The table cannot be reached; check the Wi-Fi.") };
  }
  if (data.ok) {
    window.location.replace(data.url);
    return;
  }
  error.textContent = data.reason || data.error || _("Refused.");
  error.hidden = false;
});
