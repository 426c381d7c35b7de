// "I think my answer should count": a challenge button under a wrong verdict on the play page.
//
// Needs, on the play page: #question with data-answer-url (present) and optionally
// data-challenge-url; #feedback gets data-response-id from the answer reply
// (play.js: `feedback.dataset.responseId = data.response_id`). The button appears
// when #feedback is shown with a wrong verdict (#verdict.bad) and a response id.
import { postJSON } from "../frontend/js/http.js";

const root = document.getElementById("question");
const feedback = document.getElementById("feedback");
if (root && feedback) setup(root, feedback);

function challengeUrl(root) {
  if (root.dataset.challengeUrl) return root.dataset.challengeUrl;
  return (root.dataset.answerUrl || "").replace(/answer\/$/, "challenge/");
}

function setup(root, feedback) {
  let shown = false;
  // Translated strings from the question page (quiz/views.py: _play_text), English otherwise.
  const textNode = document.getElementById("play-text");
  const T = textNode ? JSON.parse(textNode.textContent || "{}") : {};
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  function maybeShow() {
    if (shown || feedback.hidden) return;
    const verdict = document.getElementById("verdict");
    const responseId = feedback.dataset.responseId;
    if (!verdict || !verdict.classList.contains("bad") || !responseId) return;
    shown = true;
    feedback.insertBefore(build(responseId), document.getElementById("next"));
  }

  function build(responseId) {
    const box = document.createElement("div");
    box.className = "challenge";
    box.id = "challenge";
    const open = document.createElement("button");
    open.type = "button";
    open.className = "button ghost";
    open.id = "challenge-open";
    open.textContent = T.challengeOpen || "I think my answer should count";
    const form = document.createElement("form");
    form.hidden = true;
    form.innerHTML =
      `<label for="challenge-text" class="muted small">${esc(T.challengeWhy || "Why should it count? (optional)")}</label>` +
      '<div class="answer-row"><input id="challenge-text" maxlength="1000">' +
      `<button class="button primary" type="submit">${esc(T.challengeSend || "Send")}</button></div>`;
    const status = document.createElement("p");
    status.className = "muted small";
    status.setAttribute("role", "status");
    open.addEventListener("click", () => {
      open.hidden = true;
      form.hidden = false;
      form.querySelector("input").focus();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      const text = form.querySelector("input").value.trim();
      const { ok, data } = await postJSON(challengeUrl(root), { response_id: Number(responseId), text });
      if (ok) {
        form.hidden = true;
        status.textContent = data.message || T.challengeSent || "Sent.";
      } else {
        button.disabled = false;
        status.textContent = (data.error && data.error.message) || T.challengeFailed || "Could not send. Try again.";
      }
    });
    // Typing in the challenge box must not trigger the page's Enter = next question.
    form.addEventListener("keydown", (event) => event.stopPropagation());
    box.append(open, form, status);
    return box;
  }

  new MutationObserver(maybeShow).observe(feedback, { attributes: true, attributeFilter: ["hidden", "data-response-id"] });
  maybeShow();
}
