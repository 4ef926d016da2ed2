// At a game's end, the host's page and the table display offer its BG Stats link (docs/plays.md):
// once the snapshot says the game is finished, the play is read from the Plays API (`plays`: the
// page's own, /host/<token>/plays or /table/plays) and the link shown; hidden again otherwise.
let shownFor = null;

export async function endLink(game, plays) {
  const box = document.getElementById("end-bgstats");
  if (!box || !plays) return;
  const key = game && game.finished ? game.id : null;
  if (key === shownFor) return;
  shownFor = key;
  box.hidden = true;
  if (key === null) return;
  try {
    const answer = await (await fetch(`${plays}/${key}/api`, { headers: { Accept: "application/json" } })).json();
    if (shownFor !== key || !answer.ok || !answer.play.bgstats) return;
    document.getElementById("end-bgstats-link").href = answer.play.bgstats;
    box.hidden = false;
  } catch (err) { /* no link: the Plays page has it too */ }
}
