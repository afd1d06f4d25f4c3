// Budget Splitter: small enhancements only; every page works without this file.
"use strict";

// The expense form: show the inputs the chosen split mode uses, and refresh the share preview
// (computed by the server with the same rules as saving) as the user types.
(function () {
  const form = document.querySelector("form[data-expense-form]");
  if (!form) return;
  const mode = form.querySelector("#mode");
  const preview = document.getElementById("preview");
  function showMode() {
    const value = mode.value;
    form.querySelectorAll("[data-modes]").forEach(function (element) {
      const modes = element.getAttribute("data-modes").split(" ");
      element.classList.toggle("js-hidden", modes.indexOf(value) < 0);
    });
  }
  let timer = null;
  let sequence = 0;
  function refresh() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      const data = new URLSearchParams(new FormData(form));
      data.set("intent", "preview-fragment");
      const mine = ++sequence;
      fetch(form.getAttribute("data-preview-url"), {
        method: "POST", body: data, credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded" }
      }).then(function (response) { return response.ok && !response.redirected ? response.text() : null; })
        .then(function (html) { if (html !== null && mine === sequence && preview) preview.innerHTML = html; })
        .catch(function () { /* offline: the preview just stays as it was */ });
    }, 250);
  }
  mode.addEventListener("change", function () { showMode(); refresh(); });
  form.addEventListener("input", refresh);
  showMode();
})();

// "Mark unpaid" asks for a reason when none was typed.
document.querySelectorAll("form[data-needs-reason]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    const field = form.querySelector("input[name=reason]");
    if (field && !field.value.trim()) {
      const reason = window.prompt(form.getAttribute("data-needs-reason"));
      if (reason === null) { event.preventDefault(); return; }
      field.value = reason;
    }
  });
});
