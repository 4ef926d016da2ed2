// The host page's kept games: the confirmation before a running game is set aside (the table
// refuses it without one, TABLE-GAME-4, naming the game and where it stands), and the list of
// unfinished (set aside or ended) and finished games, any unfinished one resumable.
import { _, dateTime, el, post, refusalText, replace, toast } from "./common.js";

const CONFIRM = "TABLE-GAME-4";

// Ask in the page's dialog; true when the host confirms.
export function confirmed(text, yes) {
  const dialog = document.getElementById("confirm-dialog");
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-yes").textContent = yes;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

// The question the table asks (TABLE-GAME-4), from the snapshot's game: asked before the
// request, so that a confirmed one is sent once.
function question(game, resuming) {
  const values = { game: game.title, progress: game.progress };
  if (!game.progress) {
    return resuming ? _("A game of {game} is running. Set it aside and resume the other one?", values)
      : _("A game of {game} is running. Set it aside and start a new one?", values);
  }
  return resuming ? _("A game of {game} is running ({progress}). Set it aside and resume the other one? It is kept: you can resume it.", values)
    : _("A game of {game} is running ({progress}). Set it aside and start a new one? It is kept: you can resume it.", values);
}

// POST a request that may set the running game aside. When the page knows a game is running
// (`running`, the snapshot's game), the host is asked first; if the table still refuses for want
// of a confirmation (a game began meanwhile), its refusal names the game and its turn, the host
// confirms in the dialog, and only then is it sent again with the confirmation.
export async function withConfirmation(url, body, yes, running = null, resuming = false) {
  if (running && !running.finished) {
    if (!(await confirmed(question(running, resuming), yes))) return { ok: false, cancelled: true };
    body = { ...body, confirm: true };
  }
  const answer = await post(url, body, { quiet: true });
  if (answer.ok) return answer;
  if (answer.rule !== CONFIRM) { toast(refusalText(answer), true); return answer; } // as post shows it
  if (!(await confirmed(answer.reason, yes))) return { ok: false, cancelled: true };
  return post(url, { ...body, confirm: true });
}

function item(game, base, running) {
  const facts = [_("started {when}", { when: dateTime(game.started_at) }), game.progress, game.state_text].filter(Boolean).join(" · ");
  return el("li", { "data-kept-game": game.id, "data-state": game.state },
    el("strong", { text: game.title }), " · ", game.players.join(", "),
    el("div", { class: "hint", text: facts }),
    game.resumable ? el("button", { type: "button", "data-resume": game.id, onclick: () => resume(game, base, running) }, _("Resume")) : null);
}

async function resume(game, base, running) {
  const result = await withConfirmation(`${base}/api/resume_game`, { game_id: game.id }, _("Set it aside and resume"), running(), true);
  if (result.ok) {
    toast(_("The game of {game} is back at the table.", { game: game.title }));
    window.scrollTo({ top: 0, behavior: "smooth" });
  }
}

let reading = 0;
// `running()`: the game at the table now, as the last snapshot has it (or null).
export async function loadGames(base, running) {
  const asked = ++reading;
  let kept;
  try { kept = await (await fetch(`${base}/api/games`, { cache: "no-store" })).json(); } catch (err) { return; }
  if (asked !== reading || !kept.unfinished) return; // a newer read is on its way
  replace("games-unfinished", kept.unfinished.length ? kept.unfinished.map((g) => item(g, base, running))
    : [el("li", { class: "muted", text: _("No unfinished game is kept.") })]);
  replace("games-finished", kept.finished.length ? kept.finished.map((g) => item(g, base, running))
    : [el("li", { class: "muted", text: _("No game has finished yet.") })]);
  document.getElementById("games-limit").textContent = _("The {n} most recent of each are listed.", { n: kept.limit });
}
