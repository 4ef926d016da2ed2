// What the Plays pages say of a play: when, how long, how it ended, and everyone's score.
import { _, dateTime, el } from "./common.js";

// When a play started, how long it lasted and its data set, in one line.
export function facts(play) {
  return [dateTime(play.started_at, play.started_at), lasted(play.duration),
    play.data_set ? _("data set {name}", { name: play.data_set }) : null].filter(Boolean).join(" · ");
}

// A duration in seconds, in words: "1 h 05 min", "12 min", "40 s".
function lasted(seconds) {
  if (seconds === null || seconds === undefined) return _("no action yet");
  if (seconds < 60) return _("{n} s", { n: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return _("{n} min", { n: minutes });
  return _("{h} h {m} min", { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") });
}

// What became of a play, in words.
export function result(play) {
  if (!play.finished) return play.ended_at ? _("Not finished (set aside)") : _("Not finished (at the table)");
  if (!play.winners.length) return _("Finished: nobody won");
  return _("Finished: {winners} won", { winners: play.winners.join(", ") });
}

// Each player with their score, the winners marked.
export function scoreList(play) {
  return el("ul", { class: "plays-scores" }, play.players.map((name) => {
    const score = play.scores[name];
    const won = play.winners.includes(name);
    return el("li", { "data-player": name, "data-winner": won ? "yes" : null },
      won ? el("span", { class: "badge", text: _("winner") }) : null, " ", name,
      score === null || score === undefined ? null : el("strong", { text: " " + score }),
      play.start_player === name ? el("span", { class: "hint", text: " · " + _("started") }) : null);
  }));
}
