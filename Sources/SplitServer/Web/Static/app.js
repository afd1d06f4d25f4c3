// Budget Splitter: small enhancements only; every page works without this file.
"use strict";

// The expense form: show the inputs the chosen split mode uses, and refresh the share preview
// (computed by the server with the same rules as saving) as the user types.
document.documentElement.classList.add("js");

// The group's tabs scroll sideways on a phone: the current one is brought into view.
(function () {
  const current = document.querySelector('.tabs a[aria-current="page"]');
  const tabs = current && current.parentElement;
  if (!tabs || tabs.scrollWidth <= tabs.clientWidth) return;
  const box = tabs.getBoundingClientRect(), tab = current.getBoundingClientRect();
  tabs.scrollLeft += tab.left + tab.width / 2 - (box.left + box.width / 2);
})();

(function () {
  const form = document.querySelector("form[data-expense-form]");
  if (!form) return;
  const mode = form.querySelector("#mode");
  const payer = form.querySelector("#payer");
  const currency = form.querySelector("#currency");
  const preview = document.getElementById("preview");
  const home = form.getAttribute("data-home-currency");
  function showMode() {
    const value = mode.value;
    form.querySelectorAll("[data-modes]").forEach(function (element) {
      const modes = element.getAttribute("data-modes").split(" ");
      element.classList.toggle("js-hidden", modes.indexOf(value) < 0);
    });
    // A member's name ticks their box where the split has boxes, else goes to their amount.
    const boxes = value === "equal" || value === "adjustment";
    form.querySelectorAll("label[data-in]").forEach(function (label) {
      label.htmlFor = label.getAttribute(boxes ? "data-in" : "data-value");
    });
  }
  // Per-person payments only when "Several people" paid; "Charged in" only for a foreign currency.
  function showPayers() {
    form.querySelectorAll("[data-payers]").forEach(function (element) {
      const hidden = payer.value !== "several";
      element.classList.toggle("js-hidden", hidden);
      // Hidden boxes are not sent: the menu's one payer is what counts.
      element.querySelectorAll("input").forEach(function (input) { if (!input.readOnly) input.disabled = hidden; });
    });
  }
  function showCurrency() {
    form.querySelectorAll("[data-foreign]").forEach(function (element) {
      element.classList.toggle("js-hidden", currency.value === home);
    });
    form.querySelectorAll("[data-currency-code]").forEach(function (element) {
      element.textContent = currency.value;
    });
    // The amount's placeholder is the chosen currency's zero ("0" for yen, "0.00" for euros).
    const chosen = currency.options[currency.selectedIndex];
    const amount = form.querySelector("#amount");
    if (amount && chosen && chosen.getAttribute("data-zero")) amount.placeholder = chosen.getAttribute("data-zero");
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
  // "Add item": another row like the last one, numbered on, everyone ticked.
  const addItem = form.querySelector("[data-add-item]");
  if (addItem) {
    addItem.addEventListener("click", function () {
      const rows = form.querySelectorAll("[data-item-row]");
      const last = rows[rows.length - 1];
      if (!last || rows.length >= 30) return;
      const from = last.getAttribute("data-item-row");
      const to = String(Number(from) + 1);
      const row = last.cloneNode(true);
      row.setAttribute("data-item-row", to);
      row.querySelectorAll("[id], [name], [for], [aria-label]").forEach(function (element) {
        ["id", "name", "for"].forEach(function (attribute) {
          const value = element.getAttribute(attribute);
          if (value) element.setAttribute(attribute, value.replace("_" + from, "_" + to));
        });
        const label = element.getAttribute("aria-label");
        if (label) element.setAttribute("aria-label", label.replace(String(Number(from) + 1), String(Number(to) + 1)));
      });
      const title = row.querySelector("label[for^=item_desc_]");
      if (title) title.textContent = "Item " + (Number(to) + 1);
      row.querySelectorAll("input[type=text]").forEach(function (input) { input.value = ""; });
      // Everyone who shares by default (not viewers: their boxes have no data-default).
      row.querySelectorAll("input[type=checkbox]:not([disabled])").forEach(function (box) {
        box.checked = box.hasAttribute("data-default");
      });
      last.after(row);
      const first = row.querySelector("input[type=text]");
      if (first) first.focus();
    });
  }
  // A refund: the payers are who received the money.
  const refund = form.querySelector("[data-refund]");
  function showRefund() {
    const label = form.querySelector("[data-payer-label]");
    const legend = form.querySelector("[data-payers-legend]");
    if (label) label.textContent = refund.checked ? "Received by" : "Paid by";
    if (legend) legend.textContent = refund.checked ? "What each received" : "What each paid";
  }
  if (refund) refund.addEventListener("change", function () { showRefund(); refresh(); });
  mode.addEventListener("change", function () { showMode(); refresh(); });
  if (payer) payer.addEventListener("change", function () { showPayers(); refresh(); });
  if (currency) currency.addEventListener("change", showCurrency);
  form.addEventListener("input", refresh);
  showMode();
  if (payer) showPayers();
  if (currency) showCurrency();
})();

// A form that came back: focus goes to the list of what to fix, and each line there focuses
// its field (the input the message describes, else the message).
(function () {
  const summary = document.getElementById("error-summary");
  if (!summary) return;
  summary.focus();
  summary.querySelectorAll("a[href^='#']").forEach(function (link) {
    link.addEventListener("click", function (event) {
      const message = document.getElementById(link.getAttribute("href").slice(1));
      if (!message) return;
      const field = document.querySelector("[aria-describedby~='" + message.id + "']");
      event.preventDefault();
      (field || message).scrollIntoView({ block: "center" });
      if (field) field.focus(); else { message.setAttribute("tabindex", "-1"); message.focus(); }
    });
  });
})();

// "Mark unpaid" asks for a reason when none was typed. (Listened for on the document, so it
// holds for forms a live update puts on the page.)
document.addEventListener("submit", function (event) {
  const form = event.target.closest && event.target.closest("form[data-needs-reason]");
  if (!form) return;
  const field = form.querySelector("input[name=reason]");
  if (field && !field.value.trim()) {
    const reason = window.prompt(form.getAttribute("data-needs-reason"));
    if (reason === null) { event.preventDefault(); return; }
    field.value = reason;
  }
});

// A form whose answer can be shown only once (a new access token's secret, which the server keeps
// only hashed) sends once: a second click while the first is under way is ignored, so the page
// that comes back is the one with the secret and no second token is made. Coming back to the
// page (the browser's Back) lets it send again.
document.addEventListener("submit", function (event) {
  const form = event.target.closest && event.target.closest("form[data-submit-once]");
  if (!form || event.defaultPrevented) return;
  if (form.hasAttribute("data-sent")) { event.preventDefault(); return; }
  form.setAttribute("data-sent", "");
});
window.addEventListener("pageshow", function () {
  document.querySelectorAll("form[data-sent]").forEach(function (form) { form.removeAttribute("data-sent"); });
});

// Live pages (overview, expenses, an expense, settle up): when someone else changes the group,
// the page fetches itself again and swaps in what changed, without a reload. A part of the page
// where something is being typed or chosen is left alone until it is done with; focus stays on
// the control it was on; a screen reader hears one polite line. Without EventSource (or
// JavaScript) the page is as it was: reload to see changes.
(function () {
  const main = document.getElementById("main");
  const group = main && main.getAttribute("data-live-group");
  const status = document.getElementById("live-status");
  if (!group || !window.EventSource || !window.fetch || !window.DOMParser) return;
  let timer = null;
  let running = false;
  let again = false;

  // A part holds input in progress: a field being typed in, or a control changed and not sent.
  function busy(element) {
    const active = document.activeElement;
    if (active && element.contains(active) && active.matches("input:not([type=hidden]):not([type=submit]), textarea, select")) return true;
    return Array.prototype.some.call(element.querySelectorAll("input, textarea, select"), function (control) {
      if (control.type === "hidden" || control.type === "submit") return false;
      if (control.type === "checkbox" || control.type === "radio") return control.checked !== control.defaultChecked;
      if (control.tagName === "SELECT") {
        return Array.prototype.some.call(control.options, function (option) { return option.selected !== option.defaultSelected; });
      }
      return control.value !== control.defaultValue;
    });
  }

  function announce(text) {
    if (!status) return;
    status.textContent = "";
    setTimeout(function () { status.textContent = text; }, 50);
  }

  function apply(html) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const fresh = page.getElementById("main");
    if (!fresh) return false;
    // The bell's unread count moves with the page (found by review: it waited for a reload).
    const bell = document.getElementById("bell");
    const freshBell = page.getElementById("bell");
    if (bell && freshBell && !bell.isEqualNode(freshBell)) {
      // In place, so a bell that has the focus keeps it.
      bell.setAttribute("aria-label", freshBell.getAttribute("aria-label") || "");
      bell.replaceChildren.apply(bell, Array.prototype.map.call(freshBell.childNodes, function (node) { return document.importNode(node, true); }));
    }
    const now = Array.prototype.slice.call(main.children);
    const next = Array.prototype.slice.call(fresh.children);
    const focusedID = document.activeElement && document.activeElement.id;
    let changed = false;
    let waiting = false;
    if (now.length === next.length) {
      now.forEach(function (element, index) {
        if (element.isEqualNode(next[index])) return;
        if (busy(element)) { waiting = true; return; }
        element.replaceWith(document.importNode(next[index], true));
        changed = true;
      });
    } else if (now.some(busy)) {
      waiting = true;
    } else {
      main.replaceChildren.apply(main, next.map(function (element) { return document.importNode(element, true); }));
      changed = true;
    }
    if (changed && focusedID && document.getElementById(focusedID) && document.activeElement === document.body) {
      document.getElementById(focusedID).focus({ preventScroll: true });
    }
    if (changed) announce("Updated: someone in the group made a change.");
    return waiting;
  }

  function refresh() {
    if (running) { again = true; return; }
    running = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (response.status === 404) {
          announce("This was deleted by someone in the group.");
          return null;
        }
        return response.ok && !response.redirected ? response.text() : null;
      })
      .then(function (html) {
        // Input in progress: try again once it is done with.
        if (html !== null && apply(html)) main.addEventListener("focusout", schedule, { once: true });
      })
      .catch(function () { /* offline: the next change tries again */ })
      .then(function () {
        running = false;
        if (again) { again = false; schedule(); }
      });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  }

  let source = null;
  function connect() {
    source = new EventSource("/api/events?groupId=" + encodeURIComponent(group));
    ["change", "resync"].forEach(function (name) { source.addEventListener(name, schedule); });
  }
  connect();
  window.addEventListener("pagehide", function () { source.close(); });
  // Back from the browser's back/forward cache: follow again, and catch up with what happened.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    connect();
    schedule();
  });
})();

