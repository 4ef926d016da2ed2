// The host's PIN form: posted as JSON with the form's CSRF token; the answer is this phone's host
// link. A wrong PIN and a rate limit are said in plain words next to the field.
import { _ } from "./common.js";

const form = document.getElementById("signin");
const error = document.getElementById("signin-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  const pin = document.getElementById("pin").value.trim();
  let response, data = {};
  try {
    response = await fetch(form.action, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": form.elements.csrf_token.value },
      body: JSON.stringify({ pin }),
    });
    data = await response.json();
  } catch (err) {
    data = { ok: false, reason: _("The table cannot be reached; check the Wi-Fi.") };
  }
  if (data.ok) {
    window.location.assign(data.url);
    return;
  }
  error.textContent = data.reason || data.error || _("Refused.");
  error.hidden = false;
  document.getElementById("pin").select();
});
