// Keyboard adjudication: j/k move between answers, c = correct, w = wrong, n = note.
const items = Array.from(document.querySelectorAll(".adj-item"));
let current = -1;

function focusItem(index) {
  if (!items.length) return;
  current = Math.max(0, Math.min(index, items.length - 1));
  items[current].focus();
  items[current].scrollIntoView({ block: "nearest" });
}

function activeItem() {
  const inside = document.activeElement && document.activeElement.closest(".adj-item");
  return inside || items[current] || null;
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
  if (typing) return;
  const item = activeItem();
  if (event.key === "j") { event.preventDefault(); focusItem(items.indexOf(item) + 1); }
  else if (event.key === "k") { event.preventDefault(); focusItem(Math.max(items.indexOf(item) - 1, 0)); }
  else if (item && (event.key === "c" || event.key === "w")) {
    event.preventDefault();
    item.querySelector(`button[name=correct][value="${event.key === "c" ? 1 : 0}"]`).click();
  } else if (item && event.key === "n") {
    event.preventDefault();
    item.querySelector("input[name=note]").focus();
  }
});