// "Add quickly": what the line reads as (the server's parser and shares), shown while typing;
// Enter saves once the preview shows an expense, and checks otherwise.
(function () {
  const form = document.querySelector("form[data-quick-form]");
  if (!form) return;
  const input = form.querySelector("#quick-text");
  const preview = form.querySelector("#quick-preview");
  let timer = null;
  let sequence = 0;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      const data = new URLSearchParams(new FormData(form));
      const mine = ++sequence;
      fetch(form.getAttribute("data-preview-url"), {
        method: "POST", body: data, credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded" }
      }).then(function (response) { return response.ok && !response.redirected ? response.text() : null; })
        .then(function (html) { if (html !== null && mine === sequence) preview.innerHTML = html; })
        .catch(function () { /* offline: Check still works once back */ });
    }, 200);
  });
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !preview.querySelector("#quick-draft")) return;
    event.preventDefault();
    form.querySelector("#quick-save").click();
  });
})();

// The assistant: the answer streams in (each tool as it runs, then what it says) instead of
// a page load; the form still posts the old way where fetch cannot read a stream.
(function () {
  const form = document.querySelector("form[data-assistant-form]");
  if (!form || !window.ReadableStream || !window.TextDecoder) return;
  const chat = document.getElementById("chat");
  const input = form.querySelector("#assistant-message");
  let toolWords = {};
  try { toolWords = JSON.parse(form.getAttribute("data-tool-words") || "{}"); } catch (error) { toolWords = {}; }
  function line(mine, text) {
    const item = document.createElement("li");
    item.className = mine ? "chat-mine" : "chat-answer";
    const who = document.createElement("span");
    who.className = "muted";
    who.textContent = mine ? "You" : "Assistant";
    const body = document.createElement("span");
    body.textContent = text;
    const tools = document.createElement("span");
    tools.className = "hint";
    item.append(who, document.createElement("br"), body, document.createElement("br"), tools);
    chat.append(item);
    const empty = document.getElementById("no-messages");
    if (empty) empty.remove();
    return { body: body, tools: tools };
  }
  form.addEventListener("submit", function (event) {
    const message = input.value.trim();
    if (!message) return;
    event.preventDefault();
    const data = new URLSearchParams(new FormData(form, event.submitter));
    line(true, message);
    const answer = line(false, "…");
    const ran = [];
    const keys = {};
    input.value = "";
    // Once the server has taken the message it may have saved something: a stream cut after
    // that is not sent again (that would save it twice), it says so instead.
    let started = false;
    fetch(form.getAttribute("data-stream-url"), {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "text/event-stream" }
    }).then(function (response) {
      if (!response.ok || !response.body) throw new Error("refused");
      started = true;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      function frame(text) {
        const payload = text.split("\n").filter(function (l) { return l.indexOf("data: ") === 0; })
          .map(function (l) { return l.slice(6); }).join("\n");
        if (payload === "[DONE]" || payload === "") return;
        if (payload.indexOf("[ERROR]") === 0) { answer.body.textContent = payload.slice(8); return; }
        const event = JSON.parse(payload);
        if (event.type === "conversation_id") {
          let field = form.querySelector("input[name=conversationId]");
          if (!field) {
            field = document.createElement("input");
            field.type = "hidden";
            field.name = "conversationId";
            form.append(field);
          }
          field.value = event.conversationId;
        } else if (event.type === "tool_start") {
          answer.tools.textContent = "Working…";
          // WebApp.toolKey: quick_add that saves is said apart from one that only reads.
          const args = event.args || {};
          keys[event.id] = event.name === "quick_add" && args.dryRun === false ? "quick_add saving" : event.name;
        } else if (event.type === "tool_end") {
          // In words, as the page says it after a reload (AssistantToolWords.said).
          const key = (keys[event.id] || event.name) + (event.isError ? " refused" : "");
          const said = toolWords[key] || "looked something up";
          if (ran.indexOf(said) < 0) ran.push(said);
          answer.tools.textContent = "What I did: " + ran.join(", ") + ".";
        } else if (event.type === "text") {
          answer.body.textContent = event.content;
        }
      }
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) return;
          buffer += decoder.decode(chunk.value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            frame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
          return pump();
        });
      }
      return pump();
    }).catch(function () {
      if (started) {
        answer.body.textContent = "The connection was lost. Reload the page to see what was saved.";
        return;
      }
      // Refused or offline before anything ran: the plain post shows the page with what happened.
      input.value = message;
      form.submit();
    }).then(function () { input.focus(); });
  });
})();

