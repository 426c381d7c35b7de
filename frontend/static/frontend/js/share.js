// The daily challenge's "Copy" button: puts the plain-text result on the clipboard.
// No third-party script: the text is in the page; this only copies it.
const button = document.getElementById("share-copy");
const text = document.getElementById("share-text");
if (button && text) {
  button.addEventListener("click", async () => {
    text.select();
    try {
      await navigator.clipboard.writeText(text.value);
    } catch (err) {
      document.execCommand("copy");
    }
    button.textContent = button.dataset.copied || "Copied.";
  });
}