// The invite link: Copy puts it on the clipboard; Share opens the phone's share sheet where
// the browser has one (Web Share API). Without JavaScript the link is there to select.
document.querySelectorAll("[data-copy]").forEach(function (button) {
  const source = document.getElementById(button.getAttribute("data-copy"));
  const status = button.closest("section") && button.closest("section").querySelector("[data-copy-status]");
  button.addEventListener("click", function () {
    const text = source ? source.textContent.trim() : "";
    function done(message) { if (status) status.textContent = message; }
    function fallback() {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      done(document.execCommand && document.execCommand("copy") ? "Link copied." : "Selected: copy it from here.");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done("Link copied."); }, fallback);
    } else {
      fallback();
    }
  });
});
document.querySelectorAll("[data-share]").forEach(function (button) {
  if (!navigator.share) return;
  const source = document.getElementById(button.getAttribute("data-share"));
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.share({ title: button.getAttribute("data-share-title"), url: source.textContent.trim() })
      .catch(function () { /* closed without sharing */ });
  });
});

// A new group takes this browser's time zone (its "today" and the times its pages show).
document.querySelectorAll("[data-browser-time-zone]").forEach(function (field) {
  try { field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* stays UTC */ }
});

// The import page: the chosen file's text goes into the form's text box (read here, in the
// browser), so the page works without uploads; without this script, the text is pasted.
// A file changed after its check: Import would check it again rather than import it, so the
// page says so and offers the check instead (found by a new user: the old report stayed shown).
function importChanged() {
  const confirm = document.getElementById("import-confirm");
  if (!confirm || document.getElementById("import-stale")) return;
  confirm.classList.add("js-hidden");
  const note = document.createElement("p");
  note.className = "notice";
  note.id = "import-stale";
  note.setAttribute("role", "status");
  note.textContent = "The file changed since it was checked: the report above is of the old one. Check it again.";
  confirm.parentElement.insertBefore(note, confirm);
}
["file", "format", "homeCurrency"].forEach(function (id) {
  const field = document.getElementById(id);
  if (field && document.getElementById("import-confirm")) {
    field.addEventListener(field.tagName === "TEXTAREA" ? "input" : "change", importChanged);
  }
});

document.querySelectorAll("[data-file-picker] input[type=file]").forEach(function (picker) {
  const text = document.getElementById("file");
  picker.addEventListener("change", function () {
    const file = picker.files && picker.files[0];
    if (!file || !text) return;
    file.text().then(function (content) { text.value = content; importChanged(); });
  });
});
